"""Drawing primitives shared by the demo comic scripts: colours, shapes, symbols drawn as
strokes (no text), people, animals and everyday things. Python 3 stdlib only."""

import math


PAPER = "#fbf8f1"
INK = "#333333"
SKIN = "#f2c9a0"
SKY = "#d8ecf7"
GRASS = "#9bd27c"
SOIL = "#8a5a3b"
WOOD = "#c8955c"
BLUE = "#5b8bd9"
ORANGE = "#f0a04b"
GREEN = "#4caf6a"
PURPLE = "#9a6fd1"
RED = "#e0584f"
YELLOW = "#f7d147"
GREY = "#9aa0a6"
WHITE = "#ffffff"


def n(x):
    """Formats a coordinate compactly (one decimal, no trailing zero)."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def attrs(fill=None, stroke=None, sw=None, extra=""):
    out = f' fill="{fill}"' if fill else ' fill="none"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{n(sw if sw is not None else 2)}"'
        out += ' stroke-linecap="round" stroke-linejoin="round"'
    return out + extra


def rect(x, y, w, h, fill=None, stroke=None, sw=None, rx=0):
    r = f' rx="{n(rx)}"' if rx else ""
    return f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}"{r}{attrs(fill, stroke, sw)}/>'


def circle(cx, cy, r, fill=None, stroke=None, sw=None):
    return f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(r)}"{attrs(fill, stroke, sw)}/>'


def ellipse(cx, cy, rx, ry, fill=None, stroke=None, sw=None):
    return f'<ellipse cx="{n(cx)}" cy="{n(cy)}" rx="{n(rx)}" ry="{n(ry)}"{attrs(fill, stroke, sw)}/>'


def line(x1, y1, x2, y2, stroke=INK, sw=2):
    return f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}"{attrs(None, stroke, sw)}/>'


def path(d, fill=None, stroke=None, sw=None):
    return f'<path d="{d}"{attrs(fill, stroke, sw)}/>'


def poly(points, fill=None, stroke=None, sw=None):
    pts = " ".join(f"{n(x)},{n(y)}" for x, y in points)
    return f'<polygon points="{pts}"{attrs(fill, stroke, sw)}/>'


def panel(items, bg=PAPER):
    """A whole panel: light paper background, the drawing, a thin border on top."""
    body = "\n  ".join(items)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 320 320">\n'
        f'  <rect x="0" y="0" width="320" height="320" fill="{bg}"/>\n'
        f"  {body}\n"
        f'  <rect x="1.5" y="1.5" width="317" height="317" fill="none" stroke="{INK}" stroke-width="3"/>\n'
        "</svg>\n"
    )


# ---------------------------------------------------------------- symbols


def question(cx, cy, s=1.0, color=INK):
    d = (f"M{n(cx - 9 * s)},{n(cy - 10 * s)} Q{n(cx - 9 * s)},{n(cy - 22 * s)} {n(cx)},{n(cy - 22 * s)} "
         f"Q{n(cx + 10 * s)},{n(cy - 22 * s)} {n(cx + 10 * s)},{n(cy - 12 * s)} "
         f"Q{n(cx + 10 * s)},{n(cy - 4 * s)} {n(cx)},{n(cy)} L{n(cx)},{n(cy + 6 * s)}")
    return path(d, None, color, 4 * s) + circle(cx, cy + 15 * s, 3 * s, color)


def exclaim(cx, cy, s=1.0, color=INK):
    return line(cx, cy - 20 * s, cx, cy + 5 * s, color, 5 * s) + circle(cx, cy + 15 * s, 3 * s, color)


def heart(cx, cy, s=1.0, color=RED):
    d = (f"M{n(cx)},{n(cy + 14 * s)} C{n(cx - 22 * s)},{n(cy)} {n(cx - 14 * s)},{n(cy - 18 * s)} {n(cx)},{n(cy - 7 * s)} "
         f"C{n(cx + 14 * s)},{n(cy - 18 * s)} {n(cx + 22 * s)},{n(cy)} {n(cx)},{n(cy + 14 * s)} Z")
    return path(d, color)


def star(cx, cy, r, color=YELLOW, stroke=None):
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return poly(pts, color, stroke, 1.5 if stroke else None)


def sparkle(cx, cy, r, color=YELLOW):
    pts = [(cx, cy - r), (cx + r * 0.25, cy - r * 0.25), (cx + r, cy), (cx + r * 0.25, cy + r * 0.25),
           (cx, cy + r), (cx - r * 0.25, cy + r * 0.25), (cx - r, cy), (cx - r * 0.25, cy - r * 0.25)]
    return poly(pts, color)


def bulb(cx, cy, s=1.0):
    return (circle(cx, cy - 6 * s, 13 * s, YELLOW, INK, 2) + rect(cx - 6 * s, cy + 6 * s, 12 * s, 9 * s, GREY, INK, 1.5)
            + "".join(line(cx + 20 * s * math.cos(a), cy - 6 * s + 20 * s * math.sin(a),
                           cx + 27 * s * math.cos(a), cy - 6 * s + 27 * s * math.sin(a), ORANGE, 2.5)
                      for a in (-math.pi / 2, -math.pi / 4, -3 * math.pi / 4, 0, math.pi)))


def check(cx, cy, s=1.0, color=GREEN):
    return path(f"M{n(cx - 12 * s)},{n(cy)} L{n(cx - 3 * s)},{n(cy + 10 * s)} L{n(cx + 14 * s)},{n(cy - 10 * s)}",
                None, color, 5 * s)


def cross(cx, cy, s=1.0, color=RED):
    return line(cx - 10 * s, cy - 10 * s, cx + 10 * s, cy + 10 * s, color, 5 * s) + \
        line(cx + 10 * s, cy - 10 * s, cx - 10 * s, cy + 10 * s, color, 5 * s)


def note(cx, cy, s=1.0, color=INK):
    return (ellipse(cx - 6 * s, cy + 10 * s, 6 * s, 4.5 * s, color) + line(cx, cy + 9 * s, cx, cy - 12 * s, color, 2.5 * s)
            + path(f"M{n(cx)},{n(cy - 12 * s)} Q{n(cx + 8 * s)},{n(cy - 8 * s)} {n(cx + 9 * s)},{n(cy)}", None, color, 2.5 * s))


def zzz(x, y, s=1.0):
    out = ""
    for i, k in enumerate((1.0, 0.75, 0.55)):
        w = 12 * s * k
        ox, oy = x + i * 14 * s, y - i * 16 * s
        out += path(f"M{n(ox)},{n(oy)} L{n(ox + w)},{n(oy)} L{n(ox)},{n(oy + w)} L{n(ox + w)},{n(oy + w)}", None, BLUE, 2.5)
    return out


def arrow(x1, y1, x2, y2, color=INK, sw=3):
    a = math.atan2(y2 - y1, x2 - x1)
    h = 10
    p1 = (x2 - h * math.cos(a - 0.5), y2 - h * math.sin(a - 0.5))
    p2 = (x2 - h * math.cos(a + 0.5), y2 - h * math.sin(a + 0.5))
    return line(x1, y1, x2, y2, color, sw) + poly([(x2, y2), p1, p2], color)


def sun(cx, cy, r, color=YELLOW, rays=True):
    out = ""
    if rays:
        for i in range(8):
            a = i * math.pi / 4
            out += line(cx + (r + 5) * math.cos(a), cy + (r + 5) * math.sin(a),
                        cx + (r + 13) * math.cos(a), cy + (r + 13) * math.sin(a), ORANGE, 3)
    return out + circle(cx, cy, r, color)


def moon(cx, cy, r, bg):
    return circle(cx, cy, r, "#f4efc8") + circle(cx + r * 0.45, cy - r * 0.25, r * 0.85, bg)


def cloud(cx, cy, s=1.0, color=WHITE):
    return (ellipse(cx, cy + 6 * s, 34 * s, 14 * s, color) + circle(cx - 14 * s, cy, 14 * s, color)
            + circle(cx + 8 * s, cy - 6 * s, 18 * s, color))


def drop(cx, cy, s=1.0, color=BLUE):
    return path(f"M{n(cx)},{n(cy - 9 * s)} Q{n(cx + 7 * s)},{n(cy + 2 * s)} {n(cx)},{n(cy + 5 * s)} "
                f"Q{n(cx - 7 * s)},{n(cy + 2 * s)} {n(cx)},{n(cy - 9 * s)} Z", color)


def snowflake(cx, cy, r, color=WHITE):
    out = ""
    for i in range(3):
        a = i * math.pi / 3
        out += line(cx - r * math.cos(a), cy - r * math.sin(a), cx + r * math.cos(a), cy + r * math.sin(a), color, 2)
    return out


def clock(cx, cy, r, hour, minute=0, face=WHITE):
    out = circle(cx, cy, r, face, INK, 2.5)
    for i in range(12):
        a = i * math.pi / 6
        out += line(cx + r * 0.8 * math.cos(a), cy + r * 0.8 * math.sin(a),
                    cx + r * 0.92 * math.cos(a), cy + r * 0.92 * math.sin(a), INK, 1.5)
    ha = math.radians((hour % 12 + minute / 60) * 30 - 90)
    ma = math.radians(minute * 6 - 90)
    out += line(cx, cy, cx + r * 0.5 * math.cos(ha), cy + r * 0.5 * math.sin(ha), INK, 3.5)
    out += line(cx, cy, cx + r * 0.78 * math.cos(ma), cy + r * 0.78 * math.sin(ma), RED, 2)
    return out + circle(cx, cy, 2.5, INK)


def bubble(x, y, w, h, tail, inner=""):
    """A speech bubble (rounded box with a tail pointing at the speaker) holding a symbol."""
    tx, ty = tail
    bx = min(max(tx, x + 18), x + w - 18)
    by = y + h if ty > y + h / 2 else y
    return (poly([(bx - 9, by), (bx + 9, by), (tx, ty)], WHITE, INK, 2) + rect(x, y, w, h, WHITE, INK, 2, rx=16)
            + poly([(bx - 7.5, by - (1.5 if by > y else -1.5)), (bx + 7.5, by - (1.5 if by > y else -1.5)),
                    (tx, ty - (3 if by > y else -3))], WHITE) + inner)


# ---------------------------------------------------------------- people and things


def face(cx, cy, r, mood="happy", skin=SKIN):
    s = r / 22
    out = circle(cx, cy, r, skin, INK, 2)
    ex, ey = 8 * s, cy - 4 * s
    if mood in ("sleep", "relieved"):
        for sx in (-1, 1):
            out += path(f"M{n(cx + sx * ex - 4 * s)},{n(ey)} Q{n(cx + sx * ex)},{n(ey + 4 * s)} {n(cx + sx * ex + 4 * s)},{n(ey)}",
                        None, INK, 2)
    else:
        er = 3.6 * s if mood == "surprised" else 2.6 * s
        out += circle(cx - ex, ey, er, INK) + circle(cx + ex, ey, er, INK)
    my = cy + 8 * s
    if mood in ("happy", "relieved"):
        out += path(f"M{n(cx - 9 * s)},{n(my - 2 * s)} Q{n(cx)},{n(my + 9 * s)} {n(cx + 9 * s)},{n(my - 2 * s)}", None, INK, 2.5)
    elif mood == "laugh":
        out += path(f"M{n(cx - 10 * s)},{n(my - 3 * s)} Q{n(cx)},{n(my + 14 * s)} {n(cx + 10 * s)},{n(my - 3 * s)} Z", RED, INK, 2)
    elif mood in ("sad", "angry", "annoyed"):
        out += path(f"M{n(cx - 8 * s)},{n(my + 5 * s)} Q{n(cx)},{n(my - 3 * s)} {n(cx + 8 * s)},{n(my + 5 * s)}", None, INK, 2.5)
    elif mood == "surprised":
        out += ellipse(cx, my + 2 * s, 4 * s, 5 * s, INK)
    else:  # neutral, sleep
        out += line(cx - 7 * s, my + 1 * s, cx + 7 * s, my + 1 * s, INK, 2.5)
    if mood in ("angry", "annoyed"):
        tilt = 5 if mood == "angry" else 2.5
        out += line(cx - 13 * s, ey - 8 * s - tilt * s, cx - 4 * s, ey - 6 * s, INK, 2.5)
        out += line(cx + 13 * s, ey - 8 * s - tilt * s, cx + 4 * s, ey - 6 * s, INK, 2.5)
    if mood == "angry":
        out += "".join(path(f"M{n(cx + k * 16 * s)},{n(cy - r - 2)} q{n(k * 4)},-8 0,-16", None, GREY, 2.5) for k in (-1, 1))
    if mood == "sad":
        out += drop(cx + ex + 3 * s, ey + 9 * s, 0.6 * s, BLUE)
    return out


def person(x, ground, mood="happy", shirt=BLUE, s=1.0, arms="down", skin=SKIN):
    """A standing figure whose feet touch `ground`; `arms` is down, up, point, head or wave."""
    hy = ground - 118 * s
    sh = hy + 28 * s
    out = line(x - 9 * s, ground - 42 * s, x - 12 * s, ground, INK, 5 * s)
    out += line(x + 9 * s, ground - 42 * s, x + 12 * s, ground, INK, 5 * s)
    out += path(f"M{n(x - 18 * s)},{n(ground - 40 * s)} L{n(x - 15 * s)},{n(sh)} L{n(x + 15 * s)},{n(sh)} "
                f"L{n(x + 18 * s)},{n(ground - 40 * s)} Z", shirt, INK, 2)
    ay = sh + 8 * s
    ends = {
        "down": ((-26, 70), (26, 70)),
        "up": ((-30, -30), (30, -30)),
        "point": ((-26, 70), (42, -4)),
        "head": ((-26, 70), (8, -40)),
        "wave": ((-26, 70), (34, -28)),
        "hold": ((-10, 44), (10, 44)),
    }[arms]
    for ex, ey in ends:
        sx = -1 if ex < 0 else 1
        out += line(x + sx * 14 * s, ay, x + ex * s, ay + ey * s, INK, 5 * s)
        out += circle(x + ex * s, ay + ey * s, 5 * s, skin)
    return out + face(x, hy, 22 * s, mood, skin)


def ground_strip(y=260, color=GRASS):
    return rect(3, y, 314, 317 - y, color)


def sky_box(color=SKY, y2=260):
    return rect(3, 3, 314, y2 - 3, color)


def pot(cx, base=270):
    return (poly([(cx - 40, base - 50), (cx + 40, base - 50), (cx + 30, base), (cx - 30, base)], "#d2693c", INK, 2)
            + rect(cx - 46, base - 60, 92, 14, "#e07a4b", INK, 2) + ellipse(cx, base - 60, 40, 5, SOIL))


def leaf(x, y, ang, size, color=GREEN):
    a = math.radians(ang)
    tx, ty = x + size * math.cos(a), y + size * math.sin(a)
    nx, ny = -math.sin(a) * size * 0.35, math.cos(a) * size * 0.35
    mx, my = (x + tx) / 2, (y + ty) / 2
    return path(f"M{n(x)},{n(y)} Q{n(mx + nx)},{n(my + ny)} {n(tx)},{n(ty)} Q{n(mx - nx)},{n(my - ny)} {n(x)},{n(y)} Z",
                color, INK, 1.5)


def cat(cx, cy, s=1.0, color=ORANGE, mood="happy", tail_up=True, lying=False):
    out = ""
    if lying:
        out += ellipse(cx, cy + 10 * s, 48 * s, 20 * s, color, INK, 2)
        out += path(f"M{n(cx + 44 * s)},{n(cy + 14 * s)} Q{n(cx + 70 * s)},{n(cy + 30 * s)} {n(cx + 40 * s)},{n(cy + 30 * s)}",
                    None, INK, 6 * s)
        hx, hy = cx - 40 * s, cy - 2 * s
    else:
        out += ellipse(cx, cy + 18 * s, 30 * s, 34 * s, color, INK, 2)
        tail = (f"M{n(cx + 26 * s)},{n(cy + 40 * s)} Q{n(cx + 60 * s)},{n(cy + 30 * s)} {n(cx + 50 * s)},{n(cy - 10 * s)}"
                if tail_up else
                f"M{n(cx + 26 * s)},{n(cy + 44 * s)} Q{n(cx + 60 * s)},{n(cy + 52 * s)} {n(cx + 64 * s)},{n(cy + 40 * s)}")
        out += path(tail, None, INK, 6 * s)
        hx, hy = cx, cy - 22 * s
    out += poly([(hx - 20 * s, hy - 6 * s), (hx - 16 * s, hy - 30 * s), (hx - 4 * s, hy - 16 * s)], color, INK, 2)
    out += poly([(hx + 20 * s, hy - 6 * s), (hx + 16 * s, hy - 30 * s), (hx + 4 * s, hy - 16 * s)], color, INK, 2)
    out += face(hx, hy, 20 * s, mood, color)
    for k in (-1, 1):
        out += line(hx + k * 8 * s, hy + 6 * s, hx + k * 26 * s, hy + 2 * s, INK, 1.2)
        out += line(hx + k * 8 * s, hy + 8 * s, hx + k * 26 * s, hy + 10 * s, INK, 1.2)
    return out


def glasses(cx, cy, s=1.0):
    return circle(cx - 10 * s, cy, 8 * s, "#e6f2fb", INK, 2) + circle(cx + 10 * s, cy, 8 * s, "#e6f2fb", INK, 2) + \
        line(cx - 2 * s, cy, cx + 2 * s, cy, INK, 2)


def room_wall(color="#f3ead7"):
    return rect(3, 3, 314, 314, color) + rect(3, 250, 314, 67, "#cdb796")


def phone(items_inside, x=70, w=180):
    return [rect(x, 14, w, 292, "#2f2f2f", INK, 2, rx=22), rect(x + 10, 34, w - 20, 252, "#f4f7fb", None, None, rx=6)] + items_inside


def chat_row(y, avatar_color, mine, inner, w=100):
    if mine:
        return circle(220, y + 18, 12, avatar_color, INK, 1.5) + rect(200 - w, y, w, 36, "#cfe6ff", INK, 1.5, rx=12) + inner(200 - w / 2, y + 18)
    return circle(100, y + 18, 12, avatar_color, INK, 1.5) + rect(118, y, w, 36, WHITE, INK, 1.5, rx=12) + inner(118 + w / 2, y + 18)


def pizza_slice_icon(cx, cy):
    return poly([(cx - 14, cy - 10), (cx + 14, cy - 10), (cx, cy + 14)], YELLOW, INK, 1.5) + circle(cx - 3, cy - 4, 2.5, RED) + \
        circle(cx + 4, cy - 2, 2.5, RED)


def cake(cx, base, collapsed=False):
    if not collapsed:
        return (rect(cx - 80, base - 50, 160, 50, "#f4c7d8", INK, 2, rx=6) + rect(cx - 58, base - 95, 116, 45, "#fbe0ea", INK, 2, rx=6)
                + rect(cx - 36, base - 132, 72, 37, "#f4c7d8", INK, 2, rx=6) + circle(cx, base - 142, 10, RED, INK, 1.5)
                + path(f"M{cx - 80},{base - 40} q20,12 40,0 q20,12 40,0 q20,12 40,0 q20,12 40,0", None, WHITE, 4))
    return (path(f"M{cx - 90},{base} Q{cx - 70},{base - 50} {cx - 20},{base - 40} Q{cx + 30},{base - 70} {cx + 90},{base} Z",
                 "#f4c7d8", INK, 2)
            + path(f"M{cx - 40},{base - 40} q10,-30 40,-20 q20,10 10,22", "#fbe0ea", INK, 2)
            + circle(cx + 70, base - 6, 9, RED, INK, 1.5) + ellipse(cx - 60, base + 2, 26, 5, "#f4c7d8"))


def pizza(cx, cy, r, slices):
    out = circle(cx, cy, r + 6, "#f6f1ea", INK, 2)
    for k in range(slices):
        a0, a1 = k * math.pi / 4, (k + 1) * math.pi / 4
        x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
        x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
        out += path(f"M{n(cx)},{n(cy)} L{n(x0)},{n(y0)} A{r},{r} 0 0 1 {n(x1)},{n(y1)} Z", YELLOW, "#d08a3a", 2)
        am = (a0 + a1) / 2
        out += circle(cx + r * 0.6 * math.cos(am), cy + r * 0.6 * math.sin(am), 6, RED)
    return out


def bird(cx, cy, color, facing=1, singing=False):
    out = ellipse(cx, cy, 26, 20, color, INK, 2) + circle(cx + facing * 18, cy - 16, 13, color, INK, 2)
    out += circle(cx + facing * 22, cy - 19, 2.5, INK)
    beak = [(cx + facing * 30, cy - 18), (cx + facing * 42, cy - 14 - (6 if singing else 0)), (cx + facing * 30, cy - 12)]
    if singing:
        beak += [(cx + facing * 40, cy - 6)]
    out += poly(beak, ORANGE, INK, 1.5)
    out += path(f"M{n(cx - facing * 22)},{n(cy)} l{n(-facing * 18)},-10 l{n(facing * 4)},18 z", color, INK, 1.5)
    return out
