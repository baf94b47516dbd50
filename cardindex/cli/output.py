"""What the commands print: every line and every JSON document through the one redaction.

`echo` and `echo_json` are how a command's output reaches the terminal, so what leaves
the tool is decided here once (`redaction.shown`: secrets replaced by `[redacted]`,
control characters escaped), not at each of the call sites. `cards show --reveal` is the
one command that prints a card as it is, with `sys.stdout` directly.
"""

from __future__ import annotations

import sys

from cardindex.redaction import shown, shown_data


def echo(text: str = "", *, err: bool = False, end: str = "\n") -> None:
    """Print `text` (to stderr with `err`), secrets redacted and control characters escaped."""
    print(shown(text), end=end, file=sys.stderr if err else sys.stdout)


def echo_json(value: object) -> None:
    """Print `value` as indented JSON, every string in it redacted (the JSON stays valid)."""
    import json

    print(json.dumps(shown_data(value), indent=1, ensure_ascii=False))
