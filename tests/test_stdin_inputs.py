"""Issue 21 item 2 beyond `evaluate`: '-' for stdin, gzip and a BOM for every command reading one
chapter/pack, results page, claims file or JSONL input, all through engine.runs.opener.

Each command is run on the bundled example pack by path and piped through stdin; the outputs
must be the same bytes except for the input's name ('-')."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.runs.runlog import recorded_run

REPO = Path(__file__).resolve().parents[1]
PACK = REPO / "audit" / "examples" / "sandbox-chapter-pack.txt"
PACK_BYTES = PACK.read_bytes()
BOM = b"\xef\xbb\xbf"
# the example pack's stated fingerprint (its identity section), computed by `fingerprint` on the file
STATED = "93c497fc956f3d27fbc6282d73ce7ae84707c543765d7c905e7ee3285059b440"


def run(*args, stdin: bytes | None = None):
    from cli import app

    return CliRunner().invoke(app, [str(a) for a in args], input=stdin, catch_exceptions=False)


def same_but_name(by_path: str, piped: str, name: str = str(PACK)) -> None:
    assert piped == by_path.replace(name, "-")


@pytest.mark.parametrize("command", [["fingerprint"], ["fingerprint", "--format", "json"], ["claims"],
                                     ["claims", "--format", "json"],
                                     ["consistency"], ["consistency", "--format", "json"]])
def test_the_example_pack_piped_gives_the_files_output(command):
    by_path = run(*command, PACK)
    piped = run(*command, "-", stdin=PACK_BYTES)
    assert by_path.exit_code == piped.exit_code and by_path.exit_code in (0, 3), by_path.output
    assert by_path.stdout.strip()
    same_but_name(by_path.stdout, piped.stdout)
    if command[0] == "fingerprint":
        assert STATED in piped.stdout


def test_fingerprint_of_stdin_names_it_dash():
    piped = run("fingerprint", "-", "--format", "json", stdin=PACK_BYTES)
    check = json.loads(piped.stdout)
    assert piped.exit_code == 0 and check["path"] == "-" and check["status"] == "MATCH"
    assert check["computed"] == STATED


def test_a_gzip_pack_reads_as_the_plain_file(tmp_path):
    packed = tmp_path / "chapter.txt.gz"
    packed.write_bytes(gzip.compress(PACK_BYTES))
    for command in (["fingerprint"], ["claims", "--format", "json"]):
        by_path = run(*command, PACK)
        zipped = run(*command, packed)
        assert zipped.exit_code == by_path.exit_code, zipped.output
        assert zipped.stdout == by_path.stdout.replace(str(PACK), str(packed))
    piped = run("fingerprint", "-", stdin=gzip.compress(PACK_BYTES))     # gzip on stdin too
    assert piped.exit_code == 0 and STATED in piped.stdout
    (tmp_path / "directory").mkdir()
    (tmp_path / "directory" / "chapter.txt.gz").write_bytes(gzip.compress(PACK_BYTES))
    listing = run("fingerprint", tmp_path / "directory", "--format", "json")
    assert [c["status"] for c in json.loads(listing.stdout)["checks"]] == ["MATCH"]
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(gzip.compress(PACK_BYTES)[:40])
    result = run("fingerprint", broken)
    assert result.exit_code == 2 and "broken.txt.gz" in result.stderr and "gzip" in result.stderr


def test_a_bom_pack_is_warned_once_and_changes_nothing(tmp_path):
    """Notepad's BOM is an encoding mark, not text: removed (one warning), the fingerprint is of
    the text without it, and the first line (the preamble) does not start with U+FEFF."""
    noted = tmp_path / "notepad.txt"
    noted.write_bytes(BOM + PACK_BYTES)
    result = run("fingerprint", noted, "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["computed"] == STATED
    assert result.stderr.count("UTF-8 byte-order mark removed") == 1
    assert f"warning: {noted}: UTF-8 byte-order mark removed" in result.stderr
    claims = run("claims", noted, "--format", "json")
    assert claims.stdout == run("claims", PACK, "--format", "json").stdout.replace(str(PACK), str(noted))
    assert "\ufeff" not in claims.stdout
    from audit.pack import load_pack

    loaded = load_pack(noted)
    assert not loaded.preamble.startswith("\ufeff") and loaded.source_sha256 != load_pack(PACK).source_sha256
    piped = run("fingerprint", "-", stdin=BOM + PACK_BYTES)
    assert piped.exit_code == 0 and STATED in piped.stdout
    assert "warning: -: UTF-8 byte-order mark removed" in piped.stderr


def test_a_bad_pack_on_stdin_is_named_dash():
    result = run("claims", "-", stdin=b"\xff\xfe not utf-8")
    assert result.exit_code == 2
    assert result.stderr == "-:1: file is not valid UTF-8 (byte 0xff at column 1)\n"
    assert "chapter-audit-stdin" not in result.stderr


def test_report_and_sources_read_the_pack_from_stdin(tmp_path):
    common = ["--offline", "--no-search", "--sources-cache", tmp_path / "cache"]
    log = tmp_path / "log.jsonl"
    by_path = run("report", PACK, "-o", tmp_path / "a.md", "--log", log, "--date", "2026-01-01", *common)
    piped = run("report", "-", "-o", tmp_path / "b.md", "--log", log, "--date", "2026-01-01", *common,
                stdin=PACK_BYTES)
    assert by_path.exit_code == piped.exit_code == 0, piped.output
    file_report = (tmp_path / "a.md").read_text()
    assert f"| text read | {PACK.name} (sha256 " in file_report
    assert (tmp_path / "b.md").read_text() == file_report.replace(f"| text read | {PACK.name} ", "| text read | - ")
    sources = run("sources", PACK, *common)
    piped = run("sources", "-", *common, stdin=PACK_BYTES)
    assert sources.exit_code == piped.exit_code == 0 and piped.stdout == sources.stdout
    assert "10.1561/1500000019" in piped.stdout


def test_two_dashes_refuse_in_one_line(tmp_path):
    claims = tmp_path / "claims.toml"
    claims.write_text("")
    result = run("report", "-", "--claims", "-", "-o", tmp_path / "r.md", "--log", tmp_path / "log.jsonl",
                 "--offline", "--no-search", stdin=PACK_BYTES)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "only one input can be read from stdin ('-')" in result.stderr
    assert not (tmp_path / "r.md").exists()
    result = run("sources", "-", "--references", "-", "--offline", "--no-search", stdin=PACK_BYTES)
    assert result.exit_code == 2 and "only one input can be read from stdin" in result.stderr


def sandbox_log(tmp_path: Path) -> Path:
    """A log holding one ok `sandbox run` whose metrics are two numbers the example pack prints."""
    log = tmp_path / "log.jsonl"
    out = tmp_path / "run"
    out.mkdir()
    (out / "metrics.json").write_text(json.dumps({"macro": {"bm25": {"recall@3": 0.8888888888888888,
                                                                     "ndcg@3": 0.855971}}}))
    (out / "manifest.json").write_text(json.dumps({"run_id": "sandbox-run-000000000001"}))
    with recorded_run(log, "sandbox run", {"k": 3}) as rec:
        rec.run_id = "sandbox-run-000000000001"
        rec.add_outputs(out)
        rec.results = {"metrics": str((out / "metrics.json").resolve()),
                       "manifest": str((out / "manifest.json").resolve())}
    return log


def test_bind_and_verify_read_stdin(tmp_path):
    log = sandbox_log(tmp_path)
    by_path = run("bind", PACK, "--log", log, "-o", tmp_path / "a.toml")
    piped = run("bind", "-", "--log", log, "-o", tmp_path / "b.toml", stdin=PACK_BYTES)
    assert by_path.exit_code == piped.exit_code == 0, piped.output
    assert "0.855971" in (tmp_path / "a.toml").read_text()
    same_but_name(by_path.stdout.replace("a.toml", "b.toml"), piped.stdout)
    assert (tmp_path / "b.toml").read_text() == (tmp_path / "a.toml").read_text().replace(str(PACK), "-")
    draft = (tmp_path / "a.toml").read_bytes()
    verified = run("verify", tmp_path / "a.toml", "--log", log)
    piped = run("verify", "-", "--log", log, stdin=draft)
    assert verified.exit_code == piped.exit_code == 0, piped.output
    assert piped.stdout == verified.stdout and "MATCH" in piped.stdout
    zipped = tmp_path / "claims.toml.gz"
    zipped.write_bytes(gzip.compress(BOM + draft))
    result = run("verify", zipped, "--log", log)
    assert result.exit_code == 0 and result.stdout == verified.stdout
    assert "UTF-8 byte-order mark removed" in result.stderr
    bad = run("verify", "-", "--log", log, stdin=b"[experiment\n")
    assert bad.exit_code == 2 and bad.stderr.startswith(("-: invalid TOML", "-:1: invalid TOML"))


def test_encode_reads_stdin_hashed_by_content_and_named_dash(tmp_path):
    records = b'{"doc_id": "a", "text": "hello world"}\n{"doc_id": "b", "text": "goodbye"}\n'
    (tmp_path / "in.jsonl").write_bytes(records)
    log = tmp_path / "log.jsonl"
    by_path = run("encode", "--input", tmp_path / "in.jsonl", "--field", "text", "-o", tmp_path / "a.npy",
                  "--log", log, "--format", "json")
    piped = run("encode", "--input", "-", "--field", "text", "-o", tmp_path / "b.npy", "--log", log,
                "--format", "json", stdin=records)
    assert by_path.exit_code == piped.exit_code == 0, piped.output
    a, b = json.loads(by_path.stdout), json.loads(piped.stdout)
    assert b["inputs"]["input"] == {"path": "-", "sha256": a["inputs"]["input"]["sha256"]}
    assert b["run_id"] == a["run_id"]     # the run is named by content, not by the file's name
    assert (tmp_path / "b.npy").read_bytes() == (tmp_path / "a.npy").read_bytes()
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["inputs"]["-"] == a["inputs"]["input"]["sha256"]
    assert last["invocation"]["inputs"]["input"]["path"] == "-"
    assert not any("chapter-audit-stdin" in key for key in last["inputs"])
    dup = run("encode", "--input", "-", "--field", "text", "-o", tmp_path / "c.npy", "--log", log,
              stdin=records + b'{"doc_id": "a", "text": "again"}\n')
    assert dup.exit_code == 2 and dup.stderr.startswith("-:3: duplicate id 'a'")


@pytest.mark.parametrize("seed", ["-1", str(2 ** 63)])
def test_evaluate_refuses_a_seed_outside_the_readme_range(tmp_path, seed):
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\n")
    (tmp_path / "run.txt").write_text("q1 Q0 d1 1 1.0 r\n")
    result = run("evaluate", "--qrels", tmp_path / "qrels.txt", "--run", tmp_path / "run.txt", "--seed", seed,
                 "-o", tmp_path / "out", "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2 and "--seed" in result.stderr and "0 to 2**63 - 1" in result.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "log.jsonl").exists()


def test_a_bibliography_can_come_from_stdin(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{rz09,\n  title = {The Probabilistic Relevance Framework: BM25 and Beyond},\n"
                   "  author = {Robertson, Stephen and Zaragoza, Hugo},\n  year = {2009},\n"
                   "  doi = {10.1561/1500000019}\n}\n")
    common = ["--offline", "--no-search", "--sources-cache", tmp_path / "cache", "--format", "json"]
    by_path = run("sources", PACK, "--references", bib, *common)
    piped = run("sources", PACK, "--references", "-", *common, stdin=bib.read_bytes())
    assert by_path.exit_code == piped.exit_code == 0, piped.output
    assert piped.stdout == by_path.stdout.replace(str(bib), "-")
    assert piped.stdout != run("sources", PACK, *common).stdout      # the bibliography was read


def test_a_run_that_read_stdin_is_logged_as_dash_and_never_replayed(tmp_path):
    from claims.rerun_steps import NoSteps, rerun_steps
    from engine.runs.runlog import read_records

    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    log = tmp_path / "log.jsonl"
    result = run("evaluate", "--qrels", tmp_path / "qrels.txt", "--run", "-", "-o", tmp_path / "out",
                 "--log", log, stdin=b"q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    assert result.exit_code == 0, result.output
    record = read_records(log)[-1]
    assert record["invocation"]["inputs"]["run-1"]["path"] == "-"
    assert record["invocation"]["inputs"]["qrels"]["path"] == str(tmp_path / "qrels.txt")
    raw = json.loads(log.read_text().splitlines()[-1])          # as written: relative to the log, and '-'
    assert raw["invocation"]["inputs"]["qrels"]["path"] == "qrels.txt"
    assert raw["invocation"]["inputs"]["run-1"]["path"] == "-" and "-" in raw["inputs"]
    with pytest.raises(NoSteps, match="stdin"):
        rerun_steps(record, read_records(log), tmp_path / "claims.toml", log)
