"""Campaign journeys: `bind` → `verify` on a new user's own notebook and chapter.

The user's notebook prints ``final loss 0.0025`` in its first cell and ``accuracy 2.5`` in its
second; the chapter says "The final loss fell to 2.5e-3 after tuning, and accuracy reached 2.5."
The printed ``2.5e-3`` is one number (0.0025, tolerance half a unit of the mantissa's last
digit: 5e-5), never the ``2.5`` of an accuracy; a cell that prints ``2e-05`` printed 0.00002, not 2.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from commands import run_cli
from userfiles import sandbox_args, write_benchmark, write_notebook, write_sandbox_inputs


def test_scientific_notation_binds_whole_and_to_its_own_value(tmp_path: Path, notebook_env) -> None:
    (tmp_path / "loss.txt").write_text("0.0025\n", encoding="utf-8")
    write_notebook(tmp_path / "train.ipynb", 'loss = float(open("loss.txt").read())\nprint(f"final loss {loss}")',
                   'print("accuracy 2.5")')
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    ran = run_cli("notebook", "run", "train.ipynb", "--output", "nbout", "--log", log, cwd=tmp_path,
                  env=notebook_env, timeout=300)
    assert ran.returncode == 0, ran.stderr
    (tmp_path / "ch.md").write_text("# Training\n\nThe final loss fell to 2.5e-3 after tuning, and accuracy "
                                    "reached 2.5.\n", encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    bindings = tomllib.loads((tmp_path / "claims.toml").read_text(encoding="utf-8"))["binding"]
    assert [(b["claimed"], b["key"]) for b in bindings] == [("2.5e-3", "cells.0.text"), ("2.5", "cells.1.text")]
    checked = run_cli("verify", "claims.toml", "--log", log, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 matched, 0 not matched" in checked.stdout
    # the data now give another loss, which Python prints as 2e-05: the re-run contradicts 2.5e-3
    # with the whole printed number (not its mantissa 2) and names the run
    (tmp_path / "loss.txt").write_text("0.00002\n", encoding="utf-8")
    rerun = run_cli("verify", "claims.toml", "--log", log, "--rerun", "--rerun-dir", "rr", cwd=tmp_path,
                    env=notebook_env, timeout=300)
    assert rerun.returncode == 1, rerun.stdout + rerun.stderr
    line = next(l for l in rerun.stdout.splitlines() if l.startswith("C-001-01-1"))
    assert line.split()[1:3] == ["2.5e-3", "0.00002"] and "MISMATCH" in line and "notebook-run-" in line


R03_CHAPTER = """# Coverage

The coverage selection reaches coverage@5 of 0.667 over all tasks, against 1.000 for dense retrieval.

