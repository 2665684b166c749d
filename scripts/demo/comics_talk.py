"""Generated demo comics, conversational: exchanges of symbol bubbles. Strong ones answer and
react (the order carries the joke); weak ones collect replies to one message, which read the
same in any order."""

from comic_spec import *  # noqa: F401,F403

BLUE_P = ("person", BLUE, "蓝衣人", "The person in blue")
RED_P = ("person", RED, "红衣人", "The person in red")
GREEN_P = ("person", GREEN, "绿衣人", "The person in green")
PURPLE_P = ("person", PURPLE, "紫衣人", "The person in purple")
ORANGE_P = ("person", ORANGE, "橙衣人", "The person in orange")
GREY_P = ("person", GREY, "灰衣人", "The person in grey")
PINK_P = ("person", PINK, "粉衣人", "The person in pink")
TEAL_P = ("person", TEAL, "青衣人", "The person in teal")
ORANGE_CAT = ("cat", ORANGE, "橘猫", "The orange cat")
GREY_CAT = ("cat", "#b9bec4", "灰猫", "The grey cat")
BLACK_CAT = ("cat", "#555a60", "黑猫", "The black cat")
DOG = ("dog", "#c08a52", "小黄狗", "The tan dog")
WHITE_DOG = ("dog", "#f1ece4", "小白狗", "The white dog")
SPOT_DOG = ("dog", "#8a6a50", "小棕狗", "The brown dog")
YELLOW_BIRD = ("bird", YELLOW, "黄鸟", "The yellow bird")
BLUE_BIRD = ("bird", BLUE, "蓝鸟", "The blue bird")
GREEN_BIRD = ("bird", GREEN, "绿鹦鹉", "The green parrot")
RED_BIRD = ("bird", RED, "红鸟", "The red bird")

GREY_SKY = outdoor("#c5ccd3", "#8fbf74")
PARK = outdoor("#d8ecf7", "#9bd27c") + [cloud(270, 150, 0.5)]
ROOM = indoor() + [window(230, 120, 70, 60)]
NIGHT_ROOM = indoor("#4b557a", "#6f6a80") + [window(230, 120, 70, 60, NIGHT, circle(250, 138, 8, "#f4efc8"))]
KITCHEN = indoor("#eef3e6", "#c9b28f") + [rect(10, 200, 300, 14, WOOD, INK, 2)]
CAFE = indoor("#f6e3cf", "#b98b63") + [rect(20, 120, 60, 40, "#9fd1c4", INK, 2)]
SHORE = outdoor("#cfeaf7", "#f0dba4")
RAINY = outdoor("#aab4bd", "#86a877") + [cloud(160, 130, 0.6, "#8d969e")]
LAWN = outdoor("#e3f1d4", "#a7d78b")
EVENING = outdoor("#f6c9a8", "#8fbf74") + [sun(270, 150, 14, ORANGE, False)]


