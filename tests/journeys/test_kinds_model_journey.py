"""A user compares the rules with the trained classifier on a chapter of their own (issue 19, item 4)."""

from __future__ import annotations

import json

from tests.journeys.commands import run_cli

CHAPTER = """# Evaluation

Reranking raised nDCG@10 from 0.412 to 0.487 on the test set.
We set the batch size to 32 and the learning rate to 2e-5.
"""


def test_claims_with_the_model_and_with_the_rules(tmp_path):
    """The result sentence is a measured result and the settings sentence is not, by both; with
    ``--kinds model`` each row's cue names the model and its weights; the default is the model
    (the same rows), ``--kinds rules`` the rules, each said on stderr; an unknown value is one
    line, exit 2, and writes nothing."""
    (tmp_path / "chapter.md").write_text(CHAPTER, encoding="utf-8")
    model = run_cli("claims", "chapter.md", "--format", "json", "--kinds", "model", "-o", "rows.json", cwd=tmp_path)
    assert model.returncode == 0, model.stderr
    assert "measured results decided by claims/kinds_model.py (weights sha256 " in model.stderr
    rows = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    assert [(r["claim_id"], r["kind"]) for r in rows] == [("C-001-01", "measured result"),
                                                           ("C-001-02", "method or definition")]
    assert rows[0]["cue"].startswith("model p=") and "kinds_model " in rows[0]["cue"]
    assert rows[1]["cue"].startswith("model: no result number")
    default = run_cli("claims", "chapter.md", "--format", "json", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert json.loads(default.stdout) == rows and "decided by claims/kinds_model.py" in default.stderr
    rules = run_cli("claims", "chapter.md", "--format", "json", "--kinds", "rules", cwd=tmp_path)
    assert rules.returncode == 0, rules.stderr
    assert "measured results decided by the rules of claims/kinds.py (--kinds rules)" in rules.stderr
    assert [r["kind"] for r in json.loads(rules.stdout)] == [r["kind"] for r in rows]
    assert not any(r["cue"].startswith("model") for r in json.loads(rules.stdout))
    bad = run_cli("claims", "chapter.md", "--kinds", "neural", "-o", "bad.md", cwd=tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert (bad.stdout + bad.stderr).strip().count("\n") == 0 and "--kinds" in bad.stdout + bad.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chapter.md", "rows.json"]


def test_report_with_the_model_says_so_in_section_1(tmp_path):
    """``report --kinds model`` writes the report with the model's kinds and says so, with the
    weights' hash, in section 1; without the option it is the same report (the model is the
    default); ``--kinds rules`` says the rules decided."""
    from tests.journeys.userfiles import sandbox_args, write_sandbox_inputs

    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "chapter.md").write_text(CHAPTER, encoding="utf-8")
    common = ("--offline", "--log", log, "--date", "2026-12-01")
    model = run_cli("report", "chapter.md", "-o", "model.md", "--kinds", "model", *common, cwd=tmp_path)
    assert model.returncode == 0, model.stderr
    text = (tmp_path / "model.md").read_text(encoding="utf-8")
    assert "| measured-result kind | decided by the trained classifier claims/kinds_model.py (weights sha256 " in text
    default = run_cli("report", "chapter.md", "-o", "default.md", *common, cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert (tmp_path / "default.md").read_text(encoding="utf-8") == text
    rules = run_cli("report", "chapter.md", "-o", "rules.md", "--kinds", "rules", *common, cwd=tmp_path)
    assert rules.returncode == 0, rules.stderr
    ruled = (tmp_path / "rules.md").read_text(encoding="utf-8")
    assert ("| measured-result kind | decided by the rules of claims/kinds.py (--kinds rules), not by the trained "
            "classifier |") in ruled and "kinds_model.py" not in ruled
    bad = run_cli("report", "chapter.md", "-o", "bad.md", "--kinds", "neural", *common, cwd=tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and not (tmp_path / "bad.md").exists()
