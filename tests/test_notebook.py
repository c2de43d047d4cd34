"""`notebook run`: a notebook of our own, executed in a fresh kernel, logged ok or failed, bindable.

The notebooks (tests/data/notebooks/) print metrics of a hand-built ranking computed with this
package: ranking d1 d2 d3 d4, grades d1 = 1, d3 = 2, d5 = 1 (unretrieved). By hand:
Recall@3 = 2/3 = 0.666667; DCG@3 = 1/log2(2) + 3/log2(4) = 2.5, ideal = 3 + 1/log2(3) + 1/log2(4)
= 4.130930, NDCG@3 = 0.605191; Recall@1 = 1/3 = 0.333333. ``metrics-broken.ipynb`` divides by
zero in cell 3; ``slow.ipynb`` sleeps 60 s in cell 1.

The kernel: the tests point ``JUPYTER_PATH`` at a kernel spec ``python3`` whose argv is this
interpreter (``sys.executable``), so the notebook runs in the venv that has this package.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from claims.bindings import load_claims_file
from claims.verify import verify_bindings
from engine.experiments import run_experiment
from engine.notebook.run import NotebookCellFailed
from engine.runs.errors import InputError
from engine.runs.runlog import read_records

NOTEBOOKS = Path(__file__).resolve().parent / "data" / "notebooks"


@pytest.fixture(autouse=True)
def venv_kernel(tmp_path_factory, monkeypatch):
    """A ``python3`` kernel spec that runs this interpreter, found before any other."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (chapter-audit venv)", "language": "python"}), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(root))


def run(notebook: str, output: Path, log: Path, **options):
    values = {"notebook": NOTEBOOKS / notebook, "output": output, **options}
    return run_experiment("notebook run", values, log=log)


def test_notebook_runs_is_logged_ok_and_its_printed_numbers_verify(tmp_path):
    log = tmp_path / "log.jsonl"
    outputs = run("metrics.ipynb", tmp_path / "nb", log)
    cells = outputs["cells"]
    assert [c["index"] for c in cells] == [0, 1, 2, 3, 4]
    assert cells[0]["cell_type"] == "markdown" and cells[0]["text"] == ""
    assert cells[2]["stdout"] == "Recall@3: 0.666667\n"
    assert cells[3]["text"] == "NDCG@3: 0.605191\n"
    assert cells[4]["results"] == ["0.333333"] and cells[4]["text"] == "0.333333\n"
    assert all(c["errors"] == [] for c in cells)

    (record,) = read_records(log)
    assert record["command"] == "notebook run" and record["status"] == "ok" and record["error"] is None
    assert list(record["inputs"].values()) == [_sha256(NOTEBOOKS / "metrics.ipynb")]
    assert set(record["results"]) == {"outputs", "executed", "manifest"}
    written = json.loads(Path(record["results"]["outputs"]).read_text(encoding="utf-8"))
    assert written == outputs
    executed = json.loads(Path(record["results"]["executed"]).read_text(encoding="utf-8"))
    assert "".join(executed["cells"][2]["outputs"][0]["text"]) == "Recall@3: 0.666667\n"

    claims = tmp_path / "nb.claims.toml"
    claims.write_text("""
[experiment.nb]
command = "notebook run"
result = "outputs"
[experiment.nb.match]
kernel = "python3"

[[binding]]
id = "recall-in-cell-2"
experiment = "nb"
quote = "Recall@3: 0.666667"
claimed = "0.666667"
key = "cells.2.text"
pattern = 'Recall@3: ([0-9.]+)'

[[binding]]
id = "ndcg-any-cell"
experiment = "nb"
claimed = "0.6052"
pattern = 'NDCG@3: ([0-9.]+)'

[[binding]]
id = "ndcg-misprinted"
experiment = "nb"
claimed = "0.606"
pattern = 'NDCG@3: ([0-9.]+)'

[[binding]]
id = "precision-never-printed"
experiment = "nb"
claimed = "0.5"
pattern = 'Precision@3: ([0-9.]+)'
""", encoding="utf-8")
    verdicts = {v.binding.binding_id: v for v in verify_bindings(load_claims_file(claims), log)}
    assert verdicts["recall-in-cell-2"].status == "MATCH"
    assert verdicts["recall-in-cell-2"].reproduced == pytest.approx(0.666667, abs=0)
    assert verdicts["ndcg-any-cell"].status == "MATCH"
    assert "cells.3.text" in verdicts["ndcg-any-cell"].note
    assert verdicts["ndcg-misprinted"].status == "MISMATCH"
    assert verdicts["ndcg-misprinted"].difference == pytest.approx(0.605191 - 0.606, abs=1e-12)
    assert verdicts["precision-never-printed"].status == "MISSING KEY"

    # bind finds the printed numbers in the cells and writes pattern bindings that verify
    from claims.draft import draft_claims_toml
    from claims.extract import extract_claims
    from claims.suggest import run_values, suggest

    prose = "On the hand-built ranking the notebook reaches Recall@3 of 0.666667 and NDCG@3 of 0.605."
    suggestions = suggest(extract_claims(prose), run_values(read_records(log)))
    assert [(s.claimed, s.best.value.key) for s in suggestions] == [("0.666667", "cells.2.text"),
                                                                    ("0.605", "cells.3.text")]
    draft = tmp_path / "draft.toml"
    draft.write_text(draft_claims_toml(suggestions, pack_path="prose", log_path=str(log)), encoding="utf-8")
    drafted = verify_bindings(load_claims_file(draft), log)
    assert [(v.status, v.reproduced) for v in drafted] == [("MATCH", 0.666667), ("MATCH", 0.605191)]


