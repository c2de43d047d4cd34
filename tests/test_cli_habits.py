"""One CLI habit everywhere (issue 21, item 4): ``--version``, ``-h``, ``-o/--output``,
``--format text|json``, errors in ``FILE:LINE: message`` form, progress that is quiet off a
terminal, and output permissions that follow the umask.

Commands run in child processes (``python -m cli``) where the exit code, the umask or the
exact stderr bytes matter; the rest through typer's runner.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
QRELS = "t1 0 d1 2\nt1 0 d2 0\nt1 0 d3 1\nt2 0 d2 1\n"
RUN = "t1 Q0 d1 1 3.0 a\nt1 Q0 d3 2 2.0 a\nt1 Q0 d2 3 1.0 a\nt2 Q0 d1 1 2.0 a\nt2 Q0 d2 2 1.0 a\n"
ERROR_LINE = re.compile(r"^[^:]+(:\d+)?: .+")


def chapter_audit(*args: str | Path, cwd: Path, umask: int | None = None,
                  stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CHAPTER_AUDIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, input=stdin,
                          preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


@pytest.fixture
def trec(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "run.txt").write_text(RUN, encoding="utf-8")
    return tmp_path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- permissions ---------------------------------------------------------------------------

@pytest.mark.parametrize("umask, directory, file", [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_published_outputs_follow_the_umask(trec, umask, directory, file):
    done = chapter_audit("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "-o", "out",
                         "--log", "log.jsonl", cwd=trec, umask=umask)
    assert done.returncode == 0, done.stderr
    out = trec / "out"
    assert mode(out) == directory
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert written and {mode(p) for p in written} == {file}
    assert mode(trec / "log.jsonl") == file
    pack = trec / "pack.txt"
    pack.write_text("# Title\n\nThe method reached 0.52 on the test set.\n", encoding="utf-8")
    done = chapter_audit("claims", pack, "-o", "claims.md", cwd=trec, umask=umask)
    assert done.returncode == 0, done.stderr
    assert mode(trec / "claims.md") == file   # one atomically written file


# --- --version and -h ------------------------------------------------------------------------

def test_version_names_the_package_and_the_recorded_versions(cli):
    from importlib import metadata

    from engine.runs.versions import RECORDED_PACKAGES

    result = cli("--version")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"chapter-audit {metadata.version('chapter-audit')}"
    names = [line.split()[0] for line in lines[2:]]
    assert names == ["python", *RECORDED_PACKAGES]
    assert f"  numpy {metadata.version('numpy')}" in lines
    as_json = cli("version", "--format", "json")
    assert as_json.exit_code == 0 and is_canonical_json(as_json.stdout)
    assert json.loads(as_json.stdout)["chapter-audit"] == metadata.version("chapter-audit")


def command_paths():
    """Every group and command of the app, as argument lists (the root is [])."""
    from typer.main import get_command

    from cli import app

    paths = []

    def walk(node, path):
        paths.append(path)
        for name, child in sorted(getattr(node, "commands", {}).items()):
            walk(child, path + [name])

    walk(get_command(app), [])
    return paths


def test_the_walk_sees_every_command():
    paths = {" ".join(p) for p in command_paths()}
    assert {"", "sandbox", "sandbox run", "sandbox ledger", "evaluate", "encode", "budget run", "r03 prepare",
            "r03 evaluate", "fingerprint", "claims", "consistency", "verify", "sources", "bind", "notebook run",
            "report", "demo", "version"} <= paths


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "root")
def test_h_is_help_everywhere(cli, path):
    short, long = cli(*path, "-h"), cli(*path, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage: chapter-audit" in short.stdout
    assert "-h" in short.stdout and "--help" in short.stdout


# --- --format json and -o ------------------------------------------------------------------

RESULT_COMMANDS = ["sandbox run", "sandbox ledger", "evaluate", "encode", "budget run", "r03 prepare",
                   "r03 evaluate", "fingerprint", "claims", "consistency", "verify", "sources", "bind",
                   "notebook run", "report", "demo"]


def leaf(path: str):
    from typer.main import get_command

    from cli import app

    node = get_command(app)
    for word in path.split():
        node = node.commands[word]
    return node


@pytest.mark.parametrize("path", RESULT_COMMANDS)
def test_every_result_command_takes_format_json_and_o(path):
    options = {opt: param for param in leaf(path).params for opt in param.opts}
    assert "--format" in options, path
    if "--output" in options:
        assert "-o" in options["--output"].opts, path


def is_canonical_json(text: str) -> bool:
    """One JSON document, exactly as dump_json writes it (sorted keys, indent 2, final newline)."""
    from engine.runs.hashing import dump_json

    return dump_json(json.loads(text)) == text


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo's work directory (its log holds sandbox run, r03 prepare, r03 evaluate)."""
    work = tmp_path_factory.mktemp("habits") / "demo"
    done = chapter_audit("demo", "-o", work, "--format", "json", "--date", "2026-12-01", cwd=work.parent)
    assert done.returncode == 0, done.stderr
    assert is_canonical_json(done.stdout)
    document = json.loads(done.stdout)
    assert (document["matched"], document["bound"], document["sources"]) == (10, 11, 5)
    assert sorted(document["run_ids"]) == ["r03 evaluate", "r03 prepare", "sandbox run"]
    return work


