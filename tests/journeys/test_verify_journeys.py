"""User journeys of `verify` (issue 20, items 1 and 2): the user's own project folder, built
from scratch, with their own qrels and claims files; verdicts and files asserted, not only codes.

* Two experiments with the same command and parameters but other qrels each read their own run
  (``--rerun`` and from the log alone), and say which run they read.
* A copied project folder verifies without re-running anything (W03: 61/61 after the original
  folder is deleted; the default ``.chapter-audit/log.jsonl`` layout too).
* A missing or empty log is one line naming it, exit 2; an old-format log still reads.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.runs.fixtures_path import fixtures_dir

REPO = Path(__file__).resolve().parents[2]
L03 = fixtures_dir() / "l03"
W03 = REPO / "claims" / "bindings" / "w03.toml"


def chapter_audit(*args, cwd: Path) -> subprocess.CompletedProcess:
    """The command line as a user runs it, in a fresh process (PYTHONPATH is inherited)."""
    return subprocess.run([sys.executable, "-m", "cli", *[str(a) for a in args]], cwd=cwd,
                          capture_output=True, text=True)


def user_project(root: Path) -> Path:
    """A project folder of the user's own: the L03 files copied in, and a second qrels that
    grades D-002 as non-relevant (T-01: BM25 ranks D-001 first, so its NDCG@3 becomes 1 and the macro (1 + 0.665315 + 0.946768)/3 = 0.870694)."""
    data = root / "data"
    data.mkdir(parents=True)
    for name in ("corpus.jsonl", "topics.jsonl", "qrels.txt", "supplied_run.tsv", "supplied_run_metadata.json"):
        shutil.copy(L03 / name, data / name)
    (data / "qrels-strict.txt").write_text((L03 / "qrels.txt").read_text().replace("T-01 0 D-002 2", "T-01 0 D-002 0"))
    return root


def sandbox_step(qrels: str) -> str:
    return json.dumps(["sandbox", "run", "--corpus", "{here}/data/corpus.jsonl", "--topics", "{here}/data/topics.jsonl",
                       "--qrels", "{here}/data/" + qrels, "--dense-run", "{here}/data/supplied_run.tsv",
                       "--dense-metadata", "{here}/data/supplied_run_metadata.json", "--output", "{workdir}/out"])


def two_experiments(project: Path, graded: str, strict: str, *, pins: str = "") -> Path:
    claims = project / "claims.toml"
    claims.write_text(f"""
[experiment.graded]
command = "sandbox run"
result = "metrics"
rerun = [{sandbox_step("qrels.txt")}]
[experiment.graded.match]
k = 3

[experiment.strict]
command = "sandbox run"
result = "metrics"
rerun = [{sandbox_step("qrels-strict.txt")}]
[experiment.strict.match]
k = 3
{pins}
[[binding]]
id = "graded-bm25-ndcg"
experiment = "graded"
claimed = "{graded}"
key = "macro.bm25.ndcg@3"

