"""Journeys on outputs the user names: never replaced silently, never lost to a race.

Races are run with real processes (``python -m cli``). Two kinds: a process that holds the
output, as a running ``report`` does from its check to its write, and a second command into the
same output, which must exit 3 naming the holder's pid; and two commands started together, of
which exactly one writes (0) and the other is refused (3: either "another run … is writing this
output right now" or "already exists"), and the file left is whole: the winner's bytes.
"""

from __future__ import annotations

import json
import sys
import subprocess

from commands import REPO, child_env, finish, log_records, start_cli
from test_sandbox_journeys import CLAIMS, PACK
from userfiles import sandbox_args, write_sandbox_inputs

REPORT = ("report", "chapter.txt", "--output", "report.md", "--log", "log.jsonl", "--offline", "--no-search",
          "--date", "2026-12-01")


def project(tmp_path, cli):
    """A folder with the user's inputs, one sandbox run, its log and a chapter pack."""
    inputs = write_sandbox_inputs(tmp_path / "data")
    assert cli(*sandbox_args(inputs, tmp_path / "runs" / "sb", tmp_path / "log.jsonl")).exit_code == 0
    (tmp_path / "chapter.txt").write_text(PACK, encoding="utf-8")
    return tmp_path


def hold(target, holder: str) -> subprocess.Popen:
    """A child process holding ``target``'s output lock (engine.runs.outdir.file_output) until its
    stdin closes; returns once it holds it."""
    script = ("import sys\nfrom engine.runs.outdir import file_output\n"
              f"with file_output({str(target)!r}, holder={holder!r}):\n"
              "    print('held', flush=True)\n    sys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=child_env())
    assert proc.stdout.readline() == "held\n"
    return proc


def release(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_report_twice_into_the_same_output(tmp_path, cli, monkeypatch):
    folder = project(tmp_path, cli)
    monkeypatch.chdir(folder)
    first = cli(*REPORT)
    assert first.exit_code == 0, first.output
    written = (folder / "report.md").read_bytes()
    second = cli(*REPORT, "--date", "2026-12-02")
    assert second.exit_code == 3 and "already exists; refusing to overwrite it (use --force)" in second.output
    assert (folder / "report.md").read_bytes() == written
    forced = cli(*REPORT, "--date", "2026-12-02", "--force")  # the documented overwrite flag
    assert forced.exit_code == 0
    assert (folder / "report.md").read_bytes() != written and b"2026-12-02" in (folder / "report.md").read_bytes()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no temp or lock files


def test_a_report_while_another_holds_the_output_is_refused_naming_it(tmp_path, cli, monkeypatch):
    folder = project(tmp_path, cli)
    monkeypatch.chdir(folder)
    holder = hold(folder / "report.md", "report")
    try:
        refused = cli(*REPORT)
    finally:
        release(holder)
    assert refused.exit_code == 3
    assert f"another run (report, pid {holder.pid}) is writing this output right now" in refused.output
    assert not (folder / "report.md").exists()
    assert cli(*REPORT).exit_code == 0  # free again once the holder is done


def test_two_reports_at_once_into_one_output(tmp_path, cli):
    folder = project(tmp_path, cli)
    procs = [start_cli(*REPORT[:-1], date, cwd=folder) for date in ("2026-12-01", "2026-12-02")]
    results = finish(procs)
    codes = [code for code, _, _ in results]
    assert sorted(codes) == [0, 3], results
    winner = codes.index(0)
    loser_err = results[1 - winner][2]
    assert "is writing this output right now" in loser_err or "already exists" in loser_err
    text = (folder / "report.md").read_text(encoding="utf-8")
    assert f"2026-12-0{winner + 1}" in text and f"2026-12-0{2 - winner}" not in text
    assert "## 7. Review checklist" in text  # whole: the last section is there


def test_two_binds_at_once_into_one_output(tmp_path, cli, monkeypatch):
    folder = project(tmp_path, cli)
    monkeypatch.chdir(folder)
    holder = hold(folder / "claims.toml", "bind")
    try:
        refused = cli("bind", "chapter.txt", "--log", "log.jsonl", "--output", "claims.toml")
    finally:
        release(holder)
    assert refused.exit_code == 3 and f"another run (bind, pid {holder.pid})" in refused.output
    assert not (folder / "claims.toml").exists()

    results = finish([start_cli("bind", "chapter.txt", "--log", "log.jsonl", "--output", "claims.toml", cwd=folder)
                      for _ in range(2)])
    assert sorted(code for code, _, _ in results) == [0, 3], results
    draft = (folder / "claims.toml").read_text(encoding="utf-8")
    assert 'key = "macro.frozen_dense.ndcg@3"' in draft and 'key = "macro.frozen_dense.recall@3"' in draft
    again = cli("bind", "chapter.txt", "--log", "log.jsonl", "--output", "claims.toml")
    assert again.exit_code == 3 and (folder / "claims.toml").read_text(encoding="utf-8") == draft


def test_two_verify_junit_at_once(tmp_path, cli, monkeypatch):
    folder = project(tmp_path, cli)
    monkeypatch.chdir(folder)
    (folder / "claims.toml").write_text(CLAIMS, encoding="utf-8")
    holder = hold(folder / "verify.xml", "verify --junit")
    try:
        refused = cli("verify", "claims.toml", "--log", "log.jsonl", "--junit", "verify.xml")
    finally:
        release(holder)
    assert refused.exit_code == 3 and f"another run (verify --junit, pid {holder.pid})" in refused.output
    assert not (folder / "verify.xml").exists()
    assert cli("verify", "claims.toml", "--log", "log.jsonl", "--junit", "verify.xml").exit_code == 1
    assert 'failures="1"' in (folder / "verify.xml").read_text()


def rerun_claims(folder) -> str:
    step = ["sandbox", "run", "--corpus", str(folder / "data" / "corpus.jsonl"),
            "--topics", str(folder / "data" / "topics.jsonl"), "--qrels", str(folder / "data" / "qrels.txt"),
            "--dense-run", str(folder / "data" / "run.tsv"), "--dense-metadata", str(folder / "data" / "run_metadata.json"),
            "--output", "{workdir}", "--k", "3", "--candidate-depth", "5"]
    return CLAIMS.split("[[binding]]\nid = \"bm25")[0].replace(
        'result = "metrics"\n', f'result = "metrics"\nrerun = [{json.dumps(step)}]\n', 1)


def test_two_verify_reruns_sharing_a_rerun_dir(tmp_path, cli):
    """Started together (so within one second): each gets its own work dir, both re-run and match."""
    folder = project(tmp_path, cli)
    (folder / "claims.toml").write_text(rerun_claims(folder), encoding="utf-8")
    results = finish([start_cli("verify", "claims.toml", "--log", "log.jsonl", "--rerun", "--rerun-dir", "reruns",
                                cwd=folder) for _ in range(2)])
    assert [code for code, _, _ in results] == [0, 0], results
    assert all("rerun mine: ok" in err and "2 matched, 0 not matched" in out for _, out, err in results)
    workdirs = sorted((folder / "reruns" / "mine").iterdir())
    assert len(workdirs) == 2
    assert all((w / "metrics.json").is_file() for w in workdirs)
    records = log_records(folder / "log.jsonl")
    assert [r["status"] for r in records] == ["ok", "ok", "ok"]


def test_claims_and_report_outputs_are_checked_like_the_others(tmp_path, cli, monkeypatch):
    folder = project(tmp_path, cli)
    monkeypatch.chdir(folder)
    holder = hold(folder / "rows.csv", "claims")
    try:
        refused = cli("claims", "chapter.txt", "--format", "csv", "--output", "rows.csv")
    finally:
        release(holder)
    assert refused.exit_code == 3 and f"another run (claims, pid {holder.pid})" in refused.output
    assert cli("claims", "chapter.txt", "--format", "csv", "--output", "rows.csv").exit_code == 0
    rows = (folder / "rows.csv").read_text(encoding="utf-8")
    assert "0.576113" in rows
    again = cli("claims", "chapter.txt", "--format", "json", "--output", "rows.csv")
    assert again.exit_code == 3 and (folder / "rows.csv").read_text(encoding="utf-8") == rows
    # a directory where the report file should go is bad input (exit 2, one line), and is left alone
    (folder / "out.md").mkdir()
    directory = cli(*REPORT[:3], "out.md", *REPORT[4:])
    assert directory.exit_code == 2 and directory.output.count("\n") == 1 and "is a directory" in directory.output
    assert list((folder / "out.md").iterdir()) == []
    # a report into a folder that does not exist yet creates it; a refused bind leaves none behind
    assert cli(*REPORT[:3], "reports/new/report.md", *REPORT[4:]).exit_code == 0
    assert (folder / "reports" / "new" / "report.md").is_file()
    (folder / "empty.txt").write_text("Nothing is measured in this chapter.\n")
    nothing = cli("bind", "empty.txt", "--log", "log.jsonl", "--output", "drafts/claims.toml")
    assert nothing.exit_code == 1 and not (folder / "drafts").exists()