def strong_short():
    return [
        make("conversational", "strong", "借伞 · Borrowing an umbrella", "下雨天最暖的一句话 · The kindest words on a rainy day",
             "我只会被问“你没带伞吗” · I only ever get asked 'no umbrella?'", "image_dominant",
             "一个人淋雨发愁，另一个人递上雨伞，于是收获一颗爱心：先有求助、再有帮忙、最后道谢，顺序就是故事。 · One person frets "
             "about the rain, the other offers an umbrella and gets a heart back: ask, help, thanks, in that order.",
             conversation([BLUE_P, GREEN_P], [(0, ["rain", "?"], {0: "sad"}), (1, ["umbrella", "check"], {0: "surprised", 1: "happy"}),
                                             (0, ["heart"], {0: "happy", 1: "happy"})], GREY_SKY)),
        make("conversational", "strong", "谁吃了鱼？ · Who ate the fish?", "嫌疑人有一条尾巴 · The suspect has a tail",
             "猫：证据呢？ · Cat: where's your proof?", "complementary",
             "主人质问鱼去哪了，猫一口否认，结果鱼骨头就在猫脚边：否认在前、露馅在后才好笑。 · The owner asks where the fish went, "
             "the cat denies everything, and the bones turn up right by its paws: the denial has to come before the reveal.",
             conversation([RED_P, ORANGE_CAT], [(0, ["fish", "?"], {0: "angry", 1: "neutral"}), (1, ["cross"], {0: "annoyed", 1: "happy"}),
                                               (0, ["!"], {0: "surprised", 1: "laugh"})], KITCHEN,
                          {2: (path("M200,300 l60,0 M215,290 l0,20 M230,290 l0,20 M245,290 l0,20", None, INK, 3),
                               "猫脚边有鱼骨头", "fish bones lie by the cat's paws")})),
        make("conversational", "strong", "灵感来了 · Eureka", "两个人的脑子，一个灯泡 · Two heads, one light bulb",
             "小组作业真实写照 · Group projects in a nutshell", "image_dominant",
             "一个人想不出来冒问号，朋友灵光一闪，于是两人都开心得冒星星：有问题才有答案。 · One friend is stuck, the other "
             "has the idea, and both light up: the question comes before the answer.",
             conversation([PURPLE_P, ORANGE_P], [(0, ["?"], {0: "annoyed", 1: "neutral"}), (1, ["bulb"], {0: "surprised", 1: "happy"}),
                                                (0, ["star", "check"], {0: "laugh", 1: "happy"})], ROOM)),
        make("conversational", "strong", "晚安？ · Good night?", "狗狗的作息和你不一样 · The dog keeps other hours",
             "半夜叼球的都是小天使 · Midnight ball-bringers are angels, really", "image_dominant",
             "主人说晚安要睡觉，狗却叼着球要玩，被拒绝后委屈巴巴：请求和拒绝的顺序不能换。 · The owner says good night, the dog "
             "wants to play, and the refusal leaves it sulking: the request must come before the no.",
             conversation([BLUE_P, DOG], [(0, ["moon", "zzz"], {0: "sleep", 1: "happy"}), (1, ["ball", "!"], {0: "surprised", 1: "laugh"}),
                                         (0, ["cross"], {0: "angry", 1: "sad"})], NIGHT_ROOM)),
        make("conversational", "strong", "要咖啡吗？ · Coffee?", "问一个困的人要不要咖啡 · Asking a sleepy person about coffee",
             "两杯起步 · Two cups minimum", "image_dominant",
             "一个人问困倦的同事要不要咖啡，同事立刻要两杯：问题在前，夸张的回答才好笑。 · Offer coffee to a sleepy colleague "
             "and they want two at once: the over-the-top answer needs the question first.",
             conversation([RED_P, TEAL_P], [(0, ["coffee", "?"], {0: "happy", 1: "sleep"}),
                                           (1, ["coffee", "coffee", "!"], {0: "surprised", 1: "surprised"})], CAFE)),
    ]


def strong_medium():
    return [
        make("conversational", "strong", "约饭迟到 · Running late", "迟到的人带着蛋糕来了 · The latecomer brings cake",
             "蛋糕能解决一切 · Cake fixes everything", "complementary",
             "朋友等得不耐烦，迟到的人先哭着道歉、被拒绝，最后拿出礼物和好：从生气到和好一步步来。 · A friend waits annoyed, the "
             "latecomer apologises, is turned down, then produces a gift: the anger melts one step at a time.",
             conversation([BLUE_P, RED_P], [(0, ["clock", "?"], {0: "annoyed", 1: "neutral"}), (1, ["tear"], {0: "annoyed", 1: "sad"}),
                                           (0, ["cross"], {0: "angry", 1: "sad"}), (1, ["gift"], {0: "surprised", 1: "happy"}),
                                           (0, ["heart"], {0: "laugh", 1: "laugh"})], EVENING)),
        make("conversational", "strong", "猜谜 · A riddle", "猜对了，但没完全对 · Right answer, wrong riddle",
             "出谜的人最开心 · The riddler always wins", "image_dominant",
             "一人出谜，另一人想了半天、灵光一闪，却被告知猜错，气得大叫：想、猜、错、怒，顺序分明。 · A riddle, a long think, a "
             "bright idea, a cross, and an outburst: think, guess, wrong, fume.",
             conversation([GREEN_P, PURPLE_P], [(0, ["?", "star"], {0: "happy", 1: "neutral"}), (1, ["?"], {0: "happy", 1: "annoyed"}),
                                               (1, ["bulb"], {0: "neutral", 1: "happy"}), (0, ["cross"], {0: "laugh", 1: "surprised"}),
                                               (1, ["!", "!"], {0: "laugh", 1: "angry"})], PARK)),
        make("conversational", "strong", "天气预报 · The forecast", "猫比天气预报准 · The cat beats the forecast",
             "听猫的 · Listen to the cat", "sarcastic_conflict",
             "人说今天晴天，猫怀疑会下雨，人笑它多虑，结果真下雨了：预言在前、应验在后。 · The person promises sun, the cat "
             "doubts it, gets laughed at, and the rain comes anyway: the forecast before the downpour.",
             conversation([BLUE_P, GREY_CAT], [(0, ["sun", "check"], {0: "happy", 1: "neutral"}), (1, ["rain", "?"], {0: "happy", 1: "annoyed"}),
                                              (0, ["cross"], {0: "laugh", 1: "annoyed"}), (1, ["umbrella", "!"], {0: "surprised", 1: "angry"})],
                          LAWN, {3: ("".join(drop(30 + k * 37, 120 + (k * 53) % 90) for k in range(8)), "下起了雨", "rain falling")})),
        make("conversational", "strong", "遛狗 · Walkies", "狗的眼泪最有用 · A dog's tears always work",
             "每次都输给这个眼神 · I lose to that look every time", "image_dominant",
             "狗叼球想出门，主人指着钟说还没到时间，狗一哭，主人就投降了：请求、拒绝、眼泪、同意。 · The dog wants a walk, the "
             "owner points at the clock, the dog cries, the owner gives in: ask, no, tears, yes.",
             conversation([GREEN_P, WHITE_DOG], [(1, ["ball", "?"], {0: "neutral", 1: "happy"}), (0, ["clock"], {0: "neutral", 1: "sad"}),
                                                (1, ["tear"], {0: "surprised", 1: "sad"}), (0, ["check", "ball"], {0: "laugh", 1: "laugh"})],
                          ROOM)),
    ]