def test_json_of_the_audit_commands(cli, demo, tmp_path):
    from cli.demo import EXAMPLE_CLAIMS, EXAMPLE_PACK

    log = demo / "log.jsonl"
    verify = cli("verify", EXAMPLE_CLAIMS, "--log", log, "--format", "json")
    assert verify.exit_code == 1 and is_canonical_json(verify.stdout)   # 0.889 is the one mismatch
    assert sum(v["verdict"] == "MATCH" for v in json.loads(verify.stdout)) == 10
    assert cli("verify", EXAMPLE_CLAIMS, "--log", log, "--format", "table").stdout == \
        cli("verify", EXAMPLE_CLAIMS, "--log", log).stdout   # the old spelling still works
    fingerprint = cli("fingerprint", EXAMPLE_PACK, "--format", "json")
    assert is_canonical_json(fingerprint.stdout) and json.loads(fingerprint.stdout)["path"] == str(EXAMPLE_PACK)
    sources = cli("sources", EXAMPLE_PACK, "--offline", "--sources-cache", tmp_path / "c", "--format", "json")
    assert sources.exit_code == 0 and is_canonical_json(sources.stdout)
    assert json.loads(sources.stdout)["not_reached"] == {"hosts": {}, "searches": 0, "sources": 0}
    consistency = cli("consistency", EXAMPLE_PACK, "--format", "json")
    assert is_canonical_json(consistency.stdout)
    claims = cli("claims", EXAMPLE_PACK, "--format", "json")
    assert claims.exit_code == 0 and json.loads(claims.stdout)
    report = cli("report", EXAMPLE_PACK, "-o", tmp_path / "report.md", "--log", log, "--claims", EXAMPLE_CLAIMS,
                 "--offline", "--sources-cache", tmp_path / "c", "--date", "2026-12-01", "--format", "json")
    assert report.exit_code == 0 and is_canonical_json(report.stdout)
    assert json.loads(report.stdout) == {
        "report": str(tmp_path / "report.md"), "claim_rows": 16, "sources": 5, "bound": 11, "matched": 10, "not_printed": 0,
        "offline": True, "kinds": "model", "not_reached": {"hosts": {}, "searches": 0, "sources": 0}}
    bind = cli("bind", EXAMPLE_PACK, "--log", log, "-o", tmp_path / "draft.toml", "--format", "json")
    assert bind.exit_code == 0 and is_canonical_json(bind.stdout)
    drafted = json.loads(bind.stdout)
    assert (drafted["printed"], drafted["written"]) == (11, str(tmp_path / "draft.toml"))


