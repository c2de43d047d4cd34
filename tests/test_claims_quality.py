"""The labelled corpus of real documents (tests/data/corpus/) and its quality bench.

The split is checked to be the recorded rule (sha256 of the id), the labels to be well formed
(every labelled number occurs in its sentence), the flattener to give a pack the flattened
reader reads, and the development figures to stay at the level the rules reached (the held-out
part is scored by ``bench/bench_claims_quality.py --held-out`` only, never in a test)."""

from __future__ import annotations

import hashlib
import importlib.util
import math
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_quality", REPO / "bench" / "bench_claims_quality.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_size_kinds_and_split_rule(bench):
    manifest = bench.corpus_manifest()
    documents = manifest["documents"]
    ids = [d["id"] for d in documents]
    assert len(ids) == len(set(ids)) >= 30
    assert {d["kind"] for d in documents} >= {"blog post", "library docs", "book chapter", "README",
                                                "results page", "course notes"}
    first = [d["id"] for d in documents if d["batch"] == 1]
    order = sorted(first, key=lambda i: hashlib.sha256(i.encode("utf-8")).hexdigest())
    retired = set(order[:max(10, math.ceil(len(first) / 3))])
    assert len(first) == 31 and all(d["part"] == "development" for d in documents if d["batch"] in (2, 4))
    # batch 1's held-out part, retired into development after its 12th scoring, and batch 7,
    # retired after its first (stop 28)
    seventh = {d["id"] for d in documents if d["batch"] == 7}
    assert len(seventh) == 12 and all(d["part"] == "development" for d in documents if d["batch"] == 7)
    assert retired | seventh == set(manifest["split"]["retired_held_out"]) == {
        d["id"] for d in documents if d.get("retired_from_held_out")}
    held = {d["id"] for d in documents if d["part"] == "held-out"}
    assert held == set(manifest["split"]["held_out"]) == {d["id"] for d in documents if d["batch"] in (3, 6, 13)}
    assert all(d["part"] in ("development", "held-out") for d in documents)
    for d in documents:
        assert d["sha256_of_id"] == hashlib.sha256(d["id"].encode("utf-8")).hexdigest()
        source = d["source"]
        assert source["repo"].count("/") == 1 and source["path"] and len(source["commit"]) == 40


def test_labels_are_well_formed(bench):
    total = 0
    for part in ("development", "held-out"):
        for document in bench.corpus_documents(part):
            labels = bench.corpus_labels(document)
            assert labels, document["id"]
            for label in labels:
                total += 1
                assert set(label) == {"text", "measured", "attribution", "cited", "numbers"}
                for number in label["numbers"]:
                    assert number["text"] in label["text"], (document["id"], number)
                assert not label["cited"] or label["attribution"], (document["id"], label["text"])
    # development 856 (batches 1, 2, 4) + batch 5's 847 + batch 8's 646 + batch 7's 386 (retired), held-out 369 (batch 3)
    # + 294 (batch 6): 3445 before the stop-28 conventions pass (tests/data/corpus/REVIEW.md) removed 64 title lines
    # and links and labelled smltar-stopwords-chapter's unlabelled section (17 sentences)
    assert total == 5238  # 4,690 + held-out batch 13 (262 + 286, stop 29); 3,398 after the stop-28 conventions, + batch 10 (531) + batch 11 (490 + 39 added in review-11, REVIEW-b11-by-review-11.md) + batch 12 (232), development


def test_flattened_pack_is_one_line_per_block(bench):
    markdown = ("# Title\n\nFirst paragraph with `code` and a [link](https://x.y).\n\n"
                "| a | b |\n|---|---|\n| x | 2 |\n\n```python\nx = 1\ny = 2\n```\n\n- item one\n- item two\n")
    assert bench.flatten_markdown(markdown).split("\n") == [
        "Title First paragraph with code and a link.", "a b x 2", "x = 1", "y = 2", "• item one", "• item two"]


