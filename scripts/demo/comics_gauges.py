"""Generated demo comics, progressive: one thing changing step by step (melting, draining,
piling up, growing). Each panel's alt says the level it shows, never its position."""

import math

from comic_spec import *  # noqa: F401,F403


def popped(level):
    if level < 99:
        return balloon(130, 130, level, RED)
    return "".join(poly([(130 + 20 * math.cos(a), 130 + 20 * math.sin(a)), (130 + 60 * math.cos(a + 0.2), 130 + 60 * math.sin(a + 0.2)),
                         (130 + 58 * math.cos(a - 0.2), 130 + 58 * math.sin(a - 0.2))], RED, INK, 1.5)
                   for a in (0, 1.3, 2.5, 3.8, 5.0)) + star(130, 130, 26, YELLOW, INK)


def snow(depth):
    flakes = "".join(snowflake(20 + (k * 47) % 280, 20 + (k * 71) % 150, 5) for k in range(3 + int(depth / 3)))
    return rect(3, 300 - depth, 314, depth + 17, WHITE, INK, 1.5) + flakes


def hair(length):
    """A person whose hair reaches `length` below the crown."""
    return (ellipse(160, 150 + length / 2 - 10, 40, 30 + length / 2, BROWN) + person(160, 300, "happy", TEAL, 1.0, "down")
            + path("M138,140 Q160,110 182,140", BROWN, None))


def apple_tree(k):
    sizes = [0.35, 0.5, 0.62, 0.74, 0.86, 0.96, 1.0]
    fruit = [0, 0, 0, 2, 5, 9, 0]
    out = tree(150, 290, 1.0, GREEN, fruit[k], RED, sizes[k])
    if k == 6:
        out += rect(220, 250, 70, 44, WOOD, INK, 2) + "".join(circle(232 + i * 12, 246, 7, RED, INK, 1.5) for i in range(5))
    return out


def short():
    return [
        make("progressive", "strong", "七月的冰淇淋 · Ice cream in July", "吃得没有化得快 · It melts faster than I eat",
             "夏天吃冰淇淋要快 · Summer ice cream is a race", "image_dominant",
             "冰淇淋在太阳下一点点化掉，拿着的人从开心到失落：融化只能往一个方向走。 · An ice cream melts in the sun while its "
             "owner goes from delight to dismay; melting only runs one way.",
             progression(lambda m: ice_cream(110, 80, m), [0, 0.5, 1.0],
                         ["圆圆的粉色冰淇淋球 · A round pink scoop on a cone", "正在往下滴的冰淇淋 · A drooping scoop with drips",
                          "空蛋筒下面一大滩粉色 · An empty cone over a big pink puddle"],
                         outdoor("#fde9b8", "#f0dba4") + [sun(50, 50, 20)], ["happy", "surprised", "sad"])),
        make("progressive", "strong", "电量不足 · Low battery", "电量掉得比钱还快 · Battery drains faster than money",
             "出门必带充电宝 · Never leave without a power bank", "complementary",
             "手机电量从满格掉到见底，主人越来越慌：电量只会越用越少。 · The phone battery drops from full to empty while its "
             "owner panics; charge only goes down with use.",
             progression(lambda v: battery(120, 150, v), [0.9, 0.35, 0.05],
                         ["几乎满格的绿色电池 · A nearly full green battery", "剩三分之一的橙色电池 · An orange battery about a third full",
                          "只剩一丝的红色电池 · A red battery with a sliver left"],
                         [rect(3, 3, 314, 314, "#eef1f7")], ["happy", "annoyed", "surprised"], who_x=260, shirt=PURPLE)),
        make("progressive", "strong", "考试倒计时 · Exam countdown", "时间在漏，答案没有 · Time leaks, answers don't",
             "最后一分钟是最有效率的一分钟 · The final minute is the productive one", "image_dominant",
             "沙漏里的沙一点点漏下，考生越来越紧张：沙子只往下走。 · Sand runs through the hourglass as the student's panic "
             "rises; sand only falls down.",
             progression(lambda t: hourglass(110, 150, t), [0.1, 0.5, 0.95],
                         ["沙子几乎都在上半边 · An hourglass with nearly all its sand on top",
                          "上下各一半沙子 · An hourglass with half its sand on each side",
                          "沙子几乎都在下半边 · An hourglass with nearly all its sand at the bottom"],
                         indoor("#e7eef6", "#c9b28f"), ["neutral", "annoyed", "surprised"], who_x=250, shirt=GREEN)),
        make("progressive", "strong", "堆雪 · Snowed in", "雪越下越深 · Deeper and deeper",
             "第二天要铲雪了 · Shovelling tomorrow", "image_dominant",
             "雪越积越厚，从脚踝埋到脖子：积雪只会越来越深。 · The snow piles up from ankles to chin; it only gets deeper.",
             progression(snow, [8, 26, 76],
                         ["薄薄一层雪，几片雪花 · A thin layer of snow and a few flakes",
                          "没过膝盖的积雪，雪花纷飞 · Knee-deep snow with flakes falling",
                          "埋到脖子的积雪，漫天雪花 · Snow up to the chin, flakes everywhere"],
                         [rect(3, 3, 314, 314, "#b9c7d6")], ["happy", "surprised", "sad"], who_x=160, shirt=RED, behind=True)),
    ]


