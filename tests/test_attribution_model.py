"""The trained attribution classifier (claims/attribution_model.py; issue 19, item 4): its features,
its score, how it adds to the rules under ``kinds="model"``, its cited names and its pinned weights.
Every sentence here is ours."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claims import attribution_model as am
from claims.extract import MEASURED, extract_claims
from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_file

REPO = Path(__file__).resolve().parents[1]
SURVEY = "That survey concludes that rerankers rarely pay off below 1,000 queries."
NOTEBOOK = "The original implementation came from a Kaggle notebook by Priya Raman."
PRODUCT = "Vespa supports bfloat16 tensors in ranking expressions."


def _weights() -> dict[str, float]:
    return json.loads(am.WEIGHTS.read_text(encoding="utf-8"))["weights"]


def test_features_are_the_general_patterns_that_occur():
    assert am.sentence_features(SURVEY) == ["source noun", "a source noun as subject"]
    assert am.sentence_features(NOTEBOOK) == ["by a name", "the original authors", "two capitalised words"]
    assert am.sentence_features(PRODUCT) == []
    # a sentence starter is no name ("Please note that", "As shown in"), a possessive before a
    # capitalised word is an owner's product, an interval is no numbered marker
    assert "a name as subject of a reporting verb" not in am.sentence_features("Please note that it is slow.")
    assert "… and a name" not in am.sentence_features("As shown in the table, it is slow.")
    assert "a name's product" in am.sentence_features("It uses Google's Natural Questions set.")
    assert "numbered marker" not in am.sentence_features("Scores lie in the range [0, 5] here.")
    assert "numbered marker" in am.sentence_features("Dense retrieval wins [3].")
    assert "citation key" in am.sentence_features("Two thirds train (@kohavi1995).")
    assert "citation key" not in am.sentence_features("Reproduced by @jdoe42 on Monday.")


def test_the_score_is_the_logistic_of_the_bias_and_the_weights_of_the_features():
    w, model = _weights(), am.shipped_model()
    z = w["bias"] + w["source noun"] + w["a source noun as subject"]
    assert model.score(SURVEY) == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)
    assert model.score(PRODUCT) == pytest.approx(1 / (1 + math.exp(-w["bias"])), abs=1e-12)
    assert model.score(SURVEY) >= model.threshold > model.score(PRODUCT)


def test_with_kinds_model_it_credits_what_the_rules_miss():
    """The rules call the two sentences methods (no source they know); the model credits them, with
    its p and the weights' hash in the cue; the product sentence stays a method; the rules' path
    never runs the model."""
    model = am.shipped_model()
    for text, names in ((SURVEY, []), (NOTEBOOK, ["Priya Raman"])):
        (rules,) = extract_claims(text)
        (row,) = extract_claims(text, kinds="model")
        assert rules.kind == "method or definition"
        assert row.kind == "attribution" and row.cited_names == names
        assert row.cue.startswith(f"attribution model p={model.score(text):.3f} (threshold {model.threshold:.2f}, "
                                  f"attribution_model {am.WEIGHTS_SHA256[:12]}); rules: method or definition")
    assert extract_claims(PRODUCT, kinds="model")[0].kind == "method or definition"


def test_a_credit_the_rules_give_is_kept_and_a_measured_result_keeps_its_kind():
    (rules,) = extract_claims("A comparison published by Zilliz puts the index at half the memory.", kinds="model")
    assert rules.kind == "attribution" and rules.cue == "named-source citation" and rules.cited_names == ["Zilliz"]
    rows = am.credit_rows([rules])
    assert rows == [rules]
    (measured,) = extract_claims("That survey concludes that rerankers lose 4% recall.", kinds="model")
    assert measured.kind == MEASURED
    assert "; credited to a source (attribution model p=" in measured.cue


@pytest.mark.parametrize(("sentence", "names"), [
    ("There is a recent pgvector vs Qdrant comparison by Ana Lima.", ["Ana Lima"]),
    ("According to Pinecone, graph indexes need twice the memory.", ["Pinecone"]),
    ("Okafor found out that the cache was cold.", ["Okafor"]),
    ("Two thirds train and one third tests (@kohavi1995;@dobbin2011).", ["kohavi 1995", "dobbin 2011"]),
    ("Zhang's analysis puts it at half.", ["Zhang"]),
    ("As shown in Figure 4, it is slow.", []),
])
def test_model_names_are_the_names_in_a_credit_relation(sentence, names):
    assert am.model_names(sentence) == names


def test_weights_with_another_hash_are_refused(tmp_path):
    assert sha256_file(am.WEIGHTS) == am.WEIGHTS_SHA256
    data = json.loads(am.WEIGHTS.read_text(encoding="utf-8"))
    assert data["features"] == list(am.FEATURES) and set(data["weights"]) == {"bias", *am.FEATURES}
    changed = tmp_path / "attribution_model.json"
    shutil.copyfile(am.WEIGHTS, changed)
    changed.write_text(changed.read_text(encoding="utf-8").replace('"threshold": ', '"threshold":  ', 1),
                       encoding="utf-8")
    with pytest.raises(RefusalError) as refused:
        am.load_model(changed)
    assert "\n" not in str(refused.value) and am.WEIGHTS_SHA256[:12] in str(refused.value)
    with pytest.raises(RefusalError, match="not found"):
        am.load_model(tmp_path / "absent.json")
    other = dict(data, features=data["features"][:-1])
    changed.write_text(json.dumps(other), encoding="utf-8")
    with pytest.raises(RefusalError, match="another feature list"):
        am.load_model(changed, expected_sha256=sha256_file(changed))


def test_training_is_deterministic_and_the_model_reads_what_was_trained(tmp_path):
    """Two trainings on the first 8 development documents write the same bytes; the loaded model
    scores a sentence as the written weights say."""
    outputs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        subprocess.run([sys.executable, str(REPO / "bench" / "train_attribution_model.py"), "--documents", "8",
                        "--output", str(out), "--no-pin"], check=True, capture_output=True, cwd=REPO)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    path = tmp_path / "a.json"
    model = am.load_model(path, expected_sha256=sha256_file(path))
    w = json.loads(outputs[0])["weights"]
    z = w["bias"] + w["by a name"] + w["the original authors"] + w["two capitalised words"]
    assert model.score(NOTEBOOK) == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)
