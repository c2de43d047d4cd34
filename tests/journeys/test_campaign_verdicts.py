"""Campaign journeys: verdicts that did not mean what they said, on a new user's own material.

Each test runs the command line as a user does (``python -m cli``) on files written here or by
tests/journeys/userfiles.py (never the bundled fixtures), and asserts the verdict and the files
left. The sandbox inputs (userfiles.write_sandbox_inputs, k 3): macro Recall@3 of the supplied
run 0.75 (q1 0.5, q2 1.0); per-topic NDCG@3 of the supplied run q1 0.521296, q2 0.630930; the
reranker's Recall@3 is 1.0 on both topics.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from commands import child_env, run_cli
from userfiles import sandbox_args, write_benchmark, write_notebook, write_sandbox_inputs


def _bind(tmp: Path, chapter: str, log: Path, name: str = "chapter") -> tuple[object, str]:
    (tmp / f"{name}.md").write_text(chapter, encoding="utf-8")
    done = run_cli("bind", f"{name}.md", "--log", log, "--output", f"{name}.toml", cwd=tmp)
    assert "Traceback" not in done.stderr, done.stderr
    draft = tmp / f"{name}.toml"
    return done, draft.read_text(encoding="utf-8") if draft.exists() else ""


def _bindings(draft: str) -> list[tuple[str, str]]:
    """(claimed, key) of every binding of a draft (comments are not bindings)."""
    import tomllib

    return [(b["claimed"], b.get("key", "")) for b in tomllib.loads(draft).get("binding", [])]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> tuple[Path, Path]:
    """The user's sandbox run (lower-case topic ids q1, q2), logged; (folder, log)."""
    root = tmp_path_factory.mktemp("sandbox")
    inputs = write_sandbox_inputs(root / "in")
    log = root / "log.jsonl"
    done = run_cli(*sandbox_args(inputs, root / "out", log), cwd=root)
    assert done.returncode == 0, done.stderr
    return root, log


def test_a_number_said_of_one_topic_never_binds_another_topics_value(sandbox) -> None:
    """The user's topics are called q1 and q2, as many collections name them. "The supplied run
    reaches a Recall@3 of 0.50 on topic q2" is false (q2's is 1.0; 0.5 is q1's). ``bind`` used to
    bind it to ``per_topic.frozen_dense.q1.recall@3`` (only upper-case ids were identifiers, so
    the scope check never ran) and ``verify`` then said MATCH, exit 0, for another topic's value.
    Now lower-case ids are identifiers: the false sentence is unmatched; the true one binds q1."""
    root, log = sandbox
    done, draft = _bind(root, "# Topics\n\n## Results\n\n"
                        "The supplied run reaches a Recall@3 of 0.50 on topic q2.\n"
                        "The supplied run reaches an NDCG@3 of 0.521 on topic q1.\n", log, "topics")
    assert done.returncode == 0, done.stderr
    assert _bindings(draft) == [("0.521", "per_topic.frozen_dense.q1.ndcg@3")]
    assert "C-001-01 0.50: no value within precision" in done.stdout


