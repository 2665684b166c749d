"""Generated demo comics, narrative: short stories with a turn (strong order), and holiday
albums of one traveller whose snapshots could be shuffled without losing the story (weak).
The album places (`PLACES`) also serve the parallel comics of `comics_sets`."""

from comic_spec import *  # noqa: F401,F403


def paper_plane(cx, cy, s=1.0):
    return poly([(cx - 30 * s, cy), (cx + 34 * s, cy - 12 * s), (cx - 12 * s, cy + 14 * s)], WHITE, INK, 2) + \
        line(cx - 30 * s, cy, cx - 6 * s, cy + 4 * s, INK, 1.5)


def boot(cx, cy):
    return path(f"M{n(cx - 16)},{n(cy - 30)} L{n(cx + 8)},{n(cy - 30)} L{n(cx + 8)},{n(cy)} L{n(cx + 34)},{n(cy + 6)} "
                f"L{n(cx + 34)},{n(cy + 18)} L{n(cx - 16)},{n(cy + 18)} Z", BROWN, INK, 2)


def rod(x, ground, tip, bent=False):
    tx, ty = tip
    mid = f"Q{n(x + 60)},{n(ground - 200)} " if bent else f"Q{n((x + tx) / 2)},{n((ground - 90 + ty) / 2)} "
    return path(f"M{n(x + 20)},{n(ground - 70)} {mid}{n(tx)},{n(ty)}", None, INK, 3) + line(tx, ty, tx, 250, GREY, 1.5)


def snowball(cx, cy, r):
    return circle(cx, cy, r, WHITE, INK, 2)


def strong_short():
    table_room = indoor("#f3e7da", "#cfa97a") + [table(220, 80, 260)]
    lake = outdoor("#d8ecf7", "#9bd27c", 200) + [rect(130, 200, 187, 117, "#7fb8e0")]
    yard = outdoor("#dff0fb", "#9bd27c") + [house(250, 250, False, "#e9c89b", RED, 0.8)]
    return [
        make("narrative", "strong", "桌上的蛋糕 · The cake on the table", "只离开了一分钟 · Gone for one minute",
             "猫：我什么都不知道 · Cat: I know nothing", "image_dominant",
             "主人把蛋糕放桌上离开，猫跳上桌，主人回来只看到空盘子和满脸奶油的猫：离开和回来之间发生的事才是笑点。 · The owner "
             "leaves a cake out, the cat climbs up, and the owner returns to an empty plate and a cream-faced cat.",
             [(table_room + [cake(170, 220), cat(280, 250, 0.7, GREY, "happy"), person(60, 300, "happy", BLUE, 0.8, "wave")],
               "桌上有蛋糕，灰猫在桌边看着，一个人挥手 · A cake on the table, a grey cat watching it, a person waving"),
              (table_room + [cake(170, 220), cat(120, 180, 0.7, GREY, "laugh"), door(250)],
               "灰猫在桌上贴着蛋糕，门关着 · The grey cat on the table right by the cake, the door shut"),
              (table_room + [plate(170, 215, 0, "cookie", 50), cat(250, 250, 0.7, GREY, "happy"), ellipse(250, 232, 10, 5, WHITE),
                             person(60, 300, "angry", BLUE, 0.8, "point")],
               "空盘子，嘴边有奶油的灰猫，一个人生气地指着 · An empty plate, the grey cat with cream on its face, a person pointing angrily")]),
        make("narrative", "strong", "纸飞机 · The paper plane", "飞得很好，落得不好 · Great flight, bad landing",
             "树：谢谢你的礼物 · Tree: thanks for the gift", "image_dominant",
             "折好纸飞机、用力一扔，结果卡在树上：起飞在前、卡住在后。 · Fold, throw, and the plane ends up stuck in a tree.",
             [(outdoor() + [tree(250, 250, 1.0, GREEN, 0, RED, 0.8), person(90, 300, "happy", ORANGE, 0.8, "hold"), paper_plane(90, 215, 0.7)],
               "一个人手里拿着纸飞机，旁边有棵树 · A person holding a paper plane near a tree"),
              (outdoor() + [tree(250, 250, 1.0, GREEN, 0, RED, 0.8), person(90, 300, "laugh", ORANGE, 0.8, "up"), paper_plane(170, 90, 0.8),
                            path("M100,190 Q130,120 150,96", None, GREY, 2)],
               "纸飞机飞向天空，人举着双手 · A paper plane soaring, the person with arms raised"),
              (outdoor() + [tree(250, 250, 1.0, GREEN, 0, RED, 0.8), paper_plane(250, 110, 0.7), person(90, 300, "sad", ORANGE, 0.8, "down")],
               "纸飞机卡在树冠里，人很难过 · The paper plane stuck in the treetop, the person sad")]),
        make("narrative", "strong", "钓鱼 · Gone fishing", "大鱼上钩了……吗？ · A big one… or not?",
             "钓到靴子也是收获 · A boot is still a catch", "sarcastic_conflict",
             "安静钓鱼，鱼竿突然弯了，兴奋地拉上来却是一只靴子：期待落空的顺序不能换。 · A quiet wait, a sudden bite, and a "
             "boot on the line: the letdown has to follow the excitement.",
             [(lake + [person(70, 300, "neutral", GREEN, 0.8, "hold"), rod(70, 300, (200, 140))],
               "一个人在湖边安静地钓鱼 · A person fishing calmly by a lake"),
              (lake + [person(70, 300, "surprised", GREEN, 0.8, "hold"), rod(70, 300, (210, 230), True), exclaim(210, 60, 1.4)],
               "鱼竿弯成弧形，人很吃惊 · The rod bent double, the person surprised"),
              (lake + [person(70, 300, "annoyed", GREEN, 0.8, "hold"), rod(70, 300, (170, 90)), boot(170, 160)],
               "鱼钩上挂着一只靴子，人很无语 · A boot dangling from the hook, the person unimpressed")]),
        make("narrative", "strong", "踢球 · The kick", "完美的一脚，不完美的方向 · Perfect kick, wrong direction",
             "邻居家的窗户又遭殃了 · The neighbour's window again", "image_dominant",
             "孩子用力踢球，球飞向窗户，窗户碎了：动作和后果按顺序发生。 · A big kick, a ball heading for a window, a crack: cause "
             "and effect in order.",
             [(yard + [person(70, 300, "laugh", RED, 0.75, "up"), ball(110, 290, 14)],
               "孩子抬脚踢球，远处有房子 · A kid kicking a ball, a house in the distance"),
              (yard + [person(70, 300, "surprised", RED, 0.75, "point"), ball(190, 150, 14), path("M110,280 Q150,150 180,150", None, GREY, 2)],
               "球朝着房子的窗户飞去 · The ball flying towards the house's window"),
              (yard + [person(70, 300, "sad", RED, 0.75, "head"), star(214, 178, 20, WHITE, INK), ball(230, 290, 14)],
               "房子的窗户裂开，孩子抱头 · The house's window cracked, the kid clutching their head")]),
    ]


