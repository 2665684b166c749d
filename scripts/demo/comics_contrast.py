"""Generated demo comics, comparison: expectation against reality (strong: the dream must come
before the letdown) and side-by-side contrasts (weak: either side can come first)."""

from comic_spec import *  # noqa: F401,F403
from comics_albums import PLACES


def neat_hair(x, y, r):
    """Tidy hair on a face of radius `r` centred at (x, y)."""
    return path(f"M{n(x - r)},{n(y - r * 0.1)} Q{n(x)},{n(y - r * 1.7)} {n(x + r)},{n(y - r * 0.1)} "
                f"Q{n(x)},{n(y - r * 0.7)} {n(x - r)},{n(y - r * 0.1)} Z", BROWN, INK, 1.5)


def scissors(x, y):
    return (line(x - 14, y + 14, x + 18, y - 18, GREY, 4) + line(x + 14, y + 14, x - 18, y - 18, GREY, 4)
            + circle(x - 18, y + 18, 7, None, RED, 3) + circle(x + 18, y + 18, 7, None, RED, 3))


def messy_hair(x, y):
    return path(f"M{x - 26},{y} L{x - 30},{y - 22} L{x - 14},{y - 12} L{x - 10},{y - 36} L{x},{y - 16} L{x + 8},{y - 40} "
                f"L{x + 14},{y - 14} L{x + 30},{y - 28} L{x + 26},{y} Z", BROWN, INK, 1.5)


def dream(inner, toward=(240, 190)):
    """A thought cloud at the top left holding `inner` (drawn for a 320 panel, shrunk)."""
    return thought(20, 14, 200, 150, toward, mini(inner, 50, 30, 0.44))


def salad():
    return ellipse(160, 200, 90, 40, WHITE, INK, 3) + "".join(leaf(100 + k * 24, 190 - (k % 2) * 12, -60 + k * 25, 40) for k in range(6))


def tent(collapsed=False):
    if collapsed:
        return poly([(60, 260), (260, 250), (240, 230), (90, 236)], ORANGE, INK, 2) + line(150, 240, 200, 200, INK, 3)
    return poly([(60, 260), (160, 120), (260, 260)], ORANGE, INK, 2) + poly([(140, 260), (160, 200), (180, 260)], BROWN)


def office(k, mood, shirt=GREY):
    """A desk at work, its props varied by `k`."""
    props = [cup(250, 216, 0.6, WHITE, "#7a4a2a", False, 0.5), stack(250, 216, 3, [WHITE, "#eeeeee"], 60, 10),
             clock(260, 60, 24, 5, 50), pot(260, 216)][k % 4]
    return indoor("#e6e8ea", "#a7a9ab") + [rect(20, 216, 280, 14, WOOD, INK, 2), rect(70, 130, 110, 76, INK, None, None, rx=6),
                                           rect(78, 138, 94, 58, "#9fc3e6"), props, person(125, 316, mood, shirt, 0.6, "hold")]


