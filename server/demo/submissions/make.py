#!/usr/bin/env python3
"""Writes the demo model submissions of memeboard (run from this folder: python3 make.py).

Everything here is derived from memeboard's own demo content (../demo_memes.json and
../panels/manifest.jsonl) or written for it below; nothing comes from a benchmark's data.
Four models of graded quality per task, so that boards and human evaluation studies have
something to rank:

demo-explain (meme explanations, scored by embeddings):
  faithful  - a paraphrase of the reference meaning, origin and an example
  vague     - only the kind of meme ("describes a social phenomenon"), no origin, no example
  shifted   - a fluent explanation of a *different* meme (the next one in the file)
  echo      - repeats the phrase as its own meaning

demo-panel-explain (comic explanations, judged by people only):
  insight   - explains the joke (hand-written below, and beside each generated comic)
  literal   - describes the panels one by one without saying what is funny
  mixup     - a good explanation of another comic (the next one)
  vague     - one generic sentence for every comic

Lines name memes by phrase and comics by manifest id; the server maps them to item ids when it
loads the demo submissions (server/src/demo/submissions.rs) and submits each file through the
ordinary upload path.
"""
import json

memes = json.load(open("../demo_memes.json", encoding="utf-8"))
comics = [json.loads(l) for l in open("../panels/manifest.jsonl", encoding="utf-8") if l.strip()]


def description(m):
    """The part of a reference meaning after "用来" (what the meme describes)."""
    meaning = m["meaning"]
    if "用来" in meaning:
        rest = meaning.split("用来", 1)[1]
        for lead in ("形容", "表示", "表达", "以"):
            if rest.startswith(lead):
                return "指" + rest[len(lead):] if lead == "形容" else rest
        return rest
    return meaning


def kind_of(m):
    """The part of a reference meaning before "，用来", without the phrase."""
    head = m["meaning"].split("，用来", 1)[0]
    head = head.replace("“" + m["meme"] + "”", "").lstrip("是").strip("，")
    return head


def first_clause(text):
    if not text:
        return None
    for stop in ("，", "。"):
        if stop in text:
            return text.split(stop, 1)[0] + "。"
    return text


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            line = {k: v for k, v in line.items() if v is not None}
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


n = len(memes)
write("demo-explain/faithful.jsonl", [
    {"meme": m["meme"], "meaning": description(m), "origin": first_clause(m["origin"]),
     "example": m["examples"][1]}
    for m in memes])
write("demo-explain/vague.jsonl", [
    {"meme": m["meme"], "meaning": "网络上常见的说法，" + kind_of(m) + "，具体意思要看语境。"}
    for m in memes])
write("demo-explain/shifted.jsonl", [
    {"meme": m["meme"], "meaning": description(memes[(i + 1) % n]),
     "origin": first_clause(memes[(i + 1) % n]["origin"])}
    for i, m in enumerate(memes)])
write("demo-explain/echo.jsonl", [
    {"meme": m["meme"], "meaning": "就是" + m["meme"] + "。"} for m in memes])

