"""How a generated demo comic is written down: `make(...)` records its structure type, ordering
dependency, order groups, bilingual texts and panels (each an SVG body with its alt text);
symbols for speech bubbles and speakers are named here with their bilingual descriptions, so
that alt texts follow from what a panel shows."""

from kit_more import *  # noqa: F401,F403
from panel_kit import (arrow, bird, bubble, bulb, cake, cat, check, clock, cross, drop, exclaim, face, heart, leaf, moon,
                       note, person, phone, pizza, pizza_slice_icon, pot, question, snowflake, sparkle, sun, zzz)


def make(kind, dep, title, caption, comments, relation, insight, panels, groups=None):
    """One comic. `panels`: (svg items, "中文 · English" alt) in reading order. Strong comics
    default to one order group per panel; weak ones have none."""
    if groups is None and dep == "strong":
        groups = [[i + 1] for i in range(len(panels))]
    if isinstance(comments, str):
        comments = [comments]
    return {"type": kind, "ordering_dependency": dep, "order_groups": groups,
            "context": {"title": title, "caption": caption, "comments": comments},
            "relation": relation, "insight": insight, "panels": panels}


# ---------------------------------------------------------------- bubble symbols

SYMBOLS = {
    "?": (lambda x, y: question(x, y + 4), "问号", "a question mark"),
    "!": (lambda x, y: exclaim(x, y + 2), "感叹号", "an exclamation mark"),
    "heart": (lambda x, y: heart(x, y), "爱心", "a heart"),
    "bulb": (lambda x, y: bulb(x, y + 2, 0.8), "灯泡", "a light bulb"),
    "note": (lambda x, y: note(x, y), "音符", "a music note"),
    "zzz": (lambda x, y: zzz(x - 16, y + 10), "呼噜声", "a row of Zs"),
    "check": (lambda x, y: check(x, y), "对勾", "a check mark"),
    "cross": (lambda x, y: cross(x, y), "叉号", "a cross"),
    "star": (lambda x, y: star(x, y, 18), "星星", "a star"),
    "pizza": (lambda x, y: pizza_slice_icon(x, y), "披萨", "a pizza slice"),
    "clock": (lambda x, y: clock(x, y, 20, 9, 0), "钟", "a clock"),
    "sun": (lambda x, y: sun(x, y, 11), "太阳", "a sun"),
    "rain": (lambda x, y: cloud(x, y - 6, 0.55, GREY) + drop(x - 10, y + 20, 0.8) + drop(x + 10, y + 22, 0.8),
             "雨云", "a rain cloud"),
    "cake": (lambda x, y: rect(x - 18, y - 6, 36, 22, PINK, INK, 1.5) + rect(x - 1.5, y - 18, 3, 12, YELLOW),
             "蛋糕", "a cake"),
    "coffee": (lambda x, y: cup(x - 4, y + 20, 0.8, WHITE, "#7a4a2a", False, 0.45), "咖啡", "a coffee cup"),
    "ball": (lambda x, y: ball(x, y, 15), "球", "a ball"),
    "fish": (lambda x, y: fish(x + 4, y, 0.8), "鱼", "a fish"),
    "moon": (lambda x, y: moon(x, y, 16, WHITE), "月亮", "a moon"),
    "coin": (lambda x, y: circle(x, y, 17, YELLOW, INK, 2) + circle(x, y, 10, None, ORANGE, 2), "硬币", "a coin"),
    "umbrella": (lambda x, y: umbrella(x, y - 18, 20, RED), "雨伞", "an umbrella"),
    "house": (lambda x, y: house(x, y + 26, False, "#e9c89b", RED, 0.3), "房子", "a house"),
    "left": (lambda x, y: arrow(x + 18, y, x - 18, y), "向左的箭头", "an arrow pointing left"),
    "right": (lambda x, y: arrow(x - 18, y, x + 18, y), "向右的箭头", "an arrow pointing right"),
    "tear": (lambda x, y: drop(x, y, 1.4, BLUE), "泪滴", "a teardrop"),
    "gift": (lambda x, y: rect(x - 16, y - 10, 32, 26, PURPLE, INK, 1.5) + line(x, y - 10, x, y + 16, YELLOW, 3)
             + line(x - 16, y + 2, x + 16, y + 2, YELLOW, 3), "礼物", "a gift box"),
    "flower": (lambda x, y: flower(x, y + 24, 34, PINK, 0.7), "花", "a flower"),
    "ice": (lambda x, y: poly([(x - 10, y), (x + 10, y), (x, y + 24)], "#e0b070", INK, 1.5) + circle(x, y - 6, 11, PINK, INK, 1.5),
            "冰淇淋", "an ice cream"),
    "dumpling": (lambda x, y: plate(x, y + 8, 2, "dumpling", 30), "饺子", "dumplings"),
    "bone": (lambda x, y: rect(x - 16, y - 4, 32, 8, WHITE, INK, 1.5) + circle(x - 17, y - 5, 6, WHITE, INK, 1.5)
             + circle(x - 17, y + 5, 6, WHITE, INK, 1.5) + circle(x + 17, y - 5, 6, WHITE, INK, 1.5)
             + circle(x + 17, y + 5, 6, WHITE, INK, 1.5), "骨头", "a bone"),
    "music": (lambda x, y: note(x - 12, y) + note(x + 12, y - 4), "两个音符", "two music notes"),
}