def test_flattened_pack_keeps_placeholders_and_renders_html_admonitions_and_directives(bench):
    markdown = ("Run `serve <model>` with &lt;token&gt; <b>set</b>.<br>Then wait.\n\n"
                '<div align="center">\n<p>First &amp; <em>only</em>.</p><p>Second.</p>\n</div>\n\n'
                '!!! tip "Cheap"\n    The run is\n    cheap.\n\n1. Clone it.\n\n```{note}\n:class: x\nA note.\n```\n')
    assert bench.flatten_markdown(markdown).split("\n") == [
        "Run serve <model> with <token> set. Then wait.", "First & only.", "Second.", "Cheap", "The run is cheap.",
        "1. Clone it.", "A note."]


def test_flattened_pack_carries_the_chrome_of_its_kind(bench):
    document = {"id": "x", "kind": "blog post", "source": {"repo": "acme/blog"}}
    top, bottom = bench.page_chrome(document, "# T\n\n## One\n\n## Two\n\n## Three\n\n" + "word " * 450)
    assert top == ["acme › Blog", "By the blog team · 3 min read", "Share", "Table of contents", "One", "Two", "Three"]
    assert bottom == ["← Older post", "Newer post →", "© 2026 acme. All rights reserved."]


def _figures(summary: dict) -> tuple[float, ...]:
    return (summary["measured_correct"] / summary["measured_predicted"],
            summary["measured_correct"] / summary["measured_gold"],
            summary["attribution_correct"] / summary["attribution_predicted"],
            summary["attribution_correct"] / summary["attribution_gold"],
            summary["nonresult_called"] / summary["nonresult_numbers"])


def test_development_figures_hold(bench):
    """Batches 1, 2 and 4 (and batch 1's retired held-out part): the documents the rules were tuned on."""
    summary = bench.score_corpus("development", "markdown", frozenset({1, 2, 4}))["counts"]
    measured_precision, measured_recall, attribution_precision, attribution_recall, nonresult = _figures(summary)
    assert (summary["measured_gold"], summary["attribution_gold"], summary["gold"]) == (119, 56, 856)
    # after branches tune-kinds, tune-attribution, tune-packs (batch 4 was not seen by tune-kinds):
    # 0.917, 0.933, 0.980, 1.000, 0.028
    assert measured_precision >= 0.91 and measured_recall >= 0.93
    # 50/52 after the 2026-12-02 review; 49/56 after the stop-28 conventions made four more sentences credits;
    # 52/56 (precision 52/53) after branch attribution (stop 28)
    assert attribution_precision >= 0.98 and attribution_recall >= 0.92
    assert nonresult <= 0.03
    # split 3: the label review of 2026-12-02 joined five bold lead-ins of tevatron-bugs-and-fixes
    # to their sentences (manifest label_conventions)
    assert summary["dropped"] == 0 and summary["split"] <= 1 and summary["merged"] == 0


def test_fifth_batch_figures_hold(bench):
    """Batch 5 (development, labelled 2026-12-02, 29 documents): its figures before any rule was
    tuned on it were measured 0.633 / 0.812, attribution 0.967 / 0.630, non-result 0.178, dropped 5,
    split 6, merged 6; the floors below are the figures after this round's branches, so that a
    later change cannot lose them."""
    summary = bench.score_corpus("development", "markdown", frozenset({5}))["counts"]
    measured_precision, measured_recall, attribution_precision, attribution_recall, nonresult = _figures(summary)
    assert (summary["measured_gold"], summary["attribution_gold"], summary["gold"]) == (83, 92, 847)
    # after branches packs-gen, attribution-gen, sitemarkup-gen, kinds-minilm (which tuned on it):
    # 0.657, 0.812, 0.988, 0.913, 0.176, dropped 3 (a link list the labels call sentences), split 0, merged 3
    # stop-28 conventions (two measured demo titles are no sentences): 0.657, 0.807, 0.988, 0.924, 0.186
    assert measured_precision >= 0.65 and measured_recall >= 0.80
    # branch attribution (stop 28): 0.989 (86/87), 0.935 (86/92)
    assert attribution_precision >= 0.98 and attribution_recall >= 0.93
    assert nonresult <= 0.19
    assert summary["dropped"] <= 3 and summary["split"] == 0 and summary["merged"] <= 3


