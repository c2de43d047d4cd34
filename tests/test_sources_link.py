"""Claim ↔ source links: only by a stated reason; topical similarity supports nothing."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from sources.link import ClaimLink, link_claims, mention_terms, source_text
from sources.lookup import lookup_sources
from sources.records import SourceRecord

SEED = Path("/work/shared/seeds/002_1cad392b6b549eb0.txt")
# the seed pack's candidate lines (section 4), so the test does not depend on the seed file
SEED_CANDIDATES = [
    ("Carbonell and Goldstein's MMR; the canonical diversity-aware selection reference.",
     "https://doi.org/10.1145/290941.291025"),
    ("Santos et al.'s xQuAD; explicit query-aspect diversification.",
     "https://doi.org/10.1145/1645953.1646012"),
    ("Gao et al.'s HyDE; an expansion technique whose diversity effects are worth comparing.",
     "https://arxiv.org/abs/2212.10496"),
    ("Pyserini; practical implementation of MMR and budgeted selection.",
     "https://github.com/castorini/pyserini"),
    ("RAGAS; downstream evaluation of whether diverse evidence helps task outcomes.",
     "https://arxiv.org/abs/2309.15217"),
]


def claim(claim_id, text):
    return SimpleNamespace(claim_id=claim_id, text=text)


@pytest.fixture
def seed_sources():
    candidates = [SimpleNamespace(description=d, url=u, line=i + 43)
                  for i, (d, u) in enumerate(SEED_CANDIDATES)]
    return lookup_sources(candidates, offline=True, cache_dir=None)


def test_mention_terms_from_descriptions(seed_sources):
    assert [[(t.text, t.case_sensitive) for t in mention_terms(s)] for s in seed_sources] == [
        [("Carbonell", True), ("Goldstein", True), ("MMR", True)],
        [("Santos", True), ("xQuAD", True)],
        [("Gao", True), ("HyDE", True)],
        [("Pyserini", False)],
        [("RAGAS", True)],
    ]


def test_mention_terms_from_verified_metadata():
    record = SourceRecord(kind="arxiv", identifier="9999.00001", description="an invented lead",
                          url="u", status="VERIFIED", reading_status="abstract only",
                          verified={"title": "HyPE: Hypothetical Passage Expansion",
                                    "authors": ["Cora Lindqvist", "Dev Anand Rao",
                                                "The Example Consortium", "Li"]})
    assert [t.text for t in mention_terms(record)] == ["Lindqvist", "Rao", "HyPE"]
    repo = SourceRecord(kind="github", identifier="example-org/example-repo", description="x",
                        url="u", reason="offline run: not looked up")
    assert [(t.text, t.case_sensitive) for t in mention_terms(repo)] == [("example-repo", False)]


def test_chapter_claims_link_by_mention_only(seed_sources):
    claims = [
        claim("C1", "Carbonell and Goldstein’s MMR work motivates trading query relevance "
                    "against similarity to already selected material."),
        claim("C2", "Relevance determines why a candidate is worth considering; diversity asks "
                    "what it adds to what has already been selected."),
        claim("C3", "Our greedy variant differs from xQuAD and from the pyserini defaults."),
        claim("C4", "An mmr-like rule and the word hyde in lower case are not mentions."),
    ]
    links = link_claims(claims, seed_sources)
    assert [(l.claim_id, l.source, l.kind, l.reason) for l in links] == [
        ("C1", "10.1145/290941.291025", "mention", "mentions 'Carbonell', 'Goldstein', 'MMR'"),
        ("C3", "10.1145/1645953.1646012", "mention", "mentions 'xQuAD'"),
        ("C3", "castorini/pyserini", "mention", "mentions 'Pyserini'"),
    ]
    assert all(l.source_status == "UNVERIFIED" for l in links)   # offline: leads only
    assert ClaimLink.from_dict(links[0].to_dict()) == links[0]


def test_shared_generic_words_are_topical_only():
    source = SourceRecord(kind="doi", identifier="10.9999/test.1", url="u",
                          description="An invented lead about budgeted evidence selection.",
                          reason="offline run: not looked up")
    [link] = link_claims([claim("C9", "Selection under a budgeted allowance of evidence.")],
                         [source])
    assert (link.kind, link.reason) == (
        "topical-only",
        "topical only — supports nothing (shares only the words 'budgeted', 'evidence', "
        "'selection')")


class FakeEncoder:
    """Unit-test double: each text gets a fixed 2-d direction at a chosen angle."""

    def __init__(self, angles):
        self.angles = angles
        self.calls = []

    def encode(self, texts):
        self.calls.append(list(texts))
        rows = []
        for text in texts:
            angle = next(a for key, a in self.angles.items() if key in text)
            rows.append([math.cos(angle), math.sin(angle)])
        return np.asarray(rows, dtype=np.float32)


def test_similarity_and_topical_thresholds():
    source = SourceRecord(kind="doi", identifier="10.9999/test.1", url="u", status="VERIFIED",
                          reading_status="abstract only", description="SOURCE lead.",
                          verified={"title": "Invented Title"})
    assert source_text(source) == "Invented Title. SOURCE lead."
    encoder = FakeEncoder({"SOURCE": 0.0, "close": math.acos(0.62), "near": math.acos(0.41),
                           "far": math.acos(0.10), "edge": math.acos(0.4951)})
    claims = [claim("A", "a close claim"), claim("B", "a near claim"), claim("C", "a far claim"),
              claim("D", "a close claim"), claim("E", "an edge claim")]
    links = link_claims(claims, [source], encoder=encoder)
    assert [(l.claim_id, l.kind, l.similarity, l.reason) for l in links] == [
        ("A", "similarity", 0.62, "embedding similarity 0.62 ≥ 0.50"),
        ("B", "topical-only", 0.41,
         "topical only — supports nothing (embedding similarity 0.41 < 0.50)"),
        ("D", "similarity", 0.62, "embedding similarity 0.62 ≥ 0.50"),
        ("E", "similarity", 0.5, "embedding similarity 0.50 ≥ 0.50"),  # rounded, then compared
    ]
    # one encode call, each distinct text once (claim A and D share a text)
    assert encoder.calls == [["a close claim", "a near claim", "a far claim", "an edge claim",
                              "Invented Title. SOURCE lead."]]


def test_mention_wins_over_similarity():
    source = SourceRecord(kind="doi", identifier="10.9999/test.1", url="u",
                          description="Quillfeather's BSE; SOURCE.", reason="r")
    encoder = FakeEncoder({"SOURCE": 0.0, "BSE": 0.0})
    [link] = link_claims([claim("A", "BSE keeps whole units.")], [source], encoder=encoder)
    assert (link.kind, link.reason, link.similarity) == ("mention", "mentions 'BSE'", 1.0)


def test_thresholds_validated():
    with pytest.raises(ValueError):
        link_claims([], [], similarity_threshold=0.3, topical_threshold=0.5)


def test_real_encoder_similarity(seed_sources):
    try:
        from engine.encoder.encode import EncoderConfig, load_encoder
        encoder = load_encoder(EncoderConfig(intra_op_threads=1))
    except Exception as exc:  # weights not installed in this environment
        pytest.skip(f"encoder unavailable: {exc}")
    claims = [claim("C1", "Maximal marginal relevance trades relevance against redundancy "
                          "with already selected documents."),
              claim("C2", "The allowance is measured in Unicode codepoints.")]
    links = link_claims(claims, seed_sources, encoder=encoder)
    texts = [c.text for c in claims] + [source_text(s) for s in seed_sources]
    vectors = encoder.encode(texts)
    for link in links:
        ci = [c.claim_id for c in claims].index(link.claim_id)
        si = [s.identifier for s in seed_sources].index(link.source)
        expected = round(float(np.dot(vectors[ci].astype(np.float64),
                                      vectors[2 + si].astype(np.float64))), 2)
        assert link.similarity == expected
        assert link.kind in ("similarity", "topical-only")
        if link.kind == "similarity":
            assert link.similarity >= 0.5 and link.reason.startswith("embedding similarity")
        else:
            assert link.reason.startswith("topical only — supports nothing")
    # the codepoint claim is about none of these sources
    assert not [l for l in links if l.claim_id == "C2" and l.kind == "similarity"]


def verified(description, authors, title="Budgeted Selection of Evidence Units", abstract=None):
    fields = {"title": title, "authors": authors}
    if abstract:
        fields["abstract"] = abstract
    return SourceRecord(kind="doi", identifier="10.9999/x", description=description, url="u",
                        status="VERIFIED", reading_status="abstract only", verified=fields)


def test_record_over_description_conflict_links_nothing():
    from sources.leads import conflicting_names, description_conflicts

    record = verified("Dimitrova et al.'s survey; a lead.", ["Richard Stanley", "Ana Windisch"])
    assert conflicting_names(record) == ["Dimitrova"]
    assert description_conflicts(record) == [
        "the pack's description names 'Dimitrova', who is not among the verified authors "
        "(Stanley, Windisch): the record is used and the description's name links nothing"]
    assert [t.text for t in mention_terms(record)] == ["Stanley", "Windisch"]
    links = link_claims([claim("C-1", "Dimitrova et al. show budgets matter."),
                         claim("C-2", "Stanley proved it.")], [record])
    assert [(l.claim_id, l.kind, l.reason) for l in links] == [("C-2", "mention", "mentions 'Stanley'")]
    # the same lead unverified is a lead: the description's name is used, flagged UNVERIFIED
    lead = SourceRecord(kind="doi", identifier="10.9999/x", description=record.description, url="u",
                        reason="offline run: not looked up")
    assert [t.text for t in mention_terms(lead)] == ["Dimitrova"]
    assert description_conflicts(lead) == []


def test_record_confirms_description_terms_and_names():
    from sources.leads import description_conflicts

    # accents and case folded; a suffix is not the surname; the method is in the abstract
    record = verified("Järvelin and Kekäläinen's HyDE; x.", ["Kalervo Jarvelin", "Jaana Kekalainen Jr."],
                      title="The use of MMR, diversity-based reranking", abstract="We call it HyDE.")
    assert description_conflicts(record) == []
    assert [t.text for t in mention_terms(record)] == ["Jarvelin", "Kekalainen", "HyDE", "MMR"]
    # a method the record does not confirm is not a term of a verified record
    unconfirmed = verified("Stanley's xQuAD; x.", ["Richard Stanley"])
    assert [t.text for t in mention_terms(unconfirmed)] == ["Stanley"]
