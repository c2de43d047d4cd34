"""Bad input to `sandbox run`: exit 2, one stderr line naming FILE:LINE, no output, no log record."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "engine" / "fixtures" / "l03"
W03 = ["--k", "3", "--candidate-depth", "5", "--hybrid-alpha", "0.55", "--rerank-weight", "0.25"]


def sandbox_args(output: Path, log: Path, fixture: Path = FIXTURE) -> list[str]:
    return ["sandbox", "run", "--corpus", str(fixture / "corpus.jsonl"), "--topics", str(fixture / "topics.jsonl"),
            "--qrels", str(fixture / "qrels.txt"), "--dense-run", str(fixture / "supplied_run.tsv"),
            "--dense-metadata", str(fixture / "supplied_run_metadata.json"),
            "--output", str(output), *W03, "--log", str(log)]


def invoke(args: list[str]):
    from cli import app
    return CliRunner().invoke(app, args, catch_exceptions=False)


def mutate_lines(path: Path, edit) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(edit(lines)) + "\n", encoding="utf-8")


def replace_line(number: int, text: str):
    def edit(lines):
        lines[number - 1] = text
        return lines
    return edit


def append(text: str):
    return lambda lines: lines + [text]


D2_NO_LICENSE = '{"doc_id": "D-002", "title": "t", "text": "x", "source_type": "faq"}'
D_DUP = '{"doc_id": "D-003", "title": "t", "text": "x", "source_type": "faq", "license": "CC0-1.0"}'
D_BAD_TYPE = '{"doc_id": "D-004", "title": 5, "text": "x", "source_type": "note", "license": "CC0-1.0"}'

CASES = {
    # name: (file, edit, line, message fragment)
    "corpus invalid JSON": ("corpus.jsonl", replace_line(3, '{"doc_id": "D-003", "title": '), 3, "invalid JSON"),
    "corpus line not an object": ("corpus.jsonl", replace_line(2, '["D-002"]'), 2, "JSON object"),
    "corpus missing field": ("corpus.jsonl", replace_line(2, D2_NO_LICENSE), 2, "missing field 'license'"),
    "corpus wrong field type": ("corpus.jsonl", replace_line(4, D_BAD_TYPE), 4, "field 'title' must be str"),
    "duplicate doc_id": ("corpus.jsonl", append(D_DUP), 11, "duplicate doc_id 'D-003'"),
    "empty corpus": ("corpus.jsonl", lambda lines: [""], 1, "no documents"),
    "topics invalid JSON": ("topics.jsonl", replace_line(2, "{topic_id: T-02}"), 2, "invalid JSON"),
    "topic missing query": ("topics.jsonl", replace_line(2, '{"topic_id": "T-02"}'), 2, "missing field 'query'"),
    "duplicate topic_id": ("topics.jsonl", append('{"topic_id": "T-01", "query": "pooling"}'), 4,
                           "duplicate topic_id 'T-01'"),
    "topic without tokens": ("topics.jsonl", replace_line(2, '{"topic_id": "T-02", "query": "?! -- ..."}'), 2,
                             "no tokens"),
    "qrels unknown topic": ("qrels.txt", append("T-09 0 D-001 1"), 8, "unknown topic 'T-09'"),
    "qrels unknown document": ("qrels.txt", append("T-01 0 D-099 1"), 8, "unknown document 'D-099'"),
    "qrels non-numeric grade": ("qrels.txt", replace_line(5, "T-03 0 D-005 high"), 5, "non-numeric grade"),
    "qrels wrong column count": ("qrels.txt", replace_line(2, "T-01 D-002 2"), 2, "needs 4 fields"),
    "qrels infinite grade": ("qrels.txt", replace_line(4, "T-02 0 D-004 inf"), 4, "grade must be finite"),
    "qrels NaN grade": ("qrels.txt", replace_line(6, "T-03 0 D-006 nan"), 6, "grade must be finite"),
    "run unknown topic": ("supplied_run.tsv", append("T-09 Q0 D-001 6 0.1 authored"), 16, "unknown topic 'T-09'"),
    "run unknown document": ("supplied_run.tsv", append("T-01 Q0 D-099 6 0.1 authored"), 16,
                             "unknown document 'D-099'"),
    "run non-numeric score": ("supplied_run.tsv", replace_line(3, "T-01 Q0 D-004 3 abc authored"), 3,
                              "non-numeric score"),
    "metadata not an object": ("supplied_run_metadata.json", lambda lines: ['["authored", "none"]'], 1,
                               "must be a JSON object"),
    "metadata invalid JSON": ("supplied_run_metadata.json", lambda lines: ["{", '"values": }'], 2, "invalid JSON"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input(case, tmp_path):
    name, edit, line, fragment = CASES[case]
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    mutate_lines(fixture / name, edit)
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    result = invoke(sandbox_args(out, log, fixture=fixture))
    assert result.exit_code == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"{name}:{line}:" in lines[0]
    assert fragment in lines[0]
    assert result.stdout == ""
    assert not out.exists() and not log.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fx"]     # no staging leftovers either


def test_topic_without_positive_judgment_names_the_topic_line(tmp_path):
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    mutate_lines(fixture / "qrels.txt", lambda lines: [l for l in lines if not l.startswith("T-02")])
    result = invoke(sandbox_args(tmp_path / "out", tmp_path / "log.jsonl", fixture=fixture))
    assert result.exit_code == 2
    assert "topics.jsonl:2:" in result.stderr and "no positive judgment" in result.stderr
    assert not (tmp_path / "out").exists()


def test_missing_file_and_bad_parameter(tmp_path):
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    (fixture / "qrels.txt").unlink()
    result = invoke(sandbox_args(tmp_path / "out", tmp_path / "log.jsonl", fixture=fixture))
    assert result.exit_code == 2 and "qrels.txt: cannot read file" in result.stderr
    args = sandbox_args(tmp_path / "out", tmp_path / "log.jsonl")
    args[args.index("--hybrid-alpha") + 1] = "1.5"
    result = invoke(args)
    assert result.exit_code == 2 and "--hybrid-alpha" in result.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "log.jsonl").exists()


@pytest.mark.parametrize("option, value", [
    ("--k1", "inf"), ("--k1", "nan"), ("--k1", "-0.5"), ("--b", "nan"), ("--b", "1.5"),
    ("--hybrid-alpha", "nan"), ("--hybrid-alpha", "-inf"), ("--rerank-weight", "inf"), ("--rerank-weight", "1.01"),
    ("--run-depth", "2"), ("--measures", "P@0"), ("--measures", "MRRR@10"), ("--measures", "P(rel=0)@5"),
])
def test_non_finite_or_out_of_range_option_names_the_option(tmp_path, option, value):
    args = sandbox_args(tmp_path / "out", tmp_path / "log.jsonl")
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    result = invoke(args)
    assert result.exit_code == 2, result.stdout
    assert f"field '{option}'" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists() and not (tmp_path / "log.jsonl").exists()
