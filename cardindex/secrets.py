"""What a secret is: where secrets are in a text, and of what kind (the one detector).

`redaction` hides what this finds in every output, and the secret lint rules (K1xx)
report it, so what the linter flags and what every output hides are one thing.

Detection is deterministic and uses the standard library's `re` only (`redaction`, which every
output path imports, calls it). It finds, in order of precedence: private key blocks;
tokens in a known format (the prefixes gitleaks and detect-secrets key on: AWS, GitHub,
GitLab, Slack, Stripe, OpenAI, Anthropic, Google, JWTs, npm, PyPI, SendGrid, Twilio, …);
credentials in URLs (a password, a webhook token, a `?token=` value) and in
`Authorization:` headers; a keyword assigned a random-looking value (`password: …`);
and, with no keyword at all, a long token that reads as noise rather than words. Each is
filtered for placeholders, templates, UUIDs and repeated or sequential characters.
Known formats are matched only where a run of token characters starts with their
prefix, keywords only where their stem starts a word: a text with neither costs some
substring checks and one scan for long runs. The expressions compile on first use. A line carrying (or following) an allow comment
(`cards: allow-secret`, `pragma: allowlist secret`) holds a deliberate example and is
neither flagged nor redacted.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from collections import Counter
from typing import NamedTuple

from cardindex.secrets_prose import prose_credentials


class Secret(NamedTuple):
    """One secret in a text: where it is (offsets into the text, 1-based line) and what kind."""

    line: int
    start: int
    end: int
    kind: str  # "aws credential", "rsa private key block", "secret value", "random token", ...

    def label(self, text: str) -> str:
        """How a finding names it: the kind and a redacted form, never the value."""
        return f"{self.kind} {hint(text[self.start:self.end])}"


def hint(value: str) -> str:
    """Enough to find a value in the file, never enough to use it."""
    return f"{value[:4]}…({len(value)} chars, redacted)"


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _plausible(value: str) -> bool:
    """Filter placeholders, templates, UUIDs, repeated or sequential characters, and words joined by dashes out."""
    return not (_re.placeholder.search(value) or _re.uuid.fullmatch(value) or len(set(value)) <= 3
                or _worded(value))


def _worded(value: str) -> bool:
    """`glpat-about-the-allowlist`: lower-case words joined by `-` or `_` are a name, not a random token."""
    pieces = re.split(r"[-_]+", value)
    return len(pieces) >= 3 and all(len(p) >= 2 and p.isalpha() and p.islower() for p in pieces)


# Tokens in a known format: (family, prefixes, pattern with the secret as group 1, least
# entropy of the secret). Most start an unbroken run of token characters and are looked
# for only where a run starts with one of their prefixes; the `_ANCHORED` ones sit inside
# a URL path or after a `.` or `:`, and are searched when their anchor is in the text.
_B = r"(?<![A-Za-z0-9_-])"  # token boundaries: no letter, digit, `_` or `-` beside it
_E = r"(?![A-Za-z0-9_-])"
_Family = tuple[str, tuple[str, ...], str, float]  # compiled when a prefix or anchor is found (re caches it)


_AWS = ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA", "A3T")
_PREFIXED: tuple[_Family, ...] = (
    ("aws", _AWS, r"(?<![A-Za-z0-9])((?:A3T[A-Z0-9]|" + "|".join(_AWS[:-1]) + r")[A-Z0-9]{16})(?![A-Za-z0-9])", 0),
    ("github", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     r"\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b", 0),
    ("gitlab", ("glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "glsoat-"),
     _B + r"((?:glpat|glptt|gldt|glrt|glcbt|glsoat)-[A-Za-z0-9_-]{20,})" + _E, 3.0),
    ("slack", ("xox", "xapp-"), r"\b(xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})\b", 0),
    ("stripe webhook", ("whsec_",), r"\b(whsec_[A-Za-z0-9]{20,})\b", 0),
    ("stripe", ("sk_", "rk_"), _B + r"((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,})" + _E, 0),
    ("anthropic", ("sk-ant-",), _B + r"(sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{32,})" + _E, 3.0),
    ("openai", ("sk-",), _B + r"(sk-(?!ant-)(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{32,})" + _E, 3.5),
    ("google", ("AIza",), _B + r"(AIza[0-9A-Za-z_-]{35})" + _E, 3.0),
    ("npm", ("npm_",), _B + r"(npm_[A-Za-z0-9]{36})" + _E, 3.0),
    ("pypi", ("pypi-",), _B + r"(pypi-AgE[A-Za-z0-9_-]{50,})", 0),
    ("twilio", ("SK",), _B + r"(SK[0-9a-fA-F]{32})" + _E, 3.0),
    ("mailgun", ("key-",), _B + r"(key-[0-9a-f]{32})" + _E, 3.0),
    ("hugging face", ("hf_",), _B + r"(hf_[A-Za-z0-9]{30,})" + _E, 3.0),
    ("digitalocean", ("doo_v1_", "dop_v1_", "dor_v1_"), _B + r"(do[opr]_v1_[a-f0-9]{64})" + _E, 3.0),
    ("shopify", ("shpat_", "shpca_", "shppa_", "shpss_"), _B + r"(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})" + _E, 3.0),
    ("databricks", ("dapi",), _B + r"(dapi[a-f0-9]{32}(?:-\d)?)" + _E, 3.0),
    ("age", ("AGE-SECRET-KEY-1",), r"(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})", 0),
    ("linear", ("lin_api_",), _B + r"(lin_api_[A-Za-z0-9]{40})" + _E, 3.0),
    ("postman", ("PMAK-",), _B + r"(PMAK-[a-f0-9]{24}-[a-f0-9]{34})" + _E, 3.0),
    ("grafana", ("glsa_", "glc_"), _B + r"(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})" + _E, 3.0),
    ("sentry", ("sntrys_", "sntryu_"), _B + r"(sntry[su]_[A-Za-z0-9+/=_]{40,})", 3.0),
    ("square", ("sq0atp-", "sq0csp-"), _B + r"(sq0(?:atp|csp)-[A-Za-z0-9_-]{22,})" + _E, 3.0),
    ("jwt", ("eyJ",), _B + r"(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*)", 3.0),
    ("sendgrid", ("SG.",), _B + r"(SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{30,})" + _E, 3.0),
    ("hashicorp vault", ("hvs.", "hvb."), _B + r"(hv[sb]\.[A-Za-z0-9_-]{24,})" + _E, 3.0),
    ("doppler", ("dp.",), _B + r"(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,})" + _E, 3.0),
)
_PREFIXES = tuple(dict.fromkeys(prefix for _, prefixes, _, _ in _PREFIXED for prefix in prefixes))
_ANCHORED: tuple[_Family, ...] = (
    ("slack webhook", ("hooks.slack",),
     r"hooks\.slack\.com/(?:services|workflows|triggers)/(T[A-Z0-9]{6,}/[A-Za-z0-9/]{16,})", 0),
    ("discord webhook", ("discord",), r"discord(?:app)?\.com/api/webhooks/\d{5,30}/([A-Za-z0-9_-]{30,})", 0),
    ("terraform", (".atlasv1.",), r"\b([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,})", 3.0),
    ("telegram", (":AA",), r"(?<![\w:])(\d{8,10}:AA[A-Za-z0-9_-]{33})" + _E, 3.0),
)

# The detector's expressions, compiled on first use rather than at import: every output
# path imports this module, and compiling them all costs more than the import itself.
_SOURCES: dict[str, tuple[str, int]] = {
    "allow": (r"cards:\s*allow-secret|pragma:\s*allowlist secret", re.IGNORECASE),
    "placeholder": ((
        r"x{4,}|X{4,}|\*{3,}|\.{3}|…|<[^<>]{0,60}>|\$\{[^{}]{0,60}\}|\{\{[^{}]{0,80}\}\}|\{[\w.-]{0,40}\}|\$[A-Z_]{3,}|"
        r"%\([a-z_]{1,40}\)s|%[A-Z_]{3,40}%|"
        r"0123456|1234567|2345678|3456789|abcdefg|bcdefgh|ABCDEFG|qwerty|"
        r"(?i:example|dummy|placeholder|changeme|replace[-_]?me|your[-_]?\w{0,20}?(?:key|token|secret|password)|"
        r"redacted|fake|sample)"), 0),
    "uuid": (r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE),
    "key_block": (r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----", 0),
    "key_end": (r"-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----", 0),
    "url_end": (r"[^\s<>\"'`)\]]*", 0),
    "url_password": (r"[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]{3,})@", re.IGNORECASE),
    "url_param": (r"[?&;]([\w.-]{1,60})=([^&#;\s]{16,})", 0),
    "header": ((r"(?i:authorization[\"']?\s*[:=]\s*[\"']?(?:(bearer|token|bot|basic)\s+)?|bearer\s+)"
                r"([A-Za-z0-9._~+/=-]{8,4000}+)(?![A-Za-z0-9._~+/=-])"), 0),
    # A keyword, an assignment and a value, tried at every place a keyword's stem (`_STEMS`)
    # starts a word, so in `credential: password: X` the second keyword is a start of its own.
    "assignment": ((
        r"(?i)(?:password|passwd|passphrase|pwd|secret|token|api[-_ ]?key|apikey|access[-_ ]?key|private[-_ ]?key|"
        r"client[-_ ]?secret|auth[-_ ]?token|credentials?|account[-_ ]?key|signing[-_ ]?key|encryption[-_ ]?key)"
        r"\b[\"']?\s*(?:[:=]|=>|\bis\b)\s*[\"'`]?([^\s\"'`,;\x00-\x1f\x7f-\x9f]{8,1000}+)(?![^\s\"'`,;\x00-\x1f\x7f-\x9f])"), 0),
    # A value that is another key, a call or lookup, a URL, a path, an environment variable's
    # name, or a variable of the code (`token: impersonationToken`, `secret: signing_secret`:
    # words joined in camelCase, PascalCase or snake_case, no digit).
    "not_a_value": ((
        r"[:(\[{]$|[(\[]|\.[a-z]{1,5}$|^(?:[a-z][a-z0-9+.-]*://|(?:~|\.\.?)?/[a-z][a-z0-9_.-]*(?:/|$)|os\.|"
        r"process\.env|env\.|ENV\[|getenv|settings\.|config\.|self\.)|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^(?:[A-Z][a-z]+){2,}[})\]]*$"
        r"|^[a-z]{2,}(?:[A-Z][a-z]{2,})+[})\]]*$|^[a-z]{2,}(?:_[a-z]{2,})+[})\]]*$"), 0),
    # Unbroken runs of token characters: where prefixed tokens start (at the run's start or
    # after a `/`, `+` or `=` in it), and where a random token may be: a piece of 32+
    # characters between dots, outside any URL, with no keyword needed.
    "run": (r"[A-Za-z0-9+/_.=-]{16,}", 0),
    "inner_start": (r"(?<=[/+=])[A-Za-z0-9_-]", 0),
    "piece": (r"[A-Za-z0-9+/_-]{32,}={0,2}", 0),
    # What a random-looking token after it is not: an SSH public key, a data: URI's payload.
    "public_data": (r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+$|;base64,$", 0),
    "digest": (r"sha(?:1|224|256|384|512)-", 0),
    "file_suffix": (r"\.[a-z][a-z0-9]{0,4}", 0),  # `notes-<hash>.md`: a file named by a hash is no credential  # a subresource-integrity hash: `sha384-<base64>`
}


class _Expressions:
    """`_re.NAME`: the compiled expression `_SOURCES[NAME]`, compiled when first asked for."""

    def __getattr__(self, name: str) -> re.Pattern[str]:
        compiled = re.compile(*_SOURCES[name])
        setattr(self, name, compiled)  # later lookups find the attribute and skip __getattr__
        return compiled


_re = _Expressions()
_PARAM_WORDS = ("token", "key", "secret", "pass", "pwd", "sig", "auth", "credential", "session")
_STEMS = ("pass", "pwd", "secret", "token", "api", "access", "private", "client", "auth", "cred", "account", "signing",
          "encryption", "bearer")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _looks_random(run: str) -> bool:
    """A token that reads as noise, not words: for keyless tokens, where entropy alone is not enough.

    detect-secrets' Base64HighEntropyString limit (4.5 bits a character) misses half of
    the random 32-character tokens, and camelCase identifiers and mixed-case paths reach
    4.4. So entropy (over 0.9·log2 of the length) is weighed with what tells words from
    noise: random text switches between lower, upper and digits at most characters, has
    few vowels, few runs of three lowercase letters and many separate digit groups.
    Weights fitted on generated identifiers and paths (8 of 31,000 flagged, all paths with
    a number in every segment) and random tokens: `bench/bench_secrets.py` measures 0.4-1.1%
    of random 32-character tokens missed, at most 0.4% of longer ones.
    """
    body = run.rstrip("=")
    n = len(body)
    if not (re.search(r"[a-z]", body) and re.search(r"[A-Z]", body) and re.search(r"\d", body)):
        return False
    if not _plausible(body) or _re.uuid.search(body) or _prose_base64(body):
        return False
    classes = ["l" if c.islower() else "u" if c.isupper() else "d" if c.isdigit() else "o" for c in body]
    switches = sum(a != b for a, b in itertools.pairwise(classes)) / (n - 1)
    letters = [c for c in body if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    wordy = sum(len(w) for w in re.findall(r"[a-z]{3,}", body)) / n
    digit_groups = len(re.findall(r"\d+", body)) / n * 10
    score = entropy(body) - 0.9 * math.log2(n) + 2 * switches - 6 * vowels - 3 * wordy + digit_groups
    return score >= -1.5


def _path_like(value: str) -> bool:
    """`com/document/d/1BxiMV…/edit`: a path (an id in it is no credential), not base64 that has slashes in it."""
    segments = [segment for segment in value.split("/") if segment]
    if len(segments) == 2 and re.fullmatch(r"[a-z]{3,}", segments[0]) and len(segments[1]) >= 16:
        return True  # `folders/<id>`: a named collection and an id in it
    # A word is lower-case or capitalised, CamelCase too (`Desktop`, `CloudStorage`): folders people name.
    words = sum(bool(re.fullmatch(r"[a-z][a-z-]+|(?:[A-Z][a-z]+)+", segment)) for segment in segments)
    return len(segments) >= 3 and words * 2 > len(segments)


def _decoded(value: str) -> bytes | None:
    import binascii

    try:
        return binascii.a2b_base64(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _prose_base64(value: str) -> bool:
    """Base64 of readable text (`aGVsbG8gd29ybGQ=`) is an encoding, not a secret."""
    decoded = _decoded(value)
    if not decoded:
        return False
    text = decoded.decode("ascii", "replace")
    return " " in text and sum(c.isalpha() or c in " ,.'-" for c in text) / len(text) > 0.9


def _random_value(value: str) -> bool:
    """A value a keyword names looks random enough to be a secret."""
    mixed = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return (entropy(value) >= 3.0 and mixed >= 2) or entropy(value) >= 3.5


def _header_secret(scheme: str, value: str) -> bool:
    """`Authorization: Basic` holds base64 of `user:password`; a bearer token is long and random."""
    if not _plausible(value):
        return False
    if scheme == "basic":
        decoded = _decoded(value)
        return decoded is not None and b":" in decoded
    return len(value) >= 16 and _random_value(value) and re.search(r"\d", value) is not None


class _Candidate(NamedTuple):
    rank: int  # where two overlap, the lower rank (the more specific kind) wins
    start: int
    end: int
    kind: str


def _urls(text: str) -> list[tuple[int, int]]:
    """The spans of `scheme://…` URLs."""
    out = []
    i = text.find("://")
    while i >= 0:
        start = i
        while start > 0 and text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in "+.-"):
            start -= 1
        end = _re.url_end.match(text, i + 3).end()  # type: ignore[union-attr]  # matches the empty string
        if start < i:
            out.append((start, end))
        i = text.find("://", end)
    return out


def _keyword_at(text: str, i: int, stem: str) -> list[_Candidate]:
    """An `Authorization:`/`Bearer` header or a keyword assigned a value, where a keyword's stem starts a word."""
    out = []
    if stem in ("auth", "bearer"):
        header = _re.header.match(text, i)
        if header and _header_secret((header.group(1) or "bearer").lower(), header.group(2)):
            out.append(_Candidate(2, header.start(2), header.end(2), "authorization header credential"))
    assigned = _re.assignment.match(text, i)
    if assigned:
        value = assigned.group(1)
        if _plausible(value) and not _re.not_a_value.search(value) and _random_value(value):
            out.append(_Candidate(3, assigned.start(1), assigned.end(1), "secret value"))
    return out


