#!/usr/bin/env python3
"""Draws memeboard's demo multi-panel comics as SVG files (Python 3 stdlib only).

Every panel is written and drawn for memeboard (MIT, like the project). The output is
`server/demo/panels/svg/<comic>-<n>.svg`: a 320x320 viewBox, flat shapes on a light
background with a thin border, and no <text> elements (the server rasterises them without
fonts), so words are replaced by symbols: question marks drawn as strokes, hearts, stars,
light bulbs, check marks.

Run from the repository root:  python3 scripts/demo/draw_panels.py
The manifest (`server/demo/panels/manifest.jsonl`) is written by hand; this script only
draws the panels it names.
"""
import os
import sys

from panel_kit import *  # noqa: F401,F403 (the drawing vocabulary)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "server", "demo", "panels", "svg")


# ---------------------------------------------------------------- comics


def c01():
    """A seed becomes a flower (narrative, strong)."""
    stages = []
    for i in range(7):
        items = [sky_box(), ground_strip(262, "#c9e4b4"), pot(160)]
        if i == 0:
            items.append(rect(196, 70, 44, 60, "#f4e2a1", INK, 2, rx=4) + circle(218, 100, 10, YELLOW))
            items.append("".join(ellipse(190 - k * 9, 140 + k * 22, 4, 6, SOIL) for k in range(3)))
        if i == 1:
            items.append(poly([(190, 110), (250, 110), (250, 150), (190, 150)], GREY, INK, 2)
                         + line(190, 118, 160, 96, INK, 5) + path("M250,118 Q280,110 270,140", None, INK, 4))
            items.append("".join(drop(152 - k * 10, 120 + k * 22, 0.8) for k in range(3)))
            items.append(ellipse(160, 206, 14, 6, "#6e462d"))
        if i >= 2:
            height = [0, 0, 24, 60, 100, 120, 130][i]
            top = 210 - height
            items.append(line(160, 210, 160, top, "#3f8f4f", 5))
            leaves = [0, 0, 1, 2, 3, 3, 4][i]
            for k in range(leaves):
                y = 206 - k * 26 - (0 if i > 2 else 8)
                items.append(leaf(160, y, -20 - 10 * k, 30 - 2 * k) + leaf(160, y, 200 + 10 * k, 30 - 2 * k))
            if i == 4:
                items.append(ellipse(160, top - 6, 8, 12, "#6fbf5a", INK, 1.5))
            if i == 5:
                items.append(path(f"M152,{top} Q160,{top - 30} 168,{top} Z", "#f08db0", INK, 1.5)
                             + ellipse(160, top + 2, 10, 8, "#6fbf5a", INK, 1.5))
            if i == 6:
                for k in range(6):
                    a = k * math.pi / 3
                    items.append(circle(160 + 18 * math.cos(a), top - 14 + 18 * math.sin(a), 14, "#f08db0", INK, 1.5))
                items.append(circle(160, top - 14, 11, YELLOW, INK, 1.5))
                items.append(sun(270, 50, 20) + ellipse(80, 60, 9, 6, YELLOW, INK, 1.5)
                             + ellipse(76, 53, 5, 4, WHITE, INK, 1) + line(74, 60, 86, 60, INK, 2))
        stages.append(panel(items))
    return stages


def c02():
    """A candle burns down through the evening (progressive, strong)."""
    out = []
    for i, h in enumerate((190, 140, 90, 36)):
        top = 270 - h
        items = [rect(3, 3, 314, 314, "#eee6f5"), rect(40, 270, 240, 14, WOOD, INK, 2)]
        items.append(ellipse(160, 270, 26 + i * 10, 5 + i, "#fff4d6", INK, 1.5))
        items.append(rect(140, top, 40, h, "#fff4d6", INK, 2, rx=3))
        for k in range(i):
            items.append(path(f"M{146 + k * 10},{top} q3,{14 + k * 6} 6,0", "#fff4d6", INK, 1.5))
        items.append(line(160, top, 160, top - 10, INK, 2))
        if i < 3:
            items.append(path(f"M160,{top - 38} Q176,{top - 16} 160,{top - 8} Q144,{top - 16} 160,{top - 38} Z", ORANGE)
                         + ellipse(160, top - 16, 4, 7, YELLOW))
        else:
            items.append(path(f"M160,{top - 12} q-10,-12 0,-24 q10,-12 0,-24 q-10,-12 0,-24", None, GREY, 3))
            items.append(moon(260, 60, 22, "#eee6f5"))
        out.append(panel(items))
    return out


