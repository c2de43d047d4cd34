"""Every candidate line of a pack becomes one candidate, in order; nothing is dropped."""

from __future__ import annotations

from audit.candidates import find_identifiers, parse_candidate
from audit.pack import parse_pack

PACK = """== 1. Identity ==
Book: Invented

== 2. Chapter text ==
Prose.

== 3. Existing references and bibliography ==
No references are recorded against this chapter yet.
- Robertson and Zaragoza (2009). The Probabilistic Relevance Framework: BM25 and Beyond.
- Some notes we cannot place

== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- A liver study. (https://doi.org/10.1016/S0168-8278(03)80643-8)
- Eigenvalue page. (https://en.wikipedia.org/wiki/Eigenvalue_(linear_algebra)).
- Markup work 10.9999/markup, bare
- Hypothetical lead, doi:10.9999/test.1.
- HyPE preprint, arXiv:9999.00001v1
- An arxiv page (https://arxiv.org/abs/9999.00001)
- Transferred repo (https://github.com/old-owner/example-repo)
- Paper with code (https://doi.org/10.9999/test.1; code https://github.com/example-org/example-repo)
- A lead whose URL is on the
  next, indented line (https://example.org/next)
See also https://example.org/loose for a lead outside the list.
"""


def test_one_candidate_per_line_in_order():
    pack = parse_pack(PACK, source_path="p.txt")
    got = [(c.line, c.section, c.url, c.description) for c in pack.candidate_sources]
    assert got == [
        (9, "references", "",
         "Robertson and Zaragoza (2009). The Probabilistic Relevance Framework: BM25 and Beyond."),
        (10, "references", "", "Some notes we cannot place"),
        (14, "existing_evidence", "https://doi.org/10.1016/S0168-8278(03)80643-8", "A liver study."),
        (15, "existing_evidence", "https://en.wikipedia.org/wiki/Eigenvalue_(linear_algebra)",
         "Eigenvalue page."),
        (16, "existing_evidence", "10.9999/markup", "Markup work, bare"),
        (17, "existing_evidence", "doi:10.9999/test.1", "Hypothetical lead."),
        (18, "existing_evidence", "arXiv:9999.00001v1", "HyPE preprint"),
        (19, "existing_evidence", "https://arxiv.org/abs/9999.00001", "An arxiv page"),
        (20, "existing_evidence", "https://github.com/old-owner/example-repo", "Transferred repo"),
        (21, "existing_evidence", "https://doi.org/10.9999/test.1", 
         "Paper with code (code https://github.com/example-org/example-repo)"),
        (22, "existing_evidence", "https://example.org/next",
         "A lead whose URL is on the next, indented line"),
        (24, "existing_evidence", "https://example.org/loose", "See also for a lead outside the list."),
    ]
    assert pack.candidate_sources[9].also == ("https://github.com/example-org/example-repo",)
    assert all(c.also == () for i, c in enumerate(pack.candidate_sources) if i != 9)


def test_seed_form_is_unchanged():
    line = ("Carbonell and Goldstein's MMR; the canonical diversity-aware selection reference. "
            "(https://doi.org/10.1145/290941.291025)")
    candidate = parse_candidate(line, 43)
    assert (candidate.description, candidate.url, candidate.also) == (
        "Carbonell and Goldstein's MMR; the canonical diversity-aware selection reference.",
        "https://doi.org/10.1145/290941.291025", ())


def test_identifier_spans():
    text = "x (https://a.org/p_(q)) and doi: 10.1002/(SICI)1097-4571 then arXiv:hep-th/9901001v2."
    assert [(v, api) for _, _, v, api in find_identifiers(text)] == [
        ("https://a.org/p_(q)", False), ("doi:10.1002/(SICI)1097-4571", True),
        ("arXiv:hep-th/9901001v2", True)]
    # a bare DOI inside a URL is the URL's, not a second identifier
    assert [v for _, _, v, _ in find_identifiers("see https://doi.org/10.1/x.")] == [
        "https://doi.org/10.1/x"]


def test_long_whitespace_line_is_linear():
    # 100,000 spaces inside a candidate line: parsed (no catastrophic backtracking)
    candidate = parse_candidate("lead" + " " * 100_000 + "(https://example.org/a)", 1)
    assert (candidate.description, candidate.url) == ("lead", "https://example.org/a")


def test_unparseable_url_is_a_url_record_not_a_crash():
    from sources.lookup import lookup_sources

    candidate = parse_candidate("bad (https://[::1/x)", 4)
    assert (candidate.description, candidate.url) == ("bad", "https://[::1/x")
    [record] = lookup_sources([candidate], offline=True, cache_dir=None)
    assert (record.kind, record.identifier, record.status) == ("url", "https://[::1/x", "UNVERIFIED")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from([
    "Smith and Jones (2020). A title.", "(https://doi.org/10.1/x(1)2)", "doi:10.5555/abc", "10.5555/d",
    "arXiv:2101.00001v2", "https://github.com/o/r", "https://example.org/a_(b)", "(", ")", "[", "]",
    ";", ".", "et al.'s", "é", "  ", "<i>x</i>", "https://[::1/x", "\t"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_PIECES, min_size=1, max_size=6).map(" ".join), min_size=1, max_size=8))
def test_every_list_line_gives_exactly_one_candidate(items):
    lines = [f"- {item}" for item in items]
    pack = parse_pack("== 1. Chapter text ==\nProse.\n== 2. Existing evidence ==\n" + "\n".join(lines) + "\n")
    expected = [index + 4 for index, item in enumerate(items) if item.strip()]
    assert [c.line for c in pack.candidate_sources] == expected
    for candidate in pack.candidate_sources:
        # the identifier is part of the line, and nothing but whitespace is lost from the text
        assert candidate.url.replace("doi:", "").replace("arXiv:", "") in candidate.text.replace(" ", "") \
            or candidate.url.replace("doi:", "").replace("arXiv:", "") in candidate.text