def test_json_of_the_experiment_commands(cli, trec, tmp_path):
    from engine.runs.fixtures_path import fixtures_dir

    log = tmp_path / "log.jsonl"
    evaluate = cli("evaluate", "--qrels", trec / "qrels.txt", "--run", trec / "run.txt", "-o", tmp_path / "ev",
                   "--log", log, "--measures", "P@2", "--format", "json")
    assert evaluate.exit_code == 0 and is_canonical_json(evaluate.stdout)
    document = json.loads(evaluate.stdout)
    assert "table" not in document and document["output"] == str(tmp_path / "ev")
    assert document["metrics"]["runs"]["a"]["macro"]["P@2"] == 0.75   # named by its run tag "a";  # t1: d1, d3 both relevant (1); t2: d1 unjudged, d2 relevant (0.5)
    l03 = fixtures_dir() / "l03"
    sandbox = cli("sandbox", "run", "--corpus", l03 / "corpus.jsonl", "--topics", l03 / "topics.jsonl",
                  "--qrels", l03 / "qrels.txt", "--dense-run", l03 / "supplied_run.tsv",
                  "--dense-metadata", l03 / "supplied_run_metadata.json", "-o", tmp_path / "sb", "--log", log,
                  "--format", "json")
    assert sandbox.exit_code == 0 and is_canonical_json(sandbox.stdout)
    assert round(json.loads(sandbox.stdout)["metrics"]["macro"]["hybrid"]["ndcg@3"], 6) == 0.888438
    ledger = cli("sandbox", "ledger", "--locators", l03 / "locators.json", "--fixtures", l03 / "acquisition",
                 "--log", log, "--format", "json")
    assert ledger.exit_code == 0 and is_canonical_json(ledger.stdout)


# --- errors: FILE:LINE: message ------------------------------------------------------------

def bad_inputs(d: Path):
    """(name, arguments, exit code, what the line starts with) for one bad input each."""
    (d / "bad_qrels.txt").write_text("t1 0 d1 2\nt1 0 d2 high\n", encoding="utf-8")
    (d / "nan_run.txt").write_text("t1 Q0 d1 1 nan a\n", encoding="utf-8")
    (d / "bad.toml").write_text("[[binding]\nid = 1\n", encoding="utf-8")
    (d / "occupied").mkdir()
    (d / "occupied" / "mine.txt").write_text("mine", encoding="utf-8")
    (d / "report.md").write_text("mine", encoding="utf-8")
    (d / "pack.txt").write_text("# Title\n\nThe method reached 0.52 on the test set.\n", encoding="utf-8")
    ev = ["evaluate", "--qrels", d / "qrels.txt", "--run", d / "run.txt", "--log", d / "log.jsonl"]
    return [
        ("missing qrels", ["evaluate", "--qrels", d / "nope.txt", "--run", d / "run.txt", "-o", d / "o1",
                           "--log", d / "log.jsonl"], 2, f"{d / 'nope.txt'}:"),
        ("bad qrels line", ["evaluate", "--qrels", d / "bad_qrels.txt", "--run", d / "run.txt", "-o", d / "o2",
                            "--log", d / "log.jsonl"], 2, f"{d / 'bad_qrels.txt'}:2: "),
        ("non-finite score", ["evaluate", "--qrels", d / "qrels.txt", "--run", d / "nan_run.txt", "-o", d / "o3",
                              "--log", d / "log.jsonl"], 2, f"{d / 'nan_run.txt'}:1: "),
        ("occupied output", ev + ["-o", d / "occupied"], 3, f"{d / 'occupied'}: "),
        ("log is a directory", ["evaluate", "--qrels", d / "qrels.txt", "--run", d / "run.txt", "-o", d / "o4",
                                "--log", d / "occupied"], 2, ""),
        ("unknown option", ["sandbox", "run", "--bogus"], 2, "chapter-audit sandbox run: No such option: --bogus"),
        ("missing option", ["evaluate", "--qrels", d / "qrels.txt"], 2, "chapter-audit evaluate: Missing option"),
        ("unknown command", ["evaluat"], 2, "chapter-audit: No such command 'evaluat'"),
        ("bad format", ["claims", d / "pack.txt", "--format", "xml"], 2, "chapter-audit: field '--format'"),
        ("bad format alias", ["sources", d / "pack.txt", "--offline", "--format", "md"], 2,
         "chapter-audit: field '--format'"),
        ("missing pack", ["fingerprint", d / "nope.txt"], 2, f"{d / 'nope.txt'}: "),
        ("malformed claims TOML", ["verify", d / "bad.toml", "--log", d / "log.jsonl"], 2, f"{d / 'bad.toml'}:"),
        ("existing report", ["report", d / "pack.txt", "-o", d / "report.md", "--offline", "--log", d / "log.jsonl",
                             "--sources-cache", d / "c"], 3, f"{d / 'report.md'}: "),
        ("occupied demo directory", ["demo", "-o", d / "occupied"], 3, f"{d / 'occupied'}: "),
        ("missing encode input", ["encode", "--input", d / "nope.jsonl", "--field", "text", "-o", d / "v.npy",
                                  "--log", d / "log.jsonl"], 2, f"{d / 'nope.jsonl'}: "),
        ("missing notebook", ["notebook", "run", d / "nope.ipynb", "-o", d / "nb", "--log", d / "log.jsonl"], 2,
         f"{d / 'nope.ipynb'}"),
        ("missing benchmark", ["r03", "prepare", "--benchmark", d / "nope", "--freeze", d / "o5",
                               "--log", d / "log.jsonl"], 2, f"{d / 'nope'}"),
    ]


