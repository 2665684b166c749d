"""More drawing vocabulary for the generated demo comics (Python 3 stdlib only): everyday
objects drawn at a level (a cup from full to empty, a battery, a stack), animals, places and
thought clouds. Flat shapes only, no text."""

import math

from panel_kit import (BLUE, GREEN, GREY, INK, ORANGE, PAPER, PURPLE, RED, SKIN, SKY, SOIL, WHITE, WOOD, YELLOW,
                       circle, cloud, ellipse, face, line, n, panel, path, poly, rect, star)

BROWN = "#a0693c"
PINK = "#f19cb7"
TEAL = "#4fb3a9"
NIGHT = "#2c3e64"
WALL = "#f3ead7"
FLOOR = "#d9b98c"


def outdoor(sky=SKY, ground="#9bd27c", horizon=250):
    return [rect(3, 3, 314, horizon - 3, sky), rect(3, horizon, 314, 317 - horizon, ground)]


def indoor(wall=WALL, floor=FLOOR, horizon=250):
    return [rect(3, 3, 314, horizon - 3, wall), rect(3, horizon, 314, 317 - horizon, floor)]


def window(x, y, w, h, sky=SKY, extra=""):
    return (rect(x, y, w, h, sky, INK, 3) + extra + line(x + w / 2, y, x + w / 2, y + h, INK, 3)
            + line(x, y + h / 2, x + w, y + h / 2, INK, 3))


def table(y=230, x1=40, x2=280, color=WOOD):
    return rect(x1, y, x2 - x1, 14, color, INK, 2) + rect(x1 + 14, y + 14, 12, 317 - y - 17, color, INK, 2) + \
        rect(x2 - 26, y + 14, 12, 317 - y - 17, color, INK, 2)


def dog(cx, cy, s=1.0, color="#c08a52", mood="happy", tail_up=True):
    """A sitting dog: body, head with floppy ears, a wagging (up) or drooping tail."""
    out = ellipse(cx, cy + 20 * s, 32 * s, 30 * s, color, INK, 2)
    tail = (f"M{n(cx + 28 * s)},{n(cy + 30 * s)} Q{n(cx + 56 * s)},{n(cy + 10 * s)} {n(cx + 52 * s)},{n(cy - 14 * s)}"
            if tail_up else f"M{n(cx + 28 * s)},{n(cy + 40 * s)} Q{n(cx + 52 * s)},{n(cy + 50 * s)} {n(cx + 60 * s)},{n(cy + 56 * s)}")
    out += path(tail, None, INK, 6 * s)
    hx, hy = cx, cy - 20 * s
    out += face(hx, hy, 22 * s, mood, color)
    for k in (-1, 1):
        out += ellipse(hx + k * 22 * s, hy + 2 * s, 8 * s, 18 * s, BROWN, INK, 2)
    out += ellipse(hx, hy + 4 * s, 5 * s, 4 * s, INK)
    return out


def fish(cx, cy, s=1.0, color=ORANGE, facing=1):
    return (ellipse(cx, cy, 22 * s, 12 * s, color, INK, 2)
            + poly([(cx - facing * 20 * s, cy), (cx - facing * 34 * s, cy - 12 * s), (cx - facing * 34 * s, cy + 12 * s)],
                   color, INK, 2) + circle(cx + facing * 11 * s, cy - 3 * s, 2.5 * s, INK))


def cup(cx, base, level, color=WHITE, liquid="#7a4a2a", steam=False, s=1.0):
    """A mug with `level` (0–1) of drink; steam lines when hot."""
    w, h = 64 * s, 76 * s
    out = rect(cx - w / 2, base - h, w, h, color, INK, 2.5, rx=6 * s)
    if level > 0:
        lh = (h - 8 * s) * level
        out += rect(cx - w / 2 + 4 * s, base - 4 * s - lh, w - 8 * s, lh, liquid, None, None, rx=3 * s)
    out += path(f"M{n(cx + w / 2)},{n(base - h * 0.75)} q{n(26 * s)},{n(4 * s)} 0,{n(h * 0.45)}", None, INK, 5 * s)
    if steam:
        for k in (-14, 0, 14):
            x = cx + k * s
            out += path(f"M{n(x)},{n(base - h - 8 * s)} q-8,-12 0,-24 q8,-12 0,-24", None, GREY, 2.5)
    return out


def battery(cx, cy, level, s=1.0):
    """A battery icon lying on its side, filled to `level` (green, orange when low, red near empty)."""
    w, h = 150 * s, 70 * s
    color = GREEN if level > 0.5 else ORANGE if level > 0.2 else RED
    out = rect(cx - w / 2, cy - h / 2, w, h, WHITE, INK, 4, rx=10 * s)
    out += rect(cx + w / 2, cy - h / 5, 12 * s, h * 0.4, INK, None, None, rx=3)
    if level > 0:
        out += rect(cx - w / 2 + 8 * s, cy - h / 2 + 8 * s, (w - 16 * s) * level, h - 16 * s, color, None, None, rx=5 * s)
    return out