def strong_medium():
    field = outdoor("#d8ecf7", "#9bd27c")
    step = outdoor("#e6f0f8", "#c9c3b5") + [house(200, 250, False, "#e2d3c0", BLUE, 1.0)]
    stop = outdoor("#dfeaf2", "#b5b5b5") + [sign(270, 150, bulb(270, 125, 0.6))]
    kitchen = indoor("#eef3e6", "#c9b28f") + [rect(40, 200, 140, 60, "#b0b6bc", INK, 2)]
    smoke = "".join(ellipse(90 + k * 20, 150 - k * 24, 22 + k * 4, 14 + k * 3, "#8a8f96") for k in range(4))
    bus = rect(180, 170, 200, 80, YELLOW, INK, 2, rx=10) + "".join(rect(195 + k * 40, 185, 30, 24, "#cfe6f5", INK, 1.5) for k in range(3)) \
        + circle(215, 252, 14, INK) + circle(300, 252, 14, INK)
    return [
        make("narrative", "strong", "风筝 · The kite", "风筝找到了新主人 · The kite found a new owner",
             "鸟：谢谢你的滑翔伞 · Bird: thanks for the glider", "image_dominant",
             "风筝越飞越高，线断了，飘走落到树上，被一只鸟占了：一连串的因果。 · The kite climbs, the string snaps, it drifts "
             "into a tree and a bird moves in: a chain of causes.",
             [(field + [person(90, 300, "happy", BLUE, 0.8, "hold"), kite(150, 200, RED)],
               "孩子拿着红风筝站在草地上 · A kid on the grass holding a red kite"),
              (field + [person(90, 300, "laugh", BLUE, 0.8, "up"), kite(210, 80, RED, (110, 200))],
               "红风筝高高飞起，线连着孩子的手 · The red kite high in the sky on a string from the kid's hands"),
              (field + [person(90, 300, "surprised", BLUE, 0.8, "up"), kite(250, 60, RED), path("M110,200 Q140,170 150,150", None, INK, 1.5)],
               "断了线的红风筝飘走，孩子很吃惊 · The red kite drifting off on a snapped string, the kid surprised"),
              (field + [tree(200, 250, 1.0, GREEN, 0, RED, 0.9), kite(200, 110, RED), person(70, 300, "sad", BLUE, 0.8, "point")],
               "红风筝挂在树上，孩子难过地指着 · The red kite caught in a tree, the kid pointing sadly"),
              (field + [tree(200, 250, 1.0, GREEN, 0, RED, 0.9), kite(200, 110, RED), bird(206, 70, YELLOW, -1, True),
                        person(70, 300, "laugh", BLUE, 0.8, "down")],
               "一只黄鸟坐在树上的风筝上唱歌，孩子笑了 · A yellow bird singing on the kite in the tree, the kid laughing")]),
        make("narrative", "strong", "快递到了 · The delivery", "礼物是给谁的？ · Who was the present for?",
             "买什么都不如买纸箱 · The box is always the best part", "complementary",
             "门铃响，取回快递，拆开，结果猫钻进了箱子：主人以为礼物是里面的东西，猫觉得礼物是箱子。 · The doorbell, the parcel, "
             "the unboxing, and the cat claims the box: the owner wanted the contents, the cat wanted the box.",
             [(step + [box(110, 260, 80, 60), person(290, 300, "surprised", GREEN, 0.7, "wave"), exclaim(290, 120, 1.2)],
               "门口放着一个纸箱，一个人惊喜地挥手 · A cardboard box on the doorstep, a person waving in surprise"),
              (indoor() + [box(160, 250, 120, 80), person(70, 300, "happy", GREEN, 0.8, "point"), cat(270, 230, 0.6, ORANGE, "neutral")],
               "屋里地上一个纸箱，人指着它，橘猫在旁边 · A box on the floor indoors, the person pointing at it, the orange cat nearby"),
              (indoor() + [box(160, 250, 120, 80, "#d8a86a", True), person(70, 300, "laugh", GREEN, 0.8, "up"),
                           cat(270, 230, 0.6, ORANGE, "surprised")],
               "打开的纸箱，人高兴地举手，橘猫盯着 · An opened box, the person cheering, the orange cat staring"),
              (indoor() + [box(160, 250, 120, 80, "#d8a86a", True), cat(160, 160, 0.7, ORANGE, "happy"),
                           person(60, 300, "annoyed", GREEN, 0.8, "hold"), circle(60, 232, 8, RED, INK, 1.5)],
               "橘猫坐在纸箱里，人拿着一个小东西很无奈 · The orange cat sitting in the box, the person holding a tiny item, deflated")]),
        make("narrative", "strong", "追公交 · Chasing the bus", "差一步 · One step too late",
             "下一班车永远在你放弃后出现 · The next bus comes once you've given up", "image_dominant",
             "看到公交车，拼命跑，车开走了，刚坐下下一班就来了：顺序就是笑点。 · See the bus, run, miss it, sit down, and the "
             "next one arrives at once: the order is the joke.",
             [(stop + [person(70, 300, "surprised", RED, 0.8, "point"), bus],
               "公交车停在站台，一个人吃惊地指着它 · A bus at the stop, a person pointing at it in surprise"),
              (stop + [person(110, 300, "angry", RED, 0.8, "up"), rect(240, 170, 200, 80, YELLOW, INK, 2, rx=10),
                       "".join(line(30, 200 + k * 20, 70, 200 + k * 20, GREY, 3) for k in range(3))],
               "一个人举着手拼命跑，公交车正在开走 · A person running with arms up as the bus pulls away"),
              (stop + [person(120, 300, "sad", RED, 0.8, "down"), cloud(200, 200, 0.5, "#c7cdd3")],
               "空站台，一个人垂头丧气，远处一团尘土 · An empty stop, a person slumped, a puff of dust far off"),
              (stop + [rect(20, 250, 120, 14, WOOD, INK, 2), person(80, 300, "surprised", RED, 0.8, "down"), bus],
               "坐在长椅上的人吃惊地看着又一辆公交车 · A person on the bench staring at another bus pulling in")]),
        make("narrative", "strong", "做晚饭 · Cooking dinner", "今晚吃外卖 · Takeaway tonight",
             "厨房：请放过我 · Kitchen: please stop", "sarcastic_conflict",
             "信心满满地做饭，冒烟、警报同时响起，锅烧黑了，最后叫了披萨：冒烟和警报哪个先都行，其余按顺序。 · Confident "
             "cooking, smoke and alarm (together, either first), a blackened pot, pizza delivery.",
             [(kitchen + [rect(70, 170, 80, 30, GREY, INK, 2), person(250, 300, "happy", PURPLE, 0.8, "hold")],
               "灶台上放着锅，一个人自信地站着 · A pot on the stove, a person standing confidently"),
              (kitchen + [rect(70, 170, 80, 30, GREY, INK, 2), smoke, person(250, 300, "surprised", PURPLE, 0.8, "head")],
               "锅里冒出浓浓黑烟，人抱头 · Thick smoke pouring from the pot, the person clutching their head"),
              (kitchen + [rect(70, 170, 80, 30, GREY, INK, 2), circle(240, 40, 18, RED, INK, 2), exclaim(240, 90, 1.3),
                          person(250, 300, "angry", PURPLE, 0.8, "up")],
               "天花板上的警报器在响，人举手大叫 · The ceiling alarm going off, the person shouting with arms up"),
              (kitchen + [rect(70, 170, 80, 30, INK, INK, 2), person(250, 300, "sad", PURPLE, 0.8, "down")],
               "烧得漆黑的锅，人很沮丧 · A burnt black pot, the person glum"),
              (kitchen + [box(110, 240, 100, 20, WHITE), pizza(110, 200, 36, 8), person(250, 300, "laugh", PURPLE, 0.8, "up")],
               "桌上一盒披萨，人开心地举手 · A pizza in its box, the person cheering")],
             [[1], [2, 3], [4], [5]]),
    ]