def strong_short():
    room = indoor("#f2ece4", "#c9b6a0")
    return [
        make("comparison", "strong", "自己剪头发 · The DIY haircut", "理想很丰满 · Big dreams, short hair",
             "理发师存在是有原因的 · Barbers exist for a reason", "image_dominant",
             "想象中剪完是整齐的发型，拿起剪刀后，结果变成乱糟糟的刺猬头：先有期待才有落差。 · The neat haircut in mind, the "
             "scissors, and the spiky result: the letdown needs the dream first.",
             [(room + [dream(face(160, 160, 60, "happy") + neat_hair(160, 160, 60)), person(240, 300, "happy", BLUE, 0.75, "down")],
               "一个人想象着整齐的发型 · A person imagining a neat hairstyle"),
              (room + [person(160, 300, "neutral", BLUE, 0.85, "head"), scissors(196, 160)],
               "一个人举着剪刀对着自己的头发 · A person holding scissors to their own hair"),
              (room + [person(160, 300, "sad", BLUE, 0.85, "down"), messy_hair(160, 182)],
               "顶着乱糟糟刺猬头的人很难过 · A person with spiky, ragged hair, looking sad")]),
        make("comparison", "strong", "外卖图片 · Menu photo vs. what came", "图片仅供参考 · Picture for illustration only",
             "图片是用放大镜拍的 · The photo was taken with a magnifying glass", "sarcastic_conflict",
             "菜单上是满满配料的大披萨，送来的却是一块小小的：图片在前、实物在后才有反差。 · The menu shows a loaded pizza, "
             "the box holds a tiny one: the photo has to come before the delivery.",
             [(indoor("#fbeedd") + [rect(40, 30, 240, 220, WHITE, INK, 3), pizza(160, 140, 90, 8), star(260, 50, 16)] +
               [circle(120 + (k * 29) % 80, 110 + (k * 41) % 60, 8, GREEN) for k in range(6)],
               "菜单上一张配料丰富的大披萨照片 · A menu photo of a huge pizza heaped with toppings"),
              (indoor("#fbeedd") + [table(210, 20, 300), box(150, 210, 160, 18, WHITE), pizza(150, 186, 22, 8),
                                    person(270, 300, "annoyed", ORANGE, 0.7, "down")],
               "大盒子里一块很小的披萨，人很无语 · A tiny pizza in a big box, the person unimpressed")]),
        make("comparison", "strong", "说明书上的帐篷 · The tent in the manual", "十分钟搭好（说明书说的） · Up in ten minutes (says the manual)",
             "帐篷：我今天不想站 · Tent: not standing today", "image_dominant",
             "说明书上是挺立的帐篷，现实中帐篷塌成一团，人被裹在里面：图纸和现实的对比。 · The manual's proud tent against the "
             "heap of fabric the camper is tangled in.",
             [(outdoor() + [rect(50, 40, 220, 180, WHITE, INK, 3), mini(tent(), 70, 50, 0.55), check(230, 190)],
               "一张画着挺立帐篷和对勾的说明书 · A manual sheet showing a standing tent and a check mark"),
              (outdoor() + [tent(True), face(120, 232, 16, "angry"), person(270, 300, "surprised", GREEN, 0.6, "head")],
               "塌成一团的帐篷里露出一张生气的脸 · A collapsed tent with an angry face poking out")]),
        make("comparison", "strong", "给猫画像 · Drawing the cat", "模特很满意（才怪） · The model is thrilled (not)",
             "猫：我要找律师 · Cat: I'm calling my lawyer", "image_dominant",
             "猫端坐当模特，画出来却是一团乱线，猫很生气：先看模特，再看画。 · The cat poses proudly; the portrait is a scribble "
             "and the cat is furious: model first, drawing second.",
             [(room + [cat(90, 200, 0.9, ORANGE, "happy"), star(40, 80, 12), rect(200, 90, 90, 110, WHITE, INK, 3),
                       line(245, 200, 225, 290, BROWN, 4), line(245, 200, 265, 290, BROWN, 4)],
               "橘猫骄傲地端坐，旁边是空白画板 · The orange cat posing proudly beside a blank easel"),
              (room + [rect(90, 40, 140, 170, WHITE, INK, 3),
                       path("M110,150 q20,-60 40,-10 q20,50 40,-20 q10,-40 -30,-20 q-40,20 -10,60", None, ORANGE, 5),
                       cat(250, 230, 0.6, ORANGE, "angry")],
               "画板上一团歪歪扭扭的橙色线条，橘猫很生气 · A scribble of orange lines on the easel, the orange cat furious")]),
        make("comparison", "strong", "网购的裙子 · The dress online", "买家秀与卖家秀 · Seller's photo, buyer's reality",
             "尺码表是个谜 · Size charts are a mystery", "sarcastic_conflict",
             "网上模特穿着合身的裙子，收到后穿在身上像个麻袋：先看到卖家秀才有落差。 · The model's neat dress online, the sack "
             "it becomes at home: the seller's photo has to come first.",
             [(phone([poly([(125, 140), (195, 140), (225, 250), (95, 250)], PINK, INK, 2), face(160, 110, 22, "happy"), star(210, 70, 10)]),
               "手机屏幕上模特穿着合身的粉裙子 · A phone showing a model in a neat pink dress"),
              (room + [poly([(100, 150), (220, 150), (250, 300), (70, 300)], PINK, INK, 2), face(160, 120, 26, "annoyed")],
               "一个人穿着像麻袋一样的大粉裙子 · A person in a baggy, sack-like pink dress")]),
        make("comparison", "strong", "合影 · The group photo", "一张能用的都没有 · Not one usable shot",
             "总有人闭眼 · Someone always blinks", "image_dominant",
             "想象中大家笑得整整齐齐，拍出来有人闭眼、猫还挡了镜头：期待与结果的对比。 · Everyone smiling in the plan; in the "
             "photo eyes are shut and a cat blocks the lens.",
             [(outdoor() + [dream(face(90, 160, 40, "happy") + face(160, 160, 40, "happy") + face(230, 160, 40, "happy"), (240, 220)),
                            person(250, 305, "happy", RED, 0.7, "hold")],
               "一个人想象三张整齐的笑脸 · A person picturing three neat smiling faces"),
              (outdoor() + [rect(30, 40, 260, 230, WHITE, INK, 4), face(90, 150, 36, "sleep"), face(160, 150, 36, "surprised"),
                            cat(220, 190, 1.1, ORANGE, "happy")],
               "照片里一人闭眼、一人吃惊，橘猫挡在前面 · A photo with one face asleep, one startled, and the orange cat in front")]),
        make("comparison", "strong", "减肥计划 · The diet plan", "计划是沙拉 · The plan was salad",
             "从明天开始 · Starting tomorrow", "sarcastic_conflict",
             "计划吃沙拉，实际在吃披萨：先立目标，才显出现实的讽刺。 · The salad in the plan, the pizza on the plate: the goal "
             "has to come before the irony.",
             [(room + [dream(salad()), person(240, 300, "relieved", GREEN, 0.75, "down")], "一个人想着一碗绿色沙拉 · A person thinking of a green salad"),
              (room + [table(220, 20, 300), pizza(110, 200, 50, 8), person(240, 300, "laugh", GREEN, 0.75, "hold"), pizza_slice_icon(240, 220)],
               "一个人开心地吃着一整张披萨 · A person happily eating a whole pizza")]),
    ]


