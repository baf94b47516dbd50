"""What agents use: session context, search, the MCP server, import of notes, the watcher.

Each surface calls the same core operations the command line calls (`lifecycle.add`,
`lifecycle.retire`, `index.build`, `lint.runner`), so an agent and a person get the same
decisions. May import `lifecycle`, `lint`, `index`, `meaning`, `store` and the base
modules; never `cli` or click.
"""
