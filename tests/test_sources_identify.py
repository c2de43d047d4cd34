"""URL → DOI / arXiv id (version kept) / GitHub repository / plain URL; records round-trip."""

from __future__ import annotations

import pytest

from engine.runs.errors import InputError
from sources.identify import identify
from sources.records import SourceRecord


@pytest.mark.parametrize("url, kind, identifier", [
    # the seed pack's five candidate URLs
    ("https://doi.org/10.1145/290941.291025", "doi", "10.1145/290941.291025"),
    ("https://doi.org/10.1145/1645953.1646012", "doi", "10.1145/1645953.1646012"),
    ("https://arxiv.org/abs/2212.10496", "arxiv", "2212.10496"),
    ("https://github.com/castorini/pyserini", "github", "castorini/pyserini"),
    ("https://arxiv.org/abs/2309.15217", "arxiv", "2309.15217"),
    # DOI forms: case folded, percent-decoded, publisher /doi/ paths, doi: strings
    ("https://dx.doi.org/10.1000/ABC.Def", "doi", "10.1000/abc.def"),
    ("http://doi.org/10.1000/a%2Fb", "doi", "10.1000/a/b"),
    ("https://dl.acm.org/doi/abs/10.1145/1645953.1646012", "doi", "10.1145/1645953.1646012"),
    ("https://onlinelibrary.wiley.com/doi/pdf/10.1002/asi.1234", "doi", "10.1002/asi.1234"),
    ("doi:10.1145/290941.291025", "doi", "10.1145/290941.291025"),
    ("https://doi.org/10.1000/xyz123.", "doi", "10.1000/xyz123"),
    # arXiv: versions kept, never added; pdf/html paths; old-style ids; arXiv DataCite DOIs
    ("https://arxiv.org/abs/2212.10496v2", "arxiv", "2212.10496v2"),
    ("https://arxiv.org/pdf/2212.10496v1.pdf", "arxiv", "2212.10496v1"),
    ("https://www.arxiv.org/html/2309.15217v3", "arxiv", "2309.15217v3"),
    ("https://export.arxiv.org/abs/hep-th/9901001", "arxiv", "hep-th/9901001"),
    ("arXiv:2212.10496", "arxiv", "2212.10496"),
    ("https://doi.org/10.48550/arXiv.2212.10496", "arxiv", "2212.10496"),
    # GitHub: owner/repo lower-cased, deeper paths and .git ignored, site sections are not repos
    ("https://github.com/Castorini/Pyserini.git", "github", "castorini/pyserini"),
    ("https://github.com/castorini/pyserini/blob/master/README.md", "github", "castorini/pyserini"),
    ("https://github.com/features/copilot", "url", "https://github.com/features/copilot"),
    ("https://github.com/castorini", "url", "https://github.com/castorini"),
    # everything else
    ("https://colab.research.google.com/github/x/y/blob/main/n.ipynb", "url",
     "https://colab.research.google.com/github/x/y/blob/main/n.ipynb"),
    ("https://arxiv.org/list/cs.IR/recent", "url", "https://arxiv.org/list/cs.IR/recent"),
])
def test_identify(url, kind, identifier):
    found = identify(url)
    assert (found.kind, found.identifier, found.url) == (kind, identifier, url)


def test_identify_rejects_empty():
    with pytest.raises(InputError):
        identify("   ")


def test_record_round_trip_and_invariants():
    record = SourceRecord(kind="doi", identifier="10.9999/test.1", description="d",
                          url="https://doi.org/10.9999/test.1", status="VERIFIED",
                          reading_status="abstract only", verified={"title": "T", "issued": "2001"},
                          attempts=1, line=4)
    assert SourceRecord.from_dict(record.to_dict()) == record
    assert record.key == "doi:10.9999/test.1" and record.title == "T" and record.date == "2001"
    with pytest.raises(ValueError, match="must say why"):
        SourceRecord(kind="doi", identifier="x", description="", url="u")
    with pytest.raises(ValueError, match="status"):
        SourceRecord(kind="doi", identifier="x", description="", url="u", status="FABRICATED",
                     reason="r")
    with pytest.raises(InputError, match="unknown source-record fields"):
        SourceRecord.from_dict({**record.to_dict(), "extra": 1})
