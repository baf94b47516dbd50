"""cardindex: a card index that gives AI agents a memory worth reading.

The package is layered the way data flows: files → cards → a vault → analyses (index,
lint, consolidation) → writes. Imports point down only, in this order (top to bottom):

    cli → agents → lifecycle → lint → index → meaning → store → gitmerge → base

- `cli/`: click only; one module per command: parse options, call the core, print.
- `agents/`: session context, search, the MCP server, import, the watcher.
- `lifecycle/`: consolidation planning, adding and retiring cards, undo, as-of, pruning.
- `lint/`: the rule registry, the rules, formatters, the runner and its cache, the write gate.
- `index/`: INDEX.md: render, budget, check, takeover of a hand-kept index, templates.
- `meaning/`: what cards state: statements, similarity, what the repository says.
- `store/`: the files: card, vault, the one writer, the one job writer, journal, lock, config.
- `gitmerge.py`: the INDEX.md merge driver (only the three versions git hands it).
- base: `errors.py` (the one exception root), `secrets.py` (what a secret is),
  `redaction.py` (the one redaction) and `lazy.py` (patterns compiled on first use),
  which every layer may use.

tests/test_layers.py keeps it so, and finds any import circle.
"""

__version__ = "0.1.0"
