"""Attributions on sentences shaped as technical writers credit in the wild (issue 19;
tests/data/attribution_generalise.toml, scored by bench/bench_attribution_generalise.py).

The set was written before the rules of the reporting grammar in claims/attribution.py, and split
then by sha256 of each sentence: the rules were tuned on the ``tune`` half (and the development
corpus) only; the ``check`` half was scored once, when the change was done. The exact counts are
pinned so that a regression (or an unexplained gain) fails."""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_attribution_generalise",
                                                  REPO / "bench" / "bench_attribution_generalise.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_set_its_size_and_its_fixed_split(bench):
    rows = tomllib.loads(bench.DATA.read_text(encoding="utf-8"))["sentence"]
    assert len(rows) == 193 and sum(r["attribution"] for r in rows) == 123
    assert len({r["text"] for r in rows}) == len(rows)
    for r in rows:
        parity = hashlib.sha256(r["text"].encode("utf-8")).digest()[0] % 2
        assert r["part"] == ("tune" if parity == 0 else "check"), r["text"]
        assert r["attribution"] or not r["cited"], r["text"]  # a non-attribution cites no one
    assert (len(bench.sentences("tune")), len(bench.sentences("check"))) == (84, 109)


@pytest.mark.parametrize("part, expected", [
    # (predicted, gold, correct, cited names gold, cited names found); before the reporting grammar
    # (main at 71c1ce1) the tune half gave (39, 52, 39, 47, 35) and the check half (51, 67, 51, 64, 51)
    ("tune", (53, 53, 53, 48, 48)),    # precision 1.000, recall 1.000, cited names 1.000
    # scored once, at 88c2375: (63, 67, 63, 64, 59), precision 1.000, recall 0.940, names 0.922; branch
    # attribution-recall's "a work dated as the subject" (written for batch 8's "Megablocks (Nov 2022)
    # explores") also credits "Nakamura (2023) proposes …": 64/67 (0.955), names 60/64; branch attribution
    # (stop 28, scored once when its rules were done, errors not read): 63/63, 63/67 (0.940), names 59/64
    # stop 29 (branch attrib) added 8 sentences written after its rules (1 tune, 7 check); scored once when
    # done: the 102 older check sentences unchanged (63/63, 63/67, names 59/64); the 7 new ones: 4 of 4
    # non-attributions right, 1 of 3 attributions found ("9% [7]" and a <d-cite> read as flat text missed)
    ("check", (64, 70, 64, 67, 60)),
])
def test_figures_on_each_half(bench, part, expected):
    counts, errors = bench.score(part)
    got = (counts["predicted"], counts["gold"], counts["correct"], counts["names_gold"], counts["names_found"])
    assert got == expected, errors
