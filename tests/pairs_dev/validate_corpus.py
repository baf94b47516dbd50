import json, os, subprocess, tempfile, sys, datetime, filecmp
import yaml
ROOT = sys.argv[1] if len(sys.argv) > 1 else "/work/wt/pairs-dev/tests/pairs_dev"
L = json.load(open(f"{ROOT}/labels.json"))
V = f"{ROOT}/vault"
files = set()
for d, _, fs in os.walk(V):
    for f in fs:
        p = os.path.relpath(os.path.join(d, f), V)
        if p != ".cardindex.yaml": files.add(p)
err = []
if files != set(L["cards"]): err.append(("mismatch", files ^ set(L["cards"])))
cfg = yaml.safe_load(open(f"{V}/.cardindex.yaml"))
if cfg != L["config"]: err.append(("config", cfg))
inpair = {"duplicate": set(), "contradiction": set()}
for cat, ps in L["pairs"].items():
    for a, b in ps:
        for m in (a, b):
            if m not in L["cards"] or cat not in L["cards"][m]: err.append(("pair", cat, m))
            inpair[cat].add(m)
for p, labs in L["cards"].items():
    for cat in ("duplicate", "contradiction"):
        if cat in labs and p not in inpair[cat]: err.append(("unpaired", cat, p))
for p in L["tricky_clean"] + list(L["notes"]):
    if p not in L["cards"]: err.append(("ref", p))
today = datetime.date(2026, 11, 30)
for p, labs in L["cards"].items():
    t = open(os.path.join(V, p), encoding="utf-8").read()
    if "structure" in labs: continue
    assert t.startswith("---\n"), p
    fm = t.split("---\n")[1]
    try:
        d = yaml.safe_load(fm)
    except Exception as e:
        err.append(("yaml", p, str(e)[:80])); continue
    md = d.get("metadata") or {}
    for k in ("name", "description"):
        if not d.get(k): err.append(("missing", k, p))
    if "#" in str(d["description"]): err.append(("hash", p))
    typ = d.get("type") or md.get("type")
    if typ not in ("user", "feedback", "project", "reference"): err.append(("type", p))
    if md and set(d) - {"name", "description", "metadata"}: err.append(("nested-extra", p))
    def dt(x):
        v = d.get(x, md.get(x)); 
        return v if isinstance(v, datetime.date) or v is None else datetime.date.fromisoformat(str(v))
    if "stale" not in labs:
        e = dt("expires")
        if e and e < today: err.append(("expired-unlabelled", p))
        if typ == "project":
            ev = [x for x in (dt("verified"), dt("modified")) if x]
            if ev and max(ev) < today - datetime.timedelta(days=365): err.append(("old-unlabelled", p))
        sc = d.get("scope", md.get("scope"))
        if sc and str(sc).startswith("path:") and not os.path.exists(f"{ROOT}/repo/{sc[5:]}"): err.append(("scope", p))
    for x in ("verified", "modified", "created", "expires"):
        v = dt(x)
        if v and x != "expires" and v > today: err.append(("future", p, x))
# git replay
H = json.load(open(f"{ROOT}/repo/GIT_HISTORY.json"))
assert 10 <= len(H) <= 25
with tempfile.TemporaryDirectory() as tmp:
    r = lambda *a, **k: subprocess.run(a, cwd=tmp, check=True, capture_output=True, **k)
    r("git", "init", "-q")
    for c in H:
        for path, content in c["files"].items():
            fp = os.path.join(tmp, path); os.makedirs(os.path.dirname(fp) or tmp, exist_ok=True)
            open(fp, "w").write(content)
        name, email = c["author"].rsplit(" <", 1)
        env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email[:-1], GIT_COMMITTER_NAME=name,
                   GIT_COMMITTER_EMAIL=email[:-1], GIT_AUTHOR_DATE=c["date"], GIT_COMMITTER_DATE=c["date"])
        r("git", "add", "-A")
        args = ["git", "commit", "-q", "-m", c["subject"]] + (["-m", c["body"]] if c["body"] else [])
        r(*args, env=env)
    got = {os.path.relpath(os.path.join(d, f), tmp) for d, ds, fs in os.walk(tmp) for f in fs}
    got = {g for g in got if not g.startswith(".git/")}
    want = {os.path.relpath(os.path.join(d, f), f"{ROOT}/repo") for d, _, fs in os.walk(f"{ROOT}/repo") for f in fs} - {"GIT_HISTORY.json"}
    if got != want: err.append(("replay-files", got ^ want))
    for f in want & got:
        if open(os.path.join(tmp, f)).read() != open(f"{ROOT}/repo/{f}").read(): err.append(("replay-content", f))
    n = r("git", "rev-list", "--count", "HEAD").stdout.strip()
print("commits replayed:", n)
print("ERRORS:" if err else "OK", *err, sep="\n")
sys.exit(1 if err else 0)
