"""Generated demo comics, parallel: several independent takes on one theme (friends' holidays,
everyone's battery, the street's snowmen), which read the same in any order. Some reuse the
things the progressive comics draw (a battery, a mug, a pot, a pile of books) at unrelated
levels, so that a family of drawings does not give away a structure type."""

from comic_spec import *  # noqa: F401,F403
from comics_albums import PLACES

FRIENDS = [("#ff7f50", "珊瑚色衣", "coral"), ("#4682b4", "钢蓝衣", "steel blue"), ("#9acd32", "黄绿衣", "lime"),
           ("#da70d6", "兰紫衣", "orchid"), ("#20b2aa", "海绿衣", "sea green"), ("#cd853f", "棕褐衣", "tawny"),
           ("#778899", "石板灰衣", "slate grey"), ("#dc143c", "深红衣", "crimson")]


def snowman(k):
    hats = [rect(70, 120, 40, 30, INK) + rect(60, 148, 60, 6, INK), poly([(70, 150), (90, 110), (110, 150)], RED, INK, 2),
            ellipse(90, 150, 30, 10, BLUE, INK, 2), "", rect(74, 130, 32, 22, GREEN, INK, 2),
            path("M66,152 Q90,110 114,152 Z", PURPLE, INK, 2), star(90, 136, 16, YELLOW, INK)]
    scarves = [RED, BLUE, GREEN, ORANGE, PURPLE, PINK, TEAL]
    size = 1.0 - (k % 3) * 0.12
    out = circle(90, 260 - 10 * (1 - size), 50 * size, WHITE, INK, 2) + circle(90, 180, 34 * size, WHITE, INK, 2)
    out += rect(62, 205, 56, 10, scarves[k % 7], INK, 1.5) + poly([(90, 182), (112 + k * 2, 186), (90, 190)], ORANGE)
    out += circle(80, 172, 3, INK) + circle(100, 172, 3, INK) + hats[k % 7]
    if k % 2:
        out += line(50, 240, 20, 210, BROWN, 4) + line(130, 240, 160, 205, BROWN, 4)
    return outdoor("#dde6ee", WHITE) + [out, house(240, 250, k % 2 == 0, ["#e9c89b", "#c9d9b8", "#d9c0d9", "#f0d0a0"][k % 4], RED, 0.6)]


SNOW_WORDS = ["戴黑礼帽、围红围巾的雪人 · A snowman in a black top hat and red scarf",
              "戴红尖帽、围蓝围巾、伸着树枝手的雪人 · A snowman with a red pointed hat, blue scarf and twig arms",
              "戴蓝帽子、围绿围巾的矮雪人 · A short snowman with a blue cap and green scarf",
              "光头、围橙围巾、伸着树枝手的雪人 · A bare-headed snowman with an orange scarf and twig arms",
              "戴绿帽、围紫围巾的雪人 · A snowman with a green hat and purple scarf",
              "戴紫帽、围粉围巾、伸着树枝手的矮雪人 · A short snowman with a purple hat, pink scarf and twig arms",
              "头顶星星、围青色围巾的雪人 · A snowman crowned with a star, wearing a teal scarf"]


def weather(k):
    skies = ["#cfe8f8", "#9aa6b0", "#dde6ee", "#b9d7ea", "#c0c4c8", "#e6f4fb", "#c8ccd8"]
    over = [sun(160, 70, 28), cloud(160, 60, 1.2, "#6f7780") + "".join(drop(110 + i * 25, 110 + (i % 2) * 20) for i in range(5)),
            cloud(160, 60, 1.1, WHITE) + "".join(snowflake(100 + i * 30, 120 + (i % 2) * 20, 8, GREY) for i in range(5)),
            sun(110, 70, 22) + cloud(200, 80, 1.0, WHITE),
            cloud(160, 60, 1.2, "#8d969e") + path("M170,90 L150,130 L170,130 L150,170", None, YELLOW, 6),
            "".join(path(f"M{40 + i * 8},200 A{120 - i * 8},{120 - i * 8} 0 0 1 {280 - i * 8},200", None, c, 7)
                    for i, c in enumerate((RED, ORANGE, YELLOW, GREEN, BLUE))),
            "".join(path(f"M30,{60 + i * 30} q40,-16 80,0 q40,16 80,0 q40,-16 80,0", None, WHITE, 6) for i in range(4))]
    return [rect(3, 3, 314, 247, skies[k]), rect(3, 250, 314, 67, "#9bd27c"), over[k],
            house(160, 260, k in (1, 4), ["#e9c89b", "#c9d9b8", "#d9c0d9", "#f0d0a0"][k % 4], RED, 0.8)]


