"""The life of cards: consolidation planning, adding and retiring cards, undo, history and as-of.

`plan` decides what consolidation does (a pure function of cards that returns steps);
`window` says which cards changed since the last consolidation; `llm` lets a trusted
command rewrite a merged card's text; `undo` reverts a journalled job; `asof` rewinds the
vault through the journal to a past date; `prune` drops old jobs and purges kept copies.
Every write goes through the one job writer (`store.jobs.apply`). May import `lint`,
`index`, `meaning`, `store` and the base modules; never `agents` or `cli`.
"""