def strong_medium():
    bites = "".join(circle(150 + (k * 23) % 40, 190 + (k * 31) % 60, 4, RED) for k in range(6))
    video = lambda inner: indoor() + [tv(120, 140, "#f4f7fb", inner)]  # noqa: E731
    return [
        make("comparison", "strong", "露营：想象与现实 · Camping: the dream and the trip", "星空变成了雨夜 · The starry night turned to rain",
             "蚊子是露营的主角 · Mosquitoes are the real campers", "complementary",
             "想象中是星空下的帐篷和篝火，现实是雨里的帐篷和满身蚊子包：前两格是梦，后两格是现实。 · The dream: a tent under "
             "the stars and a campfire. The trip: a tent in the rain and mosquito bites. Dream first, reality second.",
             [(outdoor("#e8ecf2") + [dream(tent() + star(60, 40, 12, WHITE, INK) + star(260, 60, 12, WHITE, INK)), person(250, 300, "happy", TEAL, 0.7)],
               "一个人想象星空下的帐篷 · A person dreaming of a tent under the stars"),
              (outdoor("#e8ecf2") + [dream("".join(PLACES["campfire"][0](TEAL, "laugh"))), person(250, 300, "laugh", TEAL, 0.7)],
               "一个人想象篝火边的夜晚 · A person dreaming of an evening by a campfire"),
              (outdoor("#8f9ca8", "#6f8f6a") + [tent(), "".join(drop(30 + k * 40, 60 + (k * 37) % 80) for k in range(8)),
                                                person(270, 300, "sad", TEAL, 0.6)],
               "大雨中的帐篷，人很难过 · The tent in pouring rain, the person miserable"),
              (outdoor("#6f7f6a", "#4f6f4a") + [person(160, 300, "angry", TEAL, 0.9, "head"), bites,
                                                "".join(circle(60 + k * 50, 80 + (k % 2) * 30, 3, INK) for k in range(5))],
               "身上全是红色蚊子包的人 · A person covered in red mosquito bites")]),
        make("comparison", "strong", "跟着视频做蛋糕 · Baking along with the video", "视频里三分钟 · Three minutes on video",
             "我的厨房不是这样的 · My kitchen isn't like that", "image_dominant",
             "视频里搅面糊、出炉完美蛋糕；我这边面粉满天飞、烤出焦黑的一团：先看示范，再看我的。 · On screen: a neat batter, "
             "then a perfect cake. At home: flour everywhere, then a charred lump. The video comes first.",
             [(video(ellipse(120, 150, 40, 16, WHITE, INK, 2) + ellipse(120, 146, 32, 10, "#f6e2b0")), "电视里一碗整齐的面糊 · A neat bowl of batter on the TV"),
              (video(cake(120, 176)), "电视里一个漂亮的蛋糕 · A beautiful cake on the TV"),
              (indoor() + [ellipse(120, 230, 50, 20, WHITE, INK, 2)] + [circle(60 + (k * 37) % 200, 60 + (k * 53) % 150, 6, WHITE, INK, 1)
                                                                    for k in range(10)] + [person(250, 300, "surprised", RED, 0.75, "up")],
               "面粉满屋乱飞，人很吃惊 · Flour flying all over the kitchen, the person startled"),
              (indoor() + [ellipse(130, 230, 50, 26, INK), path("M110,200 q-6,-20 4,-36 M140,198 q6,-20 -4,-36", None, GREY, 3),
                           person(250, 300, "sad", RED, 0.75, "down")],
               "一团烤焦的黑色蛋糕在冒烟 · A charred black cake smoking")]),
        make("comparison", "strong", "健身广告 · The gym advert", "办卡容易坚持难 · Signing up is the easy part",
             "年卡用了三次 · Three visits on a year's pass", "sarcastic_conflict",
             "广告里的人举重、跑步，精神抖擞；办卡后的我躺在地上、窝在沙发：先看广告才有反差。 · In the advert: lifting, "
             "running, glowing. After signing up: flat on the floor, then the sofa.",
             [(indoor("#e6f2f8") + [rect(30, 30, 260, 200, WHITE, INK, 3), person(160, 215, "laugh", ORANGE, 0.75, "up"),
                                    line(110, 112, 210, 112, INK, 6), circle(108, 112, 12, INK), circle(212, 112, 12, INK)],
               "广告牌上的人轻松举起杠铃 · An advert of someone lifting a barbell with ease"),
              (indoor("#e6f2f8") + [rect(30, 30, 260, 200, WHITE, INK, 3), person(160, 215, "happy", ORANGE, 0.75, "wave"), star(250, 70, 14)],
               "广告牌上的人开心地跑步 · An advert of someone jogging happily"),
              (indoor("#dfe3e6", "#8a8f96") + [rect(40, 250, 240, 20, BLUE), face(80, 240, 20, "sad"), rect(100, 236, 140, 20, ORANGE, INK, 2),
                                               circle(270, 270, 14, INK)],
               "一个人瘫在健身垫上，旁边放着哑铃 · A person sprawled on a gym mat beside a dumbbell"),
              (indoor() + [rect(30, 200, 260, 70, PURPLE, INK, 2), rect(30, 170, 260, 40, PURPLE, INK, 2), face(110, 186, 20, "sleep"),
                           zzz(150, 150), plate(230, 196, 2, "cookie", 34)],
               "一个人窝在沙发上睡着，旁边有饼干 · A person asleep on the sofa beside some biscuits")]),
    ]