WEATHER_WORDS = ["晴天下的房子 · A house under a blazing sun", "雨云下的房子 · A house under a rain cloud",
                 "下雪的房子 · A house in falling snow", "太阳和白云下的房子 · A house under sun and a white cloud",
                 "乌云和闪电下亮着灯的房子 · A lit house under a storm cloud and lightning", "彩虹下的房子 · A house under a rainbow",
                 "起风的房子 · A house in swirling wind"]


def sleeping_cat(k):
    spots = [(box(160, 270, 120, 70), cat(160, 180, 0.8, ORANGE, "sleep"), "橘猫缩在纸箱里睡 · An orange cat asleep in a box"),
             (bed(60, 230, 200, BLUE), cat(160, 206, 0.7, GREY, "sleep", False, True), "灰猫横躺在床上睡 · A grey cat sprawled asleep on a bed"),
             (rect(40, 220, 240, 30, INK, None, None, rx=4) + "".join(rect(50 + i * 22, 226, 16, 16, GREY) for i in range(10)),
              cat(160, 200, 0.7, "#555a60", "sleep", False, True), "黑猫趴在键盘上睡 · A black cat asleep across a keyboard"),
             (rect(60, 150, 200, 130, "#fde9a8"), cat(160, 220, 0.7, WHITE, "sleep", False, True), "白猫在一片阳光里睡 · A white cat asleep in a patch of sun"),
             (rect(30, 120, 260, 14, WOOD, INK, 2), cat(160, 96, 0.6, ORANGE, "sleep", False, True), "橘猫在高高的架子上睡 · An orange cat asleep on a high shelf"),
             (ellipse(160, 250, 90, 36, WOOD, INK, 2), cat(160, 230, 0.7, "#d9b27c", "sleep", False, True), "沙色猫蜷在篮子里睡 · A sandy cat curled asleep in a basket"),
             (rect(40, 200, 240, 80, "#9fd1e6", INK, 2), cat(160, 180, 0.7, GREY, "sleep", False, True), "灰猫趴在洗衣篮上睡 · A grey cat asleep on a laundry basket")]
    a, b, alt = spots[k]
    return indoor(["#f3ead7", "#e8eef3", "#efe6f6", "#fdf3dc", "#e6f2e8", "#f6e3cf", "#eaeaf0"][k]) + [a, b, zzz(220, 120)], alt


def pet_window(k):
    pets = [cat(160, 200, 0.8, ORANGE, "happy"), dog(160, 200, 0.8, "#c08a52", "happy"), bird(160, 220, YELLOW, 1),
            fish(160, 210, 1.4, ORANGE), cat(160, 200, 0.8, "#555a60", "neutral"), dog(160, 200, 0.8, WHITE, "sad", False),
            bird(160, 220, BLUE, -1, True), cat(160, 200, 0.8, GREY, "sleep")]
    names = ["橘猫 · An orange cat", "小黄狗 · A tan dog", "黄鸟 · A yellow bird", "金鱼缸里的金鱼 · A goldfish in its bowl",
             "黑猫 · A black cat", "垂着尾巴的小白狗 · A white dog with its tail down", "唱歌的蓝鸟 · A blue bird singing",
             "打盹的灰猫 · A grey cat dozing"]
    items = indoor(["#f3ead7", "#e8eef3", "#efe6f6", "#fdf3dc", "#e6f2e8", "#f6e3cf", "#eaeaf0", "#f0e6dc"][k]) + [window(60, 60, 200, 200)]
    if k == 3:
        items.append(circle(160, 210, 50, "#cfeaf7", INK, 2))
    items.append(pets[k])
    zh, en = names[k].split(" · ")
    return items, f"窗前的{zh} · {en} at the window"