def stack(cx, base, count, colors, w=110, h=18, jitter=0):
    """Flat things piled up (books, plates, pancakes), `count` high."""
    out = ""
    for i in range(count):
        off = ((i * 7) % 5 - 2) * jitter
        out += rect(cx - w / 2 + off, base - (i + 1) * h, w, h, colors[i % len(colors)], INK, 2, rx=4)
    return out


def ice_cream(cx, top, melt, scoop=PINK):
    """A cone with a scoop that melts (0 round, 1 a puddle under an empty cone)."""
    out = poly([(cx - 26, top + 40), (cx + 26, top + 40), (cx, top + 140)], "#e0b070", INK, 2)
    out += line(cx - 16, top + 60, cx + 8, top + 100, "#c08a40", 2) + line(cx + 16, top + 60, cx - 8, top + 100, "#c08a40", 2)
    if melt < 0.9:
        r = 34 * (1 - melt * 0.4)
        out += ellipse(cx, top + 40 - r * 0.5 + melt * 14, r, r * (1 - melt * 0.5), scoop, INK, 2)
        for k in range(int(melt * 6)):
            x = cx - 24 + k * 10
            out += path(f"M{n(x)},{n(top + 44)} q3,{n(10 + melt * 30)} 6,0", scoop, INK, 1.5)
    if melt > 0.3:
        out += ellipse(cx + 10, top + 158, 20 + 50 * melt, 6 + 6 * melt, scoop, INK, 1.5)
    return out


def balloon(cx, cy, r, color=RED, string=True):
    out = ellipse(cx, cy, r, r * 1.15, color, INK, 2) + poly([(cx - 5, cy + r * 1.15 + 6), (cx + 5, cy + r * 1.15 + 6),
                                                            (cx, cy + r * 1.15 - 2)], color, INK, 1.5)
    if string:
        out += path(f"M{n(cx)},{n(cy + r * 1.15 + 6)} q10,30 -4,60 q-10,30 4,60", None, INK, 1.5)
    return out + ellipse(cx - r * 0.35, cy - r * 0.45, r * 0.18, r * 0.28, WHITE)


def box(cx, base, w=120, h=80, color="#d8a86a", open_flaps=False):
    out = rect(cx - w / 2, base - h, w, h, color, INK, 2.5)
    if open_flaps:
        out += poly([(cx - w / 2, base - h), (cx - w / 2 - 24, base - h - 30), (cx - 10, base - h - 20), (cx, base - h)],
                    color, INK, 2)
        out += poly([(cx + w / 2, base - h), (cx + w / 2 + 24, base - h - 30), (cx + 10, base - h - 20), (cx, base - h)],
                    color, INK, 2)
    else:
        out += line(cx - w / 2, base - h + 16, cx + w / 2, base - h + 16, INK, 2)
    return out


def umbrella(cx, top, r=60, color=RED):
    return (path(f"M{n(cx - r)},{n(top + r * 0.6)} Q{n(cx)},{n(top - r * 0.4)} {n(cx + r)},{n(top + r * 0.6)} Z", color, INK, 2)
            + line(cx, top + r * 0.2, cx, top + r * 1.8, INK, 3)
            + path(f"M{n(cx)},{n(top + r * 1.8)} q0,12 -12,12", None, INK, 3))


def tree(cx, base, leaves=1.0, leaf_color=GREEN, fruit=0, fruit_color=RED, s=1.0):
    out = rect(cx - 12 * s, base - 110 * s, 24 * s, 110 * s, BROWN, INK, 2)
    out += line(cx, base - 90 * s, cx - 40 * s, base - 140 * s, BROWN, 8 * s)
    out += line(cx, base - 96 * s, cx + 44 * s, base - 146 * s, BROWN, 8 * s)
    if leaves > 0:
        r = 70 * s * (0.5 + leaves / 2)
        out += ellipse(cx, base - 150 * s, r, r * 0.75, leaf_color, INK, 2)
    for k in range(fruit):
        a = k * 2.4
        out += circle(cx + 40 * s * math.cos(a) * (0.3 + (k % 3) * 0.3), base - 150 * s + 30 * s * math.sin(a) * 0.8,
                      7 * s, fruit_color, INK, 1.5)
    return out


