"""Campaign p: TREC files as users have them, printed values and moved projects, through the CLI.

Each test runs the command line as a user does (``python -m cli`` in a fresh interpreter) on files
written here, decides the right output by hand (or by ir_measures on the same files) and asserts
it. Every test failed before its fix.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path

import pytest

from commands import run_cli

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 1\nq2 0 d5 0\n"
RUN = ("q1 Q0 d2 1 3.5 mine\nq1 Q0 d1 2 2.25 mine\nq1 Q0 d9 3 1.0 mine\n"
       "q2 Q0 d4 1 0.5 mine\nq2 Q0 d5 2 0.25 mine\n")


@pytest.mark.parametrize("suffix, compress", [(".bz2", bz2.compress), (".xz", lzma.compress)])
def test_a_run_compressed_with_bzip2_or_xz_is_read_like_gzip(tmp_path: Path, suffix: str, compress) -> None:
    """TREC runs and qrels ship as ``.bz2`` and ``.xz`` as well as ``.gz``. ``evaluate`` read gzip by
    its magic bytes but refused a bzip2 or xz file as "file is not valid UTF-8 (byte 0xb4 at column
    11)", a message that sends the user looking for an encoding problem. They are now
    decompressed by their magic bytes too, and give the same numbers as the plain files
    (P@1: q1 ranks d2, grade 0, first → 0; q2 ranks d4, grade 1 → 1; macro 0.5; RR 0.5 and 1 → 0.75)."""
    (tmp_path / "qrels.txt").write_bytes(compress(QRELS.encode()))
    (tmp_path / "run.txt").write_bytes(compress(RUN.encode()))
    (tmp_path / "qrels.txt").rename(tmp_path / f"qrels{suffix}")
    (tmp_path / "run.txt").rename(tmp_path / f"run{suffix}")
    done = run_cli("evaluate", "--qrels", f"qrels{suffix}", "--run", f"run{suffix}", "--measures", "P@1,RR",
                   "-o", "out", "--log", "log.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    macro = json.loads((tmp_path / "out" / "metrics.json").read_text())["runs"]["mine"]["macro"]
    assert macro == {"P@1": 0.5, "RR": 0.75}


def test_a_damaged_bzip2_run_is_one_line_naming_the_file(tmp_path: Path) -> None:
    """A truncated ``.bz2`` run is bad input named in one line, never a traceback or a number."""
    data = bz2.compress((RUN * 200).encode())
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.bz2").write_bytes(data[: len(data) // 2])
    done = run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.bz2", "--measures", "P@1",
                   "-o", "out", "--log", "log.jsonl", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.startswith("run.bz2: not a valid bzip2 file"), done.stderr
    assert not (tmp_path / "out").exists()
