"""Journey: an author checks a chapter whose arithmetic lives only in its prose (no table).

The chapter holds one right and one wrong sentence of each shape. Hand-checked:

* 7 of 20 = 35% (right); 9 of 20 = 45%, printed 40% (wrong);
* 120 ms → 80 ms is a 33.3% reduction: "33%" right, "40%" wrong (interval [32.64, 34.02]);
* 6.0 s / 3.1 s = 1.94 ("twice", [1.5, 2.5]: right); 9.5 s / 3.1 s = 3.06 (wrong);
* 40% + 35% + 25% = 100% (right); 40% + 35% + 30% = 105% (wrong);
* second of five with 0.41 behind 0.45 (right: two checks pass, place and order); first of five
  yet behind 0.45 (wrong: the place passes, the order fails);
* 2/4 → 3/4 is a 50% relative gain (right); "50% faster" from 120 ms to 60 ms has two bases (the
  time halves, the rate doubles): SKIP, not a pass. (Until campaign o the ambiguous sentence was
  "a 25% gain" from 2/4 to 3/4; a gain in % now claims the relative reading and fails:
  tests/journeys/test_consistency_verdicts_p.py.)

`consistency` exits 1 and names each wrong sentence by its line; `--format json` gives the same
counts; a page with only the right sentences exits 0, and `--strict` fails on the one SKIP.
"""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli

RIGHT = [
    "The reranker answers 7 of 20 queries (35%) correctly.",
    "Caching cuts latency from 120 ms to 80 ms, a 33% reduction.",
    "The new index is twice as fast: 3.1 s against 6.0 s.",
    "The three shares are 40%, 35% and 25%.",
    "The hybrid ranks second of five with 0.41 behind 0.45.",
    "Coverage rises from 2/4 to 3/4, a 50% gain.",
]
WRONG = [
    "The dense run answers 9 of 20 queries (40%) correctly.",
    "Batching cuts latency from 120 ms to 80 ms, a 40% reduction.",
    "The old index is twice as fast: 3.1 s against 9.5 s.",
    "The three shares of the budget are 40%, 35% and 30%.",
    "The dense run ranks first of five with 0.41 behind 0.45.",
]
AMBIGUOUS = "Caching then cuts latency from 120 ms to 60 ms, 50% faster."


def _chapter(sentences: list[str]) -> str:
    return "# Prose arithmetic\n\n" + "\n\n".join(sentences) + "\n"


def test_a_chapter_with_right_and_wrong_prose_arithmetic(tmp_path: Path) -> None:
    (tmp_path / "chapter.md").write_text(_chapter(RIGHT + WRONG + [AMBIGUOUS]), encoding="utf-8")
    done = run_cli("consistency", "chapter.md", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    for kind, counts in (("prose-fraction", "1 pass, 1 fail, 0 skip"), ("prose-change", "2 pass, 1 fail, 1 skip"),
                         ("prose-times", "1 pass, 1 fail, 0 skip"), ("prose-shares", "1 pass, 1 fail, 0 skip"),
                         ("prose-rank", "3 pass, 1 fail, 0 skip")):
        assert f"kind {kind}: {counts}" in out, out
    failed = [line for line in out.splitlines() if line.startswith("FAIL ")]
    # the wrong sentences are paragraphs 7..11: lines 15, 17, 19, 21, 23 of the chapter
    assert [line.rsplit("[line ", 1)[1].rstrip("]") for line in failed] == ["15", "17", "19", "21", "23"], failed
    assert "100·9/20 = 45.0000%" in failed[0] and "misses 40%" in failed[0]
    assert "100·(120 − 80)/120 = 33.3333%" in failed[1] and "misses 40%" in failed[1]
    assert "9.5/3.1 = 3.0645" in failed[2]
    assert "= 105.0000%" in failed[3]
    assert "a first place is behind no one" in failed[4]
    assert "SKIP prose-change" in out and "a change of speed has two bases" in out
    assert "summary: 14 checks: 8 passed, 5 failed, 1 skipped" in out, out

    as_json = run_cli("consistency", "chapter.md", "--format", "json", cwd=tmp_path)
    data = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and data["exit_code"] == 1
    assert data["by_kind"]["prose-shares"] == {"fail": 1, "pass": 1, "skip": 0}
    assert data["relations_checked"] == 13


def test_only_right_sentences_pass_and_strict_fails_the_skip(tmp_path: Path) -> None:
    (tmp_path / "right.md").write_text(_chapter(RIGHT), encoding="utf-8")
    done = run_cli("consistency", "right.md", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "summary: 7 checks: 7 passed, 0 failed, 0 skipped" in done.stdout, done.stdout
    (tmp_path / "skip.md").write_text(_chapter(RIGHT + [AMBIGUOUS]), encoding="utf-8")
    assert run_cli("consistency", "skip.md", cwd=tmp_path).returncode == 0
    strict = run_cli("consistency", "skip.md", "--strict", cwd=tmp_path)
    assert strict.returncode == 1 and "--strict: 1 skipped checks count as failures" in strict.stdout + strict.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["right.md", "skip.md"]
