"""Journeys of leftover 5: `budget run`, `sandbox run` and `notebook run` read one input from
standard input (`-`), as every other command does (README "CLI habits"), and `budget run
--vector-ids` takes R03's JSON list of ids as well as one id per line.

Budget collection (hand-computed): query q1 lists a, b, c (10 characters each; separator 2),
b is the one positive; vectors a = b = (1, 0), c = (0, 1); cap 25. Count takes a, b, c (34
characters, positive selected); Characters a, b (22; c would make 34 > 25); MMR a, then c (0.7/3
− 0.3·cos(a, c) = 0.233 beats b's 0.7/2 − 0.3·1 = 0.05), then b does not fit: 0 of 1 positive.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from commands import child_env, log_records, run_cli
from userfiles import sandbox_args, write_notebook, write_sandbox_inputs


def run_piped(*args: object, cwd: Path, stdin: bytes, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -m cli ARGS`` with ``stdin`` as its standard input; stdout and stderr decoded."""
    done = subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=cwd, input=stdin, capture_output=True,
                          timeout=120, env=child_env(env))
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8"),
                                       done.stderr.decode("utf-8"))


def _budget_files(root: Path) -> None:
    root.joinpath("corpus.jsonl").write_text("".join(json.dumps({"_id": d, "title": "", "text": d * 10}) + "\n"
                                                     for d in "abc"), encoding="utf-8")
    root.joinpath("run.txt").write_text("q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\n", encoding="utf-8")
    root.joinpath("qrels.txt").write_text("q1 0 b 1\n", encoding="utf-8")
    root.joinpath("ids.txt").write_text("a\nb\nc\n", encoding="utf-8")
    root.joinpath("ids.json").write_text('["a", "b",\n "c"]\n', encoding="utf-8")
    np.save(root / "vectors.npy", np.array([[1, 0], [1, 0], [0, 1]], dtype=np.float32))


def _budget(tmp_path: Path, output: str, qrels: str = "qrels.txt", ids: str = "ids.txt", stdin: bytes | None = None):
    args = ["budget", "run", "--corpus", "corpus.jsonl", "--run", "run.txt", "--qrels", qrels, "--vectors",
            "vectors.npy", "--vector-ids", ids, "--char-cap", "25", "-o", output, "--log", "log.jsonl"]
    return run_piped(*args, cwd=tmp_path, stdin=stdin) if stdin is not None else run_cli(*args, cwd=tmp_path)