def c03():
    """The sun and a clock travel through one day (progressive, strong)."""
    out = []
    hours = (6, 9, 12, 15, 18, 20, 22, 0)
    skies = ("#fbd6b0", "#cfe8f8", "#bfe3fb", "#cfe6f3", "#f7b98a", "#9d8cc2", "#4a5a8c", "#26305a")
    for i, hour in enumerate(hours):
        sky = skies[i]
        items = [sky_box(sky, 230), ground_strip(230)]
        if i <= 4:
            a = math.pi * (1 - i / 4)
            items.append(sun(160 + 130 * math.cos(a), 120 - 70 * math.sin(a), 20, YELLOW if 0 < i < 4 else "#f6a24b",
                             0 < i < 4))
        if i >= 5:
            if i >= 6:
                items.append(moon(200 - (i - 6) * 60, 70 - (i - 6) * 20, 18, sky))
            for k in range((i - 4) * 3):
                items.append(star(20 + (k * 67) % 290, 20 + (k * 41) % 100, 4, "#fff7c2"))
        items.append(poly([(40, 150), (110, 100), (180, 150)], RED, INK, 2) + rect(50, 150, 120, 90, "#f4e2c6", INK, 2))
        window = "#6b6b6b" if i == 7 else ("#ffe27a" if i >= 4 else "#b9dcf2")
        items.append(rect(68, 170, 34, 30, window, INK, 2) + rect(120, 190, 30, 50, WOOD, INK, 2))
        items.append(clock(245, 180, 42, hour))
        out.append(panel(items))
    return out


def c04():
    """A glass under a tap fills up (progressive, strong)."""
    out = []
    for i, frac in enumerate((0.0, 0.3, 0.55, 0.8, 1.0)):
        items = [rect(3, 3, 314, 314, "#eaf4f4"), rect(3, 268, 314, 49, "#d9d2c5")]
        items.append(rect(130, 20, 80, 24, GREY, INK, 2, rx=4) + rect(185, 44, 20, 20, GREY, INK, 2))
        top, bot = 130, 268
        water_top = bot - (bot - top) * frac
        if frac > 0:
            w = 50 + 20 * (1 - (water_top - top) / (bot - top))
            items.append(poly([(160 - w, water_top), (160 + w, water_top), (150 + 40 - 0, bot), (120, bot)], "#7cc3ea"))
        items.append(poly([(90, top), (230, top), (200, bot), (120, bot)], None, INK, 3))
        if 0 < i < 4:
            items.append(rect(190, 64, 10, water_top - 64, "#7cc3ea"))
        if i == 0:
            items.append(drop(195, 80, 1.0, "#7cc3ea"))
        if i == 4:
            items.append(rect(190, 64, 10, 66, "#7cc3ea") + ellipse(60, 272, 40, 7, "#7cc3ea")
                         + ellipse(262, 272, 40, 7, "#7cc3ea"))
            items.append(path("M88,132 q-10,60 -6,136", None, "#7cc3ea", 5) + path("M232,132 q10,60 6,136", None, "#7cc3ea", 5))
        out.append(panel(items))
    return out


def c05():
    """Looking for the glasses that sit on one's own head (conversational, strong)."""
    out = []
    specs = [("sad", "neutral", "down", "down"), ("neutral", "happy", "down", "point"),
             ("surprised", "happy", "head", "down"), ("laugh", "laugh", "wave", "wave")]
    for i, (ma, mb, aa, ab) in enumerate(specs):
        items = [rect(3, 3, 314, 314, "#f6efe2"), rect(3, 280, 314, 37, "#e2d3b5")]
        items.append(person(90, 285, ma, BLUE, 1.0, aa))
        items.append(person(230, 285, mb, ORANGE, 1.0, ab))
        if i < 3:
            items.append(glasses(90, 146, 0.9))
        else:
            items.append(glasses(90, 163, 1.0))
        if i == 0:
            items.append(bubble(20, 20, 130, 80, (90, 130), glasses(68, 58) + question(118, 62, 1.0)))
        if i == 1:
            items.append(bubble(170, 20, 120, 80, (230, 130), arrow(205, 86, 205, 36) + glasses(250, 58)))
        if i == 2:
            items.append(bubble(20, 20, 100, 80, (90, 130), exclaim(70, 56, 1.1)))
        if i == 3:
            items.append(bubble(110, 14, 100, 70, (160, 120), heart(160, 50, 1.2)))
        out.append(panel(items))
    return out