def side(kind, title, caption, comment, relation, insight, panels):
    return make(kind, "weak", title, caption, comment, relation, insight, panels)


def weak_short():
    return [
        side("comparison", "早起鸟和夜猫子 · Lark vs. owl", "各有各的高光时刻 · Everyone has their hour",
             "我是夜里的那个 · I'm the night one", "image_dominant",
             "一个人在日出时精神抖擞，另一个人在月亮下精神抖擞：两种作息并排对比，谁先谁后都行。 · One person shines at sunrise, "
             "the other under the moon: two body clocks side by side, in either order.",
             [(outdoor("#fde2c0") + [sun(80, 80, 26), person(200, 300, "laugh", YELLOW, 0.8, "up"), face(270, 200, 14, "sleep")],
               "日出时一个穿黄衣的人精神抖擞 · A person in yellow full of beans at sunrise"),
              (outdoor(NIGHT, "#3e5a3a") + [moon(80, 80, 26, NIGHT), person(200, 300, "laugh", PURPLE, 0.8, "up"), star(260, 60, 8, WHITE)],
               "月亮下一个穿紫衣的人精神抖擞 · A person in purple full of beans under the moon")]),
        side("comparison", "欢迎回家：猫和狗 · Welcome home: cat vs. dog", "两种欢迎方式 · Two kinds of welcome",
             "猫：哦，你回来了 · Cat: oh, it's you", "image_dominant",
             "主人回家，狗扑上来满眼爱心，猫却睡着不理：两种宠物的对比，哪格在前都成立。 · Home again: the dog leaps up in love, "
             "the cat sleeps on; a contrast that reads either way round.",
             [(indoor() + [door(30, True), dog(200, 200, 1.1, "#c08a52", "laugh"), heart(200, 90, 1.4), heart(250, 110, 1.0)],
               "开着的门边，小狗兴奋地冒爱心 · By the open door, a dog beaming with hearts"),
              (indoor() + [door(30, True), cat(200, 240, 1.0, GREY, "sleep", False, True), zzz(230, 170)],
               "开着的门边，灰猫趴着睡觉 · By the open door, a grey cat lying asleep")]),
        side("comparison", "夏天的我和冬天的我 · Summer me, winter me", "同一个人，两种季节 · One person, two seasons",
             "冬天是长肉的季节 · Winter is for padding", "complementary",
             "夏天的人清爽地吃冰淇淋，冬天的人裹得圆滚滚：季节对比，谁先都可以。 · Summer: light clothes and ice cream. Winter: "
             "wrapped up round as a ball. The two sides work in either order.",
             [(outdoor("#fde9b8", "#f0dba4") + [sun(260, 60, 22), person(140, 300, "happy", YELLOW, 0.85, "hold"), ice_cream(140, 170, 0)],
               "烈日下拿着冰淇淋的人 · A person with an ice cream under a blazing sun"),
              (outdoor("#dde6ee", WHITE) + [ellipse(150, 220, 70, 80, "#7a8fc0", INK, 2), face(150, 120, 26, "happy"),
                                           rect(110, 140, 80, 16, RED, INK, 2), snowflake(60, 60, 10, GREY), snowflake(260, 90, 10, GREY)],
               "雪里裹成一个球的人，围着红围巾 · A person bundled up round in the snow with a red scarf")]),
        side("comparison", "我的桌子和同事的桌子 · My desk vs. theirs", "整洁是相对的 · Tidiness is relative",
             "我的桌子有自己的秩序 · My desk has its own order", "sarcastic_conflict",
             "同事的桌子一尘不染，我的桌子堆满杯子和纸：并排对比，左右都行。 · A spotless desk next to one buried in mugs and "
             "papers; the two can sit either way round.",
             [(indoor("#eef1f4", "#b0b4b8") + [rect(20, 200, 280, 14, WOOD, INK, 2), pot(90, 200), cup(230, 200, 0.5, WHITE, "#7a4a2a", False, 0.5),
                                              person(160, 316, "happy", BLUE, 0.6, "down")],
               "整洁的桌面上只有一盆绿植和一个杯子 · A tidy desk with one plant and one mug"),
              (indoor("#eef1f4", "#b0b4b8") + [rect(20, 200, 280, 14, WOOD, INK, 2), stack(80, 200, 6, [WHITE, "#eeeeee"], 90, 12, 4)] +
               [cup(170 + k * 40, 200, 0.2 * k, WHITE, "#7a4a2a", False, 0.4) for k in range(3)] + [person(160, 316, "annoyed", ORANGE, 0.6, "down")],
               "桌上堆满纸和好几个杯子 · A desk piled with papers and several mugs")]),
        side("comparison", "猫窝和纸箱 · Cat bed vs. box", "贵的不一定好 · Pricey isn't always better",
             "纸箱永远赢 · The box always wins", "image_dominant",
             "昂贵的猫窝空着，猫却挤在纸箱里：两格并排对比，顺序随意。 · The expensive cat bed sits empty while the cat squeezes "
             "into a box; the pair reads either way.",
             [(indoor() + [ellipse(160, 250, 100, 30, PURPLE, INK, 2), ellipse(160, 244, 80, 18, PINK), star(250, 150, 14), star(80, 140, 10)],
               "闪闪发亮的空猫窝 · A shiny, empty cat bed"),
              (indoor() + [box(160, 270, 110, 70), cat(160, 170, 0.75, ORANGE, "happy")],
               "橘猫开心地挤在纸箱里 · The orange cat happily squeezed into a cardboard box")]),
    ]