def test_budget_reads_its_qrels_from_stdin_and_a_json_list_of_vector_ids(tmp_path: Path) -> None:
    _budget_files(tmp_path)
    by_path = _budget(tmp_path, "a")
    assert by_path.returncode == 0, by_path.stderr
    assert by_path.stdout.splitlines()[:3] == [
        "Count\tmean units 3.000\tmean characters 34.0\tmax 34\tpositives selected 1/1",
        "Characters\tmean units 2.000\tmean characters 22.0\tmax 22\tpositives selected 1/1",
        "MMR\tmean units 2.000\tmean characters 22.0\tmax 22\tpositives selected 0/1"]
    piped = _budget(tmp_path, "b", qrels="-", ids="ids.json", stdin=(tmp_path / "qrels.txt").read_bytes())
    assert piped.returncode == 0 and piped.stdout == by_path.stdout.replace("wrote a", "wrote b"), piped.stderr
    for name in ("selections.tsv", "summary.json", "explanations.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    last = log_records(tmp_path / "log.jsonl")[-1]
    qrels_sha = log_records(tmp_path / "log.jsonl")[0]["inputs"]["qrels.txt"]
    assert last["inputs"]["-"] == qrels_sha and not any("chapter-audit-stdin" in k for k in last["inputs"])
    assert last["invocation"]["inputs"]["qrels"]["path"] == "-"
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["qrels"] == {"path": "-", "sha256": qrels_sha}
    twice = run_piped("budget", "run", "--corpus", "-", "--run", "run.txt", "--qrels", "-", "--vectors", "vectors.npy",
                      "--vector-ids", "ids.txt", "-o", "c", "--log", "log.jsonl", cwd=tmp_path, stdin=b"")
    assert (twice.returncode, twice.stdout) == (2, "") and twice.stderr == (
        "chapter-audit: field '--qrels': only one input can be read from stdin ('-'); --corpus and --qrels "
        "both ask for it\n")
    assert not (tmp_path / "c").exists()


def test_vector_ids_in_any_other_shape_are_refused_with_their_line(tmp_path: Path) -> None:
    _budget_files(tmp_path)
    for text, message in (
            ('{"ids": ["a", "b", "c"]}\n', "bad.txt:1: a JSON object; --vector-ids takes one id per line or a JSON "
                                           'list of ids (["d1", "d2", ...])'),
            ('["a",\n "b",\n 3]\n', "bad.txt:3: vector id 3 is not a non-empty string"),
            ('["a",\n "a", "c"]\n', "bad.txt:2: duplicate vector id 'a' (first on line 1)"),
            ("a\nb c\n", "bad.txt:2: 2 fields on one line: one vector id per line expected (or a JSON list of ids)"),
            ('["a", "b" "c"]\n', "bad.txt:1: invalid JSON (Expecting ',' delimiter at column 11)")):
        (tmp_path / "bad.txt").write_text(text, encoding="utf-8")
        done = _budget(tmp_path, "out", ids="bad.txt")
        assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n"), text
    assert not (tmp_path / "out").exists() and not (tmp_path / "log.jsonl").exists()


def test_sandbox_reads_its_topics_from_stdin(tmp_path: Path) -> None:
    inputs = write_sandbox_inputs(tmp_path / "in")
    by_path = run_cli(*sandbox_args(inputs, tmp_path / "a", tmp_path / "log.jsonl"), cwd=tmp_path)
    assert by_path.returncode == 0, by_path.stderr
    args = sandbox_args({**inputs, "topics": Path("-")}, tmp_path / "b", tmp_path / "log.jsonl")
    piped = run_piped(*args, cwd=tmp_path, stdin=inputs["topics"].read_bytes())
    assert piped.returncode == 0, piped.stderr
    # the run is named by content: the same run id and metrics as the file's
    assert piped.stdout.replace(str(tmp_path / "b"), "OUT") == by_path.stdout.replace(str(tmp_path / "a"), "OUT")
    assert (tmp_path / "a" / "metrics.json").read_bytes() == (tmp_path / "b" / "metrics.json").read_bytes()
    records = log_records(tmp_path / "log.jsonl")
    assert records[0]["run_id"] == records[1]["run_id"]
    assert records[1]["inputs"]["-"] == records[0]["inputs"]["in/topics.jsonl"]   # paths relative to the log
    manifest = json.loads((tmp_path / "b" / "run_manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"]["topics"]["path"] == "-"
    bad = run_piped(*args[:-2], "--log", tmp_path / "log2.jsonl", cwd=tmp_path, stdin=b'{"topic_id": "q1"}\n')
    assert bad.returncode == 2 and bad.stderr.startswith("-:1: ") and bad.stderr.count("\n") == 1, bad.stderr


def test_notebook_runs_from_stdin_in_the_current_directory(tmp_path: Path, notebook_env) -> None:
    """The notebook reads ``data.txt`` by a relative path: read from stdin it runs in the current
    directory (where ``data.txt`` is), prints 42, and the run is logged with the notebook as ``-``."""
    (tmp_path / "data.txt").write_text("42\n", encoding="utf-8")
    notebook = write_notebook(tmp_path / "elsewhere" / "nb.ipynb", "print(open('data.txt').read().strip())")
    done = run_piped("notebook", "run", "-", "-o", "out", "--log", "log.jsonl", "--format", "json", cwd=tmp_path,
                     stdin=notebook.read_bytes(), env=notebook_env)
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout)["outputs"]
    assert [c["text"] for c in outputs["cells"]] == ["42\n"]
    record = log_records(tmp_path / "log.jsonl")[-1]
    assert record["status"] == "ok" and list(record["inputs"]) == ["-"]
    refused = run_cli("notebook", "run", str(notebook), "--input", "-", "-o", "out2", "--log", "log.jsonl", cwd=tmp_path,
                      env=notebook_env)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--input" in refused.stderr
    assert not (tmp_path / "out2").exists()