def c06():
    """A morning: the alarm, then teeth and coffee in either order, then out of the door (narrative, strong)."""
    p1 = [room_wall("#e3e7f3"), rect(40, 200, 200, 40, "#9db7e0", INK, 2), rect(40, 180, 30, 60, WOOD, INK, 2),
          face(95, 188, 20, "sleep"), rect(100, 196, 140, 30, "#6f95cf", INK, 2), zzz(120, 150),
          clock(265, 210, 26, 7, 0, "#fffbe5"),
          "".join(line(265 + 32 * math.cos(a), 210 + 32 * math.sin(a), 265 + 42 * math.cos(a), 210 + 42 * math.sin(a), RED, 3)
                  for a in (-2.4, -1.9, -1.2, -0.7))]
    p2 = [room_wall("#e1f0ef"), rect(180, 60, 90, 110, "#cfe9f7", INK, 3, rx=8),
          person(120, 290, "neutral", BLUE, 1.0, "hold"), rect(108, 190, 40, 6, "#f0f0f0", INK, 1.5),
          rect(140, 186, 12, 10, "#7fd3e8", INK, 1), circle(96, 190, 5, WHITE, INK, 1), circle(90, 198, 4, WHITE, INK, 1),
          circle(84, 188, 3, WHITE, INK, 1), clock(60, 60, 28, 7, 15)]
    p3 = [room_wall("#f7eadf"), rect(190, 170, 110, 80, "#d9c3a5", INK, 2),
          rect(215, 110, 50, 60, "#555555", INK, 2, rx=6), rect(228, 140, 24, 30, "#f6f1ea", INK, 1.5),
          person(120, 290, "neutral", BLUE, 1.0, "hold"), rect(100, 182, 30, 30, WHITE, INK, 2, rx=4),
          path("M130,188 q12,4 0,16", None, INK, 3), ellipse(115, 184, 13, 3, "#6b3f1f"),
          path("M108,172 q-6,-10 0,-18 q6,-8 0,-16", None, GREY, 2.5), path("M122,172 q-6,-10 0,-18 q6,-8 0,-16", None, GREY, 2.5),
          clock(60, 60, 28, 7, 15)]
    p4 = [sky_box(SKY, 250), ground_strip(250), sun(250, 60, 22), rect(30, 100, 90, 150, "#f4e2c6", INK, 2),
          rect(55, 160, 40, 90, WOOD, INK, 2), circle(88, 205, 3, INK), person(190, 290, "happy", BLUE, 1.0, "wave"),
          rect(150, 214, 26, 30, "#7a5230", INK, 2, rx=4), clock(270, 170, 24, 7, 30)]
    return [panel(p) for p in (p1, p2, p3, p4)]


def c07():
    """The same room before, during and after a cleaning (comparison, strong)."""
    out = []
    for i, mood in enumerate(("sad", "neutral", "happy")):
        items = [room_wall("#efe9f6"), rect(200, 60, 80, 70, "#cfe9f7", INK, 3)]
        if i == 0:
            for k in range(7):
                x, y = 30 + (k * 53) % 270, 262 + (k * 23) % 40
                items.append(rect(x, y, 26, 10, (RED, GREEN, BLUE, YELLOW, PURPLE)[k % 5], INK, 1.5, rx=2))
            items.append(path("M220,230 q10,-14 30,-4 q10,6 24,-6", None, INK, 2))
            items.append(path("M40,140 l20,14 l-10,10 z", WHITE, INK, 1.5))
        if i == 1:
            for k in range(3):
                items.append(rect(220 + k * 25, 280, 20, 9, (RED, GREEN, BLUE)[k], INK, 1.5, rx=2))
            items.append(line(170, 170, 210, 290, WOOD, 6) + poly([(196, 282), (226, 282), (236, 306), (190, 306)], YELLOW, INK, 2))
            items.append(cloud(250, 284, 0.8, "#d8d2c8"))
        if i == 2:
            items.append(rect(230, 200, 70, 50, WOOD, INK, 2))
            for k in range(5):
                items.append(rect(236 + k * 12, 176, 10, 24, (RED, GREEN, BLUE, YELLOW, PURPLE)[k], INK, 1.2))
            items.append(sparkle(60, 270, 12) + sparkle(180, 290, 9) + sparkle(270, 150, 10) + sparkle(40, 110, 8))
        items.append(person(110, 280, mood, GREEN, 1.0, "hold" if i == 1 else ("up" if i == 2 else "head")))
        out.append(panel(items))
    return out


