"""Places for holiday snapshots (a beach, a mountain, a market…), each drawn with one person
in it, and the weak narrative comics made of them: one traveller's album, whose snapshots
tell the trip in any order. `comics_sets` uses the same places for parallel comics (a
different person in each panel)."""

import math

from comic_spec import *  # noqa: F401,F403


def _beach(c, mood):
    return outdoor("#cfeaf7", "#f0dba4", 210) + [rect(3, 150, 314, 60, "#7fb8e0"), sun(260, 50, 20), umbrella(90, 150, 50, RED),
                                                 person(200, 300, mood, c, 0.75, "up")]


def _mountain(c, mood):
    return outdoor("#dceefa", "#9bd27c") + [poly([(20, 250), (120, 70), (220, 250)], "#8d9aa6", INK, 2),
                                            poly([(100, 106), (120, 70), (140, 106)], WHITE),
                                            poly([(150, 250), (230, 120), (310, 250)], "#a3adb6", INK, 2),
                                            person(250, 300, mood, c, 0.6, "wave")]


def _picnic(c, mood):
    return outdoor("#e3f1d4", "#a7d78b") + [poly([(40, 270), (220, 270), (250, 300), (10, 300)], RED, INK, 2),
                                            plate(120, 278, 4, "strawberry", 50), tree(260, 250, 1.0, GREEN, 0, RED, 0.7),
                                            person(220, 300, mood, c, 0.7, "hold")]


def _museum(c, mood):
    return indoor("#efe9e0", "#b8a48a") + [rect(30, 60, 90, 70, "#f7d9a8", INK, 4) + sun(75, 95, 14, ORANGE, False),
                                           rect(200, 50, 90, 110, "#cfe3f1", INK, 4) + poly([(210, 150), (245, 90), (280, 150)], GREEN),
                                           person(150, 300, mood, c, 0.8, "point")]


def _food(c, mood):
    return outdoor("#f6d7b0", "#b5b5b5") + [rect(30, 140, 170, 110, "#e07a4b", INK, 2), rect(20, 110, 190, 30, YELLOW, INK, 2),
                                            plate(115, 180, 6, "dumpling", 60), person(260, 300, mood, c, 0.75, "hold")]


def _boat(c, mood):
    return [rect(3, 3, 314, 200, "#d5ecf7"), rect(3, 200, 314, 117, "#5b9bd5"),
            path("M60,220 L260,220 L230,260 L90,260 Z", WOOD, INK, 2), line(160, 90, 160, 220, INK, 3),
            poly([(165, 95), (240, 200), (165, 200)], WHITE, INK, 2), face(110, 200, 18, mood), rect(98, 218, 24, 8, c)]


def _campfire(c, mood):
    return [rect(3, 3, 314, 240, NIGHT), rect(3, 240, 314, 77, "#3e5a3a"), star(60, 50, 6, WHITE), star(250, 40, 5, WHITE),
            star(180, 80, 4, WHITE), poly([(120, 270), (160, 200), (200, 270)], ORANGE), poly([(140, 270), (160, 230), (180, 270)], YELLOW),
            person(250, 300, mood, c, 0.7, "hold")]


def _city(c, mood):
    towers = "".join(rect(20 + k * 60, 60 + (k * 37) % 90, 50, 200, col, INK, 2)
                     for k, col in enumerate(("#9fb3c8", "#c8b09f", "#a8c8a0", "#b8a8c8", "#c8c0a0")))
    return outdoor("#e6eef5", "#b5b5b5") + [towers, person(160, 305, mood, c, 0.75, "wave")]


def _snow(c, mood):
    return outdoor("#dde6ee", WHITE) + [circle(90, 230, 34, WHITE, INK, 2), circle(90, 180, 24, WHITE, INK, 2),
                                        poly([(90, 180), (112, 184), (90, 188)], ORANGE), person(230, 300, mood, c, 0.75, "wave")]


def _garden(c, mood):
    return outdoor("#e8f4fb", "#9bd27c") + [flower(40 + k * 36, 280, 50 + (k % 3) * 16, (PINK, YELLOW, PURPLE, RED)[k % 4])
                                            for k in range(5)] + [person(250, 300, mood, c, 0.75, "down")]


def _bike(c, mood):
    return outdoor("#dff0fb", "#b9dca0") + [circle(100, 260, 34, None, INK, 4), circle(220, 260, 34, None, INK, 4),
                                            path("M100,260 L150,200 L220,260 L150,260 Z", None, c, 5),
                                            person(160, 250, mood, c, 0.6, "hold")]


def _market(c, mood):
    fruit = "".join(circle(60 + k * 26, 196, 11, (RED, ORANGE, YELLOW, GREEN)[k % 4], INK, 1.5) for k in range(6))
    return outdoor("#f3efe2", "#c9c3b5") + [rect(30, 200, 180, 60, WOOD, INK, 2), fruit,
                                            poly([(20, 120), (220, 120), (200, 90), (40, 90)], GREEN, INK, 2),
                                            person(260, 300, mood, c, 0.75, "point")]


