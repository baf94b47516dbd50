"""`cards lint`: rules that flag what does not belong in a vault (SPEC §6), and the write gate.

`registry` is the one explicit rule registry (code, category, summary, check); the rule
families (`structure`, `session`, `derivable`, `similar`, `stale`, `secret`,
`index_rules`) are functions of a card and a `context.LintContext`; `runner` runs them
with `cache` and `baseline`; `formatters` print one stream of findings as text, JSON,
GitHub annotations or SARIF; `gate` reviews a card before `cards add` writes it. May
import `index`, `meaning`, `store` and the base modules; never `lifecycle`, `agents`,
`cli` or click.
"""