def c08():
    """A snowman is built and then melts (narrative, strong)."""
    out = []
    for i in range(7):
        warm = i >= 4
        items = [sky_box("#dfe9f5" if not warm else "#e9f4fb", 240), rect(3, 240, 314, 77, "#f7fbff" if i < 6 else GREEN)]
        if i == 0:
            items.append("".join(snowflake(30 + (k * 47) % 260, 30 + (k * 71) % 190, 7, "#7fa4cc") for k in range(12)))
            items.append(person(230, 290, "happy", RED, 0.9, "up"))
        if i == 1:
            items.append(circle(130, 256, 26, WHITE, INK, 2) + person(220, 290, "happy", RED, 0.9, "point"))
            items.append("".join(snowflake(40 + k * 80, 50 + (k % 2) * 40, 6, "#7fa4cc") for k in range(4)))
        if 2 <= i <= 5:
            scale = (1, 1, 1, 0.8)[i - 2]
            if i < 5:
                items.append(circle(150, 230, 44, WHITE, INK, 2) + circle(150, 160, 32 * scale, WHITE, INK, 2))
            else:
                items.append(ellipse(150, 244, 60, 24, WHITE, INK, 2) + circle(150, 200, 26, WHITE, INK, 2)
                             + ellipse(150, 272, 90, 10, "#a8d3f0"))
            hy = 160 if i < 5 else 198
            if i >= 3:
                items.append(circle(140, hy - 6, 3.5, INK) + circle(160, hy - 6, 3.5, INK)
                             + poly([(150, hy + 2), (150, hy + 8), (176, hy + 5)], ORANGE))
                if i < 5:
                    items.append(rect(125, hy - 50, 50, 26, INK) + rect(115, hy - 26, 70, 6, INK)
                                 + path(f"M138,{hy + 14} Q150,{hy + 22} 162,{hy + 14}", None, INK, 2.5))
                else:
                    items.append(rect(128, hy - 46, 50, 24, INK) + rect(120, hy - 24, 66, 6, INK))
            if i == 2:
                items.append(person(250, 290, "happy", RED, 0.9, "up"))
            if i == 3:
                items.append(person(250, 290, "laugh", RED, 0.9, "wave"))
            if i >= 4:
                items.append(sun(270, 50, 22 if i == 4 else 28))
            if i == 5:
                items.append(drop(110, 230, 0.8, "#7fb7e6") + drop(192, 222, 0.8, "#7fb7e6"))
        if i == 6:
            items.append(ellipse(160, 270, 110, 18, "#a8d3f0") + rect(130, 240, 50, 22, INK) + rect(120, 262, 70, 6, INK)
                         + poly([(210, 266), (210, 274), (240, 270)], ORANGE) + circle(96, 270, 4, INK) + circle(110, 274, 4, INK)
                         + sun(270, 50, 32) + person(284, 300, "sad", RED, 0.75, "down"))
        out.append(panel(items))
    return out


def c09():
    """A group chat: a pizza question, two friends answering at once, pizza together (conversational, strong)."""
    ask = chat_row(50, BLUE, True, lambda x, y: pizza_slice_icon(x - 14, y) + question(x + 18, y + 2, 0.55))
    p1 = phone([ask])
    p2 = phone([ask, chat_row(110, GREEN, False, lambda x, y: check(x, y, 0.9))])
    p3 = phone([ask, chat_row(110, PURPLE, False, lambda x, y: heart(x, y, 1.0))])
    p4 = [rect(3, 3, 314, 314, "#fdf0e0"), ellipse(160, 250, 130, 30, WOOD, INK, 2), circle(160, 240, 56, "#e8a65a", INK, 2),
          circle(160, 240, 48, YELLOW)]
    p4 += [circle(160 + 28 * math.cos(a), 240 + 16 * math.sin(a), 6, RED) for a in (0.3, 1.6, 2.9, 4.2, 5.4)]
    p4 += [face(60, 150, 26, "laugh"), face(160, 120, 26, "happy", "#d9a77a"), face(260, 150, 26, "laugh", "#f5d7b8")]
    p4 += [rect(34, 176, 52, 40, BLUE, INK, 2, rx=10), rect(134, 146, 52, 40, GREEN, INK, 2, rx=10),
           rect(234, 176, 52, 40, PURPLE, INK, 2, rx=10)]
    return [panel(p1), panel(p2), panel(p3), panel(p4)]