def _aquarium(c, mood):
    return [rect(3, 3, 314, 314, "#1f5f8b"), fish(90, 90, 1.2, ORANGE), fish(220, 140, 0.9, YELLOW, -1), fish(120, 190, 0.8, PINK),
            path("M40,300 q10,-60 0,-100 M270,300 q-12,-50 4,-90", None, GREEN, 5), person(200, 310, mood, c, 0.7, "point")]


def _wheel(c, mood):
    spokes = "".join(line(130, 130, 130 + 90 * math.cos(a / 4 * math.pi), 130 + 90 * math.sin(a / 4 * math.pi), INK, 2) for a in range(8))
    cars = "".join(rect(122 + 90 * math.cos(a / 4 * math.pi), 122 + 90 * math.sin(a / 4 * math.pi), 16, 16,
                        (RED, BLUE, YELLOW, GREEN)[a % 4], INK, 1.5) for a in range(8))
    return outdoor("#fbe3c4", "#c9c3b5") + [circle(130, 130, 90, None, INK, 3), spokes, cars, line(130, 130, 90, 250, INK, 4),
                                            line(130, 130, 170, 250, INK, 4), person(270, 300, mood, c, 0.7, "up")]


def _spring(c, mood):
    steam = "".join(path(f"M{80 + k * 50},170 q-10,-20 0,-40 q10,-20 0,-40", None, GREY, 3) for k in range(4))
    return outdoor("#dde6ee", "#c9c3b5") + [ellipse(160, 240, 140, 50, "#9fd1e6", INK, 2), steam, face(160, 230, 22, mood),
                                            rect(140, 250, 40, 6, c)]


def _train(c, mood):
    return indoor("#d9d2c5", "#8d8577") + [rect(40, 60, 240, 130, "#cfe8f5", INK, 4),
                                           poly([(40, 190), (120, 120), (200, 190)], GREEN), poly([(140, 190), (220, 110), (280, 190)], "#7fb070"),
                                           person(160, 310, mood, c, 0.7, "down")]


PLACES = {
    "beach": (_beach, "海滩", "a beach"), "mountain": (_mountain, "山脚", "a mountainside"),
    "picnic": (_picnic, "野餐布旁", "a picnic blanket"), "museum": (_museum, "美术馆", "a gallery"),
    "food": (_food, "饺子摊", "a dumpling stall"), "boat": (_boat, "帆船上", "a sailing boat"),
    "campfire": (_campfire, "夜里的篝火边", "a campfire at night"), "city": (_city, "高楼之间", "the city towers"),
    "snow": (_snow, "雪人旁", "a snowman"), "garden": (_garden, "花丛里", "a flower bed"), "bike": (_bike, "自行车上", "a bicycle"),
    "market": (_market, "水果摊", "a fruit stall"), "aquarium": (_aquarium, "水族馆", "an aquarium"),
    "wheel": (_wheel, "摩天轮下", "a Ferris wheel"), "spring": (_spring, "温泉里", "a hot spring"),
    "train": (_train, "火车窗边", "a train window"),
}


def snapshot(place, shirt, mood, who=("旅行者", "The traveller")):
    draw, zh, en = PLACES[place]
    mzh, men = MOODS[mood]
    return draw(shirt, mood), f"{who[0]}在{zh}，{mzh} · {who[1]} at {en}, {men}"


def album(shirt, stops, who):
    return [snapshot(p, shirt, m, who) for p, m in stops]