def pots(k):
    kinds = [flower(160, 210, 90, PINK), flower(160, 210, 110, YELLOW), flower(160, 210, 70, PURPLE),
             "".join(leaf(160, 210, a, 60) for a in (-150, -110, -70, -30)), rect(150, 120, 20, 90, GREEN, INK, 2) + rect(120, 150, 30, 12, GREEN, INK, 2),
             flower(140, 210, 80, RED) + flower(180, 210, 60, ORANGE), line(160, 210, 160, 140, GREEN, 4)]
    alts = ["粉花 · a pink flower", "高高的黄花 · a tall yellow flower", "矮矮的紫花 · a short purple flower",
            "一丛绿叶 · a clump of green leaves", "一棵小仙人掌 · a small cactus", "红花和橙花 · a red and an orange flower",
            "一根光秃秃的小茎 · a single bare stem"]
    zh, en = alts[k].split(" · ")
    return (indoor(["#f3ead7", "#e8eef3", "#efe6f6", "#fdf3dc", "#e6f2e8", "#f6e3cf", "#eaeaf0"][k]) + [window(60, 30, 200, 150), pot(160, 270), kinds[k]],
            f"窗台上一盆{zh} · A pot on the windowsill with {en}")


def friend_panels(level_of, draw, words):
    out = []
    for k, level in enumerate(level_of):
        shirt, zh, en = FRIENDS[k]
        wzh, wen = words(level).split(" · ")
        out.append((indoor(["#f3ead7", "#e8eef3", "#efe6f6", "#fdf3dc", "#e6f2e8", "#f6e3cf", "#eaeaf0", "#f0e6dc"][k])
                    + [draw(level), person(250, 300, "happy" if level > 0.4 else "sad", shirt, 0.7)],
                    f"穿{zh}的人和{wzh} · A person in {en} with {wen}"))
    return out


def battery_words(v):
    return ("满格的电池 · a full battery" if v > 0.9 else "大半格电池 · a mostly full battery" if v > 0.6 else
            "半格电池 · a half-full battery" if v > 0.4 else "低电量的橙色电池 · a low orange battery" if v > 0.15 else
            "快没电的红色电池 · a nearly flat red battery")


def mug_words(v):
    return ("满满一杯咖啡 · a full mug of coffee" if v > 0.9 else "大半杯咖啡 · a mostly full mug" if v > 0.6 else
            "半杯咖啡 · a half-full mug" if v > 0.35 else "杯底一点咖啡 · a mug with a little coffee left" if v > 0 else "空杯子 · an empty mug")


def parallel(title, caption, comment, relation, insight, panels):
    return make("parallel", "weak", title, caption, comment, relation, insight, panels)


def long_sets():
    batteries = [0.95, 0.1, 0.5, 0.75, 0.3, 0.05, 0.65]
    mugs = [0.2, 1.0, 0.5, 0.0, 0.8, 0.35, 0.65, 0.1]
    return [
        parallel("朋友们的假期 · Where my friends went", "朋友圈里的七个假期 · Seven holidays in my feed", "只有我在上班 · Only I'm at work",
                 "image_dominant", "七个朋友各自在不同地方度假：每格是一个人的假期，彼此无关，顺序随意。 · Seven friends on seven "
                 "holidays; each panel stands alone, in any order.",
                 [(PLACES[p][0](shirt, "laugh"), f"穿{zh}的朋友在{PLACES[p][1]} · A friend in {en} at {PLACES[p][2]}")
                  for p, (shirt, zh, en) in zip(["beach", "mountain", "museum", "boat", "wheel", "spring", "market"], FRIENDS)]),
        parallel("派对上大家的电量 · Everyone's battery at the party", "有人满格，有人见底 · Some full, some flat",
                 "借个充电器吧 · Anyone got a charger?", "image_dominant",
                 "派对上每个人的手机电量各不相同：是一组并列的肖像，不是电量下降的过程。 · Everyone's phone charge at the party, "
                 "side by side: a set of portraits, not a battery draining.",
                 friend_panels(batteries, lambda v: battery(110, 140, v, 0.8), battery_words)),
        parallel("办公室的咖啡杯 · The office mugs", "杯子说明一切 · The mugs say it all", "空杯子的那位需要帮助 · The empty-mug one needs help",
                 "image_dominant", "八个同事的咖啡杯，满的空的都有：每格一个人，谁先谁后都一样。 · Eight colleagues' mugs, full to "
                 "empty; one per panel, in any order.",
                 friend_panels(mugs, lambda v: cup(110, 250, v, WHITE, "#7a4a2a", v > 0.9), mug_words)),
        parallel("猫的睡姿 · Where cats sleep", "哪里都能睡 · Anywhere is a bed", "键盘那个是我家的 · The keyboard one is mine",
                 "image_dominant", "七只猫在七个地方睡觉：纸箱、床、键盘、阳光……并列展示猫的睡觉天赋。 · Seven cats asleep in seven "
                 "spots (box, bed, keyboard, sunbeam…): a parade of feline talent, in any order.",
                 [sleeping_cat(k) for k in range(7)]),
        parallel("邻居家的雪人 · The street's snowmen", "一条街，七个雪人 · One street, seven snowmen", "戴星星的那个最好看 · The star one wins",
                 "image_dominant", "每家门口都堆了不同的雪人：帽子、围巾各不相同，是并列的展示。 · Every house has its own snowman "
                 "with its own hat and scarf: a side-by-side show.", [(snowman(k), SNOW_WORDS[k]) for k in range(7)]),
        parallel("窗前的宠物 · Pets at the window", "都在等主人回家 · All waiting for someone", "鱼也在等 · Even the fish is waiting",
                 "image_dominant", "八只宠物在各自的窗前等主人：每格独立，顺序无关。 · Eight pets waiting at their windows; each "
                 "panel stands alone.", [pet_window(k) for k in range(8)]),
        parallel("全城天气 · Weather around town", "同一天，不同的天空 · Same day, different skies", "天气预报：都有可能 · Forecast: anything goes",
                 "image_dominant", "城里七座房子上空的天气各不相同：晴、雨、雪、雷、彩虹……并列展示。 · Seven houses under seven skies "
                 "(sun, rain, snow, storm, rainbow…), shown side by side.", [(weather(k), WEATHER_WORDS[k]) for k in range(7)]),
        parallel("窗台上的花盆 · The windowsill pots", "各长各的 · Each grows its own way", "光秃秃那盆是我的 · The bare one is mine",
                 "complementary", "窗台上七个花盆各种着不同的植物：是并列的一组，不是生长过程。 · Seven pots, seven plants: a set on a "
                 "sill, not a plant growing.", [pots(k) for k in range(7)]),
    ]