def c10():
    """A progress bar crawls to the end while a face loses patience (progressive, strong)."""
    out = []
    for i, (frac, mood) in enumerate(((0.2, "happy"), (0.45, "neutral"), (0.7, "annoyed"), (0.97, "angry"), (1.0, "relieved"))):
        items = [rect(3, 3, 314, 314, "#eef0f4"), rect(30, 30, 260, 160, "#3a3f4a", INK, 2, rx=10),
                 rect(44, 44, 232, 132, "#f7f9fc"), rect(140, 190, 40, 20, "#3a3f4a"), rect(110, 208, 100, 10, "#3a3f4a", None, None, rx=4)]
        items.append(rect(64, 100, 192, 24, WHITE, INK, 2, rx=6) + rect(66, 102, 188 * frac, 20, GREEN if i == 4 else BLUE, None, None, rx=5))
        if i == 4:
            items.append(check(160, 70, 1.2))
        else:
            items.append(circle(160, 70, 14, None, GREY, 4) + path(f"M160,56 A14,14 0 0 1 {n(160 + 14 * math.sin(1 + i))},{n(70 - 14 * math.cos(1 + i))}", None, BLUE, 4))
        items.append(face(160, 266, 34, mood))
        out.append(panel(items))
    return out


def c11():
    """Four cats, four favourite spots (parallel, weak)."""
    bg = "#f5efe6"
    p1 = [rect(3, 3, 314, 314, bg), rect(70, 170, 180, 100, "#c99a63", INK, 2), poly([(70, 170), (40, 140), (100, 140), (120, 170)], "#b5844f", INK, 2),
          cat(160, 150, 1.0, ORANGE, "sleep", lying=True), zzz(200, 120)]
    p2 = [rect(3, 3, 314, 314, bg), cat(120, 170, 1.0, GREY, "happy"), circle(230, 250, 24, RED, INK, 2),
          path("M212,240 q18,10 36,0 M214,256 q16,-8 34,2", None, "#8f2a24", 2), path("M230,274 q30,20 60,6", None, RED, 3)]
    p3 = [rect(3, 3, 314, 314, bg), cat(130, 170, 1.0, "#8a6d5c", "happy", tail_up=False), ellipse(240, 262, 40, 14, BLUE, INK, 2),
          path("M222,252 q18,-16 36,0 q-18,16 -36,0 z m36,0 l10,-8 l0,16 z", "#f0b04b", INK, 1.5)]
    p4 = [rect(3, 3, 314, 314, bg), rect(40, 40, 240, 140, "#cfe9f7", INK, 3), line(160, 40, 160, 180, INK, 3),
          rect(30, 180, 260, 16, WOOD, INK, 2), cat(160, 130, 0.9, "#f3f3f3", "neutral"), sun(240, 80, 16), cloud(90, 80, 0.8)]
    return [panel(p) for p in (p1, p2, p3, p4)]


def c12():
    """Expectation against reality: the birthday cake (comparison, weak)."""
    p1 = [rect(3, 3, 314, 314, "#fff6e8"), ellipse(160, 262, 120, 16, WHITE, INK, 2), cake(160, 258), sparkle(60, 80, 16),
          sparkle(260, 70, 12), sparkle(270, 170, 10), star(70, 180, 10), cloud(160, 34, 0.7, "#fde3b5")]
    p2 = [rect(3, 3, 314, 314, "#eef0f2"), ellipse(160, 262, 120, 16, WHITE, INK, 2), cake(160, 258, True),
          face(260, 80, 28, "sad"), path("M40,60 q14,-14 28,0 q14,14 28,0", None, GREY, 3)]
    return [panel(p1), panel(p2)]