def house(cx, base, lit=False, color="#e9c89b", roof=RED, s=1.0):
    w, h = 120 * s, 90 * s
    out = rect(cx - w / 2, base - h, w, h, color, INK, 2)
    out += poly([(cx - w / 2 - 12 * s, base - h), (cx, base - h - 60 * s), (cx + w / 2 + 12 * s, base - h)], roof, INK, 2)
    out += rect(cx - 12 * s, base - 44 * s, 24 * s, 44 * s, BROWN, INK, 2)
    for k in (-1, 1):
        out += rect(cx + k * 36 * s - 12 * s, base - 72 * s, 24 * s, 22 * s, YELLOW if lit else "#aac8dc", INK, 2)
    return out


def plate(cx, cy, count, food="cookie", r=70):
    """A plate with `count` biscuits, dumplings or strawberries on it."""
    out = ellipse(cx, cy, r, r * 0.38, WHITE, INK, 2.5) + ellipse(cx, cy, r * 0.7, r * 0.25, "#eef2f4")
    for k in range(count):
        x = cx - r * 0.5 + (k % 4) * r * 0.33
        y = cy - 4 - (k // 4) * 14
        if food == "cookie":
            out += ellipse(x, y, 14, 8, "#d8a05a", INK, 1.5) + circle(x - 4, y - 2, 1.8, BROWN) + circle(x + 4, y + 1, 1.8, BROWN)
        elif food == "dumpling":
            out += path(f"M{n(x - 14)},{n(y + 4)} Q{n(x)},{n(y - 18)} {n(x + 14)},{n(y + 4)} Z", "#f6efe2", INK, 1.5)
        else:
            out += path(f"M{n(x)},{n(y + 9)} Q{n(x - 12)},{n(y - 4)} {n(x)},{n(y - 8)} Q{n(x + 12)},{n(y - 4)} {n(x)},{n(y + 9)} Z",
                        RED, INK, 1.5) + poly([(x - 5, y - 8), (x + 5, y - 8), (x, y - 13)], GREEN)
    return out


def thought(x, y, w, h, toward, inner=""):
    """A thought cloud (puffy ellipse) with small circles trailing to the thinker at `toward`."""
    tx, ty = toward
    out = ellipse(x + w / 2, y + h / 2, w / 2, h / 2, WHITE, INK, 2)
    for k, rr in ((0.35, 8), (0.65, 5)):
        out += circle(x + w / 2 + (tx - x - w / 2) * (0.55 + k * 0.5), y + h + (ty - y - h) * k, rr, WHITE, INK, 2)
    return out + inner


def ball(cx, cy, r=18, color=RED):
    return circle(cx, cy, r, color, INK, 2) + path(f"M{n(cx - r)},{n(cy)} Q{n(cx)},{n(cy - r * 0.6)} {n(cx + r)},{n(cy)}",
                                                   None, WHITE, 2.5)


def flower(cx, base, h=90, color=PINK, open_=1.0):
    out = line(cx, base, cx, base - h, GREEN, 4)
    if open_ <= 0:
        return out + ellipse(cx, base - h, 8, 12, GREEN, INK, 1.5)
    for k in range(6):
        a = k * math.pi / 3
        out += circle(cx + 13 * open_ * math.cos(a), base - h + 13 * open_ * math.sin(a), 10 * open_, color, INK, 1.5)
    return out + circle(cx, base - h, 8, YELLOW, INK, 1.5)


def hourglass(cx, cy, t, color="#e8c06a"):
    """An hourglass with a share `t` (0–1) of its sand run down."""
    out = rect(cx - 50, cy - 90, 100, 10, BROWN, INK, 2) + rect(cx - 50, cy + 80, 100, 10, BROWN, INK, 2)
    if t < 1:
        top = 70 * (1 - t)
        out += poly([(cx - 40 * (1 - t), cy - top), (cx + 40 * (1 - t), cy - top), (cx, cy - 4)], color)
    if t > 0:
        out += poly([(cx - 40 * min(1, t * 1.2), cy + 80), (cx + 40 * min(1, t * 1.2), cy + 80), (cx, cy + 80 - 60 * t)], color)
        out += line(cx, cy - 4, cx, cy + 78, color, 2) if t < 1 else ""
    return out + path(f"M{n(cx - 42)},{n(cy - 80)} L{n(cx + 42)},{n(cy - 80)} L{n(cx + 4)},{n(cy)} L{n(cx + 42)},{n(cy + 80)} "
                      f"L{n(cx - 42)},{n(cy + 80)} L{n(cx - 4)},{n(cy)} Z", None, INK, 3)


def thermometer(cx, cy, t):
    out = rect(cx - 12, cy - 110, 24, 170, WHITE, INK, 2.5, rx=12) + circle(cx, cy + 74, 22, RED, INK, 2.5)
    return out + rect(cx - 6, cy + 56 - 160 * t, 12, 160 * t + 8, RED)


def moon_phase(cx, cy, r, lit, bg=NIGHT):
    """The moon lit from the right by a share `lit` (0 new, 1 full)."""
    out = circle(cx, cy, r, "#4a5a80")
    if lit <= 0:
        return out + circle(cx, cy, r, None, "#8090b0", 2)
    if lit >= 1:
        return out + circle(cx, cy, r, "#f4efc8")
    k = 1 - 2 * lit  # 1 → thin crescent, -1 → almost full
    rx = abs(k) * r
    sweep = 0 if k > 0 else 1
    d = (f"M{n(cx)},{n(cy - r)} A{n(r)},{n(r)} 0 0 1 {n(cx)},{n(cy + r)} "
         f"A{n(rx)},{n(r)} 0 0 {sweep} {n(cx)},{n(cy - r)} Z")
    return out + path(d, "#f4efc8")


def sandcastle(cx, base, t, wet="#d9b46a"):
    """A sandcastle whole (t = 0) to washed flat (t = 1)."""
    h = 1 - t
    out = ""
    if h > 0.05:
        out += rect(cx - 70, base - 60 * h, 140, 60 * h, wet, INK, 2)
        for k in (-50, 0, 50):
            th = (50 if k == 0 else 34) * h
            out += rect(cx + k - 18, base - 60 * h - th, 36, th, wet, INK, 2)
        if h > 0.6:
            out += line(cx, base - 60 * h - 50 * h, cx, base - 60 * h - 90 * h, INK, 2) + \
                poly([(cx, base - 150 * h), (cx + 24, base - 142 * h), (cx, base - 134 * h)], RED)
    return out + ellipse(cx, base + 4, 90 + 40 * t, 10, wet)


def kite(cx, cy, color=RED, string_to=None):
    out = poly([(cx, cy - 40), (cx + 28, cy), (cx, cy + 50), (cx - 28, cy)], color, INK, 2)
    out += line(cx, cy - 40, cx, cy + 50, INK, 1.5) + line(cx - 28, cy, cx + 28, cy, INK, 1.5)
    if string_to:
        out += path(f"M{n(cx)},{n(cy + 50)} Q{n((cx + string_to[0]) / 2 + 30)},{n((cy + string_to[1]) / 2)} "
                    f"{n(string_to[0])},{n(string_to[1])}", None, INK, 1.5)
    return out


def car(cx, base, color=BLUE, s=1.0):
    out = rect(cx - 70 * s, base - 50 * s, 140 * s, 34 * s, color, INK, 2, rx=8)
    out += path(f"M{n(cx - 40 * s)},{n(base - 50 * s)} L{n(cx - 24 * s)},{n(base - 80 * s)} L{n(cx + 30 * s)},{n(base - 80 * s)} "
                f"L{n(cx + 46 * s)},{n(base - 50 * s)} Z", color, INK, 2)
    out += rect(cx - 20 * s, base - 74 * s, 44 * s, 20 * s, "#cfe6f5", INK, 1.5)
    return out + circle(cx - 40 * s, base - 14 * s, 15 * s, INK) + circle(cx + 40 * s, base - 14 * s, 15 * s, INK)


def bed(x, y, w=200, color=BLUE):
    return (rect(x, y, w, 40, color, INK, 2) + rect(x - 10, y - 40, 14, 100, BROWN, INK, 2)
            + rect(x + w - 4, y - 10, 14, 70, BROWN, INK, 2) + ellipse(x + 30, y - 6, 26, 12, WHITE, INK, 2))


def tv(cx, cy, screen="#7fb8e0", inner=""):
    return (rect(cx - 70, cy - 50, 140, 96, INK, None, None, rx=8) + rect(cx - 62, cy - 42, 124, 80, screen)
            + inner + line(cx - 20, cy + 46, cx - 36, cy + 66, INK, 4) + line(cx + 20, cy + 46, cx + 36, cy + 66, INK, 4))


def door(x=40, open_=False):
    if open_:
        return rect(x, 120, 70, 130, "#3a3a3a", INK, 2) + poly([(x + 70, 120), (x + 100, 110), (x + 100, 262), (x + 70, 250)], BROWN, INK, 2)
    return rect(x, 120, 70, 130, BROWN, INK, 2) + circle(x + 58, 190, 4, YELLOW)


def sign(cx, cy, inner, color=WHITE):
    """A signboard on a post holding a symbol."""
    return rect(cx - 4, cy, 8, 100, BROWN) + rect(cx - 50, cy - 40, 100, 60, color, INK, 2.5, rx=6) + inner


def shade(bg):
    """A panel's background, so that two panels with the same drawing still differ."""
    return bg or PAPER


def sheet(items, bg=None):
    return panel(items, shade(bg))


__all__ = [name for name in dir() if not name.startswith("_")] + [
    "BLUE", "GREEN", "GREY", "INK", "ORANGE", "PAPER", "PURPLE", "RED", "SKIN", "SKY", "SOIL", "WHITE", "WOOD",
    "YELLOW", "star", "cloud"]
