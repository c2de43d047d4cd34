"""A chapter's own references: reference list, footnotes, links, BibTeX / CSL-JSON, cited by position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.pack import load_pack
from claims.extract import claims_for_pack
from engine.runs.errors import InputError
from sources.references import chapter_references

DATA = Path(__file__).parent / "data" / "references"
BANDIT = DATA / "lilianweng-2018-01-23-the-multi-armed-bandit-problem-and-its-solutions.md"

CHAPTER = """# Title

Dense retrieval was introduced by [Karpukhin et al.](https://arxiv.org/abs/2004.04906) in 2020. It beats BM25 by 9 points.[^1] Pyserini is at <https://github.com/castorini/pyserini>.

Another paragraph cites doi:10.1145/290941.291025 and reference [2]. BM25 is standard [@robertson2009].

<br />
An HTML block hides [a link](https://example.org/hidden).

## References

1. Robertson, S. and Zaragoza, H. (2009). The Probabilistic Relevance Framework. https://doi.org/10.1561/1500000019
2. Thakur et al. [BEIR](https://arxiv.org/abs/2104.08663). 2021.

[^1]: A footnote naming arXiv:2104.08663.
"""


def refs_of(path: Path, keyed=None):
    pack = load_pack(path)
    _, claims, _ = claims_for_pack(pack)
    return chapter_references(pack.chapter_text, claims, pack.chapter_text_line, keyed=keyed), claims


def test_entries_links_and_footnotes_become_candidates_cited_by_position(tmp_path):
    page = tmp_path / "chapter.md"
    page.write_text(CHAPTER, encoding="utf-8")
    refs, claims = refs_of(page, keyed={"robertson2009": 99})
    got = [(origin, c.url, c.line) for origin, c in zip(refs.origins, refs.candidates)]
    assert got == [
        ("reference [1]", "https://doi.org/10.1561/1500000019", 12),
        ("reference [2]", "https://arxiv.org/abs/2104.08663", 13),
        ("footnote [^1]", "arXiv:2104.08663", 15),
        ("link", "https://arxiv.org/abs/2004.04906", 3),
        ("link", "https://github.com/castorini/pyserini", 3),
        ("link", "doi:10.1145/290941.291025", 5),
        ("link", "https://example.org/hidden", 7),
    ]
    text = {c.claim_id: c.text for c in claims}
    cited = [(text[c.claim_id], c.index, c.marker) for c in refs.citations]
    assert cited == [
        ("Dense retrieval was introduced by Karpukhin et al. in 2020.", 3, "link ‘Karpukhin et al.’"),
        ("It beats BM25 by 9 points.", 2, "footnote [^1]"),      # the marker after the full stop
        ("Pyserini is at https://github.com/castorini/pyserini.", 4,
         "link ‘https://github.com/castorini/pyserini’"),
        ("Another paragraph cites doi:10.1145/290941.291025 and reference [2].", 5,
         "identifier doi:10.1145/290941.291025"),
        ("Another paragraph cites doi:10.1145/290941.291025 and reference [2].", 1, "reference marker [2]"),
        ("BM25 is standard [@robertson2009].", 99, "citation key @robertson2009"),
    ]
    assert all(c.how == "position" for c in refs.citations)


def test_a_real_page_reference_marker_and_links_by_position():
    refs, claims = refs_of(BANDIT)
    assert refs.origins[:4] == ["reference [1]", "reference [2]", "reference [3]", "reference [4]"]
    assert refs.candidates[3].url == "https://arxiv.org/pdf/1707.02038.pdf"
    assert refs.candidates[3].also == ("arXiv:1707.02038",)
    text = {c.claim_id: c.text for c in claims}
    tutorial = next(c for c in refs.citations if c.marker == "link ‘tutorial’")
    assert text[tutorial.claim_id] == "This tutorial presents a comprehensive review; strongly recommend it if you want to learn more about Thompson sampling."
    assert tutorial.index == 3 and tutorial.line == 227   # the prose link cites reference [4], not a new record
    assert len(refs.candidates) == 16


def test_report_ledger_holds_the_real_page_identifiers(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_references", Path(__file__).parents[1] / "bench" /
                                                  "bench_references.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    total, held, missing = bench.held(BANDIT)
    assert (total, held, missing) == (16, 16, [])


BIB = """@article{robertson2009,
  author = {Robertson, Stephen and Zaragoza, Hugo},
  title = {The Probabilistic Relevance Framework: {BM25} and Beyond},
  journal = {Foundations and Trends in Information Retrieval},
  year = {2009},
  doi = {10.1561/1500000019}
}

@misc{thakur2021beir,
  author = {Thakur, Nandan and Reimers, Nils},
  title = {BEIR},
  year = {2021},
  eprint = {2104.08663},
  archivePrefix = {arXiv}
}

@book{manning2008,
  author = {Manning, Christopher D.},
  title = {Introduction to Information Retrieval},
  year = {2008},
  publisher = {Cambridge University Press}
}
"""


def test_bibtex_and_csl_json_entries(tmp_path):
    from sources.bibfile import read_bibliography

    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    entries = read_bibliography(bib)
    assert [(e.key, e.candidate.url, e.candidate.line) for e in entries] == [
        ("robertson2009", "doi:10.1561/1500000019", 1), ("thakur2021beir", "arXiv:2104.08663", 9),
        ("manning2008", "", 17)]
    assert entries[0].candidate.description == ("Stephen Robertson, Hugo Zaragoza (2009). The Probabilistic "
                                                "Relevance Framework: BM25 and Beyond. Foundations and Trends in "
                                                "Information Retrieval.")
    csl = tmp_path / "refs.json"
    csl.write_text(json.dumps([
        {"id": "jarvelin2002", "type": "article-journal", "DOI": "10.1145/582415.582418",
         "title": "Cumulated gain-based evaluation of IR techniques",
         "author": [{"family": "Järvelin", "given": "Kalervo"}, {"family": "Kekäläinen", "given": "Jaana"}],
         "issued": {"date-parts": [[2002, 10]]}, "container-title": "ACM TOIS"},
        {"id": "dpr", "URL": "https://arxiv.org/abs/2004.04906", "title": "Dense Passage Retrieval"}], indent=1),
        encoding="utf-8")
    entries = read_bibliography(csl)
    assert [(e.key, e.candidate.url) for e in entries] == [("jarvelin2002", "doi:10.1145/582415.582418"),
                                                           ("dpr", "arXiv:2004.04906")]
    assert entries[0].candidate.description.startswith("Kalervo Järvelin, Jaana Kekäläinen (2002). Cumulated")
    bad = tmp_path / "bad.bib"
    bad.write_text("@article{x, title = {unclosed\n", encoding="utf-8")
    with pytest.raises(InputError, match="bad.bib"):
        read_bibliography(bad)


def test_report_with_a_bibliography_file_cites_by_key(tmp_path, cli):
    chapter = tmp_path / "chapter.md"
    chapter.write_text("# Budgets\n\nBM25 was popularised by Robertson and Zaragoza [@robertson2009].\n"
                       "Dense retrieval is not evaluated here.\n", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    out = tmp_path / "r.md"
    result = cli("report", chapter, "--references", bib, "--output", out, "--offline", "--log",
                 tmp_path / "l.jsonl", "--sources-cache", tmp_path / "c", "--date", "2026-12-01", "--no-search")
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    ledger = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    assert ledger.lstrip().startswith("3 candidate lines, 3 records (0 from the pack, 3 from the chapter's own")
    row = next(line for line in ledger.splitlines() if "S-1 " in line)
    assert "doi:10.1561/1500000019 — refs.bib (BibTeX) @robertson2009 at line 1:" in row
    assert "C-001-01: cites it: citation key @robertson2009 at line 3" in row
    claims = text.split("## 2. Claim audit")[1].split("## 3.")[0]
    assert "doi:10.1561/1500000019 (cites it: citation key @robertson2009 at line 3; source UNVERIFIED)" in claims


def test_a_cited_verified_record_backs_an_attribution_and_an_unverified_one_is_named():
    from types import SimpleNamespace

    from reports.assess import assess_claim

    claim = SimpleNamespace(claim_id="C-001-01", kind="attribution", text="DrQA (Chen et al., 2017) is a reader.",
                            quantities=[], cited_names=["Chen et al."], paragraph=1, sentence=1)
    link = SimpleNamespace(claim_id="C-001-01", source="1704.00051", source_kind="arxiv", kind="cites",
                           reason="cites it: link ‘Chen et al., 2017’ at line 3")
    verified = SimpleNamespace(kind="arxiv", identifier="1704.00051", status="VERIFIED", verified={}, reason=None)
    a = assess_claim(claim, [], [link], {"arxiv:1704.00051": verified})
    assert (a.evidence_class, a.priority, a.response) == ("reported by a source", "low", "keep; check the cited passage")
    offline = SimpleNamespace(kind="arxiv", identifier="1704.00051", status="UNVERIFIED", verified={},
                              reason="offline run: not looked up")
    a = assess_claim(claim, [], [link], {"arxiv:1704.00051": offline})
    assert a.priority == "medium" and a.concern == ("attributes to Chen et al.; the sentence cites arxiv:1704.00051, "
                                                    "whose record is UNVERIFIED (offline run: not looked up)")


def test_sources_command_reads_the_chapter_and_its_bibliography(tmp_path, cli):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    result = cli("sources", BANDIT, "--references", bib, "--offline", "--no-search", "--format", "json",
                 "--sources-cache", tmp_path / "c")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["candidate_lines"] == 19 and len(data["records"]) == 19   # 16 from the page, 3 from the file
    # the bibliography file's entries first, then the page's reference list in order
    assert [(r["kind"], r["identifier"]) for r in data["records"][:4]] == [
        ("doi", "10.1561/1500000019"), ("arxiv", "2104.08663"), ("citation", data["records"][2]["description"]),
        ("url", "http://cs229.stanford.edu/extra-notes/hoeffding.pdf")]
    kinds = {(r["kind"], r["identifier"]) for r in data["records"]}
    assert ("arxiv", "1707.02038") in kinds and ("doi", "10.1561/1500000019") in kinds


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = st.sampled_from(["[a](https://arxiv.org/abs/2101.00001)", "[^1]", "[^x]", "[2]", "[@key]", "@key", "<br />",
                          "<https://github.com/a/b>", "doi:10.1000/x", "## References", "1. ", "[^1]: note ",
                          "`code`", "```\n", "| a | b |", "text.", " ", "\n", "\n\n", "![img](https://x.org/i.png)",
                          "[", "]", "(", ")", "https://example.org/a_(b)", "é", "\t"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, min_size=1, max_size=40).map("".join))
def test_any_markdown_gives_valid_candidates_and_citations(text):
    """No input crashes the reader; every citation names a real candidate and a real claim row."""
    from claims.extract import extract_claims

    claims = extract_claims("# T\n\n" + text, "block")
    refs = chapter_references("# T\n\n" + text, claims, 1, keyed={"key": 0})
    ids = {c.claim_id for c in claims}
    for citation in refs.citations:
        assert citation.claim_id in ids
        assert citation.index == 0 and citation.marker.startswith("citation key") or \
            0 <= citation.index < len(refs.candidates)
    assert len(refs.origins) == len(refs.candidates)


def test_a_text_pack_cites_a_bibliography_key(tmp_path):
    from reports.build import ReportOptions, build_report_inputs

    pack = tmp_path / "pack.txt"
    pack.write_text("== 1. Identity ==\nBook: B\nChapter: C\n\n== 2. Chapter text ==\n"
                    "BM25 was popularised by Robertson and Zaragoza [@robertson2009].\n", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    inputs = build_report_inputs(ReportOptions(pack=pack, output=tmp_path / "r.md", log=tmp_path / "l.jsonl",
                                               references=(bib,), sources_cache=tmp_path / "c", offline=True,
                                               search=False))
    cites = [(l.claim_id, l.source_kind, l.source, l.reason) for l in inputs.links if l.kind == "cites"]
    assert cites == [("C-001-01", "doi", "10.1561/1500000019", "cites it: citation key @robertson2009 at line 6")]


WRAPPED = """# Title

Dense retrieval was introduced in 2020. It beats
BM25 by 9 points [1]. The gap is
largest on entity questions [2].

## References

1. Karpukhin, V. et al. (2020). Dense Passage Retrieval. It was
   published at EMNLP. https://arxiv.org/abs/2004.04906
2. Thakur et al. (2021). BEIR. https://arxiv.org/abs/2104.08663
"""


def test_a_hard_wrapped_paragraph_cites_by_position_and_its_entries_are_no_claims(tmp_path):
    """Rows carry the line their sentence starts on (tests/test_row_lines.py): the citations of a
    paragraph's later lines still find their sentences, and every sentence of a two-sentence
    reference entry is a source, not a claim to search."""
    from sources.check import report_candidates

    page = tmp_path / "chapter.md"
    page.write_text(WRAPPED, encoding="utf-8")
    refs, claims = refs_of(page)
    text = {c.claim_id: (c.text, c.line) for c in claims}
    assert [(text[c.claim_id], c.marker) for c in refs.citations] == [
        (("It beats BM25 by 9 points [1].", 3), "reference marker [1]"),
        (("The gap is largest on entity questions [2].", 4), "reference marker [2]"),
    ]
    pack = load_pack(page)
    document, rows, _ = claims_for_pack(pack)
    _, searchable, _ = report_candidates(pack, document, rows)
    assert [c.text for c in searchable] == ["Dense retrieval was introduced in 2020.",
                                            "It beats BM25 by 9 points [1].",
                                            "The gap is largest on entity questions [2]."]
