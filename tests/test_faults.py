"""Integrity under faults, races and hostile inputs (issue 10).

One test (or more) for each numbered item of the issue, named ``test_item<N>_...``, plus the
fault injections: a full disk (``RLIMIT_FSIZE`` in a child process, and a fake short writer),
concurrent runs into one output (child processes), SIGTERM to a running command, a tampered
freeze and hostile claims files. Child processes run ``python -m cli`` from this checkout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.runs.hashing import sha256_file
from engine.runs.runlog import append_record, read_records

REPO = Path(__file__).resolve().parents[1]
L03 = REPO / "engine" / "fixtures" / "l03"
R03 = REPO / "engine" / "fixtures" / "r03_mini"
W03 = ["--k", "3", "--candidate-depth", "5", "--hybrid-alpha", "0.55", "--rerank-weight", "0.25"]


def sandbox_args(output: Path, log: Path, *extra: str) -> list[str]:
    return ["sandbox", "run", "--corpus", str(L03 / "corpus.jsonl"), "--topics", str(L03 / "topics.jsonl"),
            "--qrels", str(L03 / "qrels.txt"), "--dense-run", str(L03 / "supplied_run.tsv"),
            "--dense-metadata", str(L03 / "supplied_run_metadata.json"), "--output", str(output),
            *W03, "--log", str(log), *extra]


def read_log(path: Path):
    from engine.runs.runlog import read_log as read  # imported late: new in issue 10

    return read(path)


def child(args: list[str], *, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    """Run the command line in a fresh interpreter (its own signal handlers, limits, locks)."""
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, cwd=REPO, **kwargs)


def record(run_id: str = "r-1", status: str = "ok", **extra) -> dict:
    return {"run_id": run_id, "command": "x", "parameters": {}, "inputs": {}, "outputs": {},
            "results": {}, "status": status, "error": None, "started_at": "2026-01-01T00:00:00Z",
            "ended_at": "2026-01-01T00:00:01Z", "versions": {}, **extra}


# ---------------------------------------------------------------- 1. disk full and damaged logs

def test_item1_disk_full_leaves_the_log_unchanged(tmp_path):
    """RLIMIT_FSIZE lets 40 bytes more into the log: the big record fails whole, nothing is left."""
    log = tmp_path / "log.jsonl"
    append_record(log, record("first"))
    before = log.read_bytes()
    script = textwrap.dedent(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        size = {len(before)}
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, size + 40))
        from engine.runs.runlog import LogWriteError, append_record
        try:
            append_record({str(log)!r}, {record("second", error="x" * 500)!r})
        except LogWriteError as exc:
            print(exc)
            sys.exit(7)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 7, done.stderr
    assert "log.jsonl: the run's log record could not be appended" in done.stdout
    assert log.read_bytes() == before          # no half line left behind
    append_record(log, record("third"))
    records, damaged = read_log(log)
    assert [r["run_id"] for r in records] == ["first", "third"] and damaged == []


def test_disk_full_while_writing_outputs_publishes_nothing(tmp_path):
    """A 3,000-byte file-size limit: the outputs fail to be written; one clear line, exit 1,
    no output directory and no staging directory left, the run logged failed."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))

    done = child(sandbox_args(tmp_path / "out", tmp_path / "log.jsonl"), preexec_fn=limit)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("chapter-audit: cannot write: File too large (a full or read-only disk, or a file-size limit)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.jsonl"]
    (rec,) = read_records(tmp_path / "log.jsonl")
    assert rec["status"] == "failed" and rec["error"] == "OSError: [Errno 27] File too large"


def test_item1_short_write_is_truncated_back(tmp_path, monkeypatch):
    """A fake writer that writes only half the line: the file is cut back to its old size."""
    from engine.runs import runlog

    log = tmp_path / "log.jsonl"
    append_record(log, record("first"))
    before = log.read_bytes()
    real_write = os.write

    def half(fd, data):
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(runlog.os, "write", half)
    with pytest.raises(runlog.LogWriteError, match="short write|could not be appended"):
        append_record(log, record("second"))
    monkeypatch.setattr(runlog.os, "write", real_write)
    assert log.read_bytes() == before


