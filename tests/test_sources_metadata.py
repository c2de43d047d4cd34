"""Clean metadata: markup stripped, name suffixes kept, values in words, renames noted."""

from __future__ import annotations

import json

import pytest

from reports.assess import metadata_text
from sources.crossref import author_name, parse, parse_search
from sources.markup import clean_abstract, strip_markup
from sources.names import surname
from sources.records import SourceRecord


@pytest.mark.parametrize("raw, clean", [
    ("The use of <i>MMR</i>,  diversity-based reranking", "The use of MMR, diversity-based reranking"),
    ("CO<sub>2</sub> and H<sup>+</sup>", "CO2 and H+"),
    ("<jats:title>Results</jats:title><jats:p>First.</jats:p><jats:p>Second.</jats:p>", "Results First. Second."),
    ("Budgets &amp; caps", "Budgets & caps"),
    ("escaped &lt;i&gt;tag&lt;/i&gt; text", "escaped tag text"),
    ("k < n and n > 2", "k < n and n > 2"),
    ('<span class="x">styled</span> text', "styled text"),
])
def test_strip_markup(raw, clean):
    assert strip_markup(raw) == clean


def test_abstract_heading_dropped():
    assert clean_abstract("<jats:title>Abstract</jats:title><jats:p>We test.</jats:p>") == "We test."
    assert clean_abstract("Abstractions are useful.") == "Abstractions are useful."


def test_crossref_suffix_markup_and_search_items():
    assert author_name({"given": "Frederick P.", "family": "Brooks", "suffix": "Jr."}) == \
        "Frederick P. Brooks Jr."
    assert author_name({"name": "The Example Consortium"}) == "The Example Consortium"
    assert author_name({"given": "Only"}) is None
    assert surname("Frederick P. Brooks Jr.") == "Brooks" and surname("Henry Ford III") == "Ford"
    body = json.dumps({"status": "ok", "message": {
        "DOI": "10.9999/A", "title": ["A <i>marked</i> title"],
        "author": [{"given": "Ann", "family": "Lee", "suffix": "Sr."}]}}).encode()
    assert parse(body, "10.9999/a") == {"title": "A marked title", "doi": "10.9999/a",
                                        "authors": ["Ann Lee Sr."]}
    search = json.dumps({"status": "ok", "message": {"items": [
        {"title": ["no DOI"]}, {"DOI": "10.9999/B", "title": []},
        {"DOI": "10.9999/C", "title": ["<b>Kept</b>"]}, "not an object"]}}).encode()
    assert parse_search(search) == [("10.9999/c", {"title": "Kept", "doi": "10.9999/c"})]


def test_metadata_in_words():
    assert metadata_text({"archived": False, "description": None, "license": None, "fork": True,
                          "topics": [], "homepage": "", "stars": 3}) == (
        "archived: no; description: none; fork: yes; homepage: empty; license: none; stars: 3; "
        "topics: empty")


def test_rename_note():
    moved = SourceRecord(kind="github", identifier="old-owner/example-repo", description="", url="u",
                         status="VERIFIED", reading_status="abstract only",
                         verified={"full_name": "example-org/example-repo"})
    assert moved.renamed == "old-owner/example-repo → example-org/example-repo"
    same = SourceRecord(kind="github", identifier="example-org/example-repo", description="", url="u",
                        status="VERIFIED", reading_status="abstract only",
                        verified={"full_name": "Example-Org/Example-Repo"})
    assert same.renamed is None