[[binding]]
id = "strict-bm25-ndcg"
experiment = "strict"
claimed = "{strict}"
key = "macro.bm25.ndcg@3"
""", encoding="utf-8")
    return claims


def verdicts(result: subprocess.CompletedProcess) -> dict[str, dict]:
    return {row["id"]: row for row in json.loads(result.stdout)}


def test_two_experiments_differing_only_in_qrels_each_read_their_own_run(tmp_path):
    project = user_project(tmp_path / "project")
    # the user runs both experiments themselves first, to learn the two figures
    for name, qrels in (("graded", "qrels.txt"), ("strict", "qrels-strict.txt")):
        done = chapter_audit("sandbox", "run", "--corpus", "data/corpus.jsonl", "--topics", "data/topics.jsonl",
                             "--qrels", f"data/{qrels}", "--dense-run", "data/supplied_run.tsv",
                             "--dense-metadata", "data/supplied_run_metadata.json", "--output", f"runs/{name}",
                             "--log", "log.jsonl", cwd=project)
        assert done.returncode == 0, done.stderr
    graded = json.loads((project / "runs/graded/metrics.json").read_text())["macro"]["bm25"]["ndcg@3"]
    strict = json.loads((project / "runs/strict/metrics.json").read_text())["macro"]["bm25"]["ndcg@3"]
    assert (round(graded, 6), round(strict, 6)) == (0.855971, 0.870694)  # the two experiments differ
    claims = two_experiments(project, "0.855971", "0.870694")

    # from the log alone: the rerun steps name each experiment's qrels, so each reads its own run
    # (the strict run is the later one: before issue 20 both read it, and "graded" was a MISMATCH)
    alone = chapter_audit("verify", claims, "--log", "log.jsonl", "--format", "json", cwd=project)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    rows = verdicts(alone)
    assert {r["verdict"] for r in rows.values()} == {"MATCH"}
    records = [json.loads(line) for line in (project / "log.jsonl").read_text().splitlines()]
    assert rows["graded-bm25-ndcg"]["run_id"] == records[0]["run_id"] != records[1]["run_id"]
    assert rows["strict-bm25-ndcg"]["run_id"] == records[1]["run_id"]
    assert rows["graded-bm25-ndcg"]["result_path"] == str(project / "runs/graded/metrics.json")

    # --rerun: each experiment reads the run its own step wrote, in its own work directory
    rerun = chapter_audit("verify", claims, "--log", "log.jsonl", "--rerun", "--rerun-dir", "reruns",
                          "--format", "json", cwd=project)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    rows = verdicts(rerun)
    assert "/reruns/graded/" in rows["graded-bm25-ndcg"]["result_path"]
    assert "/reruns/strict/" in rows["strict-bm25-ndcg"]["result_path"]
    assert [r["verdict"] for r in rows.values()] == ["MATCH", "MATCH"]


def test_pinned_inputs_name_the_run_and_other_inputs_are_no_run(tmp_path):
    project = user_project(tmp_path / "project")
    claims = two_experiments(project, "0.855971", "0.870694")
    done = chapter_audit("verify", claims, "--log", "log.jsonl", "--rerun", "--rerun-dir", "reruns", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    # the strict experiment pinned to the graded qrels' hash: no run of it exists
    import hashlib

    graded_sha = hashlib.sha256((project / "data/qrels.txt").read_bytes()).hexdigest()
    pinned = two_experiments(project, "0.855971", "0.870694",
                             pins=f'[experiment.strict.inputs]\nqrels = "{graded_sha}"\n')
    result = chapter_audit("verify", pinned, "--log", "log.jsonl", "--format", "json", cwd=project)
    rows = verdicts(result)
    assert result.returncode == 1
    assert rows["graded-bm25-ndcg"]["verdict"] == "MATCH"
    strict = rows["strict-bm25-ndcg"]
    # an explicit inputs table overrides the rerun step: "strict" now names the graded qrels, so
    # it reads the graded run (and says so), whose NDCG@3 is not the strict figure
    assert strict["verdict"] == "MISMATCH" and strict["reproduced"] == pytest.approx(0.8559711705052736)
    assert strict["run_id"] == rows["graded-bm25-ndcg"]["run_id"]  # the verdict says which run it read
    wrong = two_experiments(project, "0.855971", "0.870694",
                            pins='[experiment.strict.inputs]\nqrels = "' + "0" * 64 + '"\n')
    rows = verdicts(chapter_audit("verify", wrong, "--log", "log.jsonl", "--format", "json", cwd=project))
    assert rows["strict-bm25-ndcg"]["verdict"] == "NO RUN" and rows["strict-bm25-ndcg"]["run_id"] is None
    assert "read other inputs" in rows["strict-bm25-ndcg"]["note"] and "qrels" in rows["strict-bm25-ndcg"]["note"]


def test_a_copied_project_verifies_w03_61_of_61_without_rerunning(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    done = chapter_audit("verify", W03, "--rerun", "--rerun-dir", "reruns", "--log", "log.jsonl", cwd=project)
    assert done.returncode == 0 and "61 matched, 0 not matched" in done.stdout, done.stdout + done.stderr
    text = (project / "log.jsonl").read_text()
    assert str(project) not in text  # every path inside the project is written relative to the log
    moved = tmp_path / "elsewhere" / "copy"
    shutil.copytree(project, moved)
    shutil.rmtree(project)
    result = chapter_audit("verify", W03, "--log", moved / "log.jsonl", "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(result.stdout)
    assert len(rows) == 61 and {r["verdict"] for r in rows} == {"MATCH"}
    assert all(r["result_path"].startswith(str(moved / "reruns")) for r in rows)
    # nothing was re-run: still one run directory per experiment
    assert sorted(p.parent.name for p in moved.glob("reruns/*/*/")) == ["w03-ledger", "w03-sandbox"]


def test_the_default_log_layout_moves_with_the_project(tmp_path):
    project = user_project(tmp_path / "project")
    done = chapter_audit("sandbox", "run", "--corpus", "data/corpus.jsonl", "--topics", "data/topics.jsonl",
                         "--qrels", "data/qrels.txt", "--dense-run", "data/supplied_run.tsv",
                         "--dense-metadata", "data/supplied_run_metadata.json", "--output", "out", cwd=project)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in (project / ".chapter-audit/log.jsonl").read_text().splitlines()]
    assert record["results"]["metrics"] == "out/metrics.json"  # relative to the project folder
    assert record["invocation"]["inputs"]["qrels"]["path"] == "data/qrels.txt"
    claims = two_experiments(project, "0.855971", "0.870694")
    moved = tmp_path / "moved"
    shutil.move(project, moved)
    result = chapter_audit("verify", moved / "claims.toml", "--log", moved / ".chapter-audit/log.jsonl",
                           "--format", "json", cwd=tmp_path)
    rows = verdicts(result)
    assert rows["graded-bm25-ndcg"]["verdict"] == "MATCH"
    assert rows["graded-bm25-ndcg"]["result_path"] == str(moved / "out/metrics.json")
    assert rows["strict-bm25-ndcg"]["verdict"] == "NO RUN"  # never the graded run
    assert claims.name == "claims.toml"
    # the claims file's {here} steps moved with it: --rerun from anywhere rebuilds both runs
    rerun = chapter_audit("verify", moved / "claims.toml", "--log", moved / ".chapter-audit/log.jsonl", "--rerun",
                          "--rerun-dir", moved / ".chapter-audit/reruns", "--format", "json", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert [r["verdict"] for r in verdicts(rerun).values()] == ["MATCH", "MATCH"]


@pytest.mark.parametrize("content", [None, "\n\n", '{"run_id": "cut'])
def test_a_missing_or_empty_log_is_one_line_exit_2(tmp_path, content):
    log = tmp_path / "log.jsonl"
    if content is not None:
        log.write_text(content)
    result = chapter_audit("verify", W03, "--log", log, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if not line.startswith("warning:")]
    expected = "execution log not found" if content is None else "execution log holds no run record"
    assert len(lines) == 1 and f"{log}: " in lines[0] and expected in lines[0]  # one line naming the log
    bound = chapter_audit("bind", REPO / "audit/examples/sandbox-chapter-pack.txt", "--log", log,
                          "--output", tmp_path / "draft.toml", cwd=tmp_path)
    assert bound.returncode == 2 and expected in bound.stderr and not (tmp_path / "draft.toml").exists()


def test_an_old_format_log_still_verifies(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert chapter_audit("verify", W03, "--rerun", "--rerun-dir", "reruns", "--log", "log.jsonl",
                         cwd=project).returncode == 0
    # rewrite the log as before issue 20: absolute paths, no invocation
    old = []
    for line in (project / "log.jsonl").read_text().splitlines():
        record = json.loads(line)
        record.pop("invocation")
        for name in ("inputs", "outputs"):
            record[name] = {str((project / p) if not p.startswith("/") else p): v for p, v in record[name].items()}
        record["results"] = {k: str(project / p) for k, p in record["results"].items()}
        old.append(json.dumps(record))
    (project / "old.jsonl").write_text("\n".join(old) + "\n")
    result = chapter_audit("verify", W03, "--log", "old.jsonl", cwd=project)
    assert result.returncode == 0 and "61 matched, 0 not matched" in result.stdout, result.stdout + result.stderr


def test_the_report_reads_each_experiment_s_own_run_and_proposes_no_false_correction(tmp_path):
    """Issue 20, "Experiments mixed up": the report once proposed replacing the graded figure
    with the strict run's and marked it *accept*."""
    project = user_project(tmp_path / "project")
    claims = two_experiments(project, "0.855971", "0.870694")
    text = claims.read_text().replace('key = "macro.bm25.ndcg@3"',
                                      'key = "macro.bm25.ndcg@3"\nquote = "BM25 reaches macro NDCG@3 of"', 1)
    text = text.replace('id = "strict-bm25-ndcg"', 'id = "strict-bm25-ndcg"\nquote = "strict judgments"')
    claims.write_text(text.replace('quote = "BM25 reaches macro NDCG@3 of"', 'quote = "graded judgments"'))
    assert chapter_audit("verify", claims, "--log", "log.jsonl", "--rerun", "--rerun-dir", "reruns",
                         cwd=project).returncode == 0
    example = (REPO / "audit/examples/sandbox-chapter-pack.txt").read_text()
    head, rest = example.split("== 2. Chapter text ==\n", 1)
    _, tail = rest.split("== 3. Existing references and bibliography ==", 1)
    head = "\n".join(line for line in head.splitlines() if "fingerprint" not in line) + "\n"
    (project / "pack.txt").write_text(
        head + "== 2. Chapter text ==\n"
        "With the graded judgments, BM25 reaches macro NDCG@3 of 0.855971 on the three topics.\n"
        "With the strict judgments, BM25 reaches macro NDCG@3 of 0.870694 on the three topics.\n\n"
        "== 3. Existing references and bibliography ==" + tail)
    done = chapter_audit("report", "pack.txt", "--output", "report.md", "--claims", claims, "--log", "log.jsonl",
                         "--offline", "--no-search", "--date", "2026-12-01", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    report = (project / "report.md").read_text()
    assert "correction: replace" not in report and "MISMATCH" not in report
    records = [json.loads(line) for line in (project / "log.jsonl").read_text().splitlines()]
    graded_run, strict_run = records[0]["run_id"], records[1]["run_id"]
    assert graded_run != strict_run and f"ran: run {graded_run}" in report and f"ran: run {strict_run}" in report