def symbols(names, cx, cy):
    """Symbols side by side centred on (cx, cy)."""
    step = 40
    x0 = cx - step * (len(names) - 1) / 2
    return "".join(SYMBOLS[s][0](x0 + i * step, cy) for i, s in enumerate(names))


def say(names):
    zh = "和".join(SYMBOLS[s][1] for s in names)
    en = " and ".join(SYMBOLS[s][2] for s in names)
    return zh, en


MOODS = {
    "happy": ("微笑", "smiling"), "sad": ("难过", "sad"), "angry": ("生气", "angry"),
    "surprised": ("吃惊", "surprised"), "laugh": ("大笑", "laughing"), "neutral": ("面无表情", "blank-faced"),
    "sleep": ("闭着眼", "eyes closed"), "annoyed": ("不耐烦", "annoyed"), "relieved": ("松了口气", "relieved"),
}

# ---------------------------------------------------------------- speakers


def speaker_art(who, x, mood, arms="down"):
    kind, color = who[0], who[1]
    if kind == "person":
        return person(x, 292, mood, color, 0.78, arms)
    if kind == "cat":
        return cat(x, 214, 0.95, color, mood)
    if kind == "dog":
        return dog(x, 220, 0.95, color, mood)
    return bird(x, 226, color, 1 if x < 160 else -1, mood == "laugh")


def conversation(who, script, scene, extra=None):
    """Panels of a symbol-bubble exchange. `who`: speakers as (kind, colour, 中文名, English
    name); `script`: (speaker index, symbols, {index: mood}) per panel; `scene`: background
    items; `extra`: {panel index: (svg, 中文, English)} drawn and described besides. The alt
    names the speaker, its mood and what its bubble holds."""
    xs = {1: [160], 2: [88, 232], 3: [62, 160, 258]}[len(who)]
    panels = []
    for k, (i, names, moods) in enumerate(script):
        items = list(scene)
        for j, w in enumerate(who):
            items.append(speaker_art(w, xs[j], moods.get(j, "neutral"),
                                     "wave" if j == i and w[0] == "person" and "!" in names else "down"))
        w = 140 if len(who) < 3 else 120
        bx = min(max(xs[i] - w / 2, 10), 310 - w)
        items.append(bubble(bx, 22, w, 78, (xs[i], 128), symbols(names, bx + w / 2, 58)))
        zh, en = say(names)
        mzh, men = MOODS[moods.get(i, "neutral")]
        if who[i][0] == "bird":
            alt_zh, alt_en = f"{who[i][2]}的气泡里是{zh}", f"{who[i][3]}, with {en} in a speech bubble"
        else:
            alt_zh, alt_en = f"{who[i][2]}{mzh}，气泡里是{zh}", f"{who[i][3]}, {men}, with {en} in a speech bubble"
        if extra and k in extra:
            items.append(extra[k][0])
            alt_zh, alt_en = f"{alt_zh}，{extra[k][1]}", f"{alt_en}; {extra[k][2]}"
        panels.append((items, f"{alt_zh} · {alt_en}"))
    return panels


def replies(friends, answers, scene):
    """One reply per panel, each from a different friend (a weak conversation: the replies
    answer the same message, in any order). `answers`: (symbols, mood) per friend."""
    out = []
    for f, (names, mood) in zip(friends, answers):
        out += conversation([f], [(0, names, {0: mood})], scene)
    return out


def progression(draw, levels, words, scene, moods=None, who_x=250, shirt=BLUE, extras=None, behind=False):
    """Panels of one thing at changing levels: `draw(level)` gives its drawing, `words` its
    "中文 · English" alt per panel; `moods` (optional) a watching person's face per panel,
    whose mood the alt adds (`behind`: the person stands behind the thing); `extras` per
    panel (svg) for small props."""
    out = []
    for k, (level, alt) in enumerate(zip(levels, words)):
        items = list(scene)
        if moods and behind:
            items.append(person(who_x, 300, moods[k], shirt, 0.7, "down"))
        items.append(draw(level))
        if extras and extras[k]:
            items.append(extras[k])
        if moods and not behind:
            items.append(person(who_x, 300, moods[k], shirt, 0.7, "down"))
            zh, en = alt.split(" · ")
            mzh, men = MOODS[moods[k]]
            alt = f"{zh}，旁边的人{mzh} · {en}, the person beside it {men}"
        out.append((items, alt))
    return out


def mini(svg, x, y, s):
    """A drawing shrunk by `s` and moved to (x, y): for thought clouds and screens."""
    return f'<g transform="translate({n(x)},{n(y)}) scale({s})">{svg}</g>'
