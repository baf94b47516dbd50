"""F013: a card that is a document (a research dump, a copied manual) is reported, as a warning."""

from __future__ import annotations

import json

from test_lint_defaults import found, lint, make_vault

RULE = "Retries use exponential backoff capped at 30 seconds.\n\n**Why:** the upstream rate-limits bursts.\n"


def _document(sections: int) -> str:
    parts = []
    for n in range(sections):
        parts.append(f"## Part {n}\n\nThe importer reads batch {n} from the queue and writes it to the store, "
                     f"then commits offset {n}.\n")
    return "\n".join(parts)


def test_a_document_sized_card_is_a_warning_and_a_rule_with_its_reasons_is_not(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {
        "retries.md": make_card("How retries back off", body=RULE),
        "importer_notes.md": make_card("Everything about the importer", body=_document(160)),  # 480 non-blank lines
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    hits = [h for h in found(run_cli, root) if h[1] == "F013"]
    assert hits == [("importer_notes.md", "F013", "warning")]
    result = lint(run_cli, root)
    assert result.exit_code == 0, result.stdout  # a warning never fails pre-commit
    assert "a document, not a card" in result.stdout


def test_the_limit_is_in_bytes_too_for_a_few_very_long_lines(tmp_path, make_card, run_cli):
    wide = "\n".join("- " + ("the sync job copies every row of the ledger table " * 40) for _ in range(9))
    assert len(wide.splitlines()) < 300 < len(wide.encode()) // 50
    root = make_vault(tmp_path / "vault", {"wide.md": make_card("Ledger sync notes", body=wide),
                                          "short.md": make_card("Ledger sync window", body="- " + "x y " * 200)})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root, "--select", "F013", "--format", "json")
    assert [(f["path"], f["code"]) for f in json.loads(result.stdout)] == [("wide.md", "F013")]
    assert result.exit_code == 0  # still a warning when selected by name: the owner decides
