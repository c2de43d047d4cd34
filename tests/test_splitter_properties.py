"""The sentence splitter (``claims.extract.sentence_spans``) as a property over generated prose.

Paragraphs are built from sentences of technical prose whose inside holds the shapes a splitter
trips on (abbreviations ``e.g.``, ``i.e.``, ``et al.``, ``Fig. 3``, ``Eq. (2)``, ``vs.``,
``approx.``, ``No. 5``, ``Sec. 4.1``, versions ``v1.2``, decimals, file names ``config.yaml``,
URLs, ``U.S.``, initials ``J. R. R. Tolkien``, inline code, ellipses) and whose end may be closed by
a quote or a bracket; the splitter must give back exactly the sentences that were joined, and
never lose or reorder a character.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from claims.extract import sentence_spans, split_sentences

OPENERS = ["The index", "We", "Our model", "This run", "In practice the cache", "Results", "Smith",
           "BM25", "It", "Each shard", "bitnet.cpp", "vLLM", "Training", "A second pass", "Most queries",
           "Retrieval", "The U.S. team", "Dr. Okafor", "J. R. R. Tolkien"]
VERBS = ["rebuilds", "reached", "uses", "was measured on", "is slower than", "improved", "keeps",
         "reports", "compares", "holds"]
INSIDE = ["the raw dump", "e.g. BM25", "e.g. the dense run", "i.e. the first stage", "Smith et al. (2020)",
          "the method of Chen et al. (2019)", "Fig. 3", "Eq. (2)", "the baseline vs. the reranker",
          "approx. 3 times more", "item No. 5", "release v1.2 of the tool", "Sec. 4.1", "the file config.yaml",
          "https://example.org/docs/a.b", "the U.S. market", "a book by J. R. R. Tolkien", "Dr. Smith",
          "`index.build()`", "(see Fig. 2)", "Python 3.12", "cf. the appendix", "pp. 12-14", "Tab. 1",
          "values 1, ..., n", "3.5 GB", "0.912 nDCG@10", "1,024 passages", "12% of the queries",
          "the README.md file", "a.k.a. the cold start", "Thm. 2", "the vs. column", "about 2.5x",
          "(e.g. on CPUs)", "`x.y`", "the torch.compile path", "Ubuntu 22.04", "Eqs. (2)-(4)", "Ref. [12]",
          "Fig. 3a", "e.g., the cache", "i.e., twice", "a Ph.D. thesis", "at 9 a.m. sharp", "Smith et al.'s method",
          "the St. Louis site", "cf. Sec. 2", "1.5x more", "Figs. 2 and 3", "the v2.0.1 wheel", "(etc.)",
          "Section 3.2", "over 10,000 runs", "the .npy file", "~/data/runs", "./scripts/run.sh",
          "Prof. Lee's group", "vs. 0.41", "Mr. Jones"]
ENDINGS = ["in memory", "on one core", "for every topic", "at 0.91", "with v1.2", "in config.yaml",
           "(see Table 2)", "by 3.5", "in Sec. 4.1", "on the U.S. data", "for the team"]
CLOSERS = [".", ".", ".", "!", "?", "...", ".)", ".”", '."', "?”", ".]"]


@st.composite
def sentences(draw) -> str:
    opener = draw(st.sampled_from(OPENERS))
    middle = draw(st.lists(st.sampled_from(INSIDE), min_size=0, max_size=3))
    closer = draw(st.sampled_from(CLOSERS))
    words = [opener, draw(st.sampled_from(VERBS))] + middle + [draw(st.sampled_from(ENDINGS))]
    text = " ".join(words)
    if closer == ".)":
        return f"{text} (as run twice{closer}"
    if closer == ".]":
        return f"{text} [as run twice{closer}"
    if closer == "?”":
        return f"{text}, asking “stable{closer}"
    if closer in (".”", '."'):
        opening = "“" if closer == ".”" else '"'
        return f"{text}, noted as {opening}stable{closer}"
    return text + closer


def _readable(written: list[str]) -> bool:
    """After an ellipsis a lower-case word continues the sentence (``it was... fine``), so a
    sentence opening with a lower-case name (``bitnet.cpp``) never follows one: no reader could tell."""
    return not any(a.endswith("...") and b[:1].islower() for a, b in zip(written, written[1:]))


@settings(max_examples=400, deadline=None)
@given(st.lists(sentences(), min_size=1, max_size=5).filter(_readable))
def test_the_splitter_gives_back_the_sentences_that_were_joined(written):
    assert split_sentences(" ".join(written)) == written


@settings(max_examples=200, deadline=None)
@given(st.lists(sentences(), min_size=1, max_size=5))
def test_the_pieces_cover_the_paragraph_in_order(written):
    paragraph = " ".join(written)
    spans = sentence_spans(paragraph)
    assert all(a < b for a, b in spans) and all(b <= c for (_, b), (c, _) in zip(spans, spans[1:]))
    assert "".join(paragraph[a:b] for a, b in spans).replace(" ", "") == paragraph.replace(" ", "")


def test_hand_written_shapes():
    """The development corpus's three missed boundaries, each as a sentence of our own."""
    assert split_sentences("The bound holds for one collection (or several, if used concurrently.) "
                           "If a collection grows, latency spikes.") == [
        "The bound holds for one collection (or several, if used concurrently.)",
        "If a collection grows, latency spikes."]
    assert split_sentences("If eps < 0.5, A is better than B. The lower eps, the better.") == [
        "If eps < 0.5, A is better than B.", "The lower eps, the better."]
    assert split_sentences("The first release of llama.cpp targets CPUs. llama.cpp reaches 5x.") == [
        "The first release of llama.cpp targets CPUs.", "llama.cpp reaches 5x."]
    # and the shapes that must stay one sentence
    for one in ("We thank J. A. Smith for the data.", "Models (e.g.) The Pile were used.",
                "See App. B. for the proof.", "Use e.g. numpy.array here.", "The U.S. Navy runs it."):
        assert split_sentences(one) == [one], one
