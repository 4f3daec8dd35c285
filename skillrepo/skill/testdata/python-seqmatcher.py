# Generates python-seqmatcher.json: SequenceMatcher(None, a, b) ratios and
# opcodes from Python's own difflib, for seqmatch_test.go. Run:
#   python3 python-seqmatcher.py > python-seqmatcher.json
import difflib, json, random, sys

rng = random.Random(36)
words = ["the", "run", "it’s", "it's", "—", "-", "“quoted”", '"quoted"', " ", "\t", "\n", "docker", "yield", "key", "build:", "é", "x"]

def text(n):
    return "".join(rng.choice(words) + rng.choice([" ", "", "  "]) for _ in range(n))

def mutate(s):
    s = list(s)
    for _ in range(rng.randint(0, max(1, len(s) // 8))):
        k = rng.randrange(3)
        p = rng.randrange(len(s) + 1)
        if k == 0 and p < len(s):
            del s[p]
        elif k == 1:
            s.insert(p, rng.choice("abc -—’'\t"))
        elif p < len(s):
            s[p] = rng.choice("xyz'’")
    return "".join(s)

cases = []
for n in [0, 1, 2, 3, 5, 8, 13, 21, 40, 60, 90, 120]:  # 120 words: past 200 characters, so autojunk applies
    for _ in range(8):
        a = text(n)
        b = mutate(a) if rng.random() < 0.8 else text(n)
        m = difflib.SequenceMatcher(None, a, b)
        cases.append({"a": a, "b": b, "ratio": m.ratio(),
                      "opcodes": [[t[0], i1, i2, j1, j2] for t, i1, i2, j1, j2 in m.get_opcodes()]})
json.dump({"reference": "Python %d.%d.%d difflib" % sys.version_info[:3], "cases": cases}, sys.stdout, ensure_ascii=False, indent=0)