def medium_sets():
    flavours = [(PINK, "粉色草莓味 · a pink strawberry scoop"), ("#f6efe2", "白色香草味 · a white vanilla scoop"),
                ("#7a4a2a", "咖啡色巧克力味 · a brown chocolate scoop"), (GREEN, "绿色抹茶味 · a green matcha scoop"),
                ("#f7d147", "黄色芒果味 · a yellow mango scoop")]
    shelves = [(3, [RED, BLUE]), (7, [GREEN, YELLOW, PURPLE]), (5, [ORANGE, TEAL]), (10, [BLUE, PINK, GREY])]
    shelf_words = ["三本红蓝色的书 · three red and blue books", "七本彩色的书 · seven colourful books",
                   "五本橙青色的书 · five orange and teal books", "十本高高摞起的书 · ten books stacked high"]
    dogs = [(ball(250, 270, 16), "#c08a52", "小黄狗和一个球 · A tan dog with a ball"), (SYMBOLS["bone"][0](250, 270), WHITE, "小白狗和一根骨头 · A white dog with a bone"),
            (line(220, 280, 290, 260, BROWN, 6), "#8a6a50", "小棕狗和一根树枝 · A brown dog with a stick"),
            (ellipse(250, 280, 40, 10, "#7fb8e0"), "#d9b27c", "沙色狗站在水坑边 · A sandy dog by a puddle"),
            (ellipse(250, 240, 30, 8, RED, INK, 2), "#6b6b6b", "小灰狗和一个飞盘 · A grey dog with a frisbee")]
    foods = [("cookie", 6, "一盘饼干 · a plate of biscuits"), ("dumpling", 5, "一盘饺子 · a plate of dumplings"),
             ("strawberry", 7, "一盘草莓 · a plate of strawberries"), ("cookie", 2, "两块饼干 · two biscuits")]
    hats = [rect(138, 140, 44, 30, INK) + rect(126, 168, 68, 6, INK), poly([(134, 172), (160, 120), (186, 172)], YELLOW, INK, 2),
            path("M134,172 Q160,130 186,172 Z", RED, INK, 2) + rect(180, 166, 30, 6, RED, INK, 1.5),
            ellipse(160, 170, 50, 10, WOOD, INK, 2) + path("M136,170 Q160,140 184,170 Z", WOOD, INK, 2)]
    hat_words = ["戴黑礼帽的人 · A person in a black top hat", "戴黄色派对尖帽的人 · A person in a yellow party hat",
                 "戴红色棒球帽的人 · A person in a red baseball cap", "戴草帽的人 · A person in a straw hat"]
    return [
        parallel("冰淇淋口味 · Flavours", "选一个吧 · Pick one", "我全都要 · I'll have them all", "image_dominant",
                 "五种口味的冰淇淋并排摆着：每格一种，没有先后。 · Five flavours of ice cream, one per panel, in no order.",
                 [(outdoor("#fdf0e6", "#f0dba4") + [ice_cream(160, 80, 0, c)], f"蛋筒上的{zh} · A cone with {en}")
                  for c, alt in flavours for zh, en in [alt.split(" · ")]]),
        parallel("大家的书架 · Everyone's bookshelf", "读书人的四种样子 · Four kinds of reader", "十本那个是装饰 · The ten are decoration",
                 "image_dominant", "四个人的书堆高矮不一：是四种读者的并列，不是书越堆越高。 · Four readers' piles of books side by "
                 "side, not one pile growing.",
                 [(indoor(["#efe6f6", "#e8eef3", "#fdf3dc", "#e6f2e8"][k]) + [stack(110, 290, c, cols, 100, 20),
                                                                           person(250, 300, "happy", FRIENDS[k][0], 0.7)],
                   f"穿{FRIENDS[k][1]}的人和{shelf_words[k].split(' · ')[0]} · A person in {FRIENDS[k][2]} with {shelf_words[k].split(' · ')[1]}")
                  for k, (c, cols) in enumerate(shelves)]),
        parallel("夜里的窗 · Windows at night", "每扇窗后都有故事 · A story behind every window", "亮灯那家在加班 · The lit one is working late",
                 "unclear", "夜里五座房子，有的亮灯、有的黑着：并列的夜景，顺序无关。 · Five houses at night, some lit, some dark: "
                 "a nocturne in any order.",
                 [([rect(3, 3, 314, 314, NIGHT), moon(260, 60, 20, NIGHT), house(150, 290, lit, col, roof, 1.2)],
                   f"夜里{'亮着灯' if lit else '黑着灯'}的{cz}房子 · A {ce} house at night, windows {'lit' if lit else 'dark'}")
                  for lit, col, roof, cz, ce in [(True, "#e9c89b", RED, "米色", "beige"), (False, "#c9d9b8", BLUE, "浅绿色", "pale green"),
                                                 (True, "#d9c0d9", GREEN, "淡紫色", "lilac"), (False, "#f0d0a0", PURPLE, "杏色", "apricot"),
                                                 (True, "#b8c8d8", ORANGE, "灰蓝色", "grey-blue")]]),
        parallel("公园里的狗 · Dogs of the park", "每只狗都有自己的爱好 · Every dog has its thing", "飞盘那只最帅 · Frisbee dog is the coolest",
                 "image_dominant", "五只狗各玩各的：球、骨头、树枝、水坑、飞盘，是并列的一组。 · Five dogs, five pastimes (ball, "
                 "bone, stick, puddle, frisbee), side by side.",
                 [(outdoor() + [dog(140, 200, 1.0, c, "happy"), prop], alt) for prop, c, alt in dogs]),
        parallel("早餐 · Breakfasts", "每人一份 · One each", "两块饼干那个是我 · I'm the two-biscuit one", "image_dominant",
                 "四个人的早餐各不相同：每格一份，顺序无关。 · Four breakfasts, one per panel, in any order.",
                 [(indoor(["#fdf3dc", "#e6f2e8", "#efe6f6", "#e8eef3"][k]) + [table(220, 20, 300), plate(120, 210, c, f, 80),
                                                                          person(260, 300, "happy", FRIENDS[k + 4][0], 0.7)],
                   f"桌上{alt.split(' · ')[0]}，旁边穿{FRIENDS[k + 4][1]}的人 · {alt.split(' · ')[1].capitalize()} on a table, a person in {FRIENDS[k + 4][2]} beside it")
                  for k, (f, c, alt) in enumerate(foods)]),
        parallel("帽子 · Hats", "四顶帽子，四种性格 · Four hats, four characters", "草帽是夏天 · Straw hat is summer", "image_dominant",
                 "四个人戴着四种帽子：并列展示，没有先后。 · Four people in four hats, side by side.",
                 [(outdoor(["#e8f4fb", "#fdf0e6", "#eef3e6", "#f6eef2"][k]) + [person(160, 300, "happy", FRIENDS[k][0], 1.0), hats[k]], hat_words[k])
                  for k in range(4)]),
    ]