def c13():
    """Three ways to spend a weekend (parallel, weak)."""
    bg = "#eef6ec"
    p1 = [rect(3, 3, 314, 314, bg), rect(40, 170, 240, 70, "#d27f6b", INK, 2, rx=14), rect(30, 140, 40, 100, "#c06b58", INK, 2, rx=10),
          rect(250, 140, 40, 100, "#c06b58", INK, 2, rx=10), face(140, 140, 24, "happy"), rect(120, 162, 44, 40, BLUE, INK, 2, rx=8),
          poly([(150, 170), (190, 160), (190, 196), (150, 204)], "#fdf6e3", INK, 2), poly([(150, 170), (112, 160), (112, 196), (150, 204)], "#fdf6e3", INK, 2)]
    p2 = [rect(3, 3, 314, 314, bg), rect(60, 40, 200, 120, "#333a45", INK, 2, rx=8), rect(72, 52, 176, 96, "#7cc3ea"),
          star(120, 90, 14), circle(200, 110, 12, RED), rect(140, 160, 40, 16, "#333a45"),
          face(160, 226, 26, "laugh"), rect(120, 260, 80, 30, GREY, INK, 2, rx=14), circle(140, 275, 5, RED), circle(180, 275, 5, GREEN)]
    p3 = [rect(3, 3, 314, 314, bg), rect(30, 180, 260, 60, "#9db7e0", INK, 2, rx=6), rect(30, 150, 30, 110, WOOD, INK, 2),
          rect(60, 176, 60, 20, WHITE, INK, 2, rx=8), face(90, 166, 22, "sleep"), rect(110, 170, 180, 40, "#6f95cf", INK, 2, rx=8),
          zzz(130, 130), moon(250, 60, 20, bg)]
    return [panel(p) for p in (p1, p2, p3)]


def c14():
    """A day at the beach (narrative, weak)."""
    def beach(extra):
        return [sky_box("#cfeefc", 150), rect(3, 150, 314, 60, "#4fa9d8"), rect(3, 210, 314, 107, "#f3dca0"), sun(260, 56, 20)] + extra
    castle = [rect(60, 210, 80, 50, "#e2c27c", INK, 2), rect(70, 180, 24, 30, "#e2c27c", INK, 2), rect(106, 180, 24, 30, "#e2c27c", INK, 2),
              line(118, 180, 118, 156, INK, 2), poly([(118, 156), (138, 162), (118, 168)], RED), person(220, 300, "happy", ORANGE, 0.9, "point")]
    icecream = [person(160, 300, "laugh", ORANGE, 1.0, "wave"), poly([(194, 186), (214, 186), (204, 220)], WOOD, INK, 2),
                circle(204, 178, 12, "#f6c6d9", INK, 1.5), circle(204, 162, 10, "#fff3c4", INK, 1.5)]
    swim = [face(150, 176, 22, "happy"), ellipse(150, 196, 40, 10, RED, INK, 2),
            path("M60,170 q12,-8 24,0 q12,8 24,0", None, WHITE, 3), path("M210,180 q12,-8 24,0 q12,8 24,0", None, WHITE, 3),
            rect(230, 240, 60, 30, "#f08db0", INK, 2, rx=4)]
    return [panel(beach(castle)), panel(beach(icecream)), panel(beach(swim))]


def c15():
    """A pizza disappears slice by slice (progressive, strong)."""
    out = []
    bg = "#fdf3e7"
    table = rect(3, 250, 314, 67, WOOD)
    box_closed = [rect(60, 170, 200, 60, "#e6c08f", INK, 2), rect(60, 160, 200, 14, "#d9ad75", INK, 2), circle(160, 200, 14, RED),
                  path("M120,150 q-8,-14 0,-28 q8,-14 0,-28", None, GREY, 3), path("M200,150 q-8,-14 0,-28 q8,-14 0,-28", None, GREY, 3)]
    out.append(panel([rect(3, 3, 314, 314, bg), table] + box_closed + [person(270, 300, "happy", BLUE, 0.7, "down")]))
    for slices in (8, 6, 4, 2, 0):
        items = [rect(3, 3, 314, 314, bg), table, rect(40, 30, 240, 30, "#e6c08f", INK, 2), rect(40, 60, 240, 200, "#efd3a8", INK, 2),
                 pizza(160, 160, 80, slices)]
        if slices == 0:
            items.append("".join(circle(130 + (k * 29) % 70, 130 + (k * 17) % 60, 3, "#d08a3a") for k in range(8)))
        if slices < 8:
            items.append(ellipse(278, 306, 20 + (8 - slices) * 2, 16, BLUE, INK, 2))
            items.append(face(278, 268, 22, "laugh" if slices > 0 else "happy"))
        out.append(panel(items))
    out.append(panel([rect(3, 3, 314, 314, bg), rect(3, 270, 314, 47, "#d9d2c5"), rect(40, 170, 70, 100, GREY, INK, 2),
                      rect(34, 160, 82, 12, "#7d8389", INK, 2), poly([(50, 160), (100, 130), (110, 150), (60, 170)], "#e6c08f", INK, 2),
                      person(210, 290, "relieved", BLUE, 1.0, "down"), ellipse(210, 222, 34, 30, BLUE, INK, 2)]))
    return out