def test_the_reranker_never_binds_the_supplied_runs_per_topic_value(tmp_path: Path) -> None:
    """Topics named T-01 and T-02 (upper case, W03's style). "The reranker reaches a Recall@3 of
    0.50 on topic T-01" is false (the reranker's is 1.0; 0.5 is the supplied run's). A system's
    per-topic results (``per_topic.frozen_dense`` → ``{"T-01": …}``) were taken for a container
    of items with no rivals, so the sentence naming the reranker bound the supplied run's value
    (a MATCH for another system's number). Now it is unmatched; the supplied run's sentence binds."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    for role in ("topics", "qrels", "dense_run"):
        path = inputs[role]
        path.write_text(path.read_text().replace("q1", "T-01").replace("q2", "T-02"))
    log = tmp_path / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "out", log), cwd=tmp_path).returncode == 0
    done, draft = _bind(tmp_path, "# Topics\n\n## Results\n\n"
                        "The reranker reaches a Recall@3 of 0.50 on topic T-01.\n"
                        "The supplied run reaches a Recall@3 of 0.50 on topic T-01.\n", log)
    assert done.returncode == 0, done.stderr
    assert _bindings(draft) == [("0.50", "per_topic.frozen_dense.T-01.recall@3")]
    assert "C-001-01 0.50: no value within precision" in done.stdout


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory) -> tuple[Path, Path]:
    """Two TREC runs of the user's own (gzip, CRLF; qrels with a BOM) evaluated; (folder, log).

    sysA: AP 0.444444, RR 0.666667, P@2 0.333333 (macro over topics 101–103);
    sysB: AP = RR = 0.666667, P@2 0.666667; the pair's P@2 difference is +0.333333."""
    import gzip

    root = tmp_path_factory.mktemp("evaluate")
    (root / "qrels.txt").write_bytes(b"\xef\xbb\xbf101 0 d1 1\r\n101 0 d2 0\r\n101 0 d3 2\r\n"
                                     b"102 0 d4 1\r\n102 0 d5 1\r\n103 0 d6 1\r\n")
    (root / "a.run.gz").write_bytes(gzip.compress(
        b"101 Q0 d1 1 3.0 sysA\n101 Q0 d2 2 2.0 sysA\n101 Q0 d3 3 1.0 sysA\n"
        b"102 Q0 d4 1 5 sysA\n102 Q0 d9 2 4 sysA\n103 Q0 d7 1 1 sysA\n"))
    (root / "b.run").write_bytes(b"101 Q0 d3 1 3.0 sysB\r\n101 Q0 d1 2 2.0 sysB\r\n"
                                 b"102 Q0 d5 1 5 sysB\r\n102 Q0 d4 2 4 sysB\r\n")
    log = root / "log.jsonl"
    done = run_cli("evaluate", "--qrels", "qrels.txt", "--run", "a.run.gz", "--run", "b.run",
                   "--measures", "nDCG@3,P@2,RR,AP", "--output", "e", "--log", log, "--draws", "200", cwd=root)
    assert done.returncode == 0, done.stderr
    assert json.loads((root / "e" / "metrics.json").read_text())["runs"]["sysA"]["macro"]["AP"] == pytest.approx(4 / 9)
    return root, log


def test_mrr_never_binds_average_precision(evaluated) -> None:
    """"sysA reaches an MRR of 0.444" is false: sysA's RR is 0.667, its AP 0.444. ``evaluate``
    writes ir_measures' names without a cutoff (``AP``, ``RR``), which the meaning check did not
    read as metrics, so the MRR sentence bound ``runs.sysA.macro.AP`` (MATCH for another metric).
    Now the MRR sentence is unmatched and "average precision of 0.667" binds sysB's AP, not RR."""
    root, log = evaluated
    done, draft = _bind(root, "# Two systems\n\n## Results\n\nsysA reaches an MRR of 0.444.\n"
                        "sysB reaches an average precision of 0.667.\n", log, "metrics")
    assert done.returncode == 0, done.stderr
    assert _bindings(draft) == [("0.667", "runs.sysB.macro.AP")]
    assert "C-001-01 0.444: no value within precision" in done.stdout


def test_across_the_topics_is_never_the_pairs_difference(evaluated) -> None:
    """"Across the three topics, sysA reaches a P@2 of 0.333" is sysA's macro P@2 (0.333333). The
    count ``topics_without_results`` beside ``macro`` made "topics" name a rival of ``macro``, so
    the macro value was no candidate and the sentence was bound to the pair's P@2 *difference*
    (also 0.333333): a MATCH of a figure the sentence does not state. Now the macro value is a
    candidate; and since a difference binds only a sentence that states a change (branch bind-fixes,
    claims/suggest.py ``reading_conflict``), the macro value is the one candidate and is bound."""
    root, log = evaluated
    done, draft = _bind(root, "# Two systems\n\n## Results\n\n"
                        "Across the three topics, sysA reaches a P@2 of 0.333.\n", log, "across")
    assert done.returncode == 0 and "1 bound, 0 ambiguous" in done.stdout, done.stdout
    assert 'key = "runs.sysA.macro.P@2"' in draft and ".difference" not in draft


PAGE_POINTS = """# Results

| System | nDCG@10 |
|---|---|
| BM25 | 0.400 |
| Hybrid | 0.550 |

The hybrid is 0.15 points above BM25 in nDCG@10.
"""