def test_item1_reader_skips_damaged_lines_and_verify_still_works(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    assert cli(*sandbox_args(tmp_path / "out", log)).exit_code == 0
    good = log.read_text()
    # a half line from an old crash, a record of the wrong shape, then the good record again
    log.write_text('{"run_id": "cut-sh\n' + '{"run_id": 5, "status": "ok"}\n' + good)
    records, damaged = read_log(log)
    assert len(records) == 1
    assert [(d.line, d.reason) for d in damaged] == [(1, damaged[0].reason), (2, "lacks run_id or status")]
    result = cli("verify", REPO / "claims" / "bindings" / "w03.toml", "--log", log)
    assert "log.jsonl:1: damaged log line skipped" in result.output
    assert "log.jsonl:2: damaged log line skipped (lacks run_id or status)" in result.output
    assert "52 matched, 9 not matched" in result.output  # w03.toml: 52 sandbox bindings; no ledger run


def test_item1_a_new_record_is_never_glued_to_a_damaged_last_line(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"run_id": "half')  # no final newline
    append_record(log, record("next"))
    records, damaged = read_log(log)
    assert [r["run_id"] for r in records] == ["next"] and [d.line for d in damaged] == [1]


# ---------------------------------------------------------------- 2. concurrent runs, output lock

def test_item2_a_held_output_lock_refuses_a_second_run_naming_it(tmp_path):
    from engine.runs.outdir import acquire_output_lock, release_output_lock

    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    acquire_output_lock(out, "sandbox-run-holder")
    try:
        done = child(sandbox_args(out, log))
    finally:
        release_output_lock(out)
    assert done.returncode == 3, done.stderr
    assert "another run (run sandbox-run-holder, pid" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() and not log.exists()
    assert child(sandbox_args(out, log)).returncode == 0
    assert not (tmp_path / ".out.lock").exists()


def test_item2_concurrent_runs_into_one_new_output(tmp_path):
    """Two runs with different parameters started together: exactly one wins, and every file
    the winner's log record names exists with the logged hash."""
    for trial in range(1):  # each trial is two child processes; the held-lock test above is the exact one
        out, log = tmp_path / f"out{trial}", tmp_path / f"log{trial}.jsonl"
        procs = [subprocess.Popen([sys.executable, "-m", "cli", *sandbox_args(out, log, "--k", str(k))],
                                  cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for k in ("3", "5")]
        codes = []
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            codes.append(proc.returncode)
            assert "Traceback" not in err
        assert sorted(codes) == [0, 3], codes
        ok = [r for r in read_records(log) if r["status"] == "ok"]
        assert len(ok) == 1
        for path, sha in ok[0]["outputs"].items():
            assert sha256_file(path) == sha


# ---------------------------------------------------------------- 3. where the log may be

def test_item3_log_inside_the_output_or_among_the_inputs_is_refused(tmp_path, cli):
    out = tmp_path / "out"
    inside = cli(*sandbox_args(out, out / "log.jsonl"))
    assert inside.exit_code == 3 and "lies inside the run's output --output" in inside.output
    assert not out.exists()
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes((L03 / "qrels.txt").read_bytes())
    args = sandbox_args(tmp_path / "out2", qrels)
    args[args.index("--qrels") + 1] = str(qrels)
    as_input = cli(*args)
    assert as_input.exit_code == 3 and "is (or lies inside) the run's input --qrels" in as_input.output
    assert qrels.read_bytes() == (L03 / "qrels.txt").read_bytes()
    directory = cli(*sandbox_args(tmp_path / "out3", tmp_path))
    assert directory.exit_code == 2 and "is a directory" in directory.output


# ---------------------------------------------------------------- 4. failed reruns

CLAIMS_W03_SUBSET = """
[experiment.sb]
command = "sandbox run"
result = "metrics"
rerun = [{steps}]
[experiment.sb.match]
k = 3

[[binding]]
id = "macro-recall"
experiment = "sb"
claimed = "0.888889"
key = "macro.bm25.recall@3"
"""


def rerun_step(corpus: str, output: str = "{workdir}") -> str:
    return json.dumps(["sandbox", "run", "--corpus", corpus, "--topics", "{fixtures}/l03/topics.jsonl",
                       "--qrels", "{fixtures}/l03/qrels.txt", "--dense-run", "{fixtures}/l03/supplied_run.tsv",
                       "--dense-metadata", "{fixtures}/l03/supplied_run_metadata.json", "--output", output,
                       "--k", "3"])


def test_item4_a_failed_rerun_fails_verify(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    assert cli(*sandbox_args(tmp_path / "old", log)).exit_code == 0   # an older ok run that matches
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS_W03_SUBSET.format(steps=rerun_step(str(tmp_path / "missing.jsonl"))))
    assert cli("verify", claims, "--log", log).exit_code == 0          # without --rerun: the old run
    result = cli("verify", claims, "--log", log, "--rerun", "--rerun-dir", tmp_path / "r")
    assert result.exit_code == 1
    assert "rerun sb: failed (exit 2)" in result.output
    assert "RERUN FAILED" in result.output and "0 matched, 1 not matched" in result.output


# ---------------------------------------------------------------- 5. tampered freeze

def prepare(tmp_path, cli):
    log, freeze = tmp_path / "log.jsonl", tmp_path / "freeze"
    assert cli("r03", "prepare", "--benchmark", R03, "--freeze", freeze, "--log", log).exit_code == 0
    return log, freeze


def evaluate(cli, tmp_path, freeze, log):
    return cli("r03", "evaluate", "--benchmark", R03, "--freeze", freeze, "--output", tmp_path / "out",
               "--log", log, "--draws", "200")


def rewrite(path: Path, data: bytes) -> None:
    path.chmod(0o644)
    path.write_bytes(data)


def test_item5_freeze_edited_together_with_its_manifest_is_refused(tmp_path, cli):
    log, freeze = prepare(tmp_path, cli)
    selections = json.loads((freeze / "selections.json").read_text())
    first = sorted(selections)[0]
    selections[first] = selections[first][::-1]
    new = (json.dumps(selections, indent=2, sort_keys=True) + "\n").encode()
    rewrite(freeze / "selections.json", new)
    manifest = json.loads((freeze / "freeze_manifest.json").read_text())
    manifest["frozen"]["selections.json"] = sha256_file(freeze / "selections.json")
    rewrite(freeze / "freeze_manifest.json", (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode())
    result = evaluate(cli, tmp_path, freeze, log)
    assert result.exit_code == 3
    assert "check 'freeze as logged by its prepare run' failed" in result.output
    assert "selections.json differs from the sha256 prepare run" in result.output
    assert "freeze_manifest.json differs" in result.output
    assert not (tmp_path / "out").exists()


def test_item5_manifest_missing_an_entry_or_of_wrong_types_is_refused(tmp_path, cli):
    log, freeze = prepare(tmp_path, cli)
    manifest = json.loads((freeze / "freeze_manifest.json").read_text())
    del manifest["frozen"]["score_inputs.json"]
    rewrite(freeze / "freeze_manifest.json", json.dumps(manifest).encode())
    result = evaluate(cli, tmp_path, freeze, log)
    assert result.exit_code == 3
    assert "check 'manifest complete' failed: no hash entry for score_inputs.json" in result.output
    manifest["frozen"] = ["not", "an", "object"]
    rewrite(freeze / "freeze_manifest.json", json.dumps(manifest).encode())
    result = evaluate(cli, tmp_path, freeze, log)
    assert result.exit_code == 3 and "entry 'frozen' is missing or not an object" in result.output


def test_item5_evaluate_needs_the_prepare_record(tmp_path, cli):
    _, freeze = prepare(tmp_path, cli)
    result = evaluate(cli, tmp_path, freeze, tmp_path / "other-log.jsonl")
    assert result.exit_code == 3 and "holds no ok 'r03 prepare' record of run r03-prepare-" in result.output


# ---------------------------------------------------------------- 6. claims files are data

def test_item6_claims_steps_are_only_experiments_writing_inside_the_rerun_dir(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    victim = tmp_path / "victim.md"
    victim.write_text("mine\n")
    claims = tmp_path / "claims.toml"
    report = json.dumps(["report", str(REPO / "audit" / "examples" / "sandbox-chapter-pack.txt"),
                         "--output", str(victim), "--force", "--offline"])
    claims.write_text(CLAIMS_W03_SUBSET.format(steps=report))
    result = cli("verify", claims, "--log", log, "--rerun", "--rerun-dir", tmp_path / "r")
    assert result.exit_code == 1 and "is not an experiment command" in result.output
    assert victim.read_text() == "mine\n"
    outside = tmp_path / "elsewhere"
    claims.write_text(CLAIMS_W03_SUBSET.format(steps=rerun_step("{fixtures}/l03/corpus.jsonl", str(outside))))
    result = cli("verify", claims, "--log", log, "--rerun", "--rerun-dir", tmp_path / "r")
    assert result.exit_code == 1 and "lies outside the rerun directory" in result.output
    assert not outside.exists() and not log.exists()
    climbing = tmp_path / "r" / ".." / "climbed"
    claims.write_text(CLAIMS_W03_SUBSET.format(steps=rerun_step("{fixtures}/l03/corpus.jsonl", str(climbing))))
    assert cli("verify", claims, "--log", log, "--rerun", "--rerun-dir", tmp_path / "r").exit_code == 1
    assert not (tmp_path / "climbed").exists()


@pytest.mark.parametrize("exp_id", ["../../../x", "..", "a/b", "a b"])
def test_item6_experiment_ids_are_plain_names(tmp_path, cli, exp_id):
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS_W03_SUBSET.format(steps="").replace('experiment.sb', f'experiment."{exp_id}"')
                      .replace('experiment = "sb"', f'experiment = "{exp_id}"'))
    result = cli("verify", claims, "--log", tmp_path / "log.jsonl", "--rerun", "--rerun-dir", tmp_path / "r")
    assert result.exit_code == 2 and "experiment ids are made of A-Z a-z 0-9 _ . -" in result.output
    assert not (tmp_path / "r").exists()


# ---------------------------------------------------------------- 7. the log is not blindly trusted

def test_item7_untraceable_results(tmp_path, cli):
    from claims.bindings import load_claims_file
    from claims.verify import verify_bindings

    log = tmp_path / "log.jsonl"
    assert cli(*sandbox_args(tmp_path / "out", log)).exit_code == 0
    claims = load_claims_file(REPO / "claims" / "bindings" / "w03.toml")
    (good,) = read_records(log)
    sandbox_first = next(i for i, b in enumerate(claims.bindings)
                         if b.experiment == "w03-sandbox" and (b.result or "metrics") == "metrics")
    assert verify_bindings(claims, log)[sandbox_first].status == "MATCH"
    # the record logs no hash for the bound result file
    no_hash = json.loads(json.dumps(good))
    del no_hash["outputs"][no_hash["results"]["metrics"]]
    log.write_text(json.dumps(no_hash) + "\n")
    verdict = verify_bindings(claims, log)[sandbox_first]
    assert (verdict.status, verdict.note) == ("UNTRACEABLE", "the run logged no sha256 for this result file")
    # the record points its result at a file outside its output directory (hash and all)
    forged = tmp_path / "forged.json"
    forged.write_text((tmp_path / "out" / "metrics.json").read_text())
    outside = json.loads(json.dumps(good))
    outside["results"]["metrics"] = str(forged)
    outside["outputs"][str(forged)] = sha256_file(forged)
    log.write_text(json.dumps(outside) + "\n")
    verdict = verify_bindings(claims, log)[sandbox_first]
    assert (verdict.status, verdict.note) == ("UNTRACEABLE", "result file lies outside the run's output directory")


# ---------------------------------------------------------------- 8. inert report content

HOSTILE = ("See ![pixel](https://tracker.example/p.png) and [click](javascript:alert(1)) or "
           "[x](data:text/html,<b>hi</b>) and [ok](https://example.org/a).")


def test_item8_report_content_cannot_fetch_or_run_anything(tmp_path, cli):
    from markdown_it import MarkdownIt

    from reports.validate import validation_problems

    pack = tmp_path / "pack.txt"
    pack.write_text("== 1. Identity ==\nBook: Hostile Book\nChapter: Links\n\n== 2. Chapter text ==\n"
                    f"{HOSTILE} It scores 0.5 on ten topics.\n\n== 4. Existing evidence ==\n"
                    f"- {HOSTILE} (https://doi.org/10.9999/prop.1)\n")
    out = tmp_path / "report.md"
    result = cli("report", pack, "--output", out, "--offline", "--log", tmp_path / "log.jsonl",
                 "--sources-cache", tmp_path / "cache", "--date", "2026-01-01")
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "javascript:" not in text.lower() and "data:" not in text.lower()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    children = [c for t in tokens if t.type == "inline" for c in t.children or []]
    assert not [c for c in children if c.type == "image"]
    # the only links are the report's own anchors (fix-first items → their rows)
    assert not [c for c in children if c.type == "link_open" and not c.attrs["href"].startswith("#")]
    assert validation_problems(text) == []


def test_item8_validator_refuses_images_and_non_https_links():
    from reports.validate import validation_problems

    problems = validation_problems("![a](https://x.example/a.png) [b](http://x.example/b) [c](https://ok.example)")
    assert any(p.startswith("image at line 1") for p in problems)
    assert any(p.startswith("non-https link at line 1") for p in problems)
    assert len([p for p in problems if "link" in p or "image" in p]) == 2


# ---------------------------------------------------------------- 9. SIGTERM

SLOW_PUBLISH = """
import pathlib, sys, time
import engine.retrieval.sandbox as sandbox
real_publish = sandbox.publish
def slow_publish(staging, target):
    pathlib.Path({marker!r}).write_text(str(staging))
    time.sleep(60)
    real_publish(staging, target)
sandbox.publish = slow_publish
sys.argv = ["chapter-audit", *{args!r}]
from cli.root import main
main()
"""


def test_item9_sigterm_is_handled_like_ctrl_c(tmp_path):
    out, log, marker = tmp_path / "out", tmp_path / "log.jsonl", tmp_path / "staged"
    script = SLOW_PUBLISH.format(marker=str(marker), args=sandbox_args(out, log))
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for _ in range(600):
        if marker.exists() or proc.poll() is not None:
            break
        time.sleep(0.1)
    staging = Path(marker.read_text())
    assert staging.is_dir() and (staging / "metrics.json").is_file()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "terminated (SIGTERM)" in err and "Traceback" not in err
    assert not staging.exists() and not out.exists() and not (tmp_path / ".out.lock").exists()
    (rec,) = read_records(log)
    assert rec["status"] == "failed" and rec["error"].startswith("Terminated")


# ---------------------------------------------------------------- 10. redirects and identifiers

def test_item10_redirects_stay_with_the_api_host():
    from sources.http import UnsafeURL, check_redirect

    check_redirect("https://api.github.com/repos/a/b", "https://api.github.com/repositories/1")
    check_redirect("https://api.crossref.org/works/x", "https://api.crossref.org/works/y")
    for target in ("https://evil.example/x", "https://169.254.169.254/latest/meta-data",
                   "https://10.0.0.1/x", "https://[::1]/x", "https://127.0.0.1/x",
                   "http://api.crossref.org/works/y"):
        with pytest.raises(UnsafeURL):
            check_redirect("https://api.crossref.org/works/x", target)
    check_redirect("http://127.0.0.1:9/a", "http://127.0.0.1:9/b", allow_loopback_http=True)


def test_item10_identifiers_cannot_climb_out_of_the_path():
    from sources.http import UnsafeURL, check_url
    from sources.identify import identify

    assert identify("https://doi.org/10.1234/../../users/x").kind == "url"
    assert identify("doi:10.1234/%2e%2e/x").kind == "url"
    assert identify("https://doi.org/10.1234/ok.v1").kind == "doi"
    assert identify("http://[::1/x").kind == "url"
    for url in ("https://api.crossref.org/works/10.1/../../x", "https://api.crossref.org/works/%2E%2E/x",
                "http://[::1/x", "https://api.github.com/repos/a\\b"):
        with pytest.raises(UnsafeURL):
            check_url(url)


def test_item10_request_url_is_the_url_sent(monkeypatch):
    import httpx

    from sources.http import ClientConfig, PoliteClient

    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=b"{}")

    with PoliteClient(ClientConfig(max_attempts=1)) as client:
        client._client = httpx.Client(transport=httpx.MockTransport(handler))
        result = client.get("https://API.Crossref.ORG/works/10.1000/é")
    assert result.ok and result.request_url == seen[0] == "https://api.crossref.org/works/10.1000/%C3%A9"


# ---------------------------------------------------------------- 11. CSV cells

def test_item11_csv_cells_are_neutralised(tmp_path, cli):
    from engine.retrieval.sandbox import render_csv
    from engine.runs.csvcells import neutralise_cell

    assert [neutralise_cell(v) for v in ("=1+2", "+cmd", "-x", "@SUM(A1)", "-0.25", "+3", "ok", 7, -1.5)] == \
        ["'=1+2", "'+cmd", "'-x", "'@SUM(A1)", "-0.25", "+3", "ok", 7, -1.5]
    csv_text = render_csv([{"topic": "=HYPERLINK(\"http://x\")", "score": -0.5}])
    assert csv_text == "topic,score\n\"'=HYPERLINK(\"\"http://x\"\")\",-0.500000000\n"
    chapter = tmp_path / "chapter.md"
    chapter.write_text("=cmd|' /C calc' A0 is what the table printed.\n\n@risk scored 0.7.\n")
    result = cli("claims", chapter, "--format", "csv")
    assert result.exit_code == 0
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(result.stdout)))  # stderr: who decided the kinds
    assert rows[0]["text"] == "'=cmd|' /C calc' A0 is what the table printed."
    assert rows[1]["text"] == "'@risk scored 0.7." and rows[1]["quantities"] == "0.7"


# ---------------------------------------------------------------- 12. judgment barrier

def test_item12_barrier_resolves_symlinks(tmp_path):
    from engine.r03.freeze import JudgmentBarrierError, judgment_barrier

    real = tmp_path / "qrels-final.txt"
    real.write_text("secret\n")
    alias = tmp_path / "notes.txt"
    alias.symlink_to(real)
    with judgment_barrier():
        with pytest.raises(JudgmentBarrierError, match="notes.txt"):
            alias.read_text()
    assert alias.read_text() == "secret\n"


def test_item12_empty_barrier_pattern_is_refused(tmp_path, cli):
    result = cli("r03", "prepare", "--benchmark", R03, "--freeze", tmp_path / "freeze",
                 "--barrier-pattern", "", "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2 and "empty or blank barrier pattern" in result.output
    assert not (tmp_path / "freeze").exists() and not (tmp_path / "log.jsonl").exists()


# ---------------------------------------------------------------- FIFOs

def test_fifo_inputs_are_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pack.txt"
    os.mkfifo(fifo)
    done = child(["fingerprint", fifo], timeout=30)
    assert done.returncode == 2 and "is not a regular file" in done.stderr
    corpus = tmp_path / "corpus.jsonl"
    os.mkfifo(corpus)
    args = sandbox_args(tmp_path / "out", tmp_path / "log.jsonl")
    args[args.index("--corpus") + 1] = str(corpus)
    done = child(args, timeout=30)
    assert done.returncode == 2 and "is not a regular file" in done.stderr



# ---------------------------------------------------------------- crashes → one-line errors

def _corpus_with(tmp_path: Path, line: str) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text((L03 / "corpus.jsonl").read_text() + line + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("line, message", [
    ('{"doc_id": "D-X", "title": "t", "text": "x", "n": %s}' % ("9" * 5000), "corpus.jsonl:11: invalid JSON (Exceeds the limit"),
    ('{"doc_id": "D-X", "n": %s}' % ("[" * 50_000 + "]" * 50_000), "corpus.jsonl:11: invalid JSON (nested too deeply)"),
    ('{"doc_id": "D-\\ud800", "title": "t", "text": "x"}', "corpus.jsonl:11: JSON string holds a lone UTF-16 surrogate"),
])
def test_hostile_json_is_one_line_naming_file_and_line(tmp_path, cli, line, message):
    args = sandbox_args(tmp_path / "out", tmp_path / "log.jsonl")
    args[args.index("--corpus") + 1] = str(_corpus_with(tmp_path, line))
    result = cli(*args)
    assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists() and not (tmp_path / "log.jsonl").exists()


def test_hostile_claims_toml_and_sizes(tmp_path, cli):
    claims = tmp_path / "claims.toml"
    claims.write_text("n = " + "[" * 50_000 + "]" * 50_000 + "\n")
    result = cli("verify", claims, "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2 and "invalid TOML (nested too deeply)" in result.output
    claims.write_text(CLAIMS_W03_SUBSET.format(steps="").replace('key = "macro.bm25.recall@3"',
                                                                 'key = "macro.bm25.recall@3"\ntolerance = inf'))
    result = cli("verify", claims, "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2 and "binding[1].tolerance': must be a finite non-negative number" in result.output
    log, freeze = prepare(tmp_path, cli)
    for option, value, message in (("--seed", "-1", "--seed must be a whole number from 0 to 2**63 - 1"),
                                   ("--draws", "1000000000000", "--draws must be at most 10,000,000")):
        result = cli("r03", "evaluate", "--benchmark", R03, "--freeze", freeze, "--output", tmp_path / "o",
                     "--log", log, option, value)
        assert result.exit_code == 2 and message in result.output


def test_absurd_npy_header_is_refused_before_allocating(tmp_path):
    from engine.runs.errors import InputError
    from engine.runs.npy import read_npy

    header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 384), }"
    header = header.ljust(128 - 10 - 1) + b"\n"
    path = tmp_path / "absurd.npy"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 64)
    with pytest.raises(InputError, match=r"header states shape \(100000000000, 384\) of float64 "
                                         r"\(307,200,000,000,000 bytes\) but the file holds 64 data bytes"):
        read_npy(path)


def test_overflowing_vectors_are_normalised_not_zeroed():
    import numpy as np

    from engine.budget.selection import normalise_rows

    rows, off = normalise_rows(np.array([[1e300, 1e300], [3.0, 4.0]]))
    assert rows.tolist() == [[pytest.approx(0.70710677), pytest.approx(0.70710677)], [0.6000000238418579, 0.800000011920929]]
    assert off == 2


def test_validator_splits_lines_as_markdown_it_does():
    from reports.validate import table_shapes, validation_problems

    text = "| a | b |\n|---|---|\n| x\x1cy | z\x1e |\n| 1 | 2 |\n"
    assert table_shapes(text) == [(2, [2, 2, 2])]
    assert not [p for p in validation_problems(text) if p.startswith("table")]


def test_results_page_with_zero_tasks_or_1e309(tmp_path, cli):
    synthetic = (REPO / "tests" / "data" / "results" / "synthetic_results.md").read_text()
    page = tmp_path / "page.md"
    page.write_text(synthetic.replace("has 8 tasks", "has 0 tasks"))
    result = cli("consistency", page)   # "0 tasks" is no denominator: those checks are skipped
    assert result.exit_code == 0 and "summary: 44 checks: 28 passed, 0 failed, 16 skipped" in result.output
    page.write_text(synthetic.replace("| 0.6500 |", "| 1e309 |", 1))
    result = cli("consistency", page)   # never read as 1 or inf: bad input naming the cell's line
    assert result.exit_code == 2 and result.output.strip().splitlines() == [
        f"{page}:5: number '1e309' is too large for a float; write it as a finite value"]
    assert "Traceback" not in result.output


def test_long_whitespace_runs_parse_like_short_ones():
    from audit.pack import parse_pack

    spaces = " " * 100_000
    text = ("== 1. Identity ==\nBook: B\nChapter: C\n\n== 2. Chapter text ==\nA" + spaces + "b.\n\n"
            "== 4. Existing evidence ==\n- A" + spaces + "source (https://doi.org/10.9999/x.1)\n- x" + spaces + "y\n")
    pack = parse_pack(text)
    assert [(c.description, c.url, c.line) for c in pack.candidate_sources] == [
        ("A source", "https://doi.org/10.9999/x.1", 9), ("x y", "", 10)]
    assert pack.chapter_text.startswith("A" + spaces + "b.")


def test_r03_grade_that_would_overflow_the_gain(tmp_path, cli):
    import shutil

    bench = tmp_path / "bench"
    shutil.copytree(R03, bench)
    log, freeze = tmp_path / "log.jsonl", tmp_path / "freeze"
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", freeze, "--log", log).exit_code == 0
    judgments = bench / "judgments.jsonl"
    lines = judgments.read_text().splitlines()
    lines[0] = lines[0].replace('"gradeA": 0', '"gradeA": 1e308')
    judgments.write_text("\n".join(lines) + "\n")
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", freeze, "--output", tmp_path / "o",
                 "--log", log, "--draws", "100")
    assert result.exit_code == 2
    assert "judgments.jsonl:1: field 'gradeA' must be a finite number of magnitude at most 1000" in result.output


# ---------------------------------------------------------------- issue 20: outputs are never lost

def test_a_file_that_appears_while_a_command_runs_is_never_replaced(tmp_path):
    from engine.runs.errors import RefusalError
    from engine.runs.outdir import file_output, publish_file

    target = tmp_path / "report.md"
    with file_output(target, holder="report"):
        target.write_text("the user's own")          # appears after the check, before the write
        with pytest.raises(RefusalError, match="appeared while this command ran"):
            publish_file(target, "ours")
    assert target.read_text() == "the user's own"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]  # no temp file, no lock file