def medium():
    cup_words = ["满满一杯冒热气的咖啡 · A full, steaming mug of coffee", "喝掉一口的咖啡 · A mug of coffee, a sip gone",
                 "半杯咖啡 · A half-full mug of coffee", "只剩杯底的咖啡 · A mug with coffee at the bottom",
                 "空杯子 · An empty mug"]
    return [
        make("progressive", "strong", "咖啡续命 · Coffee-powered", "杯子空了，人醒了 · Empty mug, full power",
             "早上没有咖啡我不是人 · Before coffee I'm not a person", "image_dominant",
             "咖啡越喝越少，人越来越清醒，空杯时已经神采奕奕：杯子和精神此消彼长。 · The less coffee in the mug, the more awake "
             "the drinker: the mug empties as the person wakes up.",
             progression(lambda v: cup(110, 250, v, WHITE, "#7a4a2a", v > 0.9), [1.0, 0.8, 0.5, 0.2, 0.0], cup_words,
                         indoor("#f6e7d3", "#b98b63"), ["sleep", "neutral", "happy", "laugh", "laugh"], who_x=240, shirt=ORANGE,
                         extras=[None, None, None, None, star(240, 140, 16) + star(280, 170, 10)])),
        make("progressive", "strong", "洗碗池 · The sink", "明天再洗 · I'll do them tomorrow",
             "盘子会自己变多 · Plates multiply on their own", "sarcastic_conflict",
             "盘子一天天越堆越高，人从淡定到崩溃：拖延让碗越堆越多。 · The stack of plates grows day by day and calm turns to "
             "despair: putting it off only makes the pile taller.",
             progression(lambda c: stack(110, 250, c, [WHITE, "#dfe7ee"], 120, 14, 3), [1, 4, 7, 10, 13],
                         ["水池边一个盘子 · One plate by the sink", "几个摞起来的盘子 · A few stacked plates",
                          "半人高的一摞盘子 · A waist-high stack of plates", "一大摞歪歪的盘子 · A tall, leaning stack of plates",
                          "快碰到天花板的一摞盘子 · A stack of plates nearly touching the ceiling"],
                         indoor("#e3eef0", "#b7c3c7"), ["happy", "neutral", "annoyed", "angry", "sad"], who_x=250, shirt=BLUE)),
        make("progressive", "strong", "吹气球 · Blowing up a balloon", "再吹一口就好 · Just one more breath",
             "每次都是最后那口气 · It's always that extra puff", "image_dominant",
             "气球越吹越大，最后砰地爆掉：越来越大之后才会爆。 · The balloon grows with every breath until it bursts; it can only "
             "burst once it is big.",
             progression(popped, [14, 26, 40, 56, 99],
                         ["瘪瘪的小红气球 · A small, limp red balloon", "半大的红气球 · A half-blown red balloon",
                          "圆滚滚的红气球 · A round red balloon", "巨大绷紧的红气球 · A huge, tight red balloon",
                          "爆开的红色碎片和一颗星 · Red shreds around a starburst"],
                         [rect(3, 3, 314, 314, "#fdf0e6")], ["happy", "happy", "surprised", "surprised", "sad"], who_x=250,
                         shirt=GREEN)),
        make("progressive", "strong", "热浪 · Heatwave", "温度计在冲刺 · The thermometer is sprinting",
             "空调是最好的发明 · Air conditioning is humanity's best idea", "complementary",
             "温度一路升高，太阳越来越大，人越来越烦躁：热得一格比一格难受。 · The mercury climbs, the sun swells and the "
             "person gets crosser: each panel is hotter than the one it follows.",
             progression(lambda t: thermometer(90, 160, t) + sun(200, 60, 14 + 18 * t), [0.25, 0.5, 0.75, 0.98],
                         ["温度计低低的，小太阳 · A low thermometer and a small sun", "温度计到一半，太阳变大 · A half-way thermometer and a bigger sun",
                          "温度计很高，大太阳 · A high thermometer and a large sun", "温度计爆表，巨大的太阳 · A thermometer at the top and a huge sun"],
                         outdoor("#fbe3c4", "#d9c27a"), ["happy", "neutral", "annoyed", "angry"], who_x=240, shirt=TEAL)),
    ]