def c16():
    """Rain comes and goes; an umbrella and a frog share the downpour (narrative, strong)."""
    def rain(k, seed=0):
        return "".join(line(20 + (i * 37 + seed) % 280, 80 + (i * 53) % 160, 14 + (i * 37 + seed) % 280, 96 + (i * 53) % 160, "#5b8bd9", 2.5)
                       for i in range(k))
    p1 = [sky_box("#cfe8f8"), ground_strip(), sun(90, 80, 22), cloud(230, 70, 1.0, "#c7cdd3"), cloud(280, 110, 0.6, "#c7cdd3"),
          person(200, 290, "neutral", GREEN, 0.9, "point")]
    p2 = [sky_box("#b5c2cc"), ground_strip(), cloud(110, 60, 1.2, "#8d969e"), cloud(240, 60, 1.0, "#8d969e"), rain(6, 5),
          person(200, 290, "surprised", GREEN, 0.9, "up")]
    p3 = [sky_box("#8f9ca8"), ground_strip(), cloud(80, 40, 1.3, "#6f7780"), cloud(240, 40, 1.3, "#6f7780"), rain(26, 3),
          path("M110,150 Q160,90 210,150 Z", RED, INK, 2), line(160, 120, 160, 210, INK, 3), person(160, 300, "happy", GREEN, 0.9, "hold"),
          ellipse(80, 280, 40, 8, "#7fa7d1")]
    p4 = [sky_box("#8f9ca8"), ground_strip(), cloud(100, 40, 1.3, "#6f7780"), cloud(250, 40, 1.3, "#6f7780"), rain(26, 11),
          ellipse(160, 270, 80, 14, "#7fa7d1"), ellipse(160, 250, 30, 20, GREEN, INK, 2), circle(148, 230, 8, GREEN, INK, 2),
          circle(172, 230, 8, GREEN, INK, 2), circle(148, 230, 3, INK), circle(172, 230, 3, INK),
          path("M148,256 Q160,264 172,256", None, INK, 2)]
    p5 = [sky_box("#d8f0fb"), ground_strip(), sun(60, 60, 22), ellipse(120, 280, 50, 8, "#7fa7d1")]
    for k, c in enumerate((RED, ORANGE, YELLOW, GREEN, BLUE, PURPLE)):
        p5.append(path(f"M{40 + k * 8},260 A{120 - k * 8},{120 - k * 8} 0 0 1 {280 - k * 8},260", None, c, 8))
    p5.append(person(250, 300, "laugh", GREEN, 0.8, "up"))
    return [panel(p) for p in (p1, p2, p3, p4, p5)]


def c17():
    """Two birds on a wire trade songs (conversational, weak)."""
    bg = "#e8f3fb"
    wire = line(3, 200, 317, 190, INK, 2.5)
    p1 = [rect(3, 3, 314, 314, bg), wire, bird(90, 178, YELLOW, 1, True), bird(230, 172, BLUE, -1), note(140, 110), cloud(250, 60, 0.7)]
    p2 = [rect(3, 3, 314, 314, bg), wire, bird(90, 178, YELLOW, 1), bird(230, 172, BLUE, -1, True), note(170, 100), note(200, 70),
          cloud(70, 60, 0.7)]
    p3 = [rect(3, 3, 314, 314, bg), wire, bird(110, 178, YELLOW, 1, True), bird(210, 174, BLUE, -1, True), note(130, 100),
          note(190, 90), heart(160, 60, 1.0), sun(280, 40, 14)]
    return [panel(p) for p in (p1, p2, p3)]


COMICS = [c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13, c14, c15, c16, c17]


def main():
    os.makedirs(OUT, exist_ok=True)
    written = 0
    seen = {}
    for fn in COMICS:
        for i, svg in enumerate(fn(), start=1):
            name = f"{fn.__name__}-{i}.svg"
            if svg in seen:
                sys.exit(f"{name} is identical to {seen[svg]}")
            seen[svg] = name
            with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
                f.write(svg)
            written += 1
    print(f"wrote {written} panels to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