def narratives():
    def trip(title, caption, comment, insight, shirt, stops, who=("穿{}的旅行者", "The traveller in {}"), colour=("", "")):
        who = (who[0].format(colour[0]), who[1].format(colour[1]))
        return make("narrative", "weak", title, caption, comment, "image_dominant", insight, album(shirt, stops, who))

    return [
        trip("海岛假期 · Island holiday", "相册随手翻 · Flicking through the album", "晒黑了但值得 · Tanned but worth it",
             "同一个人在海岛的七张快照：海滩、帆船、集市……看的是一趟开心的旅行，换个顺序也讲得通。 · Seven snapshots of one "
             "person's island trip; shuffled, they still tell the same happy holiday.", "#e86f9a",
             [("beach", "laugh"), ("boat", "happy"), ("market", "happy"), ("aquarium", "surprised"), ("food", "laugh"),
              ("campfire", "happy"), ("wheel", "laugh")], colour=("粉衣", "pink")),
        trip("山里的周末 · Weekend in the hills", "手机没信号的两天 · Two days without signal", "空气都是甜的 · Even the air tastes sweet",
             "一个人在山里的周末：爬山、篝火、骑车、泡温泉，快照的先后并不重要。 · A hillside weekend of climbing, campfires, "
             "cycling and a hot spring; the snapshots work in any order.", "#3f8f5f",
             [("mountain", "happy"), ("campfire", "laugh"), ("bike", "happy"), ("picnic", "happy"), ("garden", "relieved"),
              ("spring", "relieved"), ("train", "sleep")], colour=("墨绿衣", "dark green")),
        trip("城市漫步 · City stroll", "一天走了两万步 · Twenty thousand steps in a day", "脚：我辞职 · Feet: I quit",
             "一个人逛城市的八个瞬间：高楼、美术馆、小吃、摩天轮……是一天的见闻，不依赖顺序。 · Eight moments of a city walk "
             "(towers, gallery, snacks, a Ferris wheel): a day's sights, not a sequence.", "#5a6fd6",
             [("city", "happy"), ("museum", "surprised"), ("food", "laugh"), ("wheel", "happy"), ("market", "neutral"),
              ("train", "happy"), ("garden", "happy"), ("aquarium", "laugh")], colour=("靛蓝衣", "indigo")),
        trip("冬天的旅行 · Winter trip", "冷，但是开心 · Cold but happy", "温泉是冬天的奖励 · Hot springs are winter's reward",
             "冬日旅行的七张照片：雪人、温泉、火车、篝火，哪张先看都一样温暖。 · Seven winter snapshots (snowman, hot spring, "
             "train, campfire); any order is just as cosy.", "#b5533c",
             [("snow", "laugh"), ("spring", "relieved"), ("mountain", "surprised"), ("train", "happy"), ("food", "happy"),
              ("campfire", "relieved"), ("city", "neutral")], colour=("砖红衣", "brick red")),
        trip("野餐日 · Picnic day", "带了三明治，忘了伞 · Sandwiches packed, umbrella forgotten", "草莓最重要 · Strawberries come first",
             "一次野餐的几个片段：草地、花丛、骑车、水果摊，顺序随意。 · Bits of a picnic day (blanket, flowers, bike, fruit "
             "stall) in no particular order.", "#d6a23c",
             [("picnic", "laugh"), ("garden", "happy"), ("bike", "happy"), ("market", "happy")], colour=("姜黄衣", "mustard")),
        trip("游乐园 · Fun fair", "尖叫声是门票的一部分 · The screaming is included", "摩天轮最适合拍照 · The Ferris wheel wins every photo",
             "在游乐园玩的五个瞬间：摩天轮、小吃、水族馆……每张都是独立的快乐。 · Five moments at the fair (wheel, snacks, "
             "aquarium…), each its own bit of fun.", "#8a4fbf",
             [("wheel", "laugh"), ("food", "happy"), ("aquarium", "surprised"), ("market", "happy"), ("city", "happy")],
             colour=("深紫衣", "deep purple")),
        trip("钓鱼周末 · Fishing weekend", "没钓到鱼，但很开心 · No fish, still happy", "鱼：今天休息 · Fish: day off",
             "去钓鱼的周末：坐船、吃饭、篝火、睡在火车上，照片怎么排都行。 · A fishing weekend of boats, food, a campfire and "
             "a train nap; the photos go in any order.", "#2f7f8f",
             [("boat", "neutral"), ("food", "laugh"), ("campfire", "happy"), ("train", "sleep")], colour=("蓝绿衣", "teal-blue")),
        trip("博物馆日 · Museum day", "假装看得懂 · Pretending to understand art", "出口的纪念品店最好逛 · The gift shop is the highlight",
             "逛博物馆和城市的一天：看画、看鱼、看楼、吃东西，看的顺序不影响。 · A day of galleries, fish tanks, towers and "
             "snacks; the viewing order changes nothing.", "#6b6b6b",
             [("museum", "neutral"), ("aquarium", "happy"), ("city", "surprised"), ("food", "laugh")], colour=("炭灰衣", "charcoal")),
        trip("骑车郊游 · Bike trip", "腿酸但值得 · Sore legs, worth it", "下坡的时候最开心 · Downhill is the best part",
             "骑车郊游的五张照片：骑行、山、花、野餐、温泉，是一天的拼贴，不是严格的时间线。 · Five bike-trip photos (ride, hills, "
             "flowers, picnic, spring): a collage of a day, not a strict timeline.", "#c0392b",
             [("bike", "laugh"), ("mountain", "happy"), ("garden", "happy"), ("picnic", "relieved"), ("spring", "sleep")],
             colour=("正红衣", "scarlet")),
        trip("海边 · By the sea", "两张照片就够了 · Two photos say it all", "海风吹走了烦恼 · The sea breeze blows worries away",
             "海边的两张照片：沙滩和帆船，谁先谁后都一样。 · Two seaside photos (beach and boat); either can come first.", "#1f9d8a",
             [("beach", "happy"), ("boat", "laugh")], colour=("碧绿衣", "jade")),
        trip("雪天出门 · A snowy day out", "堆雪人、泡温泉、坐火车 · Snowman, spring, train", "冻得开心 · Frozen and happy",
             "下雪天出去玩的三个片段，换个顺序也成立。 · Three bits of a snowy day out that work in any order.", "#7a5230",
             [("snow", "laugh"), ("spring", "relieved"), ("train", "happy")], colour=("咖啡色衣", "brown")),
        trip("夜市 · Night market", "吃了一路 · Eating all the way", "减肥明天再说 · The diet starts tomorrow",
             "逛夜市的三张照片：饺子、水果、篝火边休息，先后无所谓。 · Three night-market snaps (dumplings, fruit, a rest by the "
             "fire) in any order.", "#e0a030",
             [("food", "laugh"), ("market", "happy"), ("campfire", "relieved")], colour=("金黄衣", "golden")),
    ]