def test_eighth_batch_figures_hold(bench):
    """Batch 8 (development, labelled 2026-12-02, 21 documents): before any rule was tuned on it,
    Markdown measured 0.678 / 0.702, attribution 0.891 / 0.500, non-result 0.171, dropped 3,
    split 5, merged 7, non-prose 44 of 678 (manifest split rule; bench/data figures in the README);
    the floors below are the figures after this round's branches (attribution-recall, md-shapes,
    pack-nonprose, prose-checks tuned on it), so that a later change cannot lose them."""
    counts = bench.score_corpus("development", "markdown", frozenset({8}))["counts"]
    measured_precision, measured_recall, attribution_precision, attribution_recall, nonresult = _figures(counts)
    assert (counts["measured_gold"], counts["attribution_gold"], counts["gold"]) == (59, 79, 646)
    # after the merges: 0.690, 0.702, 0.907, 0.598, 0.171; dropped 0, split 2, merged 0, non-prose 24 of 666
    # stop-28 conventions: 0.707, 0.695, 0.889, 0.608, 0.169; non-prose 17
    assert measured_precision >= 0.68 and measured_recall >= 0.69
    # branch attribution (stop 28, tuned on it): 0.937 (59/63), 0.747 (59/79)
    assert attribution_precision >= 0.93 and attribution_recall >= 0.74
    assert nonresult <= 0.18
    assert counts["dropped"] == 0 and counts["split"] <= 2 and counts["merged"] == 0
    # branch reader (convention (h) title lines, flattened shapes): non-prose 17 -> 12
    assert counts["non_prose"] <= 12


READER_FLOORS = {
    # (batches, reading): (dropped, split, merged, non-prose rows) at most; branch reader, stop 28, after
    # tuning on batches 7, 8 and 10 (batch 10 was scored once before: Markdown dropped 1, split 6,
    # merged 3, non-prose 57 of 590; pack 4, 7, 5, 145 of 674; main then: 1, 6, 3, 63 of 596 and
    # 4, 7, 5, 153 of 682)
    ((7,), "markdown"): (0, 0, 2, 3), ((7,), "pack"): (0, 0, 4, 8),
    ((8,), "markdown"): (0, 1, 0, 12), ((8,), "pack"): (0, 2, 3, 15),
    ((10,), "markdown"): (0, 4, 3, 37), ((10,), "pack"): (0, 5, 5, 50),
    ((1, 2, 4), "pack"): (0, 1, 0, 12), ((5,), "pack"): (0, 5, 0, 44),
    # branch nonprose (stop 29): batch 8 Markdown split 2 -> 1, batch 10 non-prose 48 -> 37 and 57 -> 50,
    # batches 1, 2, 4 pack split 2 -> 1 and non-prose 13 -> 12
}
"""Reader floors per batch and reading (main before branch reader, same labels: batch 7 pack
non-prose 43 of 426, batch 8 41 of 694, batch 10 153 of 682; development pack 312 of 3582)."""


@pytest.mark.parametrize("batches, reading", list(READER_FLOORS), ids=lambda v: str(v))
def test_reader_floors_hold(bench, batches, reading):
    counts = bench.score_corpus("development", reading, frozenset(batches))["counts"]
    dropped, split, merged, non_prose = READER_FLOORS[(batches, reading)]
    assert counts["dropped"] <= dropped and counts["split"] <= split and counts["merged"] <= merged
    assert counts["non_prose"] <= non_prose


def test_flattened_pack_shows_code_nested_in_an_admonition_without_its_fence(bench):
    markdown = '??? "Output"\n\n    ```text\n    loaded 12 rows\n    ```\n\nThe run loaded every row.\n'
    assert bench.flatten_markdown(markdown).split("\n") == ["Output", "loaded 12 rows", "The run loaded every row."]


def test_emphasis_marks_are_compared_away_on_both_sides(bench):
    """A label written as a page shows a paragraph a raw HTML block swallowed keeps its marks; the
    reader reads that text as Markdown (bench_claims_quality.matchable)."""
    assert bench.matchable("___Random forests___ are *de-correlated*, ran __2.5__ min with top_k") == \
        "Random forests are de-correlated, ran 2.5 min with top_k"
    assert bench.matchable("use **bold** and snake_case_name, 2 * 3 = 6") == "use bold and snake_case_name, 2 * 3 = 6"