def long():
    phases = [0.0, 0.12, 0.28, 0.42, 0.58, 0.72, 0.88, 1.0]
    moon_words = ["漆黑的新月夜空 · A dark sky with a new moon", "一弯细细的月牙 · A thin crescent moon",
                  "胖一点的月牙 · A fuller crescent moon", "差一点半圆的月亮 · A moon just short of half",
                  "过半的月亮 · A moon just past half", "鼓鼓的凸月 · A swelling gibbous moon",
                  "几乎圆的月亮 · An almost round moon", "圆圆的满月 · A round full moon"]
    battery_words = ["满格的电池 · A full battery", "大半格电池 · A battery mostly full", "过半的电池 · A battery just over half",
                     "一半的电池 · A half-full battery", "剩三成的橙色电池 · An orange battery about a third full",
                     "剩一点的红色电池 · A red battery nearly empty", "空电池 · An empty battery"]
    cookie_words = ["满满一盘饼干 · A plate full of biscuits", "少了两块的饼干盘 · A plate of biscuits, two gone",
                    "剩一半的饼干 · Half a plate of biscuits", "剩几块饼干 · A few biscuits left on the plate",
                    "剩两块饼干 · Two biscuits on the plate", "剩一块饼干 · One biscuit on the plate", "空盘子 · An empty plate"]
    castle_words = ["完整的沙堡插着小旗 · A whole sandcastle with a flag", "海浪碰到沙堡 · A wave touching the sandcastle",
                    "塔矮了的沙堡 · A sandcastle with lower towers", "塌了一半的沙堡 · A half-collapsed sandcastle",
                    "只剩墙根的沙堡 · A sandcastle down to its walls", "一小堆湿沙 · A small mound of wet sand",
                    "平平的沙滩 · Flat wet sand"]
    tree_words = ["一棵小树苗 · A little sapling", "稍高的小树 · A small young tree", "半大的树 · A half-grown tree",
                  "结了几个苹果的树 · A tree with a few apples", "挂着不少苹果的树 · A tree with plenty of apples",
                  "结满苹果的大树 · A big tree laden with apples", "大树下一筐苹果 · A big tree with a basket of apples beneath it"]
    book_words = ["两本书 · Two books", "一小摞书 · A small pile of books", "半人高的书堆 · A waist-high pile of books",
                  "齐肩的书堆 · A shoulder-high pile of books", "比人高的书堆 · A pile of books taller than a person",
                  "歪歪扭扭的高书堆 · A teetering tall pile of books", "倒塌的书堆 · A toppled pile of books"]
    hair_words = ["短发的人 · A person with short hair", "刚过耳朵的头发 · Hair just past the ears", "齐下巴的头发 · Chin-length hair",
                  "齐肩的头发 · Shoulder-length hair", "过肩的长发 · Hair past the shoulders", "齐腰的长发 · Waist-long hair",
                  "拖到地上的长发 · Hair down to the floor"]
    return [
        make("progressive", "strong", "一个月的月亮 · A month of moons", "从无到圆 · From nothing to full",
             "狼人表示压力很大 · Werewolves are nervous", "image_dominant",
             "同一扇窗外，月亮从看不见一点点变圆：月相按顺序增长。 · Through the same window the moon grows from invisible to "
             "full; the phases wax in order.",
             progression(lambda p: moon_phase(160, 120, 60, p), phases, moon_words,
                         [rect(3, 3, 314, 314, NIGHT), house(160, 310, True, "#8a7a6a", "#5a4a4a", 0.6)])),
        make("progressive", "strong", "电量焦虑 · Battery anxiety", "电池在变红，人在变慌 · As the bar goes red, so does the mood",
             "百分之二十就开始找插座 · Hunting for a socket at twenty percent", "complementary",
             "电量一格格往下掉，人从悠闲到抓狂，最后抱着空电池哭：电量只能往下掉。 · The charge drops bar by bar and the owner "
             "goes from relaxed to frantic to tears; charge only goes down.",
             progression(lambda v: battery(120, 140, v), [1.0, 0.8, 0.6, 0.45, 0.3, 0.1, 0.0], battery_words,
                         [rect(3, 3, 314, 314, "#f1eef7")], ["happy", "happy", "neutral", "annoyed", "surprised", "angry", "sad"],
                         who_x=260, shirt=ORANGE)),
        make("progressive", "strong", "饼干盘 · The biscuit plate", "我就吃一块 · Just the one",
             "“一块”的单位不是块 · 'Just one' is not a unit", "sarcastic_conflict",
             "说只吃一块，饼干却一块块变少，最后只剩空盘：数量只减不增。 · 'Just one biscuit', and yet the plate empties bit by "
             "bit; the count only goes down.",
             progression(lambda c: plate(120, 230, c, "cookie", 90), [8, 6, 4, 3, 2, 1, 0], cookie_words,
                         indoor("#f7efe0", "#c9a77c") + [table(250, 20, 220)], ["happy", "happy", "laugh", "neutral", "surprised",
                                                                              "annoyed", "sad"], who_x=265, shirt=PINK)),
        make("progressive", "strong", "沙堡与潮水 · Sandcastle vs. tide", "潮水赢了 · The tide wins",
             "大海：我只是路过 · Sea: I was just passing", "image_dominant",
             "潮水一波波上来，沙堡一点点被冲平：只会越来越塌。 · Wave after wave, the sandcastle is washed flat; it only ever "
             "crumbles further.",
             progression(lambda t: rect(3, 3, 314, 120 + 60 * t, "#8cc8e8") + sandcastle(140, 270, t), [0, 0.15, 0.3, 0.5, 0.7, 0.85, 1.0],
                         castle_words, [rect(3, 3, 314, 314, "#f0dba4")], ["laugh", "happy", "surprised", "annoyed", "sad", "sad", "angry"],
                         who_x=265, shirt=BLUE)),
        make("progressive", "strong", "苹果树 · The apple tree", "种树的人吃到了苹果 · The planter gets the apples",
             "前人栽树，自己乘凉 · Plant it yourself, enjoy it yourself", "image_dominant",
             "小树苗一年年长高、结果，最后收了一筐苹果：生长只能往前。 · A sapling grows year by year, bears fruit, and fills a "
             "basket; growth only moves forward.",
             progression(apple_tree, list(range(7)), tree_words, outdoor("#dff0fb", "#9bd27c"))),
        make("progressive", "strong", "待读书单 · The to-read pile", "买书如山倒，读书如抽丝 · Books come fast, reading goes slow",
             "买书和读书是两个爱好 · Buying books and reading them are two hobbies", "sarcastic_conflict",
             "书越买越多，越堆越高，终于倒塌：书堆只长不减。 · The pile of unread books grows taller until it topples; it never "
             "shrinks.",
             progression(lambda c: stack(110, 295, c, [RED, BLUE, GREEN, YELLOW, PURPLE, ORANGE], 100, 20, 0 if c < 13 else 0)
                         if c < 14 else "".join(rect(20 + i * 22, 270 - (i % 3) * 12, 60, 20, [RED, BLUE, GREEN, YELLOW][i % 4], INK, 2)
                                                for i in range(10)),
                         [2, 4, 6, 8, 11, 13, 14], book_words, indoor("#efe6f6", "#c7b7a3"),
                         ["happy", "happy", "neutral", "neutral", "surprised", "annoyed", "sad"], who_x=250, shirt=PURPLE)),
        make("progressive", "strong", "留长发 · Growing my hair out", "头发比耐心长 · Hair outgrows patience",
             "理发师：你终于来了 · Barber: finally", "image_dominant",
             "头发从短到长，最后长到拖地：只会越长越长。 · Hair grows from short to floor-length; it only gets longer.",
             [(items, alt) for items, alt in progression(hair, [0, 30, 60, 100, 140, 190, 240], hair_words,
                                                         [rect(3, 3, 314, 314, "#f6eef2")])]),
        make("progressive", "strong", "雪越下越大 · Snow day", "从下雪到被雪埋 · From snowfall to snowbound",
             "南方人的快乐 · A southerner's dream", "image_dominant",
             "雪一直下，积雪从薄到厚，最后人只剩下头露在外面：积雪只增不减。 · The snow keeps falling until only a head sticks "
             "out; the drift only gets deeper.",
             progression(snow, [4, 10, 18, 26, 42, 58, 76],
                         ["地上薄薄一层雪 · A dusting of snow on the ground", "没过脚踝的雪 · Ankle-deep snow",
                          "没过小腿的雪 · Snow up to the shins", "没过膝盖的雪 · Knee-deep snow", "齐腰的雪 · Waist-deep snow",
                          "齐胸的雪 · Chest-deep snow", "只露出脑袋的大雪 · Snow so deep only a head shows"],
                         [rect(3, 3, 314, 314, "#aab8c8")], ["laugh", "happy", "happy", "surprised", "neutral", "annoyed", "sad"],
                         who_x=160, shirt=GREEN, behind=True)),
    ]


def comics():
    return short() + medium() + long()