def test_publish_rechecks_its_target_and_keeps_files_the_run_does_not_write(tmp_path):
    from engine.runs.errors import RefusalError
    from engine.runs.outdir import check_target, publish, staged_directory

    out = tmp_path / "out"
    check_target(out, "manifest.json", "run-1")
    with staged_directory(out) as staging:
        (staging / "manifest.json").write_text(json.dumps({"run_id": "run-1"}))
        publish(staging, out)
    # a re-run of the same run while the user keeps a note in the folder: refused at publication
    (out / "notes.txt").write_text("mine")
    check_target(out, "manifest.json", "run-1")
    with pytest.raises(RefusalError, match=r"holds files this run does not write \(notes.txt\)"):
        with staged_directory(out) as staging:
            (staging / "manifest.json").write_text(json.dumps({"run_id": "run-1"}))
            publish(staging, out)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "notes.txt"]
    # a directory that appears (with another run's files) after the check is not replaced either
    fresh = tmp_path / "fresh"
    check_target(fresh, "manifest.json", "run-2")
    fresh.mkdir()
    (fresh / "manifest.json").write_text(json.dumps({"run_id": "someone-else"}))
    with pytest.raises(RefusalError, match="of run someone-else"):
        with staged_directory(fresh) as staging:
            (staging / "manifest.json").write_text(json.dumps({"run_id": "run-2"}))
            publish(staging, fresh)
    assert json.loads((fresh / "manifest.json").read_text())["run_id"] == "someone-else"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "out"]  # no staging dir, no lock left