INSIGHT = {
    "c01": "种子要一格一格地浇水、等待才能开花：笑点在于把漫长的养成过程压缩成几格，正好戳中养不活绿植的人。 · Growing a flower takes patience, panel by panel; the joke is the slow glow-up that people who kill their plants never get to see.",
    "c02": "熬夜写作业写到蜡烛都烧完了：蜡烛比人先“下班”，自嘲熬夜太久。 · Homework runs so late that the candle burns down first; the candle 'clocking out' before you is the self-mocking punchline.",
    "c03": "太阳从升起到落下、月亮出来，窗灯一直亮着：打工人一天的工作比太阳还长，最后熄灯才是真正下班。 · From sunrise to starry night the window stays lit: the worker's day outlasts the sun, and only the dark window in the last panel means they finally clocked out.",
    "c04": "总想再多接一点水，结果每次都溢出来：调侃“就一点点”的贪心。 · 'Just a little more' water always ends in an overflowing glass and puddles, a joke about never stopping in time.",
    "c05": "找眼镜找半天，朋友一指才发现眼镜就在头上：戴眼镜的人都有过的尴尬时刻。 · Someone hunts for their glasses until a friend points out they are on their head all along, the classic glasses-wearer blunder.",
    "c06": "周一早上起床、刷牙、喝咖啡、出门：刷牙和咖啡同时在七点一刻，笑的是早上手忙脚乱、出门那一刻反而最精神。 · A Monday morning routine where teeth and coffee both happen at a quarter past seven; the rush is the joke, and you are only awake at the door.",
    "c07": "听说有客人要来，才把乱成一团的房间收拾得闪闪发亮：前后对比判若两房。 · A messy room becomes spotless only because guests are coming; the before/after contrast (and the painful sweeping in between) is the joke.",
    "c08": "孩子堆好的雪人被太阳一晒就化了，只剩帽子和胡萝卜：来得快去得也快。 · A child's snowman melts in the sun until only the hat and carrot are left: easy come, easy go.",
    "c09": "群里问吃不吃披萨，两个朋友秒回：回复顺序无所谓，重点是披萨。 · One pizza message, two instant replies, and everyone is at the table: the group chat is efficient only when food is involved.",
    "c10": "进度条越接近满格越慢，人的表情从微笑到冒烟：调侃“99%”永远卡住。 · The progress bar slows down near the end while the face goes from smiling to fuming; the joke is that the last percent always takes longest.",
    "c11": "四只猫在周末各自找到最喜欢的位置：纸箱、毛线、鱼和窗台，每只猫都有自己的快乐。 · Four cats each enjoy their own spot (box, yarn, fish, sunny sill); it is a side-by-side portrait of cat personalities, not a story.",
    "c12": "想象中的三层生日蛋糕和现实中塌掉的蛋糕：照着教程做，结果完全不一样。 · Expectation vs. reality: the dream three-tier cake next to the collapsed one you actually baked.",
    "c13": "周末的三种过法：看书、打游戏、睡觉，其实是同一个人，最后一个最诚实。 · Three ways to spend the weekend (reading, gaming, sleeping), probably all the same person, with sleep as the honest answer.",
    "c14": "海边的一天：沙堡、冰淇淋、游泳，顺序不重要，开心就好。 · A beach day of sandcastles, ice cream and swimming; the order does not matter, the fun does.",
    "c15": "说好只吃两块披萨，结果一整盒都吃光了，肚子也圆了：自制力失败的自嘲。 · 'Just two slices' turns into an empty box and a round belly, a self-mocking joke about failing to stop.",
    "c16": "一场雷阵雨：人撑伞躲雨，青蛙在水坑里开心，雨后出现彩虹。同一场雨，各有各的快乐。 · A summer shower from clouds to rainbow; the umbrella person and the delighted frog enjoy the same rain in their own way.",
    "c17": "电线上的两只鸟你一句我一句地唱，最后一起合唱：像一段小对话。 · Two birds on a wire trade notes and end in a duet with a heart: a tiny conversation in song.",
}


# The comics from c18 on are generated (scripts/demo/comics_*.py); their insight lines are
# written there, beside each comic, and collected in comic_insights.json by draw_panels.py.
INSIGHT.update(json.load(open("comic_insights.json", encoding="utf-8")))
missing = [c["id"] for c in comics if c["id"] not in INSIGHT]
assert not missing, f"no insight line for {missing}"


def literal(c):
    parts = [a.split(" · ", 1)[-1] for a in c["alt"]]
    return "Panels: " + "; ".join(f"{i + 1}. {p}" for i, p in enumerate(parts)) + "."


m = len(comics)
write("demo-panel-explain/insight.jsonl", [{"comic": c["id"], "explanation": INSIGHT[c["id"]]} for c in comics])
write("demo-panel-explain/literal.jsonl", [{"comic": c["id"], "explanation": literal(c)} for c in comics])
write("demo-panel-explain/mixup.jsonl", [
    {"comic": c["id"], "explanation": INSIGHT[comics[(i + 1) % m]["id"]]} for i, c in enumerate(comics)])
write("demo-panel-explain/vague.jsonl", [
    {"comic": c["id"], "explanation": "一则关于日常生活的搞笑漫画。 · A funny comic about everyday life."}
    for c in comics])