def _candidates(text: str, lowered: str) -> list[_Candidate]:
    out: list[_Candidate] = []
    pos = 0
    while "-----BEGIN" in text and (block := _re.key_block.search(text, pos)):
        closing = _re.key_end.search(text, block.end())  # never closed: everything after the header is the key
        pos = closing.end() if closing else len(text)
        out.append(_Candidate(0, block.start(), pos, f"{block.group(1).lower()} block"))

    def known(family: str, least: float, m: re.Match[str] | None) -> None:
        if m and _plausible(m.group(1)) and (not least or entropy(m.group(1)) >= least):
            out.append(_Candidate(1, m.start(1), m.end(1), f"{family} credential"))

    for family, anchors, pattern, least in _ANCHORED:
        if anchors[0] in text:
            for m in re.finditer(pattern, text):
                known(family, least, m)
    urls = _urls(text) if "://" in text else []
    for start, end in urls:
        url = text[start:end]
        password = _re.url_password.match(url)
        if password and _plausible(password.group(1)):
            out.append(_Candidate(2, start + password.start(1), start + password.end(1), "url credential"))
        for m in _re.url_param.finditer(url):
            name, value = m.group(1).lower(), m.group(2)
            if any(word in name for word in _PARAM_WORDS) and _plausible(value) and _random_value(value):
                out.append(_Candidate(2, start + m.start(2), start + m.end(2), "url token credential"))
    for stem in _STEMS:
        i = lowered.find(stem)
        while i >= 0:
            if not (i and lowered[i - 1].isalpha()):
                out.extend(_keyword_at(text, i, stem))
            i = lowered.find(stem, i + 1)
    for start, end in prose_credentials(text):
        out.append(_Candidate(3, start, end, "password in prose"))
    for run in _re.run.finditer(text):
        token, at = run.group(), run.start()
        starts = [at]
        if "/" in token or "=" in token or "+" in token:
            starts += [at + m.start() for m in _re.inner_start.finditer(token)]
        for start in starts:
            if text.startswith(_PREFIXES, start):
                for family, prefixes, pattern, least in _PREFIXED:
                    if text.startswith(prefixes, start):
                        known(family, least, re.compile(pattern).match(text, start))
        if len(token) >= 32 and not any(start <= at < end for start, end in urls):
            for piece in _re.piece.finditer(token):
                begin = at + piece.start()
                if ((begin == at or token[piece.start() - 1] == ".") and _looks_random(piece.group())
                        and not _path_like(piece.group()) and not _re.digest.match(piece.group())
                        and not _re.file_suffix.fullmatch(token, piece.end())
                        and not _re.public_data.search(text, max(0, begin - 40), begin)):
                    out.append(_Candidate(4, begin, at + piece.end(), "random token"))
    return out