On the development tasks the dense top five reaches coverage@5 of 1.000.
"""


def test_a_coverage_figure_never_binds_to_a_count_of_tasks(tmp_path: Path) -> None:
    """The user's own three-task benchmark (userfiles.write_benchmark: T1 and T3 final, T2
    development): the dense top five covers every requirement (coverage@5 = 1.0 in every subset),
    and the development subset holds 1 task. "coverage@5 of 1.000" is the dense coverage, never
    ``aggregate.development.tasks`` (a count; the word "tasks" names no result here)."""
    write_benchmark(tmp_path / "bench", tasks=("T1", "T2", "T3"))
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    for step in (("r03", "prepare", "--benchmark", "bench", "--freeze", "fz", "--log", log),
                 ("r03", "evaluate", "--benchmark", "bench", "--freeze", "fz", "--output", "res", "--draws", "100",
                  "--log", log)):
        ran = run_cli(*step, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
    results = json.loads((tmp_path / "res" / "results.json").read_text(encoding="utf-8"))["aggregate"]
    assert results["development"]["tasks"] == 1 and results["development"]["dense"]["coverage@5"] == 1.0
    (tmp_path / "ch.md").write_text(R03_CHAPTER, encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    bindings = {b["id"]: b["key"] for b in
                tomllib.loads((tmp_path / "claims.toml").read_text(encoding="utf-8"))["binding"]}
    assert not [key for key in bindings.values() if key.endswith(".tasks")], bindings
    assert bindings["C-002-01-1"] == "aggregate.development.dense.coverage@5"


def test_bind_says_when_the_logged_results_cannot_be_read(tmp_path: Path) -> None:
    """The user copies only the log to a new folder (the run's output stayed behind), or edits a
    result file: bind cannot read those values and says so, naming the file, instead of calling
    every printed number unmatched as if the chapter were wrong."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    chapter = "# R\n\nThe supplied opaque run reaches macro NDCG@3 of 0.576.\n"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".chapter-audit").mkdir(parents=True)
    (elsewhere / ".chapter-audit" / "log.jsonl").write_bytes(log.read_bytes())
    (elsewhere / "ch.md").write_text(chapter, encoding="utf-8")
    lost = run_cli("bind", "ch.md", "--output", "claims.toml", cwd=elsewhere)
    assert lost.returncode == 1 and not (elsewhere / "claims.toml").exists()
    assert ("warning: .chapter-audit/log.jsonl: 4 result files of the logged ok runs are missing or changed since "
            "their run, so their values were not read: out/index_summary.json, out/metrics.json, out/rankings.json, "
            "…") in lost.stderr, lost.stderr
    assert "Traceback" not in lost.stderr
    (tmp_path / "ch.md").write_text(chapter, encoding="utf-8")
    metrics = tmp_path / "out" / "metrics.json"
    metrics.write_text(metrics.read_text(encoding="utf-8").replace("0.576112", "0.5"), encoding="utf-8")
    edited = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert edited.returncode == 1
    assert ("1 result file of the logged ok runs is missing or changed since its run, so its values were not "
            "read: out/metrics.json") in edited.stderr, edited.stderr


def test_across_the_topics_is_the_macro_figure(tmp_path: Path) -> None:
    """The user's sandbox: macro Recall@3 of the supplied run is 0.75 (q1 0.5, q2 1.0). "Across
    the two topics, the supplied run's Recall@3 is 0.75" is that macro figure: the word "topics"
    names the topics averaged over, not the ``per_topic`` results (which item a sentence means is
    the scope check's), so it binds ``macro.frozen_dense.recall@3``."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "ch.md").write_text("# R\n\nAcross the two topics, the supplied run's Recall@3 is 0.75.\n",
                                    encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    bindings = tomllib.loads((tmp_path / "claims.toml").read_text(encoding="utf-8"))["binding"]
    assert [(b["claimed"], b["key"]) for b in bindings] == [("0.75", "macro.frozen_dense.recall@3")]


def test_the_reranker_never_binds_the_fusions_logged_change(tmp_path: Path) -> None:
    """The user's sandbox logs one change, BM25 → hybrid (``macro_change_bm25_to_hybrid.ndcg@3``
    = −0.018030; the reranked list's macro NDCG@3 equals the hybrid's here, so its change would
    print the same). "The reranker changes macro NDCG@3 by -0.018 relative to BM25" is a figure of
    the reranker, which the run never logged: binding it to the fusion's change would be a MATCH
    for another system's number. The word ``hybrid`` inside the compound key has the run's other
    methods as rivals, so the reranker sentence is left unbound and says so, while the same figure
    said of the fusion binds."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / ".chapter-audit" / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    (tmp_path / "ch.md").write_text("# R\n\nThe reranker changes macro NDCG@3 by -0.018 relative to BM25.\n\n"
                                    "Fusion changes macro NDCG@3 by -0.018 relative to BM25.\n", encoding="utf-8")
    bound = run_cli("bind", "ch.md", "--log", log, "--output", "claims.toml", cwd=tmp_path)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    assert "C-001-01 -0.018: no value within precision; nothing near it in the logged results" in bound.stdout
    assert "2 printed numbers: 1 bound, 0 ambiguous, 1 unmatched" in bound.stdout
    bindings = tomllib.loads((tmp_path / "claims.toml").read_text(encoding="utf-8"))["binding"]
    assert [(b["id"], b["claimed"], b["key"]) for b in bindings] == [
        ("C-002-01-1", "-0.018", "macro_change_bm25_to_hybrid.ndcg@3")]
