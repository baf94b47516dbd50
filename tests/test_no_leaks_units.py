"""The pieces behind tests/test_no_leaks.py: the helpers over `shown`, and the withheld-card memo."""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardindex.redaction import REDACTED, has_control, redact_words, secret_values, shown, shown_data

AWS = st.text(string.ascii_uppercase + string.digits, min_size=16, max_size=16).map(lambda s: "AKIA" + s).filter(
    lambda key: bool(secret_values(key)))
PASSWORD = st.text(string.ascii_letters + string.digits, min_size=14, max_size=30).filter(
    lambda value: bool(secret_values(f"password = {value}")))
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(a=AWS, b=AWS)
def test_a_message_quoting_lowercased_secrets_names_neither(a: str, b: str) -> None:
    message = f"different value in the same place: '{a.lower()}' vs '{b.lower()}' as other.md"
    out = redact_words(message, f"The key is {a}.", f"The key is {b}.")
    assert a.lower() not in out and b.lower() not in out
    assert out.endswith(" as other.md") and out.count(REDACTED) == 2


def test_redact_words_keeps_ordinary_words_and_short_fragments() -> None:
    card = "The deploy job uses AKIAQ3H7ZP2MW9XKT4LB for uploads."
    message = "'uploads' vs 'downloads': 'akia'"
    assert redact_words(message, card) == message
    # A message's own words that happen to sit inside a secret stay: K103's "secret value" for `secret: WebhookSecretX9…`.
    keyed = "The hook signs with secret: WebhookSecretZq8xK2mW9pLr7TbVn4Hs always."
    assert redact_words("K103 secret value Webh…(redacted)", keyed) == "K103 secret value Webh…(redacted)"
    assert redact_words("quoted 'webhooksecretzq8xk2mw9plr7tbvn4hs' and 'zq8xk2mw9plr'", keyed).count(REDACTED) == 2
    assert redact_words("no secret here", "The deploy job runs on Thursdays.") == "no secret here"


def test_a_private_key_block_gives_its_key_lines_not_its_words() -> None:
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Vq3lNw9pLk2Jt\n-----END RSA PRIVATE KEY-----"
    assert secret_values(key) == ("miieowibaakcaqeax7vq3lnw9plk2jt",)
    assert redact_words("a private key block: 'miieowibaakcaqeax7vq3lnw9plk2jt'", key) == (
        f"a private key block: '{REDACTED}'")


@settings(max_examples=80, deadline=None)
@given(value=JSONISH, secret=PASSWORD)
def test_shown_data_keeps_json_valid_and_drops_secrets(value: object, secret: str) -> None:
    assume(secret not in json.dumps(value, ensure_ascii=False))
    data = {"payload": value, "fields": {"password": secret}, "text": f"login with password = {secret}\x1b[2J"}
    out = shown_data(data)
    dumped = json.dumps(out, ensure_ascii=False)
    assert json.loads(dumped) == out
    assert secret not in dumped
    assert out["fields"] == {"password": REDACTED}  # type: ignore[index]

    def strings(v: object) -> list[str]:
        if isinstance(v, str):
            return [v]
        if isinstance(v, dict):
            return [s for k, i in v.items() for s in (*strings(k), *strings(i))]
        if isinstance(v, list):
            return [s for i in v for s in strings(i)]
        return []

    assert not any(has_control(s) for s in strings(out))
    assert shown_data(out) == out  # redacting twice changes nothing


@given(st.text())
def test_shown_is_idempotent_and_never_leaves_a_control_character(text: str) -> None:
    once = shown(text)
    assert shown(once) == once and not has_control(once)


def test_a_card_edited_to_hold_a_secret_leaves_the_index_at_once(
    vault: Path, invoke: Callable[..., Result], make_card: Callable[..., str], write_card: Callable[..., Path]
) -> None:
    card = write_card(vault, "bucket.md", make_card("Which bucket the exports go to", body="The exports bucket."))
    assert invoke("index").exit_code == 0
    assert "bucket.md" in (vault / "INDEX.md").read_text(encoding="utf-8")
    assert (vault / ".cardindex" / "cache" / "secrets.marshal").is_file()  # remembered: clean
    card.write_text(make_card("Which bucket the exports go to", body="Upload with AKIAQ3H7ZP2MW9XKT4LB."),
                    encoding="utf-8")
    result = invoke("index")
    index = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert result.exit_code == 0 and "1 card(s) holding a secret withheld" in result.stderr
    assert "bucket.md" not in index and "<!-- 1 card withheld: it holds a secret; run `cards lint` -->" in index
    assert "1 card withheld: it holds a secret" in invoke("context").stdout
    card.write_text(make_card("Which bucket the exports go to", body="The exports bucket."), encoding="utf-8")
    assert invoke("index").exit_code == 0
    index = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert "bucket.md" in index and "withheld" not in index
    assert invoke("index", "--check").exit_code == 0


def test_a_file_name_with_an_escape_is_percent_encoded_in_the_index_link(
    vault: Path, invoke: Callable[..., Result], make_card: Callable[..., str], write_card: Callable[..., Path]
) -> None:
    write_card(vault, "odd\x1b[31m.md", make_card("Which colour the alerts use", body="Red."))
    assert invoke("index").exit_code == 0
    data = (vault / "INDEX.md").read_bytes()
    assert b"\x1b" not in data and b"(odd%1B%5B31m.md)" in data


FRAGMENTS = st.sampled_from([
    "AKIAQ3H7ZP2MW9XKT4LB", "ghp_" + "Zq8xK2mW9pLr7TbVn4HsYc3Jd6Fg1Qa5Ue0Io", "password = ", "Zq8xK2mW9pLr7TbV",
    "<!-- cards: allow-secret -->", "\n", " ", "token", "\x1b]52;c;", "\x07", "deploy", ": ",
    "-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEAx7Vq3lNw9pLk2Jt", "-----END RSA PRIVATE KEY-----",
])
MIXED = st.lists(FRAGMENTS, max_size=8).map("".join)
ROWS = st.dictionaries(st.sampled_from(["id", "description", "password", "body", "tags"]),
                       MIXED | st.lists(MIXED, max_size=3), max_size=5)


def one_by_one(value: object) -> object:
    """What `shown_data` gives by definition: `shown` over each string, a keyword field's value as `key: value`."""
    from cardindex.redaction import redact
    from cardindex.secrets import has_secret

    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(item, str) and item and has_secret(f"{key}: Zq8xK2mW9pLr7TbVn4Hs"):
                line = redact(f"{key}: {item}")
                item = line[len(key) + 2:] if line.startswith(f"{key}: ") else REDACTED
            out[one_by_one(key)] = one_by_one(item)
        return out
    if isinstance(value, list):
        return [one_by_one(item) for item in value]
    return value


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(ROWS, max_size=4))
def test_a_listing_scanned_row_by_row_is_redacted_as_string_by_string(rows: list[dict[str, object]]) -> None:
    """The fast path (one scan per row) never lets through what a scan of each string would redact."""
    assert shown_data(rows) == one_by_one(rows)