def test_a_failing_cell_is_a_failed_logged_run_naming_the_cell(tmp_path):
    log = tmp_path / "log.jsonl"
    with pytest.raises(NotebookCellFailed) as caught:
        run("metrics-broken.ipynb", tmp_path / "nb", log)
    assert caught.value.index == 3 and caught.value.name == "ZeroDivisionError"
    (record,) = read_records(log)
    assert record["status"] == "failed"
    assert record["error"] == "NotebookCellFailed: cell 3: ZeroDivisionError: float division by zero"
    assert record["results"] == {} and record["run_id"].startswith("notebook-run-")
    assert not (tmp_path / "nb").exists()


def test_a_timeout_is_a_failed_logged_run(tmp_path):
    log = tmp_path / "log.jsonl"
    with pytest.raises(NotebookCellFailed, match="cell 1: CellTimeoutError"):
        run("slow.ipynb", tmp_path / "nb", log, timeout=2)
    (record,) = read_records(log)
    assert record["status"] == "failed"
    assert record["error"] == "NotebookCellFailed: cell 1: CellTimeoutError: cell did not finish within 2 s"
    assert record["parameters"]["timeout"] == 2
    assert not (tmp_path / "nb").exists()


def test_bad_input_is_refused_before_a_run(tmp_path):
    log = tmp_path / "log.jsonl"
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    with pytest.raises(InputError, match="not a valid Jupyter notebook"):
        run_experiment("notebook run", {"notebook": broken, "output": tmp_path / "a"}, log=log)
    with pytest.raises(InputError, match="no Jupyter kernel named 'no-such-kernel'"):
        run("metrics.ipynb", tmp_path / "b", log, kernel="no-such-kernel")
    with pytest.raises(InputError, match="no such input file"):
        run("metrics.ipynb", tmp_path / "c", log, inputs=[tmp_path / "absent.csv"])
    assert not log.exists()


def test_the_cli_reports_bad_input_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from cli import app

    broken = tmp_path / "broken.ipynb"
    broken.write_text("not json", encoding="utf-8")
    result = CliRunner().invoke(app, ["notebook", "run", str(broken), "--output", str(tmp_path / "o"),
                                      "--log", str(tmp_path / "log.jsonl")])
    assert result.exit_code == 2
    assert "broken.ipynb" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o").exists() and not (tmp_path / "log.jsonl").exists()


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_pattern_bindings_are_validated(tmp_path):
    claims = tmp_path / "c.toml"
    claims.write_text("""
[experiment.nb]
command = "notebook run"
result = "outputs"
[[binding]]
id = "two-groups"
experiment = "nb"
claimed = "1"
pattern = '(a)(b)'
""", encoding="utf-8")
    with pytest.raises(InputError, match=r"binding\[1\]\.pattern.*exactly one group, has 2"):
        load_claims_file(claims)
    claims.write_text(claims.read_text(encoding="utf-8").replace("'(a)(b)'", "'(a'"), encoding="utf-8")
    with pytest.raises(InputError, match=r"binding\[1\]\.pattern.*invalid regular expression"):
        load_claims_file(claims)