def test_every_error_is_one_file_line_message(cli, trec, monkeypatch):
    """Each bad input through the command line (in-process; an exception would fail the test):
    one stderr line in FILE[:LINE]: message form (or chapter-audit: message), the documented
    exit code, no partial output. test_faults and bench/hostile_inputs.py run such cases in
    child processes."""
    monkeypatch.chdir(trec)
    failures = []
    for name, args, code, starts in bad_inputs(trec):
        done = cli(*args)
        lines = done.stderr.splitlines()
        ok = (done.exit_code == code and len(lines) == 1 and ERROR_LINE.match(lines[0])
              and lines[0].startswith(starts))
        if not ok:
            failures.append(f"{name}: exit {done.exit_code} (want {code}), stderr {done.stderr!r}")
    assert failures == []
    usage = chapter_audit("sandbox", "run", "--bogus", cwd=trec)   # and once through a real process
    assert (usage.returncode, usage.stderr) == (2, "chapter-audit sandbox run: No such option: --bogus "
                                                   "(Possible options: --b, --corpus, --log) (see --help)\n")
    assert not any((trec / f"o{i}").exists() for i in range(1, 6))   # nothing partial was written


# --- progress ------------------------------------------------------------------------------

def test_progress_decision_order(monkeypatch):
    import io

    from engine.runs import progress as p

    monkeypatch.delenv(p.ENV_PROGRESS, raising=False)
    pipe = io.StringIO()
    assert p.progress_enabled(None, pipe) is False            # not a terminal: quiet
    assert p.progress_enabled(True, pipe) is True              # --progress
    monkeypatch.setenv(p.ENV_PROGRESS, "1")
    assert p.progress_enabled(None, pipe) is True
    assert p.progress_enabled(False, pipe) is False            # --no-progress wins over the environment
    p.configure(False)
    try:
        assert p.progress_enabled(None, pipe) is False         # the root --no-progress wins too
    finally:
        p.configure(None)


def test_plain_progress_off_a_terminal_has_no_carriage_return(monkeypatch):
    import io

    from engine.runs import progress as p

    stream = io.StringIO()
    with p.progress("scoring", 4, unit="topics", enabled=True, stream=stream) as bar:
        for _ in range(4):
            bar.advance()
    assert stream.getvalue().startswith("scoring: 4/4 topics (100.0%), ")   # one line at the end only
    assert stream.getvalue().count("\n") == 1 and "\r" not in stream.getvalue()
    monkeypatch.setattr(p, "PLAIN_INTERVAL", 0.0)
    stream = io.StringIO()
    with p.progress("reading", None, unit="rows", enabled=True, stream=stream) as bar:
        bar.advance(1000)
        bar.advance(500)
    lines = stream.getvalue().splitlines()
    assert [line.split(", ")[0] for line in lines] == ["reading: 1,000 rows", "reading: 1,500 rows",
                                                       "reading: 1,500 rows"]
    assert "\r" not in stream.getvalue()
    quiet = io.StringIO()
    with p.progress("scoring", 2, stream=quiet) as bar:     # not asked, not a terminal: nothing
        bar.advance(2)
    assert quiet.getvalue() == ""


def test_progress_is_drawn_on_a_terminal(monkeypatch):
    import pty

    from engine.runs import progress as p

    monkeypatch.delenv(p.ENV_PROGRESS, raising=False)
    monkeypatch.setattr(p, "START_DELAY", 0.0)
    master, slave = pty.openpty()
    with os.fdopen(slave, "w", encoding="utf-8", closefd=True) as terminal:
        with p.progress("sandbox run: scoring", 3, unit="topics", stream=terminal) as bar:
            for _ in range(3):
                bar.advance()
    drawn = b""
    os.set_blocking(master, False)
    try:
        while chunk := os.read(master, 65536):
            drawn += chunk
    except (BlockingIOError, OSError):
        pass
    os.close(master)
    text = drawn.decode("utf-8", "replace")
    assert "sandbox run: scoring" in text and "3/3" in text and "topics" in text


