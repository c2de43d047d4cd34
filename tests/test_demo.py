"""The README's main job: `chapter-audit demo`, end to end, offline."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reports.validate import REQUIRED_HEADINGS, validation_problems


def test_demo_end_to_end(tmp_path, cli):
    workdir = tmp_path / "demo"
    result = cli("demo", "--workdir", workdir, "--date", "2026-11-29")
    assert result.exit_code == 0, result.output
    assert "10/11 bound numbers match" in result.output
    records = [json.loads(line) for line in (workdir / "log.jsonl").read_text().splitlines()]
    assert [r["command"] for r in records] == ["sandbox run", "r03 prepare", "r03 evaluate"]
    assert {r["status"] for r in records} == {"ok"}
    text = (workdir / "report.md").read_text(encoding="utf-8")
    assert validation_problems(text) == []
    for heading in REQUIRED_HEADINGS:
        assert f"\n## {heading}\n" in text
    sandbox_id = records[0]["run_id"]
    # the one mis-rounded number is a contradiction, with the run that contradicts it
    contradictory = text.split("### Contradictory")[1].split("### Unresolved")[0]
    assert f"macro.hybrid.ndcg@3 = 0.888438415 in run {sandbox_id} against the printed 0.889" in contradictory
    assert 'replace "0.889" with "0.888"' in text
    # both bound experiments ran; both gaps stay UNRUN
    section6 = text.split("## 6. Experiment opportunities")[1].split("## 7.")[0]
    assert f"ran: run {sandbox_id}" in section6 and "5 of 6 bound numbers match" in section6
    assert "results: macro.bm25.recall@3 = 0.888888889 (MATCH)" in section6
    assert "macro.hybrid.ndcg@3 = 0.888438415 (MISMATCH)" in section6
    assert f"ran: run {records[2]['run_id']}" in section6 and "5 of 5 bound numbers match" in section6
    assert section6.count("UNRUN") == 2
    # offline: every source UNVERIFIED, attribution rows name their sources
    assert text.count("UNVERIFIED: offline run: not looked up") == 5
    assert "C-005-01: mentions 'Järvelin', 'Kekäläinen'" in text


def test_demo_refuses_a_used_workdir(tmp_path, cli):
    workdir = tmp_path / "used"
    workdir.mkdir()
    (workdir / "mine.txt").write_text("keep me")
    result = cli("demo", "--workdir", workdir)
    assert result.exit_code == 3
    assert "exists and is not empty" in result.output
    assert [p.name for p in workdir.iterdir()] == ["mine.txt"]


@pytest.mark.parametrize("name, count", [("w03.toml", 61), ("r03_mini.toml", 17)])
def test_bundled_bindings_verify_after_rerun(tmp_path, name, count):
    """CI wiring: every W03 table number and every A21/B18 case fact, re-run and verified from the log."""
    from claims.bindings import bundled_claims_dir

    log = tmp_path / "log.jsonl"
    done = subprocess.run([sys.executable, "-m", "cli", "verify", str(bundled_claims_dir() / name),
                           "--rerun", "--rerun-dir", str(tmp_path / "reruns"), "--log", str(log)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{count} matched, 0 not matched" in done.stdout
    # without a log there is nothing to verify against: one line naming it, exit 2 (issue 20)
    empty = subprocess.run([sys.executable, "-m", "cli", "verify", str(bundled_claims_dir() / name),
                            "--log", str(tmp_path / "none.jsonl")], capture_output=True, text=True, cwd=tmp_path)
    assert empty.returncode == 2 and empty.stdout == ""
    (line,) = empty.stderr.strip().splitlines()  # one line (its prefix is the CLI's error format)
    assert line.endswith(f"{tmp_path / 'none.jsonl'}: execution log not found (run the experiments first, or pass --log)")
