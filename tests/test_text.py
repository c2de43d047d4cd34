"""Tokenizer: the recorded pattern, case folding, hyphen/apostrophe joins, document text."""

from __future__ import annotations

import re

import pytest

from engine.retrieval.text import TOKEN_PATTERN, document_text, tokenize, tokenizer_description


def test_pattern_is_the_declared_one():
    assert TOKEN_PATTERN == r"[a-z0-9]+(?:[-'][a-z0-9]+)?"
    assert tokenizer_description() == {"pattern": TOKEN_PATTERN, "flags": "IGNORECASE",
                                       "lowercase": True, "document_text": 'title + " " + text'}


@pytest.mark.parametrize("text, tokens", [
    ("HELLO World", ["hello", "world"]),
    ("Held-out data", ["held-out", "data"]),          # one join: a single token
    ("held out", ["held", "out"]),
    ("don't", ["don't"]),
    ("a-b-c", ["a-b", "c"]),                           # at most one joiner per token
    ("rock'n'roll", ["rock'n", "roll"]),
    ("X--y", ["x", "y"]),                              # a double hyphen separates
    ("k1=1.2", ["k1", "1", "2"]),
    ("-lead trail-", ["lead", "trail"]),
    ("café naïve", ["caf", "na", "ve"]),               # English-oriented: non-ASCII separates
    ("", []),
    ("?!", []),
])
def test_tokenize(text, tokens):
    assert tokenize(text) == tokens


def test_repeats_are_kept_in_order():
    assert tokenize("Query the query QUERY") == ["query", "the", "query", "query"]


def test_matches_the_plain_regex_lowercased():
    text = "Sampling Topics by Strata: keep a held-out slice, don't re-use it."
    assert tokenize(text) == [m.lower() for m in re.findall(TOKEN_PATTERN, text, re.IGNORECASE)]


def test_document_text_joins_title_and_text_with_one_space():
    assert document_text("Negative controls", "Across the strata") == "Negative controls Across the strata"
    # the join matters: without the space "controls" and "Across" would fuse
    assert tokenize(document_text("a", "b")) == ["a", "b"]