def weak_medium():
    return [
        side("comparison", "猫和狗的一天 · A cat's day vs. a dog's day", "同样的时间，不同的活法 · Same hours, different lives",
             "猫睡了十六个小时 · The cat slept sixteen hours", "image_dominant",
             "狗在跑、在吃，猫在睡、在发呆：两种宠物的日常交替对比，顺序打乱也看得懂。 · The dog runs and eats; the cat naps and "
             "stares: alternating contrasts that survive shuffling.",
             [(outdoor() + [dog(160, 200, 1.0, "#c08a52", "laugh"), ball(250, 260, 16)], "草地上的小狗追着球 · A dog chasing a ball on the grass"),
              (indoor() + [cat(160, 230, 1.0, GREY, "sleep", False, True), zzz(200, 160)], "灰猫在地板上睡觉 · A grey cat asleep on the floor"),
              (indoor("#f6efe0") + [dog(160, 200, 1.0, "#c08a52", "happy"), plate(160, 290, 2, "dumpling", 50)],
               "小狗对着一盘饺子摇尾巴 · A dog wagging at a plate of dumplings"),
              (indoor("#f6efe0") + [window(100, 60, 120, 100), cat(160, 230, 1.0, GREY, "neutral")],
               "灰猫坐在窗前发呆 · A grey cat staring out of the window")]),
        side("comparison", "派对上的内向和外向 · Introvert vs. extrovert", "同一个派对 · Same party",
             "我在角落里摸猫 · I'm the one in the corner with the cat", "image_dominant",
             "外向的人跳舞唱歌，内向的人在角落摸猫、想回家：两种人交替出现，顺序不重要。 · The extrovert dances and sings; the "
             "introvert pets the cat and dreams of home; the contrasts can come in any order.",
             [(indoor("#e9dcf3") + [person(160, 300, "laugh", RED, 0.85, "up"), note(80, 80), note(250, 70)], "红衣人在音乐里跳舞 · The person in red dancing to music"),
              (indoor("#e9dcf3") + [person(90, 300, "neutral", BLUE, 0.75, "down"), cat(230, 240, 0.7, ORANGE, "happy")],
               "蓝衣人在角落陪着橘猫 · The person in blue in a corner with the orange cat"),
              (indoor("#e9dcf3") + [person(160, 300, "laugh", RED, 0.85, "wave"), bubble(30, 30, 120, 70, (150, 160), heart(90, 64))],
               "红衣人挥手打招呼，气泡里有爱心 · The person in red waving with a heart in a bubble"),
              (indoor("#e9dcf3") + [person(160, 300, "sad", BLUE, 0.85, "down"), thought(20, 20, 140, 100, (140, 170), house(90, 100, True, "#e9c89b", RED, 0.4))],
               "蓝衣人想着家 · The person in blue thinking of home")]),
        side("comparison", "周一和周五 · Monday vs. Friday", "一周的两端 · The two ends of a week",
             "周五下午最快乐 · Friday afternoon is peak happiness", "complementary",
             "周一早上困、晚上累；周五早上精神、晚上开派对：交替对比，打乱了也不影响。 · Monday: sleepy morning, weary evening. "
             "Friday: bright morning, party night. The contrasts work shuffled.",
             [(office(0, "sleep"), "周一早上在工位打瞌睡的人 · A person dozing at the desk on a Monday morning"),
              (office(1, "laugh"), "周五早上在工位大笑的人 · A person laughing at the desk on a Friday morning"),
              (office(2, "sad"), "周一傍晚在工位累瘫的人 · A person slumped at the desk on a Monday evening"),
              (indoor("#f3d9e8") + [person(160, 300, "laugh", GREY, 0.85, "up"), balloon(60, 80, 24, RED), balloon(260, 70, 24, YELLOW), cake(160, 300)],
               "周五晚上有气球和蛋糕的派对 · A Friday night party with balloons and cake")]),
        side("comparison", "晴天的狗和雨天的狗 · Sunny dog, rainy dog", "天气决定心情 · Weather decides the mood",
             "雨天的狗最委屈 · A rainy-day dog is a sad dog", "image_dominant",
             "晴天里狗在草地上打滚、追球；雨天里狗趴在窗前、不想出门：交替对比，顺序随意。 · Sunny: rolling on the grass and "
             "chasing balls. Rainy: moping by the window. Shuffled, the contrast holds.",
             [(outdoor() + [sun(60, 60, 22), dog(180, 200, 1.0, WHITE, "laugh")], "晴天草地上开心的小白狗 · A white dog grinning on a sunny lawn"),
              (indoor("#c5ccd3") + [window(60, 60, 140, 110, "#8f9ca8", "".join(drop(80 + k * 28, 90 + (k % 2) * 30) for k in range(4))),
                                    dog(220, 220, 1.0, WHITE, "sad", False)],
               "雨天窗边难过的小白狗 · A white dog moping by a rainy window"),
              (outdoor() + [sun(260, 60, 22), dog(140, 200, 1.0, WHITE, "happy"), ball(240, 270, 16)],
               "晴天里小白狗和一个球 · A white dog with a ball on a sunny day"),
              (indoor("#c5ccd3") + [dog(160, 220, 1.0, WHITE, "sleep", False), rect(60, 270, 200, 20, BROWN), cloud(250, 70, 0.6, GREY)],
               "雨天垫子上睡觉的小白狗 · A white dog asleep on a mat on a rainy day")]),
    ]


