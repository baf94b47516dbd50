"""A path whose folders are named like words is no random token (K104), even with a comma or a number in it.

Found on a real vault: a cloud-storage path (`…OneDrive-Company,Inc/Desktop/capture_May8_1405PST.pcapng`)
was reported, and redacted everywhere, as a 32-character secret.
"""

from __future__ import annotations

import random
import string

import pytest

from cardindex.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "- `/Users/dana/Library/CloudStorage/OneDrive-Northwind,Inc/Desktop/ap1_May8_qos_1405PST.pcapng` (181 MB)",
    "Captures live in Shared,Drives/Network/Captures/floor3_Jun12_0930_trace.pcap",
    "C:/Users/Dana/Documents/Projects/WarehouseScanner/build_2026_11_30_release.zip",
])
def test_paths_named_like_words_are_not_tokens(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_random_token_with_slashes_is_still_found() -> None:
    # Seeded, and counted: an unseeded draw of 20 failed about one run in thirty, because
    # now and then every part of a random token holds letter runs that read as folder
    # names (the exemption above). That is a known, measured miss: at most 1 in 500.
    random_source = random.Random(20261201)
    alphabet = string.ascii_letters + string.digits
    missed = []
    for _ in range(1000):
        token = "/".join("".join(random_source.choice(alphabet) for _ in range(12)) for _ in range(4))
        if not find_secrets(f"the upload signature is {token}"):
            missed.append(token)
    assert len(missed) <= 2, missed


def test_words_joined_by_dashes_after_a_token_prefix_are_a_name() -> None:
    """Found by the hypothesis property over identifiers: `glpat-about-about-allowlist` is a name, not a GitLab token."""
    assert find_secrets("the glpat-about-the-allowlist rule") == ()
    assert find_secrets("see ghp_rotate_every_quarter_policy") == ()
    alphabet = string.ascii_letters + string.digits
    random_source = random.Random(7)
    token = "glpat-" + "".join(random_source.choice(alphabet) for _ in range(20))
    assert find_secrets(f"the CI token {token}")
