"""Primary-source search over the loopback HTTPS server: targets, queries, scores, cache, offline."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sources.names import parse_citation
from sources.search import (NOT_SEARCHED_OFFLINE, SearchTarget, claim_targets, score_hit,
                            search_sources)
from sources_server import SourcesServer
from support import point_sources_at, seed

SEED_002 = "002_1cad392b6b549eb0.txt"


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=True) as running:
        yield running


def row(claim_id, text, kind, names):
    return SimpleNamespace(claim_id=claim_id, text=text, kind=kind, cited_names=names)


CARBONELL = row("C-010-01", "Carbonell and Goldstein’s MMR work motivates trading relevance.",
                "attribution", ["Carbonell and Goldstein", "MMR"])


def test_targets_only_attributions_naming_a_person():
    rows = [CARBONELL, row("C-001-01", "MMR is greedy.", "method or definition", ["MMR"]),
            row("C-002-01", "Here's what SciFact does.", "attribution", ["Here", "SciFact"]),
            row("C-003-01", "as defined by Järvelin and Kekäläinen.", "attribution",
                ["NDCG", "Järvelin and Kekäläinen"])]
    targets = claim_targets(rows)
    assert [(t.target, t.names, t.terms) for t in targets] == [
        ("C-010-01", ("Carbonell", "Goldstein"), ("MMR",)),
        ("C-003-01", ("Järvelin", "Kekäläinen"), ("NDCG",))]
    assert targets[1].queries() == {"Crossref": "Järvelin Kekäläinen NDCG",
                                    "arXiv": "au:Jarvelin AND au:Kekalainen AND all:NDCG"}


def test_citation_parse_and_queries():
    parsed = parse_citation("Robertson and Zaragoza (2009). The Probabilistic Relevance "
                            "Framework: BM25 and Beyond. Foundations and Trends.")
    assert (parsed.names, parsed.year, parsed.title) == (
        ["Robertson", "Zaragoza"], "2009", "The Probabilistic Relevance Framework: BM25 and Beyond")
    assert parse_citation("Jones, K. and Brown, L. (2019). Budgeted selection.").names == [
        "Jones", "Brown"]
    assert not parse_citation("see notes").searchable
    target = SearchTarget("line 9", "x", ("Robertson", "Zaragoza"), (), parsed.title, parsed.year)
    assert target.queries() == {
        "Crossref": "Robertson Zaragoza The Probabilistic Relevance Framework: BM25 and Beyond 2009",
        "arXiv": 'au:Robertson AND au:Zaragoza AND ti:"The Probabilistic Relevance Framework BM25 '
                 'and Beyond"'}


def test_scores_hand_computed():
    [target] = claim_targets([CARBONELL])
    # both names and the term: (1 + 1) / 2
    assert score_hit(target, {"title": "The use of MMR here", "authors": ["Jaime G. Carbonell",
                                                                          "Jade Goldstein"]}) == (100.0, 1.0, 1.0)
    # one name of two (a suffix is not a name), term absent: (0.5 + 0) / 2
    assert score_hit(target, {"title": "Other", "authors": ["Jade Goldstein Jr."]}) == (25.0, 0.5, 0.0)
    # the term may be found in the abstract; no authors listed: (0 + 1) / 2
    assert score_hit(target, {"title": "T", "abstract": "uses mmr."}) == (50.0, 0.0, 1.0)
    # a citation title: token_set_ratio of title words (a subset scores 100); names fold accents
    cited = SearchTarget("line 1", "x", ("Jarvelin",), (), "Cumulated gain evaluation", None)
    assert score_hit(cited, {"title": "Cumulated gain-based evaluation",
                             "authors": ["Kalervo Järvelin"]})[1] == 1.0
    assert score_hit(cited, {"title": "Cumulated gain evaluation of IR techniques",
                             "authors": []}) == (50.0, 0.0, 1.0)


def test_seed_002_online_finds_a_candidate_with_its_score(server, monkeypatch, tmp_path, cli):
    server.reset()
    point_sources_at(server, monkeypatch)
    pack = seed(SEED_002)
    out = tmp_path / "report.md"
    result = cli("report", pack, "--output", out, "--log", tmp_path / "log.jsonl",
                 "--sources-cache", tmp_path / "cache", "--date", "2026-11-30")
    assert result.exit_code == 0, result.output
    assert server.hits["/crossref/works?query.bibliographic=Carbonell%20Goldstein%20MMR&rows=5"] == 1
    text = out.read_text(encoding="utf-8")
    ledger = text.split("## 3. Source ledger")[1].split("## 4.")[0]
    rows = [line for line in ledger.splitlines() if line.startswith("| found by search")]
    assert len(rows) == 2
    cells = [c.strip() for c in rows[0].strip("|").split(" | ")]
    assert cells[0] == "found by search for C-010-01: doi:10.9999/mmr.1"
    assert cells[1] == ("authors: Jaime Carbonell, Jade Goldstein; container_title: Proceedings of an "
                        "Invented Conference; doi: 10.9999/mmr.1; issued: 1998-08; title: Invented MMR "
                        "re-ranking for test fixtures")
    assert cells[2:5] == ["https://doi.org/10.9999/mmr.1", "abstract only",
                          "C-010-01: candidate: confirm before citing (query 'Carbonell Goldstein MMR' "
                          "on Crossref, score 100.0 of 100)"]
    assert cells[5].startswith("found by search, not named by the pack")
    # the second hit: a <i> title and a "Jr." author, markup gone, suffix kept, DOI as given
    assert "authors: Jade Goldstein Jr.; doi: 10.9999/mmr.2; issued: 2001; title: MMR for invented " \
           "summaries" in rows[1] and "score 75.0 of 100" in rows[1]
    assert "&lt;i&gt;" not in text and "<i>" not in text
    # never support: the claim stays without evidence, the candidate is to be confirmed
    claim_row = next(line for line in text.splitlines() if line.startswith('| <a id="c-010-01"></a>C-010-01 |'))
    assert "| none held — UNVERIFIED |" in claim_row
    assert "confirm the found-by-search candidate (doi:10.9999/mmr.1, doi:10.9999/mmr.2)" in claim_row
    # an item without a DOI is never given one
    assert "An item with no DOI" not in text and "10.9999/untitled" not in text


def test_seed_002_offline_says_not_searched(server, monkeypatch, tmp_path, cli):
    server.reset()
    point_sources_at(server, monkeypatch)
    out = tmp_path / "report.md"
    result = cli("report", seed(SEED_002), "--offline", "--output", out, "--log", tmp_path / "log.jsonl",
                 "--sources-cache", tmp_path / "cache", "--date", "2026-11-30")
    assert result.exit_code == 0 and server.total_hits == 0
    text = out.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| primary-source search for C-010-01"))
    assert "| not searched (offline) (queries Crossref: 'Carbonell Goldstein MMR'; arXiv: " \
           "'au:Carbonell AND au:Goldstein AND all:MMR') | none | not accessible | C-010-01: no candidate |" in row
    assert "- \\[C-010-01\\] primary-source search: not searched (offline)." in text


def test_cache_offline_refresh_and_failures(server, tmp_path):
    server.reset()
    targets = claim_targets([CARBONELL, row("C-011-01", "Failing said so.", "attribution",
                                            ["Failing"])])
    kwargs = dict(cache_dir=tmp_path, endpoints=server.endpoints(), client_config=server.client_config())
    first = search_sources(targets, offline=False, **kwargs)
    assert [h.record.identifier for h in first[0].hits] == ["10.9999/mmr.1", "10.9999/mmr.2"]
    assert first[0].examined == 5 and first[0].summary == (
        "searched Crossref and arXiv: 5 hits examined, 2 scored ≥ 60")
    assert first[1].summary == ("searched arXiv: 0 hits examined, none scored ≥ 60; "
                                "Crossref: HTTP 503 after 3 attempts")
    hits = server.total_hits
    offline = search_sources(targets, offline=True, **kwargs)
    assert server.total_hits == hits
    assert offline[0].from_cache and [h.score for h in offline[0].hits] == [100.0, 75.0]
    assert offline[1].summary == "searched arXiv: 0 hits examined, none scored ≥ 60 (from cache)"
    assert search_sources(targets[:1], offline=True, cache_dir=tmp_path / "empty")[0].status == \
        NOT_SEARCHED_OFFLINE
    again = search_sources(targets, offline=False, **kwargs)
    assert server.total_hits == hits + 3   # only the failed Crossref search is asked again (3 attempts)
    search_sources(targets[:1], offline=False, refresh=True, **kwargs)
    assert server.total_hits == hits + 5
    assert again[0].hits[0].record.from_cache
