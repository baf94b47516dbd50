"""The files: a card's text and fields, the vault that finds and loads cards, and every write.

`card` parses, validates and patches one card (`fields`, `frontmatter`, `yamlfields` and
`controls` are its parts); `vault` discovers and loads cards through the parse cache
(`parse_cache`); `atomic` is the one writer; `jobs` applies a job of file changes through
the `journal` (the one job writer, with its crash `recovery`); `lock`, `config`, `trust`
(the user's own settings), `remembered` (results kept while their inputs are unchanged),
`built` (tables built from the package's data, kept per version) and `os_errors` (what
the operating system refuses, in one line) serve them. The job writer sits here and not
in `lifecycle` because INDEX.md writes and takeovers go through it too. May import only
`cardindex.errors`, `cardindex.redaction`, `cardindex.secrets` and the standard library
(plus yaml, lazily).
"""