def test_points_of_a_score_on_its_own_scale_are_no_inconsistency(tmp_path: Path) -> None:
    """"0.15 points above BM25" of nDCG cells 0.550 and 0.400 is right on the score's own scale;
    the check only read points ×100 (15) and failed it, exit 1. Now either reading passes, and
    "0.25 points" (neither 0.15 nor 15) still fails."""
    (tmp_path / "page.md").write_text(PAGE_POINTS, encoding="utf-8")
    done = run_cli("consistency", "page.md", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS prose-points" in done.stdout and "(points of the score's own scale) = 0.150" in done.stdout
    (tmp_path / "wrong.md").write_text(PAGE_POINTS.replace("0.15 points", "0.25 points"), encoding="utf-8")
    wrong = run_cli("consistency", "wrong.md", cwd=tmp_path)
    assert wrong.returncode == 1 and "FAIL prose-points" in wrong.stdout


def test_two_rows_values_swapped_in_one_sentence_fail(tmp_path: Path) -> None:
    """"BM25 reaches an nDCG@10 of 0.550 and Hybrid 0.400" swaps the table's two values. Each cell
    found *some* number of the sentence equal to it, so the check passed (exit 0) a sentence that
    gives each system the other's score. Now both cells fail, naming the swap; the sentence in the
    right order, and "0.400 for BM25 and 0.550 for Hybrid", pass."""
    table = "# Results\n\n| System | nDCG@10 |\n|---|---|\n| BM25 | 0.400 |\n| Hybrid | 0.550 |\n\n"
    (tmp_path / "swapped.md").write_text(table + "BM25 reaches an nDCG@10 of 0.550 and Hybrid 0.400.\n")
    done = run_cli("consistency", "swapped.md", cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert done.stdout.count("(the two rows' values are swapped)") == 2
    (tmp_path / "right.md").write_text(table + "BM25 reaches an nDCG@10 of 0.400 and Hybrid 0.550.\n\n"
                                       "We measure 0.400 for BM25 and 0.550 for Hybrid in nDCG@10.\n")
    right = run_cli("consistency", "right.md", cwd=tmp_path)
    assert right.returncode == 0, right.stdout
    assert right.stdout.count("PASS prose:") == 4


@pytest.fixture(scope="module")
def notebook(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """The user's notebook run (a kernel spec running this interpreter); (folder, log, env).
    Cell 0 prints 'Recall@5: nan' and 'MRR: 0.25'; cell 1 'MRR: 0.75 on topic 2'; cell 2 '0.5'."""
    kernels = tmp_path_factory.mktemp("jupyter")
    spec = kernels / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3", "language": "python"}))
    env = {"JUPYTER_PATH": str(kernels)}
    root = tmp_path_factory.mktemp("notebook")
    write_notebook(root / "eval.ipynb", "print('Recall@5: nan')\nprint('MRR: 0.25')",
                   "print('MRR: 0.75 on topic 2')", "print(0.5)")
    log = root / "log.jsonl"
    done = run_cli("notebook", "run", "eval.ipynb", "--output", "nb", "--log", log, cwd=root, env=env)
    assert done.returncode == 0, done.stderr
    return root, log, env


def test_the_topic_a_notebook_line_names_is_not_a_result(notebook) -> None:
    """"The notebook gives an MRR of 0.75 on topic 2": the 2 names the topic. ``bind`` bound it as
    a printed result (claimed "2", pattern on the cell's "topic 2"), so ``verify`` counted a
    MATCH for a number that is no result. Now only the 0.75 is bound; the 2 is listed unmatched."""
    root, log, _ = notebook
    done, draft = _bind(root, "# Notebook\n\n## Results\n\nThe notebook gives an MRR of 0.75 on topic 2.\n",
                        log, "topic")
    assert done.returncode == 0, done.stderr
    assert _bindings(draft) == [("0.75", "cells.1.text")]
    assert "C-001-01 2: no value within precision" in done.stdout   # listed, never bound


NAN_CLAIMS = """[experiment.nb]
command = "notebook run"
result = "outputs"

[[binding]]
id = "recall"
experiment = "nb"
quote = "Recall@5 of 0.500"
claimed = "0.500"
pattern = 'Recall@5: (\\S+)'

[[binding]]
id = "mrr"
experiment = "nb"
quote = "MRR of 0.25"
claimed = "0.25"
pattern = 'MRR: (\\S+)'
"""


def test_a_notebook_that_printed_nan_computed_nothing(notebook) -> None:
    """The user's hand-written pattern captures the notebook's 'Recall@5: nan'. ``verify`` called
    that a MISMATCH, and the report proposed replacing the chapter's 0.500 by "nan" (a NaN
    printed as a value). Now it is NOT COMPUTED (exit 1), and the report proposes no correction.
    The pattern binding without a key also names where its value was read (``cells.0.text``) in
    the report, never an empty key, and a value not computed prints as —, never None; its row's
    evidence names the run without calling it "reproduced locally"."""
    root, log, _ = notebook
    (root / "nan.toml").write_text(NAN_CLAIMS, encoding="utf-8")
    done = run_cli("verify", "nan.toml", "--log", log, "--format", "json", cwd=root)
    assert done.returncode == 1
    verdicts = {v["id"]: v for v in json.loads(done.stdout)}
    assert verdicts["recall"]["verdict"] == "NOT COMPUTED" and verdicts["recall"]["reproduced"] is None
    assert verdicts["mrr"]["verdict"] == "MATCH"
    (root / "nan.md").write_text("# Notebook\n\n## Results\n\nThe notebook gives a Recall@5 of 0.500.\n"
                                 "The notebook gives an MRR of 0.25.\n", encoding="utf-8")
    report = run_cli("report", "nan.md", "--claims", "nan.toml", "--log", log, "--offline",
                     "--date", "2026-12-02", "--output", "nan-report.md", cwd=root)
    assert report.returncode == 0, report.stderr
    text = (root / "nan-report.md").read_text(encoding="utf-8")
    assert "correction:" not in text and '"nan"' not in text and "None" not in text
    assert "reproduced locally: cells.0.text = 0.25 in run notebook-run-" in text
    assert "results: cells.0.text = — (NOT COMPUTED); cells.0.text = 0.25 (MATCH)" in text
    assert "logged run notebook-run-" in text and "nothing reproduced: cells.0.text — NOT COMPUTED" in text


def test_numbers_no_claims_file_binds_are_not_called_unrun_beside_an_r03_run(tmp_path: Path) -> None:
    """The user ran ``r03 prepare`` and ``r03 evaluate`` on their own benchmark and bound one
    number; another printed number matches nothing. Section 6 said "UNRUN … not run" for it
    although the log holds the r03 evaluate run (the capability's command, "r03 prepare / r03
    evaluate", was compared with the log's commands whole). Now it says "not checked: the log
    holds an ok run of r03 evaluate (latest run …)"."""
    write_benchmark(tmp_path / "bench", tasks=("T1", "T2", "T3"))
    log = tmp_path / "log.jsonl"
    assert run_cli("r03", "prepare", "--benchmark", "bench", "--freeze", "fz", "--log", log, cwd=tmp_path).returncode == 0
    done = run_cli("r03", "evaluate", "--benchmark", "bench", "--freeze", "fz", "--output", "ev", "--log", log,
                   "--draws", "200", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run_id = json.loads((tmp_path / "ev" / "results.json").read_text())["run_id"]
    done, draft = _bind(tmp_path, "# Coverage\n\n## Results\n\n"
                        "Across all three tasks, the fixed coverage selection reaches an nDCG@5 of 0.656.\n"
                        "On task T3, the fixed coverage selection reaches an nDCG@5 of 0.503.\n", log)
    assert _bindings(draft) == [("0.656", "aggregate.all.coverage.ndcg@5")]
    report = run_cli("report", "chapter.md", "--claims", "chapter.toml", "--log", log, "--offline",
                     "--date", "2026-12-02", "--output", "report.md", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    row = next(line for line in (tmp_path / "report.md").read_text().splitlines()
               if line.startswith("| proposed experiment: reproduce C-001-02"))
    assert f"not checked: the log holds an ok run of r03 evaluate (latest run {run_id})" in row
    assert "UNRUN" not in row


def test_a_reused_book_report_never_calls_a_logged_run_unrun(tmp_path: Path) -> None:
    """Book pass 1: the chapter's NDCG figure is unbound and the log holds no sandbox run, so
    section 6 says UNRUN. The user then runs the sandbox. Pass 2 kept the report byte for byte
    (no bound run changed), still saying "UNRUN … not run" beside a logged run. Now the runs
    section 6 cites are part of the chapter's key: pass 2 writes the report again ("not checked:
    the log holds an ok run of sandbox run"), and pass 3, with nothing new, reuses it."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "01-fusion.md").write_text("# Fusion\n\n## Results\n\nThe hybrid reaches an NDCG@3 of 0.982 "
                                       "with BM25 fusion.\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    inputs = write_sandbox_inputs(tmp_path / "in")
    (tmp_path / "other.txt").write_text("q1 0 a1 1\n")
    assert run_cli("evaluate", "--qrels", "other.txt", "--run", inputs["dense_run"], "--output", "e",
                   "--log", log, cwd=tmp_path).returncode == 0     # a log without a sandbox run
    args = ("book", "book", "-o", "out", "--log", log, "--offline", "--date", "2026-12-02")
    assert run_cli(*args, cwd=tmp_path).returncode == 0
    report = tmp_path / "out" / "chapters" / "01-fusion.md" / "report.md"
    assert "UNRUN: runnable with this toolkit once the inputs are supplied; not run" in report.read_text()
    assert run_cli(*sandbox_args(inputs, tmp_path / "sb", log), cwd=tmp_path).returncode == 0
    second = run_cli(*args, cwd=tmp_path)
    assert second.returncode == 0 and "1 changed" in second.stdout, second.stdout
    text = report.read_text()
    assert "not checked: the log holds an ok run of sandbox run (latest run sandbox-run-" in text
    assert "not run |" not in text
    third = run_cli(*args, cwd=tmp_path)
    assert "1 unchanged" in third.stdout and report.read_text() == text


PERCENT_CHAPTER = """# Fusion

## Results

The supplied run finds 80% of the relevant documents in its top three across both topics.
On topic q1, the supplied run finds 3/4 of the relevant documents in its top three.
"""

PERCENT_CLAIMS = """[experiment.mine]
command = "sandbox run"
result = "metrics"
[experiment.mine.match]
k = 3

[[binding]]
id = "recall"
experiment = "mine"
quote = "The supplied run finds 80%"
claimed = "80%"
key = "macro.frozen_dense.recall@3"

[[binding]]
id = "recall-q1"
experiment = "mine"
quote = "the supplied run finds 3/4"
claimed = "3/4"
key = "per_topic.frozen_dense.q1.recall@3"
"""


def test_a_contradicted_percentage_is_corrected_as_a_percentage(sandbox) -> None:
    """The chapter prints 80% where the run logs macro Recall@3 0.75, and 3/4 where q1's is 0.5.
    Both are MISMATCH (exit 1), rightly; but the report proposed replacing "80%" with "1" (the
    fraction rounded to the percentage's decimals) and "3/4" with "0". Now it proposes "75%" and
    "2/4" (the printed form kept), in fix-first and in section 5."""
    root, log = sandbox
    (root / "percent.md").write_text(PERCENT_CHAPTER, encoding="utf-8")
    (root / "percent.toml").write_text(PERCENT_CLAIMS, encoding="utf-8")
    assert run_cli("verify", "percent.toml", "--log", log, cwd=root).returncode == 1
    done = run_cli("report", "percent.md", "--claims", "percent.toml", "--log", log, "--offline",
                   "--date", "2026-12-02", "--output", "percent-report.md", cwd=root)
    assert done.returncode == 0, done.stderr
    text = (root / "percent-report.md").read_text(encoding="utf-8")
    assert 'correction: replace "80%" with "75%" in:' in text
    assert 'correction: replace "3/4" with "2/4" in:' in text
    assert "Proposed text: “The supplied run finds 75% of the relevant documents" in text
    assert 'with "1" in' not in text and 'with "0" in' not in text


TWO_DATASETS = """# Results

## On TREC-COVID

| System | nDCG@10 |
|---|---|
| BM25 | 0.656 |
| Dense | 0.700 |

## On NFCorpus

| System | nDCG@10 |
|---|---|
| BM25 | 0.325 |
| Dense | 0.310 |

"""


def test_a_number_said_of_one_dataset_is_checked_against_that_datasets_table(tmp_path: Path) -> None:
    """Two tables with the same rows and column, one per dataset (section headings). "On NFCorpus,
    BM25 reaches an nDCG@10 of 0.656" is false (NFCorpus: 0.325; 0.656 is TREC-COVID's), but the
    check passed it against the TREC-COVID table, exit 0. Now the sentence is checked against the
    table whose heading it names and fails; the same sentence naming TREC-COVID, and one naming
    both datasets with both numbers, pass."""
    (tmp_path / "wrong.md").write_text(TWO_DATASETS + "On NFCorpus, BM25 reaches an nDCG@10 of 0.656.\n")
    wrong = run_cli("consistency", "wrong.md", cwd=tmp_path)
    assert wrong.returncode == 1, wrong.stdout
    assert "FAIL prose: [C-001-01]" in wrong.stdout and "On NFCorpus, row 'BM25'" in wrong.stdout
    (tmp_path / "right.md").write_text(TWO_DATASETS + "On TREC-COVID, BM25 reaches an nDCG@10 of 0.656.\n"
                                       "BM25 reaches an nDCG@10 of 0.325 on NFCorpus and 0.656 on TREC-COVID.\n")
    right = run_cli("consistency", "right.md", cwd=tmp_path)
    assert right.returncode == 0, right.stdout
    assert right.stdout.count("PASS prose:") == 3


def test_rerun_of_an_experiment_with_no_steps_is_no_match(evaluated) -> None:
    """The user evaluated a run read from stdin (``--run -``): ``bind`` can rebuild no rerun step
    and says so in a comment. In CI, ``verify --rerun`` printed "no rerun declared" on stderr and
    then MATCH, exit 0, from the old logged run: nothing was re-run although CI asked for it. Now
    the binding is RERUN FAILED (exit 1), naming why; without --rerun it still reads the log."""
    root, log = evaluated
    import subprocess

    done = subprocess.run([sys.executable, "-m", "cli", "evaluate", "--qrels", "qrels.txt", "--run", "-",
                           "--measures", "P@3", "--output", "stdin-e", "--log", str(log)], cwd=root,
                          input=(root / "b.run").read_text(), capture_output=True, text=True, timeout=120,
                          env=child_env())
    assert done.returncode == 0, done.stderr
    done, draft = _bind(root, "# S\n\n## Results\n\nsysB reaches a P@3 of 0.444 across the three topics.\n",
                        log, "stdin")
    assert "no step can replay it" in draft and _bindings(draft) == [("0.444", "runs.sysB.macro.P@3")]
    rerun = run_cli("verify", "stdin.toml", "--log", log, "--rerun", "--rerun-dir", "rr", "--format", "json", cwd=root)
    assert rerun.returncode == 1, rerun.stdout
    [verdict] = json.loads(rerun.stdout)
    assert verdict["verdict"] == "RERUN FAILED" and "no rerun steps declared" in verdict["note"]
    assert run_cli("verify", "stdin.toml", "--log", log, cwd=root).returncode == 0


def test_a_partly_pinned_experiment_says_when_another_run_could_be_meant(tmp_path: Path) -> None:
    """The user's hand-written claims file pins only the qrels. They ran the sandbox with their
    supplied run (macro NDCG@3 of it 0.576113), then again with a second supplied run file on the
    same qrels (0.713819). ``verify`` read the latest and said MISMATCH with no word that the log
    holds the run the chapter's 0.576 came from (the note existed only for a file pinning
    nothing). Now the verdict names the other run's differing role, dense_run."""
    inputs = write_sandbox_inputs(tmp_path / "in")
    log = tmp_path / "log.jsonl"
    assert run_cli(*sandbox_args(inputs, tmp_path / "first", log), cwd=tmp_path).returncode == 0
    second = inputs["dense_run"].with_name("run2.tsv")
    second.write_text(inputs["dense_run"].read_text().replace("q1 Q0 a2 1 0.900000", "q1 Q0 a3 1 0.900000"))
    assert run_cli(*sandbox_args({**inputs, "dense_run": second}, tmp_path / "second", log), cwd=tmp_path).returncode == 0
    from engine.runs.hashing import sha256_file

    (tmp_path / "part.toml").write_text(f"""[experiment.mine]
command = "sandbox run"
result = "metrics"
[experiment.mine.match]
k = 3
[experiment.mine.inputs]
qrels = "{sha256_file(inputs['qrels'])}"

[[binding]]
id = "ndcg"
experiment = "mine"
quote = "x"
claimed = "0.576"
key = "macro.frozen_dense.ndcg@3"
""")
    done = run_cli("verify", "part.toml", "--log", log, "--format", "json", cwd=tmp_path)
    assert done.returncode == 1
    [verdict] = json.loads(done.stdout)
    assert verdict["verdict"] == "MISMATCH" and verdict["reproduced"] == pytest.approx(0.713818667, abs=1e-9)
    assert "1 run(s) of these parameters and pinned inputs that read another dense_run" in verdict["note"]


def test_a_60_character_cap_never_names_the_characters_selector(tmp_path: Path) -> None:
    """The user's own budget run (five documents, three relevant: d1, d3, d5; unit cap 3,
    character cap 60, their own vectors): the Characters and the MMR selector each keep 1 of the
    3 relevant documents. "Under the 60-character cap, the MMR selector keeps 1 of the 3 relevant
    documents" was bound to ``selectors.characters.positives_selected`` (the unit in
    "60-character" was read as the Characters selector's name), and its 3 to the unit cap: a
    MATCH for another selector's number. Now all three numbers bind to the MMR selector's keys."""
    import numpy as np

    docs = [("d1", "Apple", "apple pie recipe with apples"), ("d2", "Pie", "pie crust"),
            ("d3", "Apple pie", "apple pie apple pie"), ("d4", "Sea", "the sea"), ("d5", "Salt", "salt water")]
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"doc_id": d, "title": t, "text": x}) + "\n"
                                                   for d, t, x in docs))
    (tmp_path / "run.tsv").write_text("".join(f"q1 Q0 {d} {i + 1} {1 - i * 0.1:.3f} r\n"
                                              for i, (d, _, _) in enumerate(docs)))
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d3 2\nq1 0 d5 1\n")
    vectors = np.random.default_rng(1).normal(size=(5, 8)).astype(np.float32)
    np.save(tmp_path / "vec.npy", vectors / np.linalg.norm(vectors, axis=1, keepdims=True))
    (tmp_path / "ids.txt").write_text("d1\nd2\nd3\nd4\nd5\n")
    log = tmp_path / "log.jsonl"
    done = run_cli("budget", "run", "--corpus", "corpus.jsonl", "--run", "run.tsv", "--qrels", "qrels.txt",
                   "--vectors", "vec.npy", "--vector-ids", "ids.txt", "--depth", "5", "--unit-cap", "3",
                   "--char-cap", "60", "--output", "b", "--log", log, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    selectors = json.loads((tmp_path / "b" / "summary.json").read_text())["selectors"]
    assert selectors["characters"]["positives_selected"] == selectors["mmr"]["positives_selected"] == 1
    done, draft = _bind(tmp_path, "# Budgets\n\n## Results\n\nUnder the 60-character cap, the MMR selector "
                        "keeps 1 of the 3 relevant documents.\n", log)
    assert done.returncode == 0, done.stderr
    assert _bindings(draft) == [("60", "selectors.mmr.content_cap"), ("1", "selectors.mmr.positives_selected"),
                                ("3", "selectors.mmr.positives_available")]


def test_a_cell_that_printed_only_the_number_is_read_as_that_number(notebook) -> None:
    """The user binds ``cells.2.text`` (the cell printed ``0.5``) without a pattern. ``verify``
    compared the text "0.5\n" with the number 0.500: MISMATCH (exit 1, and a "correction" to the
    text), with the newline breaking the verdict table. Now the text is read as a printed number:
    0.500 is a MATCH and 0.7 a MISMATCH with a numeric difference."""
    root, log, _ = notebook
    (root / "plain.toml").write_text("""[experiment.nb]
command = "notebook run"
result = "outputs"

[[binding]]
id = "right"
experiment = "nb"
quote = "x"
claimed = "0.500"
key = "cells.2.text"

[[binding]]
id = "wrong"
experiment = "nb"
quote = "x"
claimed = "0.7"
key = "cells.2.text"
""")
    done = run_cli("verify", "plain.toml", "--log", log, "--format", "json", cwd=root)
    verdicts = {v["id"]: v for v in json.loads(done.stdout)}
    assert verdicts["right"]["verdict"] == "MATCH" and verdicts["right"]["reproduced"] == 0.5
    assert verdicts["wrong"]["verdict"] == "MISMATCH" and verdicts["wrong"]["difference"] == pytest.approx(-0.2)
    table = run_cli("verify", "plain.toml", "--log", log, cwd=root)
    assert len(table.stdout.splitlines()) == 4   # header, two rows, summary: no row broken by a newline