def test_a_refused_or_empty_file_output_leaves_no_directory_behind(tmp_path):
    from engine.runs.outdir import file_output

    with file_output(tmp_path / "new" / "deeper" / "claims.toml", holder="bind"):
        assert (tmp_path / "new" / "deeper" / ".claims.toml.lock").is_file()
    assert sorted(tmp_path.iterdir()) == []


def test_a_failed_rerun_does_not_release_the_junit_lock_held_around_it(tmp_path):
    """verify --junit holds its file from the check to the write, across the reruns; a rerun that
    fails releases its own output lock only (engine.runs.runlog.recorded_run)."""
    from engine.runs.outdir import check_target, file_output, lock_file
    from engine.runs.runlog import recorded_run

    junit = tmp_path / "verify.xml"
    with file_output(junit, holder="verify --junit"):
        check_target(tmp_path / "run-out", "manifest.json", "run-1")
        with pytest.raises(RuntimeError):
            with recorded_run(tmp_path / "log.jsonl", "sandbox run", {}):
                raise RuntimeError("the rerun failed")
        assert not lock_file(tmp_path / "run-out").exists()   # the run's lock is released
        claims = tmp_path / "claims.toml"
        claims.write_text(CLAIMS_W03_SUBSET.format(steps=rerun_step("{fixtures}/l03/corpus.jsonl")))
        held = child(["verify", claims, "--log", tmp_path / "log.jsonl", "--junit", junit])
    assert held.returncode == 3 and f"another run (verify --junit, pid {os.getpid()})" in held.stderr
    assert not lock_file(junit).exists() and not junit.exists()
