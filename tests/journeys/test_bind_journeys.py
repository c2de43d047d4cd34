"""User journeys of `bind` (issue 20, items 2b and 3): the loop bind → verify --rerun closes, and
a number binds only to a key whose meaning its sentence supports.

The small result files below are hand-built (a user's own run, logged through ``recorded_run``
with its invocation); the figures are chosen so that a coincidence is available for every
wrong binding the issue names.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from claims.suggest import run_values, suggest
from engine.runs.runlog import Invocation, invoked, read_records, recorded_run

REPO = Path(__file__).resolve().parents[2]
DEMO_PACK = REPO / "audit/examples/sandbox-chapter-pack.txt"


def chapter_audit(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *[str(a) for a in args]], cwd=cwd,
                          capture_output=True, text=True)


@dataclass
class Row:
    claim_id: str
    text: str
    kind: str = "measured result"
    location: str = "paragraph 1, sentence 1"
    quantities: list = field(default_factory=list)

    def __post_init__(self):
        from claims.quantities import find_quantities

        self.quantities = find_quantities(self.text)


def logged_result(tmp_path: Path, log: Path, name: str, result: dict, *, qrels: str = "graded") -> None:
    """One ok `evaluate` run of the user's own whose metrics.json is ``result``; its qrels input
    (a file named after ``qrels``) is its identity."""
    out = tmp_path / name
    out.mkdir()
    (out / "metrics.json").write_text(json.dumps(result))
    judgments = tmp_path / f"qrels-{qrels}.txt"
    judgments.write_text(f"1 0 d{qrels} 1\n")
    with invoked(Invocation("evaluate", {"qrels": str(judgments)}, {"output": str(out)}, {})):
        with recorded_run(log, "evaluate", {"ties": "id_ascending"}) as rec:
            rec.run_id = f"evaluate-{name}"
            rec.add_inputs(judgments)
            rec.add_outputs(out)
            rec.results = {"metrics": str(out / "metrics.json")}


def bound(suggestions) -> dict[str, str | None]:
    return {s.claimed: (s.best.value.key if s.status == "bound" else s.status) for s in suggestions}


def test_a_percentage_never_binds_to_a_document_score_and_spelled_out_metrics_bind(tmp_path):
    log = tmp_path / "log.jsonl"
    logged_result(tmp_path, log, "run", {
        "runs": {"bm25": {"macro": {"P@10": 0.24, "nDCG@10": 0.144, "R@3": 0.5},
                          "per_topic": {"103": {"P@10": 0.3, "nDCG@10": 0.14}}}},
        "scores": {"bm25": {"103": {"D005": 0.144, "D007": 0.14}}}})
    rows = [Row("C-1", "About 14% of the corpus is boilerplate, which BM25 reaches anyway."),
            Row("C-2", "The BM25 run reaches a precision at ten of 0.24."),
            Row("C-3", "BM25 reaches a recall at three of 0.5 and nDCG@10 of 0.144."),
            Row("C-4", "On topic 103, BM25 reaches nDCG@10 of 0.140."),
            Row("C-5", "BM25 reaches a macro nDCG@10 of 0.140."),
            Row("C-6", "BM25 scores D005 at 0.144 on topic 103.")]
    got = {s.claim_id + " " + s.claimed: s for s in suggest(rows, run_values(read_records(log), log))}
    # "14%" is no score of one document (a percentage binds only to a rate), nor nDCG@10 = 0.144
    assert got["C-1 14%"].best is None
    assert got["C-2 0.24"].best.value.key == "runs.bm25.macro.P@10"  # before issue 20: no candidate
    assert got["C-3 0.5"].best.value.key == "runs.bm25.macro.R@3"
    assert got["C-3 0.144"].best.value.key == "runs.bm25.macro.nDCG@10"  # not the D005 score
    assert got["C-4 0.140"].best.value.key == "runs.bm25.per_topic.103.nDCG@10"
    # a macro claim never binds to one topic's value, nor to one document's score
    assert got["C-5 0.140"].best is None
    assert got["C-6 0.144"].best.value.key == "scores.bm25.103.D005"  # the document is named: it binds


def test_numbers_spread_over_two_runs_all_bind_and_equal_ones_are_listed_not_chosen(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    logged_result(tmp_path, log, "graded", {"runs": {"bm25": {"macro": {"nDCG@10": 0.61, "P@10": 0.3, "R@100": 0.8}}}})
    logged_result(tmp_path, log, "strict", {"runs": {"bm25": {"macro": {"nDCG@10": 0.52, "P@10": 0.3, "R@100": 0.7}}}},
                  qrels="strict")
    pack = tmp_path / "pack.txt"
    text = DEMO_PACK.read_text()
    head, rest = text.split("== 2. Chapter text ==\n", 1)
    _, tail = rest.split("== 3. Existing references and bibliography ==", 1)
    pack.write_text(head.replace("Chapter prose fingerprint", "Old fingerprint") + "== 2. Chapter text ==\n"
                    "With graded judgments BM25 reaches nDCG@10 of 0.61 and R@100 of 0.8.\n"
                    "With strict judgments BM25 reaches nDCG@10 of 0.52 and R@100 of 0.7.\n"
                    "Under both judgment sets BM25 reaches P@10 of 0.3.\n\n"
                    "== 3. Existing references and bibliography ==" + tail)
    draft = tmp_path / "claims.toml"
    result = cli("bind", pack, "--log", log, "--output", draft)
    assert result.exit_code == 0, result.output
    assert "5 printed numbers: 4 bound, 1 ambiguous, 0 unmatched" in result.output
    assert ("0.3: ambiguous, not bound: runs.bm25.macro.P@10 (run evaluate-graded), "
            "runs.bm25.macro.P@10 (run evaluate-strict)") in result.output
    claims = tomllib.loads(draft.read_text())
    assert len(claims["binding"]) == 4  # one experiment per qrels, named after the file that differs
    assert sorted(claims["experiment"]) == ["evaluate-qrels-graded", "evaluate-qrels-strict"]
    pins = {exp_id: body["inputs"]["qrels"] for exp_id, body in claims["experiment"].items()}
    assert len(set(pins.values())) == 2
    by_claim = {b["claimed"]: b["experiment"] for b in claims["binding"]}
    assert by_claim["0.61"] == by_claim["0.8"] != by_claim["0.52"] == by_claim["0.7"]
    assert "# Ambiguous printed numbers" in draft.read_text() and '"0.3"' in draft.read_text()
    verdicts = json.loads(cli("verify", draft, "--log", log, "--format", "json").output)
    assert [v["verdict"] for v in verdicts] == ["MATCH"] * 4
    assert {v["run_id"] for v in verdicts} == {"evaluate-graded", "evaluate-strict"}


def test_bind_writes_rerun_steps_that_verify_rerun_runs(tmp_path):
    """The loop closes: demo runs → bind → verify --rerun into a fresh directory → every MATCH."""
    demo = tmp_path / "demo"
    assert chapter_audit("demo", "--workdir", demo, cwd=tmp_path).returncode == 0
    draft = tmp_path / "chapter.toml"
    done = chapter_audit("bind", DEMO_PACK, "--log", demo / "log.jsonl", "--output", draft, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    claims = tomllib.loads(draft.read_text())
    steps = {exp_id: body["rerun"] for exp_id, body in claims["experiment"].items()}
    assert steps["r03-evaluate"] == [
        ["r03", "prepare", "--benchmark", "{fixtures}/r03_mini", "--freeze", "{workdir}/freeze"],
        ["r03", "evaluate", "--benchmark", "{fixtures}/r03_mini", "--freeze", "{workdir}/freeze",
         "--output", "{workdir}/output", "--seed", "129300", "--draws", "10000"]]
    assert steps["sandbox-run"][0][:4] == ["sandbox", "run", "--corpus", "{fixtures}/l03/corpus.jsonl"]
    # the demo folder goes away: verify --rerun rebuilds every run in a fresh directory
    shutil.rmtree(demo)
    result = chapter_audit("verify", draft, "--rerun", "--rerun-dir", tmp_path / "fresh", "--log",
                           tmp_path / "fresh.jsonl", "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(result.stdout)
    assert len(rows) == 10 and {r["verdict"] for r in rows} == {"MATCH"}
    assert all(r["result_path"].startswith(str(tmp_path / "fresh")) for r in rows)


def test_a_notebook_rerun_step_takes_the_notebook_positionally(tmp_path):
    from engine.experiments import EXPERIMENTS, parse_arguments

    exp = EXPERIMENTS["notebook run"]
    values = parse_arguments(exp, ["nb.ipynb", "--output", "out", "--input", "a.csv", "--input", "b.csv"])
    assert (str(values["notebook"]), str(values["output"]), [str(p) for p in values["inputs"]]) == (
        "nb.ipynb", "out", ["a.csv", "b.csv"])
    assert str(parse_arguments(exp, ["--notebook", "nb.ipynb", "--output", "o"])["notebook"]) == "nb.ipynb"

    from claims.rerun_steps import rerun_steps

    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    record = {"run_id": "notebook-run-x", "command": "notebook run", "status": "ok", "invocation": {
        "inputs": {"notebook": {"path": str(project / "nb.ipynb"), "sha256": "0" * 64},
                   "inputs-2": {"path": str(project / "data/b.csv"), "sha256": "1" * 64},
                   "inputs-1": {"path": str(project / "data/a.csv"), "sha256": "2" * 64}},
        "outputs": {"output": {"path": str(project / "out")}}, "options": {"timeout": 600, "kernel": "python3"}}}
    steps = rerun_steps(record, [record], project / "claims" / "chapter.toml", project / "log.jsonl")
    assert steps == [["notebook", "run", "{here}/../nb.ipynb", "--output", "{workdir}/output", "--timeout", "600",
                      "--kernel", "python3", "--input", "{here}/../data/a.csv", "--input", "{here}/../data/b.csv"]]


def test_a_notebook_chapter_binds_and_its_rerun_step_runs(tmp_path):
    """notebook run (the notebook positional) → bind → verify --rerun in a fresh directory: MATCH."""
    import os

    kernels = tmp_path / "jupyter" / "kernels" / "python3"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (chapter-audit venv)", "language": "python"}), encoding="utf-8")
    env = {**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")}
    project = tmp_path / "project"
    (project / "nb").mkdir(parents=True)
    shutil.copy(REPO / "tests/data/notebooks/metrics.ipynb", project / "nb" / "metrics.ipynb")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "cli", *[str(a) for a in args]], cwd=project, env=env,
                              capture_output=True, text=True)

    done = run("notebook", "run", "nb/metrics.ipynb", "--output", "out", "--log", "log.jsonl")
    assert done.returncode == 0, done.stderr
    (project / "chapter.md").write_text("# Metrics\n\nOn the hand-built ranking the notebook reaches Recall@3 of "
                                        "0.666667 and NDCG@3 of 0.605.\n", encoding="utf-8")
    done = run("bind", "chapter.md", "--log", "log.jsonl", "--output", "claims.toml")
    assert done.returncode == 0, done.stdout + done.stderr
    (experiment,) = tomllib.loads((project / "claims.toml").read_text())["experiment"].values()
    assert experiment["rerun"] == [["notebook", "run", "{here}/nb/metrics.ipynb", "--output", "{workdir}/output",
                                    "--timeout", "600", "--kernel", "python3"]]
    assert list(experiment["inputs"]) == ["notebook"]
    result = run("verify", "claims.toml", "--rerun", "--rerun-dir", tmp_path / "fresh", "--log",
                 tmp_path / "fresh.jsonl", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(result.stdout)
    assert [(r["verdict"], r["reproduced"]) for r in rows] == [("MATCH", 0.666667), ("MATCH", 0.605191)]
    assert all(r["result_path"].startswith(str(tmp_path / "fresh")) for r in rows)
