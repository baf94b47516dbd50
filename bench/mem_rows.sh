#!/bin/bash
# Peak RSS of each command that reads a whole vault, in the order an agent meets them (issue 18).
#
#   bench/mem_rows.sh CODE SRC WORK OUT [lint]
#
# CODE: a cardindex source tree (put first on PYTHONPATH: the worktree, or a `git archive` of another
# commit); SRC: a vault never written to (`make_vault.py --n 100000 --seed 42 --out SRC`); WORK: the copy
# the steps write into (removed first); OUT: one "row seconds s KB KB" line per step (/usr/bin/time -f);
# `lint` adds the two lint rows (at 100k cards the first takes about 20 minutes on a loaded machine).
set -u
CODE=$1; SRC=$2; V=$3; OUT=$4; LINT=${5:-}
PY=${PY:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python}
rm -rf "$V"; cp -a "$SRC" "$V"; rm -rf "$V/.cardindex" "$V/INDEX.md"
: > "$OUT"
run() {
  label=$1; shift
  /usr/bin/time -f "$label %e s %M KB" -a -o "$OUT" env PYTHONPATH="$CODE" "$PY" -m cardindex --vault "$V" "$@" \
    > /dev/null 2>&1 || echo "$label failed" >> "$OUT"
}
cd /tmp
run cold_index index                      # no .cardindex/, no INDEX.md
sleep 2.5                                 # past the parse cache's racy window
run cache_index index                     # every card from the parse cache (no render memo yet)
run context context
run add_gate add "The staging database is refreshed from production every Sunday night." --key staging-refresh-mem11
run add_force add "Release notes are written in the docs folder before tagging." --force
run search_first search "deploy day"      # builds the search index
run search_warm search "deploy day"
if [ "$LINT" = lint ]; then
  run lint_first lint --exit-zero --format json     # no lint cache
  sleep 2.5; rm -f "$V"/.cardindex/cache/lint-run-*
  run lint_memo_missed lint --exit-zero --format json
fi