def test_a_claims_file_can_rerun_a_notebook_through_the_registry():
    from engine.experiments import parse_arguments, split_command

    registered, args = split_command(["notebook", "run", "--notebook", "nb.ipynb", "--output", "out",
                                      "--input", "a.csv", "--input", "b.csv", "--timeout", "30"])
    assert registered.command == "notebook run" and registered.rerunnable
    values = parse_arguments(registered, args)
    assert values == {"notebook": Path("nb.ipynb"), "output": Path("out"), "timeout": 30, "kernel": "python3",
                      "inputs": [Path("a.csv"), Path("b.csv")]}
    assert registered.results == ("outputs", "executed", "manifest")


def _own_notebook(folder: Path, *sources: str) -> Path:
    """A notebook of ours in ``folder`` with one code cell per source."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path = folder / "analysis.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path


WRITE_TABLE = ("import pathlib\n"
               "pathlib.Path('results').mkdir(exist_ok=True)\n"
               "pathlib.Path('results/table.csv').write_text('method,recall\\nbm25,0.666667\\n')\n"
               "print('wrote table')")


def test_a_notebooks_own_files_in_its_output_folder_are_kept(tmp_path):
    """The notebook writes results/table.csv (relative to its own folder) and the run's --output
    is that same folder: the table stays, beside the run's three files, and is logged."""
    notebook = _own_notebook(tmp_path, WRITE_TABLE)
    log = tmp_path / "log.jsonl"
    run_experiment("notebook run", {"notebook": notebook, "output": tmp_path / "results"}, log=log)
    results = tmp_path / "results"
    assert sorted(p.name for p in results.iterdir()) == ["executed.ipynb", "outputs.json", "run_manifest.json",
                                                         "table.csv"]
    assert (results / "table.csv").read_text() == "method,recall\nbm25,0.666667\n"
    (record,) = read_records(log)
    assert record["status"] == "ok"
    assert _sha256(results / "table.csv") in record["outputs"].values()
    # the same run again: the notebook rewrites its table, the run's files are replaced, nothing lost
    run_experiment("notebook run", {"notebook": notebook, "output": results}, log=log)
    assert (results / "table.csv").read_text() == "method,recall\nbm25,0.666667\n"
    assert [r["status"] for r in read_records(log)] == ["ok", "ok"]


def test_a_notebook_writing_one_of_the_runs_file_names_is_refused_and_its_file_kept(tmp_path):
    notebook = _own_notebook(tmp_path, "import pathlib\npathlib.Path('results').mkdir()\n"
                                       "pathlib.Path('results/outputs.json').write_text('mine')")
    log = tmp_path / "log.jsonl"
    from engine.runs.errors import RefusalError

    with pytest.raises(RefusalError, match="the notebook wrote outputs.json into its own --output"):
        run_experiment("notebook run", {"notebook": notebook, "output": tmp_path / "results"}, log=log)
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["outputs.json"]
    assert (tmp_path / "results" / "outputs.json").read_text() == "mine"
    assert [r["status"] for r in read_records(log)] == ["failed"]
    assert not list(tmp_path.glob(".results*"))  # no staging directory, no lock file left


def test_an_output_folder_with_files_of_someone_else_is_refused_before_the_notebook_runs(tmp_path):
    notebook = _own_notebook(tmp_path, "open('ran.txt', 'w').write('ran')")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "notes.txt").write_text("mine")
    from engine.runs.errors import RefusalError

    with pytest.raises(RefusalError, match="not empty"):
        run_experiment("notebook run", {"notebook": notebook, "output": tmp_path / "results"},
                       log=tmp_path / "log.jsonl")
    assert not (tmp_path / "ran.txt").exists()  # refused before it started
    assert (tmp_path / "results" / "notes.txt").read_text() == "mine"
