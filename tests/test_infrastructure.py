"""The shared run machinery: log records, run ids, staged output directories."""

from __future__ import annotations

import json

import pytest

from engine.runs.errors import InputError, RefusalError
from engine.runs.manifest import build_manifest, derive_run_id, input_hashes, manifest_differences
from engine.runs.outdir import check_target, publish, staged_directory
from engine.runs.runlog import InvalidRun, latest_ok, read_records, recorded_run


def test_run_id_depends_on_content_not_path(tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "sub" / "b.txt"
    b.parent.mkdir()
    a.write_text("same bytes")
    b.write_text("same bytes")
    id_a = derive_run_id("sandbox run", input_hashes({"corpus": a}), {"k": 3})
    id_b = derive_run_id("sandbox run", input_hashes({"corpus": b}), {"k": 3})
    assert id_a == id_b
    assert id_a.startswith("sandbox-run-") and len(id_a) == len("sandbox-run-") + 12
    assert derive_run_id("sandbox run", input_hashes({"corpus": a}), {"k": 5}) != id_a


def test_manifest_differences_names_each_change(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text("x")
    old = build_manifest("sandbox run", input_hashes({"corpus": f}), {"k": 3, "b": 0.75})
    f.write_text("y")
    new = build_manifest("sandbox run", input_hashes({"corpus": f}), {"k": 5, "b": 0.75})
    diffs = manifest_differences(old, new)
    assert len(diffs) == 2
    assert diffs[0].startswith("input corpus: sha256 ")
    assert diffs[1] == "parameter k: 3 -> 5"


def test_log_records_ok_failed_and_invalid(tmp_path):
    log = tmp_path / "log.jsonl"
    with recorded_run(log, "demo", {"p": 1}) as rec:
        rec.run_id = "demo-1"
    with pytest.raises(ValueError):
        with recorded_run(log, "demo", {"p": 2}) as rec:
            rec.run_id = "demo-2"
            raise ValueError("boom\nsecond line")
    with pytest.raises(InvalidRun):
        with recorded_run(log, "demo", {"p": 3}) as rec:
            rec.run_id = "demo-3"
            raise InvalidRun("input corpus changed")
    records = read_records(log)
    assert [r["status"] for r in records] == ["ok", "failed", "invalid"]
    assert records[1]["error"] == "ValueError: boom second line"
    assert records[0]["started_at"].endswith("Z") and records[0]["ended_at"].endswith("Z")
    assert latest_ok(log)["run_id"] == "demo-1"
    assert latest_ok(log, command="other") is None


def test_malformed_log_line_is_skipped_and_named(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    log.write_text('{"run_id": "x", "status": "ok"}\nnot json\n{"run_id": "y", "status": "ok"}\n')
    assert [r["run_id"] for r in read_records(log)] == ["x", "y"]
    assert "log.jsonl:2: damaged log line skipped (invalid JSON" in capsys.readouterr().err


def test_staged_output_is_all_or_nothing(tmp_path):
    target = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with staged_directory(target) as staging:
            (staging / "half.txt").write_text("partial")
            raise RuntimeError("failure mid-run")
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
    with staged_directory(target) as staging:
        (staging / "manifest.json").write_text(json.dumps({"run_id": "r1"}))
        publish(staging, target)
    assert json.loads((target / "manifest.json").read_text())["run_id"] == "r1"
    check_target(target, "manifest.json", "r1")  # same run: may be replaced
    with pytest.raises(RefusalError, match="run r1 with different inputs"):
        check_target(target, "manifest.json", "r2")


def test_user_directory_without_manifest_is_refused(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("my notes")
    with pytest.raises(RefusalError, match="holds no manifest.json"):
        check_target(target, "manifest.json", "r1")


def test_atomic_writes_leave_nothing_behind_on_failure(tmp_path):
    from engine.runs.outdir import write_file_atomically, write_files_atomically

    target = tmp_path / "report.md"
    write_file_atomically(target, "first\r\nline é")
    assert target.read_bytes() == "first\r\nline é".encode("utf-8")  # no newline translation
    assert oct(target.stat().st_mode & 0o777) == "0o644"

    class Unwritable:  # a payload that fails half-way through a two-file write
        pass

    with pytest.raises(TypeError):
        write_files_atomically({tmp_path / "a.npy": b"vectors", tmp_path / "m.json": Unwritable()})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]  # no temp file, no partial a.npy
    assert target.read_bytes() == "first\r\nline é".encode("utf-8")  # the earlier file is intact