def test_the_cli_is_quiet_in_a_pipe_and_plain_when_asked(tmp_path):
    from engine.runs.fixtures_path import fixtures_dir

    l03 = fixtures_dir() / "l03"
    args = ["sandbox", "run", "--corpus", l03 / "corpus.jsonl", "--topics", l03 / "topics.jsonl",
            "--qrels", l03 / "qrels.txt", "--dense-run", l03 / "supplied_run.tsv",
            "--dense-metadata", l03 / "supplied_run_metadata.json", "--log", tmp_path / "log.jsonl"]
    quiet = chapter_audit(*args, "-o", tmp_path / "a", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""
    asked = chapter_audit("--progress", *args, "-o", tmp_path / "b", cwd=tmp_path)
    assert asked.returncode == 0 and "\r" not in asked.stderr
    lines = asked.stderr.splitlines()
    assert [line.split(", ")[0] for line in lines] == ["indexing corpus.jsonl: 10 documents",
                                                       "sandbox run: scoring: 3/3 topics (100.0%)"]


@pytest.mark.parametrize("umask, directory, file", [(0o077, 0o700, 0o400)])   # 022 → 0444: test_freeze
def test_the_r03_freeze_is_read_only_within_the_umask(tmp_path, umask, directory, file):
    from engine.runs.fixtures_path import fixtures_dir

    done = chapter_audit("r03", "prepare", "--benchmark", fixtures_dir() / "r03_mini", "-o", "freeze",
                         "--log", "log.jsonl", cwd=tmp_path, umask=umask)
    assert done.returncode == 0, done.stderr
    assert mode(tmp_path / "freeze") == directory
    assert {mode(p) for p in (tmp_path / "freeze").iterdir()} == {file}


def test_error_line_keeps_a_location_and_names_the_program_otherwise(tmp_path):
    from cli.common import error_line

    spaced = tmp_path / "my pack.txt"
    spaced.write_text("x", encoding="utf-8")
    assert error_line("qrels.txt:3: grade 'high' is not a number") == "qrels.txt:3: grade 'high' is not a number"
    assert error_line("out: output directory is not empty") == "out: output directory is not empty"
    assert error_line(f"{spaced}: file is not valid UTF-8") == f"{spaced}: file is not valid UTF-8"
    assert error_line("field '--format': must be one of text, json") == \
        "chapter-audit: field '--format': must be one of text, json"
    assert error_line("run invalid: parameter k1: 1.2 -> 1.5") == "chapter-audit: run invalid: parameter k1: 1.2 -> 1.5"
    assert error_line("--vectors and --vector-ids must be\ngiven together") == \
        "chapter-audit: --vectors and --vector-ids must be given together"


def test_a_file_that_is_not_utf8_is_named_with_its_line_and_column(tmp_path):
    """The first undecodable byte is located in the decompressed, BOM-less content, so the
    message is the team's ``FILE:LINE: message`` for a chapter, a gzipped qrels file and a JSONL
    corpus alike, and nothing is written."""
    import gzip

    (tmp_path / "ch.md").write_bytes("\ufeff# T\n\nFine.\nCaf\xe9 broke.\n".encode("utf-8").replace(b"\xc3\xa9", b"\xe9"))
    (tmp_path / "qrels.txt.gz").write_bytes(gzip.compress(b"t1 0 d1 1\nt1 0 d\xff2 1\n"))
    (tmp_path / "run.txt").write_text(RUN, encoding="utf-8")
    chapter = chapter_audit("claims", "ch.md", cwd=tmp_path)
    assert (chapter.returncode, chapter.stdout) == (2, "")
    assert chapter.stderr.strip().splitlines()[-1] == "ch.md:4: file is not valid UTF-8 (byte 0xe9 at column 4)"
    scored = chapter_audit("evaluate", "--qrels", "qrels.txt.gz", "--run", "run.txt", "--measures", "AP",
                           "-o", "out", cwd=tmp_path)
    assert scored.returncode == 2 and not (tmp_path / "out").exists()
    assert scored.stderr.strip() == "qrels.txt.gz:2: file is not valid UTF-8 (byte 0xff at column 7)"
