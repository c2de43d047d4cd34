"""The attribution classifier tried and not shipped (bench/attribution_features.py,
bench/bench_attribution_classifier.py; issue 19, item 4): its features on sentences of our own,
the names it reads in a credit relation, and a deterministic fit — so that the figures recorded in
docs/audit.md can be reproduced."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SURVEY = "That survey concludes that rerankers rarely pay off below 1,000 queries."
NOTEBOOK = "The original implementation came from a Kaggle notebook by Priya Raman."
PRODUCT = "Vespa supports bfloat16 tensors in ranking expressions."


def _load(name: str):
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def features():
    return _load("attribution_features")


def test_features_are_the_general_patterns_that_occur(features):
    f = features.sentence_features
    assert f(SURVEY) == ["source noun", "a source noun as subject"]
    assert f(NOTEBOOK) == ["by a name", "the original authors", "two capitalised words"]
    assert f(PRODUCT) == []
    # a sentence starter is no name ("Please note that", "As shown in"), a possessive before a
    # capitalised word is an owner's product, an interval is no numbered marker, a handle no key
    assert "a name as subject of a reporting verb" not in f("Please note that it is slow.")
    assert "… and a name" not in f("As shown in the table, it is slow.")
    assert "a name's product" in f("It uses Google's Natural Questions set.")
    assert "numbered marker" not in f("Scores lie in the range [0, 5] here.")
    assert "numbered marker" in f("Dense retrieval wins [3].")
    assert "citation key" in f("Two thirds train (@kohavi1995).")
    assert "citation key" not in f("Reproduced by @jdoe42 on Monday.")


@pytest.mark.parametrize(("sentence", "names"), [
    ("There is a recent pgvector vs Qdrant comparison by Ana Lima.", ["Ana Lima"]),
    ("According to Pinecone, graph indexes need twice the memory.", ["Pinecone"]),
    ("Okafor found out that the cache was cold.", ["Okafor"]),
    ("Two thirds train and one third tests (@kohavi1995;@dobbin2011).", ["kohavi 1995", "dobbin 2011"]),
    ("The index was introduced by the University of Lagos in 2019.", ["University of Lagos"]),
    ("Zhang's analysis puts it at half.", ["Zhang"]),
    ("As shown in Figure 4, it is slow.", []),
])
def test_model_names_are_the_names_in_a_credit_relation(features, sentence, names):
    assert features.model_names(sentence) == names


def test_the_fit_is_deterministic_and_separates_a_credit_from_a_product():
    """Two fits on the first 8 development documents give the same weights to the last bit; the
    fitted model gives the credit sentence a higher p than the product sentence."""
    bench = _load("bench_attribution_classifier")
    documents = [d for d in bench.quality.corpus_manifest()["documents"] if d["part"] == "development"][:8]
    rows = bench.cases(documents, generalise=True)
    y = np.array([r["gold"] for r in rows], dtype=float)
    first, second = bench.fit(bench.matrix(rows), y, 1.0), bench.fit(bench.matrix(rows), y, 1.0)
    assert first.tobytes() == second.tobytes()
    probe = [{"features": bench.am.sentence_features(t)} for t in (NOTEBOOK, PRODUCT)]
    p_credit, p_product = bench.probabilities(first, probe)
    assert p_credit > 0.5 > p_product