def weak_long():
    def pairs(a, b):
        return [x for pair in zip(a, b) for x in pair]

    places = ["beach", "mountain", "picnic", "boat"]
    holiday = [(PLACES[p][0]("#117a65", "laugh"), f"度假的人在{PLACES[p][1]}大笑 · The holidaymaker laughing at {PLACES[p][2]}") for p in places]
    work = [(office(k, m, "#117a65"), f"上班的人在工位上{MOODS[m][0]} · The worker at a desk, {MOODS[m][1]}")
            for k, m in enumerate(("sleep", "annoyed", "sad", "neutral"))]
    sunny = [(PLACES[p][0](YELLOW, "happy"), f"晴天里黄衣人在{PLACES[p][1]} · The person in yellow at {PLACES[p][2]} on a sunny day")
             for p in ("garden", "bike", "market", "city")]
    rain = "".join(line(20 + (k * 41) % 290, 30 + (k * 67) % 200, 14 + (k * 41) % 290, 46 + (k * 67) % 200, BLUE, 2) for k in range(24))
    rainy = [(PLACES[p][0](YELLOW, "sad") + [rain], f"雨里黄衣人在{PLACES[p][1]} · The person in yellow at {PLACES[p][2]} in the rain")
             for p in ("garden", "bike", "market", "city")]
    plans = [(indoor("#f4efe6") + [thought(20, 14, 200, 150, (240, 190), mini("".join(PLACES[p][0]("#d35400", "laugh")), 50, 30, 0.44)),
                                   person(250, 300, "happy", "#d35400", 0.7)],
              f"橙红衣人想象自己在{PLACES[p][1]} · The person in rust imagining {PLACES[p][2]}") for p in ("museum", "wheel", "spring", "aquarium")]
    real = [(indoor("#f4efe6") + art, alt) for art, alt in [
        ([rect(30, 200, 260, 70, PURPLE, INK, 2), face(110, 196, 20, "sleep"), zzz(150, 160)], "橙红衣人在沙发上睡觉 · The person in rust asleep on the sofa"),
        ([tv(160, 130), person(160, 316, "neutral", "#d35400", 0.6)], "橙红衣人盯着电视 · The person in rust staring at the TV"),
        ([bed(60, 230, 200, "#d35400"), face(100, 215, 16, "sleep"), sun(270, 50, 16)], "大白天橙红衣人还躺在床上 · The person in rust still in bed in broad daylight"),
        ([phone([face(160, 150, 30, "laugh")], 100, 120), person(60, 316, "laugh", "#d35400", 0.55)], "橙红衣人对着手机大笑 · The person in rust laughing at a phone")]]
    return [
        side("comparison", "度假的我和上班的我 · Holiday me, office me", "两种人生 · Two lives",
             "请假条已经写好了 · The leave request is drafted", "image_dominant",
             "海滩、山、野餐、帆船上的开心，与工位上的困、烦、累交替出现：对比本身就是笑点，顺序不重要。 · Beach, hills, "
             "picnic, boat against a desk of sleepiness and gloom, alternating; the contrast is the joke, the order is not.",
             pairs(holiday, work)),
        side("comparison", "晴天和雨天 · Sunny days, rainy days", "同样的地方，不同的天气 · Same places, different weather",
             "带伞的那天不下雨 · It never rains when I bring an umbrella", "image_dominant",
             "同一个人在花园、自行车、集市、城市里，晴天笑、雨天愁：成对对比，顺序随意。 · The same person in the garden, on the "
             "bike, at the market and in town, cheerful in sun and glum in rain; the pairs work in any order.",
             pairs(sunny, rainy)),
        side("comparison", "周末：计划和现实 · Weekend: plans vs. reality", "计划去玩，实际在家 · Plans out, reality in",
             "计划是用来打破的 · Plans are made to be broken", "sarcastic_conflict",
             "想着去美术馆、摩天轮、温泉、水族馆，实际睡觉、看电视、赖床、刷手机：想法和现实成对出现，换顺序也一样好笑。 · Plans "
             "of galleries, fairs, springs and aquariums against sleeping, TV, lie-ins and the phone; the pairs are funny in any order.",
             pairs(plans, real)),
    ]


def comics():
    return strong_short() + strong_medium() + weak_short() + weak_medium() + weak_long()