def strong_long():
    rain = "".join(line(20 + (k * 41) % 290, 30 + (k * 67) % 200, 14 + (k * 41) % 290, 46 + (k * 67) % 200, BLUE, 2) for k in range(22))
    wet = outdoor("#8f9ca8", "#6f8f6a")
    home = [house(230, 250, True, "#d8c8b0", "#6a4a4a", 1.0)]
    snowy = outdoor("#dde6ee", WHITE)
    bakery = indoor("#fbeedd", "#c9a77c") + [table(210, 20, 300)]
    loaf = lambda x, y: ellipse(x, y, 30, 16, "#d89a52", INK, 2) + line(x - 12, y - 8, x - 4, y + 4, BROWN, 2) + \
        line(x + 2, y - 8, x + 10, y + 4, BROWN, 2)  # noqa: E731
    truck = rect(20, 170, 170, 80, WHITE, INK, 2) + rect(190, 195, 70, 55, RED, INK, 2) + circle(70, 252, 15, INK) + circle(220, 252, 15, INK)
    empty_room = indoor("#eae4f2", "#c3b49b")
    new_room = indoor("#e4f2e8", "#d2b58c") + [window(40, 90, 80, 70)]
    return [
        make("narrative", "strong", "小猫回家 · The lost kitten", "一扇亮着的窗 · A lit window",
             "这就是“猫选择了你” · That's how a cat chooses you", "image_dominant",
             "雨夜里的小猫看到亮灯的房子，走过去，被开门的人收留，擦干、睡熟：一段温暖的经过。 · A kitten in the rain finds a "
             "lit house, is let in, dried and tucked up asleep: a small rescue told step by step.",
             [(wet + [rain, cat(160, 230, 0.6, GREY, "sad")], "大雨里一只湿漉漉的小灰猫 · A soaked little grey cat in heavy rain"),
              (wet + [rain] + home + [cat(70, 230, 0.6, GREY, "surprised")],
               "小灰猫在雨中望着亮灯的房子 · The grey kitten in the rain looking at a house with lit windows"),
              (wet + [rain] + home + [cat(170, 250, 0.5, GREY, "neutral")], "小灰猫蹲在房门口 · The grey kitten crouching at the front door"),
              (indoor("#f3e3c9") + [door(150, True), cat(120, 240, 0.5, GREY, "sad"), person(260, 300, "surprised", ORANGE, 0.8, "down")],
               "门开了，一个人吃惊地看着门口的小猫 · An open door, a person surprised at the kitten on the step"),
              (indoor("#f3e3c9") + [person(160, 300, "happy", ORANGE, 0.8, "hold"), rect(120, 200, 80, 50, "#9fd1c4", INK, 2),
                                    face(160, 200, 14, "happy", "#b9bec4")],
               "人用毛巾裹着小灰猫 · The person holding the grey kitten wrapped in a towel"),
              (indoor("#f3e3c9") + [plate(160, 250, 0, "cookie", 50), fish(160, 240, 0.7), cat(250, 230, 0.6, GREY, "laugh")],
               "小灰猫开心地看着盘子里的鱼 · The grey kitten grinning at a fish on a plate"),
              (indoor("#4b557a", "#6f6a80") + [bed(60, 220, 200, BLUE), cat(150, 200, 0.6, GREY, "sleep", False, True), zzz(200, 150)],
               "小灰猫蜷在床上睡着了 · The grey kitten curled up asleep on a bed")]),
        make("narrative", "strong", "雪仗 · Snowball fight", "以牙还牙，以球还球 · A snowball for a snowball",
             "永远不要先扔 · Never throw the opening shot", "image_dominant",
             "一个孩子偷偷扔雪球，砸中了对方，对方做了个巨大的雪球报复，最后两人倒在雪里大笑。 · A sneak snowball hits, the "
             "target rolls a giant one in revenge, and both end up laughing in the snow.",
             [(snowy + [person(80, 300, "laugh", RED, 0.75, "hold"), snowball(80, 232, 10), person(250, 300, "happy", BLUE, 0.75, "down")],
               "红衣孩子捏着雪球偷笑，蓝衣孩子在远处 · The kid in red grinning with a snowball, the kid in blue further off"),
              (snowy + [person(80, 300, "laugh", RED, 0.75, "up"), snowball(170, 170, 10), path("M90,210 Q130,160 160,170", None, GREY, 2),
                        person(250, 300, "happy", BLUE, 0.75, "down")],
               "雪球飞向蓝衣孩子 · A snowball flying towards the kid in blue"),
              (snowy + [person(80, 300, "laugh", RED, 0.75, "point"), person(250, 300, "surprised", BLUE, 0.75, "head"),
                        star(250, 180, 18, WHITE, INK)],
               "雪球砸在蓝衣孩子头上 · The snowball bursting on the blue kid's head"),
              (snowy + [person(80, 300, "happy", RED, 0.75, "down"), person(250, 300, "angry", BLUE, 0.75, "hold"), snowball(250, 270, 26)],
               "蓝衣孩子生气地滚雪球 · The kid in blue angrily rolling a snowball"),
              (snowy + [person(80, 300, "surprised", RED, 0.75, "down"), snowball(230, 220, 70), person(290, 300, "laugh", BLUE, 0.6, "up")],
               "一个巨大的雪球，红衣孩子很吃惊 · A giant snowball, the kid in red aghast"),
              (snowy + [snowball(110, 250, 60), person(260, 300, "laugh", BLUE, 0.75, "up"), face(110, 250, 14, "surprised")],
               "红衣孩子被埋在大雪球里只露出脸 · The kid in red buried in the giant snowball, only the face showing"),
              (snowy + [ellipse(160, 280, 120, 20, WHITE, INK, 1.5), face(110, 270, 20, "laugh"), face(210, 270, 20, "laugh"),
                        heart(160, 220, 1.2)],
               "两个孩子躺在雪地里大笑 · Both kids lying in the snow, laughing")]),
        make("narrative", "strong", "搬家 · Moving day", "新家第一晚 · A night in the new place",
             "搬家一次，瘦三斤 · Moving house: the best workout", "complementary",
             "打包、搬箱子、装车、到新家、拆箱、猫占了纸箱、终于睡下：搬家的每一步按顺序来。 · Pack, carry, load, arrive, "
             "unpack, lose a box to the cat, and sleep at last: moving day in order.",
             [(empty_room + [stack(160, 250, 4, ["#d8a86a", "#c8955c"], 110, 36), person(60, 300, "neutral", TEAL, 0.8, "down")],
               "空房间里摞着纸箱，一个人站着 · A bare room with stacked boxes and a person standing by"),
              (empty_room + [person(160, 300, "annoyed", TEAL, 0.8, "hold"), box(160, 240, 90, 60)],
               "一个人抱着沉重的纸箱 · A person carrying a heavy box"),
              (outdoor() + [truck, stack(105, 240, 2, ["#d8a86a"], 60, 30), person(290, 300, "neutral", TEAL, 0.7, "down")],
               "装满纸箱的搬家货车 · A moving van loaded with boxes"),
              (outdoor() + [house(160, 250, False, "#f3e0b8", GREEN, 1.1), box(270, 260, 60, 40), person(60, 300, "happy", TEAL, 0.8, "wave")],
               "一座新房子前放着纸箱，人开心地挥手 · A new house with a box outside, the person waving happily"),
              (new_room + [box(180, 260, 100, 60, "#d8a86a", True), circle(150, 170, 12, RED, INK, 2), person(280, 300, "happy", TEAL, 0.8, "up")],
               "新房间里打开的纸箱，东西往外拿 · An open box in a new room, things coming out"),
              (new_room + [box(180, 260, 100, 60, "#d8a86a", True), cat(180, 170, 0.7, ORANGE, "laugh"), person(290, 300, "annoyed", TEAL, 0.7, "down")],
               "橘猫坐进打开的纸箱，人无奈 · The orange cat sitting in the open box, the person resigned"),
              (indoor("#4b557a", "#6f6a80") + [window(40, 90, 80, 70, NIGHT), bed(80, 230, 200, GREEN), face(120, 215, 16, "sleep"),
                                               cat(230, 210, 0.5, ORANGE, "sleep", False, True), zzz(160, 160)],
               "夜里人和橘猫在新床上睡着了 · The person and the orange cat asleep in a new bed at night")]),
        make("narrative", "strong", "面包店的早晨 · The baker's morning", "卖完就收工 · Sold out, done for the day",
             "早起的人才有面包 · Early risers get the bread", "image_dominant",
             "面包师和面、烤面包、摆上架，客人排队买光，最后只剩空架子：一个早晨的完整经过。 · Knead, bake, shelve, a queue, "
             "empty shelves: a bakery's morning from dough to sold out.",
             [(bakery + [ellipse(110, 200, 50, 18, "#f6efe2", INK, 2), person(230, 300, "happy", WHITE, 0.8, "hold"), moon(280, 50, 14, "#fbeedd")],
               "面包师在揉面团，窗外有月亮 · A baker kneading dough with the moon still up"),
              (bakery + [rect(60, 100, 120, 100, GREY, INK, 2), rect(80, 120, 80, 50, ORANGE), person(240, 300, "neutral", WHITE, 0.8, "down")],
               "烤箱里火光通红，面包师在等 · An oven glowing orange, the baker waiting"),
              (bakery + [loaf(80, 195), loaf(150, 195), loaf(220, 195), person(280, 300, "laugh", WHITE, 0.7, "up")],
               "桌上一排烤好的面包 · A row of baked loaves on the counter"),
              (bakery + [loaf(80, 195), loaf(150, 195), loaf(220, 195), sun(280, 50, 14)] +
               [person(40 + k * 60, 310, "happy", c, 0.55, "down") for k, c in enumerate((RED, BLUE, GREEN, PURPLE, ORANGE))],
               "柜台前排着长队，太阳出来了 · A long queue at the counter under the morning sun"),
              (bakery + [loaf(220, 195), person(100, 300, "happy", RED, 0.8, "hold"), person(260, 300, "happy", WHITE, 0.7, "down")],
               "只剩一个面包，顾客拿着袋子 · A single loaf left, a customer holding a bag"),
              (bakery + [person(160, 300, "laugh", WHITE, 0.8, "up"), cross(250, 150, 1.5)],
               "空空的柜台和一个叉号，面包师举手欢呼 · An empty counter and a cross, the baker cheering"),
              (indoor("#4b557a", "#6f6a80") + [table(210, 20, 300), person(160, 300, "sleep", WHITE, 0.8, "down"), zzz(200, 160)],
               "傍晚的空店里面包师打瞌睡 · The baker dozing in the empty shop at dusk")]),
    ]


def comics():
    import comics_albums
    return strong_short() + strong_medium() + strong_long() + comics_albums.narratives()