def short_sets():
    bag = poly([(110, 300), (210, 300), (200, 190), (120, 190)], "#d8b27c", INK, 2)
    drinks = [("#7a4a2a", "咖啡", "coffee"), ("#9cc46a", "绿茶", "green tea"), (ORANGE, "橙汁", "orange juice")]
    return [
        parallel("两只猫 · Two cats", "各有各的地盘 · Each to its own spot", "猫的快乐很简单 · Cats' joys are simple", "image_dominant",
                 "一只猫在窗台看鸟，一只猫钻进纸袋：两格并列，谁先谁后都一样。 · One cat watches a bird from the sill, one hides in a "
                 "paper bag: two portraits in either order.",
                 [(indoor("#eef3f8") + [window(60, 40, 200, 150, SKY, bird(210, 110, RED, -1)), rect(40, 190, 240, 14, WOOD, INK, 2),
                                        cat(140, 150, 0.6, "#555a60", "surprised")],
                   "黑猫坐在窗台上盯着窗外的红鸟 · A black cat on the sill staring at a red bird outside"),
                  (indoor("#f6efe0") + [bag, face(160, 196, 22, "happy", WHITE),
                                        poly([(142, 184), (146, 160), (156, 178)], WHITE, INK, 2),
                                        poly([(178, 184), (174, 160), (164, 178)], WHITE, INK, 2)],
                   "白猫从纸袋里探出头 · A white cat peeking out of a paper bag")]),
        parallel("三只鸟 · Three birds", "电线上的邻居们 · Neighbours on a wire", "唱歌那只最吵 · The singer is the loud one",
                 "image_dominant", "三只鸟各做各的事：唱歌、发呆、打盹。 · Three birds each doing their own thing: singing, staring, dozing.",
                 [(outdoor("#e8f3fb") + [line(3, 200, 317, 196, INK, 2.5), bird(160, 176, c, 1, sing), extra], alt)
                  for c, sing, extra, alt in [(RED, True, note(220, 110), "电线上唱歌的红鸟 · A red bird singing on a wire"),
                                              (GREEN, False, "", "电线上发呆的绿鸟 · A green bird perched quietly on a wire"),
                                              (PURPLE, False, zzz(200, 130), "电线上打盹的紫鸟 · A purple bird dozing on a wire")]]),
        parallel("三个气球 · Three balloons", "每个孩子一个 · One per child", "红色那个会飞走 · The red one will fly off", "image_dominant",
                 "三个孩子各拿一个不同颜色的气球：并列展示。 · Three children, three balloons of different colours, side by side.",
                 [(outdoor() + [balloon(200, 80, 30, c), person(180, 300, "happy", s, 0.8, "up")],
                   f"举着{zc}气球、穿{zs}的孩子 · A child in {es} holding a {ec} balloon")
                  for c, s, zc, ec, zs, es in [(RED, BLUE, "红", "red", "蓝衣", "blue"), (YELLOW, GREEN, "黄", "yellow", "绿衣", "green"),
                                               (PURPLE, ORANGE, "紫", "purple", "橙衣", "orange")]]),
        parallel("两个雪人 · Two snowmen", "院子里的两位 · Two in the yard", "戴帽子的更有气质 · The one with the hat has style",
                 "image_dominant", "两个不同的雪人并排站着，顺序无关。 · Two different snowmen, in either order.",
                 [(snowman(9), "戴蓝帽子、围绿围巾、伸着树枝手的雪人 · A snowman with a blue cap, green scarf and twig arms"),
                  (snowman(10), "光头、围橙围巾的矮雪人 · A short bare-headed snowman with an orange scarf")]),
        parallel("三杯饮料 · Three drinks", "各喝各的 · To each their own", "橙汁那杯是我的 · The orange juice is mine",
                 "image_dominant", "三个杯子装着三种饮料：并列摆着，不是喝掉的过程。 · Three mugs of three drinks, side by side, not "
                 "one being drunk.",
                 [(indoor("#eef6f0") + [cup(150, 250, 0.85, WHITE, liquid, False, 1.3)], f"一杯{zh} · A mug of {en}")
                  for liquid, zh, en in drinks]),
    ]


def comics():
    return long_sets() + medium_sets() + short_sets()
