"""INDEX.md: render it from the live cards, keep it within budget, check it, take one over.

`build` renders, budgets, checks and writes the index; `takeover` decides whether a
hand-kept index file may be replaced; `withhold` keeps cards holding a secret out of it;
`templates` finds and renders the Jinja2 templates (the vault may override them). The
rules check the index, so this package sits below `lint`. May import `store`, `meaning`
and the base modules (`errors`, `redaction`, `secrets`).
"""
