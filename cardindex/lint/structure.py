"""Structure rules: the card file itself is broken, unreadable or invalid (F007, several facts, is in facts.py)."""

from __future__ import annotations

from collections.abc import Iterator

from cardindex.lint.context import Hit, LintContext
from cardindex.store.card import Card


def _problems(card: Card, kind: str) -> Iterator[Hit]:
    for problem in card.problems:
        if problem.kind == kind:
            fix = "quote-value" if kind == "lenient" else None
            yield Hit(problem.line or 1, problem.message, fix=fix)


def unreadable(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The file cannot be read as a card: binary, not UTF-8, empty, or over 1 MB.

    A card is a small UTF-8 Markdown file. Convert it, shorten it, or move it out of the
    vault.
    """
    return _problems(card, "unreadable")


def frontmatter(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The frontmatter is missing, never closed, empty, or not a mapping of fields.

    A card starts with a `---` line, YAML fields (at least `description` and `type`), and
    another `---` line.
    """
    return _problems(card, "frontmatter")


def yaml_syntax(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The frontmatter is not valid YAML (and reading it leniently did not help)."""
    return _problems(card, "yaml")


def yaml_alias(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The frontmatter uses YAML anchors or aliases.

    Aliases can expand exponentially ("billion laughs") and make a card mean something
    other than what it shows; write the value out.
    """
    return _problems(card, "alias")


def invalid_field(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A field is missing or has the wrong type or value (SPEC §2).

    `description` (one line) and `type` (user, feedback, project, reference) are
    required; dates are ISO dates; `lock` is true or false; `status` is one of active,
    conflict, stale, superseded, archived.
    """
    return _problems(card, "field")


def unquoted_colon(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A value contains an unquoted `: `, which is invalid YAML.

    Claude Code writes such descriptions and reads them anyway, so cards reads the rest
    of the line as text; other YAML tools will not. The safe fix quotes the value.

    In a Claude Code memory directory (its index is MEMORY.md: configured as
    `cards init --claude` writes, or found there without an INDEX.md) that lenient reading
    is the dialect the files are written in and read by, so the warning is left out there.
    """
    if ctx.vault.index_name == "MEMORY.md":
        return iter(())
    return _problems(card, "lenient")


def both_places(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A field is at the top level and under `metadata:` with different values.

    Claude Code (since 2.1.146) moves every key but `name`, `description` and `metadata`
    under `metadata:`, so cards reads every field from either place. When both hold one
    field and disagree, nothing can tell which the writer meant, so the card is left out
    of every decision until you delete one of them. The same value in both is fine.
    """
    return _problems(card, "both")


def repeated_key(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A key appears twice in one frontmatter (at the top level or inside `metadata:`).

    YAML keeps the last one without a word, while a person (or a tool that rewrites the
    first match) reads the first: a superseded card with two `status:` lines still reads
    `active` to one and `superseded` to the other. The card is left out of every decision,
    and no command rewrites it, until one of the two lines is removed.
    """
    return _problems(card, "duplicate")


def control_character(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A field or the body holds a control character (other than tab and newline).

    An escape sequence can rewrite a terminal (OSC 52 writes the clipboard), a carriage
    return or backspace can hide text, a NUL makes git treat INDEX.md as binary. Raw in
    the file or written as a YAML escape (`"\\e"`), the card is left out of every
    decision, and no command rewrites it, until the character is deleted.
    """
    return _problems(card, "control")


MAX_DESCRIPTION = 150


def long_description(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The description is over 150 characters: it should say in one short line what the fact is for.

    INDEX.md shows the description; a long one crowds out other cards and is cut by
    tools that expect short index lines. Move detail into the body.
    """
    if card.usable and len(card.description) > MAX_DESCRIPTION:
        from cardindex.meaning.text import description_line

        yield Hit(description_line(card), f"description is {len(card.description)} characters (limit {MAX_DESCRIPTION}); move detail into the body")


MAX_CARD_BYTES = 16_000  # about 4,000 tokens: more than a session would read for one fact
MAX_CARD_LINES = 300  # non-blank lines of the body


def document(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card is a document, not a fact: its body is over 16,000 bytes or 300 non-blank lines.

    A card holds one durable fact and what supports it; an agent reads it whole when its
    index line matches. A research dump, a copied manual or a whole design is read whole
    too, for one line of it, and it hides the facts inside from lint and consolidation.
    Keep the document in the repo's docs (or a reference folder outside the vault) and
    keep the few facts an agent needs as cards that point there. A warning: the choice is
    the owner's, and a long card is not broken.
    """
    if not card.usable:
        return
    body = card.body
    size = len(body.encode("utf-8", "surrogatepass"))
    lines = sum(1 for line in body.splitlines() if line.strip())
    if size > MAX_CARD_BYTES or lines > MAX_CARD_LINES:
        yield Hit(1, f"a document, not a card: {lines} lines, {size:,} bytes (limit {MAX_CARD_LINES} lines, "
                     f"{MAX_CARD_BYTES:,} bytes); keep it in docs and keep its facts as cards")


def dangling_link(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A `[[link]]` in the body names no card, or an embed (`![[diagram.png]]`) no file.

    Claude Code memories link each other as `[[name]]`: by a card's `name`, its id
    (`billing/owner`) or its file name. A link to nothing sends the reader nowhere; fix
    the name, or remove the link if that card was deleted. `[[x]]` in inline code or a
    fenced code block is no link; an embed or link naming a file that is not a card
    (`![[diagram.png]]`) stands when that file is in the vault.
    """
    if not card.usable:
        return
    from cardindex.lint.links import dangling

    for line, message in dangling(card, ctx):
        yield Hit(line, message)
