"""The generated demo comics (c18 on): ids chosen with the board split in view, SVG panels,
manifest lines, insight lines for the demo explanation model, and the Rust list of embedded
panels. Called by draw_panels.py; Python 3 stdlib only.

Which comics go where: the panel demo's boards need, in every panel-count bucket, at least
`min_category_items` (10) test comics on each board half of the order task, 10 on each half
among the comics the typing task offers while the order task's test gold is hidden (those
outside the order task: weak dependency or parallel), and a dev comic. The split of a comic
follows from its id (`server/src/import/mod.rs::split_of`, reimplemented below), so each new
comic, in list order, is given the half its pool and bucket lack most (dev while the bucket's
order pool has none, then public or private, whichever has fewer) and the lowest free id
`cN` (N >= 18) that falls there. Appending a comic never changes an earlier one's id.
"""

import json
import os
import re

import comics_contrast
import comics_gauges
import comics_sets
import comics_stories
import comics_talk
from panel_kit import panel

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
MANIFEST = os.path.join(ROOT, "server", "demo", "panels", "manifest.jsonl")
INSIGHTS = os.path.join(ROOT, "server", "demo", "submissions", "comic_insights.json")
RUST_LIST = os.path.join(ROOT, "server", "src", "demo", "raster", "demo_panel_list.rs")
SLUG = "demo-panel"
DEV_PERCENT = 34
MIN_ITEMS = 10
ORDER_WORDS = {"first", "then", "finally", "next", "last", "later", "before", "after", "begin"}
ORDER_WORDS_ZH = ("首先", "然后", "最后", "接着", "之后", "之前", "开始")


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def split_of(comic_id):
    """(split, half) exactly as the importer computes them for the demo benchmark."""
    source = "comic-%016x" % fnv1a64("\x1f".join([SLUG, comic_id]).encode())
    if fnv1a64(f"split/{source}".encode()) % 100 < DEV_PERCENT:
        return "dev"
    return "public" if fnv1a64(f"half/{source}".encode()) % 2 == 0 else "private"


def bucket(panels):
    return "7+" if panels >= 7 else "4-6" if panels >= 4 else "2-3"


def in_order_task(c):
    return (c["ordering_dependency"] == "strong" and c["type"] != "parallel"
            and c.get("order_groups") is not None and len(c["order_groups"]) >= 2)


def pool_key(c, panels):
    return ("order" if in_order_task(c) else "other", bucket(panels))


def new_comics():
    return (comics_talk.comics() + comics_gauges.comics() + comics_stories.comics() + comics_contrast.comics()
            + comics_sets.comics())


def check(c, cid):
    for text in [c["context"]["title"], c["context"]["caption"], *c["context"]["comments"], c["insight"]]:
        assert re.search("[\u4e00-\u9fff]", text) and re.search("[A-Za-z]", text), f"{cid}: {text}"
    for _, alt in c["panels"]:
        assert " · " in alt and not re.search(r"\d", alt), f"{cid}: {alt}"
        words = set(re.split(r"[^a-z]+", alt.lower()))
        assert not words & ORDER_WORDS and not any(w in alt for w in ORDER_WORDS_ZH), f"{cid}: {alt}"
    assert 2 <= len(c["panels"]) <= 12, cid


def assign(existing, comics):
    """Ids for the new comics (see the module doc)."""
    used = {c["id"] for c in existing}
    counts = {}
    for c in existing:
        key = pool_key(c, len(c["panels"])) + (split_of(c["id"]),)
        counts[key] = counts.get(key, 0) + 1
    ids = []
    for c in comics:
        pool = pool_key(c, len(c["panels"]))
        get = lambda half: counts.get(pool + (half,), 0)  # noqa: E731
        if pool[0] == "order" and get("dev") == 0:
            want = "dev"
        else:
            want = "public" if get("public") <= get("private") else "private"
        k = 18
        while f"c{k}" in used or split_of(f"c{k}") != want:
            k += 1
        cid = f"c{k}"
        used.add(cid)
        counts[pool + (want,)] = get(want) + 1
        ids.append(cid)
    return ids, counts


def flatten(items):
    """Panel items as a flat list of SVG strings (helpers may return lists)."""
    out = []
    for item in items:
        out += flatten(item) if isinstance(item, list) else [item]
    return out


def write_all(out_dir, seen):
    """Draws the new comics into `out_dir`, rewrites their manifest lines after the
    hand-written ones, and writes the insight lines and the Rust panel list."""
    with open(MANIFEST, encoding="utf-8") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    comics = new_comics()
    ids, counts = assign([l for l in lines if int(l["id"][1:]) < 18], comics)
    hand = [l for l in lines if int(l["id"][1:]) < 18]
    made = []
    insights = {}
    written = 0
    for cid, c in sorted(zip(ids, comics), key=lambda p: int(p[0][1:])):
        check(c, cid)
        names = []
        for k, (items, _) in enumerate(c["panels"], start=1):
            svg = panel(flatten(items))
            name = f"{cid}-{k}.svg"
            if svg in seen:
                raise SystemExit(f"{name} is identical to {seen[svg]}")
            seen[svg] = name
            with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
                f.write(svg)
            names.append(f"{cid}-{k}.png")
            written += 1
        line = {"id": cid, "panels": names, "type": c["type"], "ordering_dependency": c["ordering_dependency"]}
        if c["order_groups"] is not None:
            line["order_groups"] = c["order_groups"]
        line.update({"context": c["context"], "relation": c["relation"], "alt": [a for _, a in c["panels"]]})
        made.append(line)
        insights[cid] = c["insight"]
    with open(MANIFEST, "w", encoding="utf-8") as f:
        for line in hand + made:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    with open(INSIGHTS, "w", encoding="utf-8") as f:
        json.dump(insights, f, ensure_ascii=False, indent=1)
        f.write("\n")
    write_rust_list(hand + made)
    for key in sorted(counts):
        print(" ".join(key), counts[key])
    return written


def write_rust_list(lines):
    rows = "\n".join(f'    "{l["id"]}": [{" ".join(str(k) for k in range(1, len(l["panels"]) + 1))}],'
                     for l in lines)
    text = f"""//! The demo comics' panels, embedded: one line per comic (its id and panel numbers), written by
//! `scripts/demo/draw_panels.py` from the manifest; see [`super::demo_panel_files`].

/// Every demo panel as `(png name, svg bytes)`, in manifest order.
pub(super) const FILES: &[(&str, &[u8])] = demo_panels![
{rows}
];
"""
    with open(RUST_LIST, "w", encoding="utf-8") as f:
        f.write(text)