def strong_long():
    return [
        make("conversational", "strong", "吵架与和好 · Falling out and making up", "一块蛋糕的外交 · Cake diplomacy",
             "吵架的理由早忘了 · Nobody remembers what the fight was about", "image_dominant",
             "两人从亲密到吵架，越吵越凶，又一起难过，最后用蛋糕和好：情绪一格格升高再回落。 · From hearts to a row that "
             "escalates, to shared tears, to cake and a hug: the mood climbs and falls panel by panel.",
             conversation([BLUE_P, PINK_P], [(0, ["heart"], {0: "happy", 1: "happy"}), (1, ["cross"], {0: "surprised", 1: "annoyed"}),
                                            (0, ["!"], {0: "angry", 1: "annoyed"}), (1, ["!", "!"], {0: "angry", 1: "angry"}),
                                            (0, ["tear"], {0: "sad", 1: "sad"}), (1, ["cake", "?"], {0: "sad", 1: "happy"}),
                                            (0, ["heart", "check"], {0: "laugh", 1: "laugh"})], PARK)),
        make("conversational", "strong", "点菜 · Ordering dinner", "今天只剩咖啡 · Today's menu: coffee",
             "餐厅：我们主打一个随缘 · The restaurant runs on vibes", "sarcastic_conflict",
             "客人点披萨、点饺子都被拒绝，越来越生气，最后只有咖啡：一次次落空才好笑。 · Pizza? No. Dumplings? No. The guest "
             "gets crosser until coffee is all there is: the joke is the string of refusals.",
             conversation([BLUE_P, GREY_P], [(1, ["?"], {0: "happy", 1: "happy"}), (0, ["pizza"], {0: "happy", 1: "happy"}),
                                            (1, ["cross"], {0: "surprised", 1: "sad"}), (0, ["dumpling", "?"], {0: "neutral", 1: "sad"}),
                                            (1, ["cross", "tear"], {0: "annoyed", 1: "sad"}), (0, ["?", "?"], {0: "angry", 1: "sad"}),
                                            (1, ["coffee", "check"], {0: "annoyed", 1: "happy"}), (0, ["tear"], {0: "sad", 1: "happy"})],
                          CAFE)),
        make("conversational", "strong", "教鹦鹉唱歌 · Singing lessons", "学生青出于蓝 · The pupil outsings the teacher",
             "鹦鹉：你跑调了 · Parrot: you're off key", "image_dominant",
             "主人教鹦鹉唱歌，鹦鹉先是不懂、乱叫，被纠正后唱得比主人还好：教学有先后。 · A parrot learns to sing: puzzled, "
             "squawking, corrected, then better than its teacher.",
             conversation([PURPLE_P, GREEN_BIRD], [(0, ["note"], {0: "happy", 1: "neutral"}), (1, ["?"], {0: "happy", 1: "neutral"}),
                                                  (0, ["music"], {0: "happy", 1: "neutral"}), (1, ["!"], {0: "surprised", 1: "laugh"}),
                                                  (0, ["cross"], {0: "annoyed", 1: "neutral"}), (1, ["music", "star"], {0: "surprised", 1: "laugh"}),
                                                  (0, ["heart", "star"], {0: "laugh", 1: "laugh"})], ROOM)),
        make("conversational", "strong", "周末去哪 · Where this weekend?", "三个人，一个决定 · Three friends, one plan",
             "最后总是吃饭 · It always ends in food", "complementary",
             "三个朋友商量周末：有人想打球、有人怕下雨、有人想宅家，最后一致同意吃披萨：提议、否决、妥协。 · Ball games, rain "
             "worries, staying in, and finally pizza for all: proposals, vetoes, then the deal.",
             conversation([BLUE_P, ORANGE_P, GREEN_P], [(0, ["?"], {0: "happy", 1: "neutral", 2: "neutral"}),
                                                       (1, ["sun", "ball"], {0: "neutral", 1: "happy", 2: "neutral"}),
                                                       (2, ["rain", "cross"], {0: "neutral", 1: "sad", 2: "annoyed"}),
                                                       (1, ["house", "?"], {0: "neutral", 1: "neutral", 2: "neutral"}),
                                                       (2, ["zzz", "check"], {0: "annoyed", 1: "neutral", 2: "happy"}),
                                                       (0, ["pizza", "star"], {0: "happy", 1: "surprised", 2: "surprised"}),
                                                       (1, ["heart"], {0: "laugh", 1: "laugh", 2: "laugh"})], PARK)),
        make("conversational", "strong", "喂我 · Feed me", "猫的耐心只有八格 · A cat's patience lasts eight panels",
             "谁是主人还不一定 · Who owns whom is unclear", "image_dominant",
             "猫要鱼，主人说还没到点，猫从撒娇到哭到大叫，主人被吵醒只好投降：一步步升级。 · The cat asks, is told to wait, "
             "pleads, cries and yowls until the owner gives in: a steady escalation.",
             conversation([BLUE_P, BLACK_CAT], [(1, ["fish"], {0: "neutral", 1: "happy"}), (0, ["clock"], {0: "neutral", 1: "neutral"}),
                                               (1, ["fish", "!"], {0: "neutral", 1: "surprised"}), (0, ["cross"], {0: "annoyed", 1: "sad"}),
                                               (1, ["tear"], {0: "annoyed", 1: "sad"}), (0, ["zzz"], {0: "sleep", 1: "sad"}),
                                               (1, ["!", "!"], {0: "sleep", 1: "angry"}), (0, ["fish", "check"], {0: "annoyed", 1: "laugh"})],
                          NIGHT_ROOM)),
    ]


