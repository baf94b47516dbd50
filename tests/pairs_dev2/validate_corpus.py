import json, os, subprocess, tempfile, yaml, re, datetime, filecmp
ROOT = os.path.dirname(os.path.abspath(__file__))
L = json.load(open(ROOT + "/labels.json"))
V = ROOT + "/vault"
files = set()
for d, _, fs in os.walk(V):
    for f in fs:
        if f == ".cardindex.yaml": continue
        files.add(os.path.relpath(os.path.join(d, f), V))
assert files == set(L["cards"]), (files ^ set(L["cards"]))
assert yaml.safe_load(open(V + "/.cardindex.yaml")) == L["config"]
for kind, ps in L["pairs"].items():
    for a, b in ps:
        assert a != b
        for x in (a, b):
            assert x in L["cards"] and kind in L["cards"][x], (kind, x)
inpair = {k: {x for p in ps for x in p} for k, ps in L["pairs"].items()}
for p, cats in L["cards"].items():
    for k in ("duplicate", "contradiction"):
        if k in cats: assert p in inpair[k], (p, k)
for p in L["tricky_clean"]: assert L["cards"][p] == [], p
today = datetime.date(2026, 11, 30)
sess = re.compile(r"\b(today|currently|next step|right now|tomorrow|still|this session|TODO|in progress)\b", re.I)
for p, cats in L["cards"].items():
    t = open(os.path.join(V, p), encoding="utf-8").read()
    if "structure" in cats: continue
    assert t.startswith("---\n")
    fm, body = t[4:].split("\n---\n", 1)
    d = yaml.safe_load(fm)
    assert isinstance(d, dict) and d.get("description"), p
    m = {**d, **(d.get("metadata") or {})}
    assert m.get("type") in ("user", "feedback", "project", "reference"), p
    if "stale" not in cats:
        if m.get("expires"): assert m["expires"] > today, p
        if m["type"] == "project" and m.get("verified"):
            assert (today - m["verified"]).days <= 365, p
        sc = m.get("scope")
        if sc and sc.startswith("path:"): assert os.path.exists(ROOT + "/repo/" + sc[5:]), p
    if "session" not in cats and sess.search(body): print("session-word?", p, sess.search(body).group(0))
# replay
tmp = tempfile.mkdtemp()
subprocess.run(["git", "init", "-q", tmp], check=True)
env = {**os.environ}
for c in json.load(open(ROOT + "/repo/GIT_HISTORY.json", encoding="utf-8")):
    for p, content in c["files"].items():
        fp = os.path.join(tmp, p); os.makedirs(os.path.dirname(fp), exist_ok=True)
        open(fp, "w", encoding="utf-8").write(content)
    name, email = c["author"][:-1].split(" <")
    e = {**env, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
         "GIT_AUTHOR_DATE": c["date"], "GIT_COMMITTER_DATE": c["date"]}
    subprocess.run(["git", "-C", tmp, "add", "-A"], check=True, env=e)
    args = ["git", "-C", tmp, "commit", "-q", "-m", c["subject"]] + (["-m", c["body"]] if c["body"] else [])
    subprocess.run(args, check=True, env=e)
def tree(r):
    out = {}
    for d, dirs, fs in os.walk(r):
        if ".git" in dirs: dirs.remove(".git")
        for f in fs:
            rp = os.path.relpath(os.path.join(d, f), r)
            if rp == "GIT_HISTORY.json": continue
            out[rp] = open(os.path.join(d, f), "rb").read()
    return out
a, b = tree(tmp), tree(ROOT + "/repo")
assert a == b, set(a) ^ set(b) or [k for k in a if a[k] != b.get(k)]
print("commits:", subprocess.run(["git", "-C", tmp, "rev-list", "--count", "HEAD"], capture_output=True, text=True).stdout.strip())
print("OK", len(files))