@functools.lru_cache(maxsize=256)
def find_secrets(text: str) -> tuple[Secret, ...]:
    """Every secret in `text`, in order; lines with an allow comment (or after one) are skipped."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters lowercase to two: keep the offsets
        lowered = text.translate(_ASCII_LOWER)
    found = _candidates(text, lowered)
    if not found:
        return ()
    lines = text.splitlines(keepends=True)
    starts = list(itertools.accumulate((len(line) for line in lines[:-1]), initial=0))
    allowed = {i + 1 for i, line in enumerate(lines) if _re.allow.search(line)}
    allowed |= {n + 1 for n in allowed}
    out: list[Secret] = []
    for cand in _without_overlaps(found):
        line = bisect.bisect_right(starts, cand.start)
        if line not in allowed:  # an allowed span still covers what overlaps it (a key block's lines)
            out.append(Secret(line, cand.start, cand.end, cand.kind))
    return tuple(out)


def _without_overlaps(found: list[_Candidate]) -> list[_Candidate]:
    """The candidates no more specific one overlaps (the first of equals), in text order; O(n log n)."""
    kept: list[_Candidate] = []  # in text order, disjoint
    for rank in sorted({c.rank for c in found}):
        added: list[_Candidate] = []
        ends = [c.end for c in kept]
        for cand in sorted(c for c in found if c.rank == rank):
            i = bisect.bisect_right(ends, cand.start)  # kept[i] is the first that ends after cand starts
            if (i < len(kept) and kept[i].start < cand.end) or (added and added[-1].end > cand.start):
                continue  # overlapping spans: the more specific kind (or the earlier one) covers it
            added.append(cand)
        kept = sorted(kept + added, key=lambda c: c.start)
    return kept


def allow_comment(text: str) -> bool:
    """Whether `text` holds an allow comment (`cards: allow-secret`, `pragma: allowlist secret`)."""
    return bool(_re.allow.search(text))


def has_secret(text: str) -> bool:
    return bool(find_secrets(text))