def weak():
    return [
        make("conversational", "weak", "今晚吃什么 · Dinner poll", "七个人，七个答案 · Seven friends, seven answers",
             "最后还是吃火锅 · It'll be hotpot anyway", "text_dominant",
             "群里问晚饭吃什么，每人回一个不同的答案，还有人说随便：回复谁先谁后都一样，好笑的是永远统一不了。 · Everyone "
             "answers the dinner question differently (one just shrugs); the replies could come in any order, agreement never does.",
             replies([BLUE_P, RED_P, ORANGE_CAT, GREEN_P, DOG, PURPLE_P, YELLOW_BIRD],
                     [(["pizza"], "happy"), (["dumpling"], "happy"), (["fish"], "laugh"), (["cake", "heart"], "happy"),
                      (["bone"], "happy"), (["coffee"], "sleep"), (["?"], "neutral")], CAFE)),
        make("conversational", "weak", "点名 · Roll call", "宠物学校第一节课 · Pet school, day one",
             "有一只在睡觉 · One of them is asleep", "image_dominant",
             "宠物学校点名，每只动物各自应答，还有一只在打呼：谁先答都行，乐趣在每只的反应。 · At pet school every animal answers "
             "the roll in its own way, one with snores; any order works, the fun is in each reply.",
             replies([ORANGE_CAT, DOG, YELLOW_BIRD, GREY_CAT, WHITE_DOG, BLUE_BIRD, BLACK_CAT, SPOT_DOG],
                     [(["!"], "happy"), (["!", "bone"], "laugh"), (["note"], "happy"), (["zzz"], "sleep"), (["check"], "happy"),
                      (["music"], "laugh"), (["?"], "annoyed"), (["ball", "!"], "laugh")], LAWN)),
        make("conversational", "weak", "生日祝福 · Birthday wishes", "群里刷屏的祝福 · The group chat floods with wishes",
             "每年都是这些表情 · Same emojis every year", "image_dominant",
             "朋友们给寿星发祝福：蛋糕、礼物、爱心、星星……各发各的，顺序无所谓。 · Friends send the birthday person cake, "
             "gifts, hearts and stars; each reply stands alone, in any order.",
             replies([RED_P, TEAL_P, ORANGE_P, PINK_P, GREEN_BIRD, SPOT_DOG, GREY_P],
                     [(["cake"], "happy"), (["gift"], "laugh"), (["heart", "heart"], "happy"), (["star"], "laugh"),
                      (["music"], "happy"), (["bone", "gift"], "laugh"), (["flower"], "happy")], EVENING)),
        make("conversational", "weak", "周末有空吗 · Free this weekend?", "约人比登天还难 · Making plans is harder than rocket science",
             "只有狗有空 · Only the dog is free", "text_dominant",
             "问大家周末有没有空，有人答应、有人拒绝、有人要睡觉、有人怕下雨：回复互不相干，换顺序也一样。 · Yes, no, sleeping, "
             "raining: the replies to 'free this weekend?' do not depend on each other.",
             replies([GREEN_P, ORANGE_P, PURPLE_P, BLUE_P, GREY_CAT, RED_P, WHITE_DOG],
                     [(["check"], "happy"), (["cross"], "annoyed"), (["zzz"], "sleep"), (["rain", "?"], "neutral"),
                      (["clock"], "neutral"), (["tear"], "sad"), (["ball", "heart"], "laugh")], PARK)),
        make("conversational", "weak", "下雨了 · It's raining", "七种躲雨的回答 · Seven replies to the rain",
             "我选择不出门 · I choose staying in", "complementary",
             "有人说下雨了，大家各自回应：撑伞、回家、难过、开心踩水……每条回复都独立成立。 · Told that it is raining, "
             "everyone replies their own way (umbrella, home, tears, joy); no reply needs another.",
             replies([BLUE_P, PINK_P, GREY_CAT, GREEN_P, YELLOW_BIRD, TEAL_P, DOG],
                     [(["umbrella"], "happy"), (["house"], "neutral"), (["cross"], "angry"), (["tear"], "sad"),
                      (["note"], "happy"), (["coffee", "house"], "relieved"), (["!", "ball"], "laugh")], RAINY)),
        make("conversational", "weak", "谁要咖啡 · Coffee run", "帮大家带咖啡 · Getting coffee for the office",
             "每次都有人要冰的 · Someone always wants it iced", "text_dominant",
             "要去买咖啡，问同事要什么：各回各的，谁先说都可以。 · Asked about a coffee run, each colleague answers for "
             "themselves, in whatever order.",
             replies([RED_P, TEAL_P, PURPLE_P, ORANGE_P], [(["coffee"], "happy"), (["check"], "sleep"), (["cross"], "neutral"),
                                                          (["ice"], "laugh")], CAFE)),
        make("conversational", "weak", "有人发了张猫图 · Someone posted a cat", "群聊瞬间活跃 · The chat wakes up at once",
             "猫图永远有人点赞 · Cat pictures never go unliked", "image_dominant",
             "群里有人发了猫图，大家纷纷回应爱心、大笑、星星：回复彼此独立，顺序不重要。 · A cat picture lands and the replies "
             "pour in (hearts, laughs, stars), each on its own.",
             replies([GREEN_P, PINK_P, BLUE_P, ORANGE_CAT, GREY_P], [(["heart"], "happy"), (["!"], "laugh"), (["star"], "happy"),
                                                                   (["heart", "heart"], "laugh"), (["fish", "?"], "neutral")], ROOM)),
        make("conversational", "weak", "考完试了 · Exam's over", "每个人的考后反应 · How everyone took the exam",
             "有人已经睡着了 · Someone is already asleep", "complementary",
             "考完试大家的反应：有人觉得稳了，有人哭，有人睡，有人开心：各说各的。 · After the exam: confident, crying, "
             "sleeping, delighted; four reactions that do not follow from one another.",
             replies([BLUE_P, RED_P, PURPLE_P, GREEN_P], [(["check"], "relieved"), (["tear"], "sad"), (["zzz"], "sleep"),
                                                         (["star", "!"], "laugh")], ROOM)),
        make("conversational", "weak", "晚安群聊 · Good night, chat", "睡前最后的消息 · Bedtime messages",
             "说晚安的人都在熬夜 · Everyone saying good night is still up", "image_dominant",
             "睡前大家在群里道晚安：月亮、呼噜、爱心、星星、音符，各回各的。 · Good-night replies (moon, snores, hearts, stars, "
             "a song) that could come in any order.",
             replies([BLUE_P, GREY_CAT, PINK_P, YELLOW_BIRD, TEAL_P], [(["moon"], "happy"), (["zzz"], "sleep"), (["heart"], "happy"),
                                                                     (["star", "moon"], "happy"), (["note"], "sleep")], NIGHT_ROOM)),
        make("conversational", "weak", "出去遛弯？ · Walk, anyone?", "狗狗们的回答 · The dogs reply",
             "总有一只只想睡觉 · There's always one who'd rather nap", "image_dominant",
             "问狗狗们要不要出门：有的叼球，有的要骨头，有的兴奋，有的睡觉：每只的回答互不影响。 · Asked about a walk, each dog "
             "answers in its own way (ball, bone, joy, a nap).",
             replies([DOG, WHITE_DOG, SPOT_DOG, ("dog", "#d9b27c", "小黄毛狗", "The sandy dog"), ("dog", "#6b6b6b", "小灰狗", "The grey dog")],
                     [(["ball"], "happy"), (["bone"], "laugh"), (["!", "!"], "laugh"), (["heart"], "happy"), (["zzz"], "sleep")], LAWN)),
        make("conversational", "weak", "早安，猫 · Morning, cats", "两只猫对早晨的看法 · Two cats' views on mornings",
             "我是右边那只 · I'm the one on the right", "image_dominant",
             "一只猫迎着太阳打招呼，另一只还在打呼：两句话谁先谁后都成立。 · One cat greets the sun, the other snores; either "
             "line could come first.",
             conversation([ORANGE_CAT, GREY_CAT], [(0, ["sun"], {0: "happy", 1: "sleep"}), (1, ["zzz"], {0: "happy", 1: "sleep"})],
                          ROOM)),
        make("conversational", "weak", "你好，邻居 · Hello, neighbour", "鸟类社交 · Bird small talk",
             "鸟也要寒暄 · Even birds do small talk", "unclear",
             "两只鸟互相唱歌打招呼：一问一答，但互换也说得通。 · Two birds greet each other in song; swapped, the greeting still "
             "works.", conversation([RED_BIRD, BLUE_BIRD], [(0, ["note"], {}), (1, ["note", "heart"], {})], SHORE)),
        make("conversational", "weak", "吃了吗？ · Eaten yet?", "中式问候的三种回答 · Three answers to a Chinese greeting",
             "问的人其实不关心 · The asker doesn't really care", "text_dominant",
             "“吃了吗”是问候，三个朋友各自回答吃了饺子、披萨或没吃：回答彼此独立。 · 'Eaten yet?' is a greeting; three friends "
             "answer dumplings, pizza or no, each on their own.",
             replies([RED_P, GREEN_P, PURPLE_P], [(["dumpling"], "happy"), (["pizza", "check"], "laugh"), (["cross", "tear"], "sad")],
                     KITCHEN)),
        make("conversational", "weak", "出去玩吗 · Play outside?", "三个孩子，三种回答 · Three kids, three answers",
             "总有一个想睡觉 · One always wants a nap", "image_dominant",
             "问要不要出去玩，一个想踢球，一个想吃冰淇淋，一个要睡觉：顺序无所谓。 · Asked to play outside, one wants the ball, "
             "one an ice cream, one a nap; any order works.",
             replies([ORANGE_P, TEAL_P, BLUE_P], [(["ball", "!"], "laugh"), (["ice"], "happy"), (["zzz"], "sleep")], PARK)),
    ]


def comics():
    return strong_short() + strong_medium() + strong_long() + weak()
