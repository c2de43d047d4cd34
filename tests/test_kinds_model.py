"""The trained measured-result classifier (claims/kinds_model.py; issue 19, item 4)."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from claims import kinds_model as km
from claims.extract import MEASURED, extract_claims
from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_file

REPO = Path(__file__).resolve().parents[1]

RESULT = "Reranking raised nDCG@10 from 0.412 to 0.487 on the test set."
SETTING = "We set the batch size to 32 and the learning rate to 2e-5."


def test_a_clear_result_and_a_setting():
    """The result sentence is measured (its best number is one of the two nDCG values, p well
    above the stored threshold); the settings sentence is not (max p under 0.2), and keeps the
    kind the rules give it."""
    result = extract_claims(RESULT, kinds="model")[0]
    assert result.kind == MEASURED
    assert result.cue.startswith("model p=0.")
    assert "on '0.487'" in result.cue or "on '0.412'" in result.cue
    assert f"kinds_model {km.WEIGHTS_SHA256[:12]}" in result.cue
    setting = extract_claims(SETTING, kinds="model")[0]
    assert setting.kind == extract_claims(SETTING)[0].kind == "method or definition"
    assert setting.cue.startswith("model: no result number, max p=0.")
    assert float(setting.cue.split("max p=")[1].split()[0]) < 0.2


def test_names_agree_with_the_extractor():
    from claims import extract

    assert (km.MEASURED, km.TABLE_VALUE, km.RESULT_ROLES) == (extract.MEASURED, extract.TABLE_VALUE,
                                                             extract.RESULT_ROLES)


def test_default_is_rules_and_model_changes_only_kinds():
    text = RESULT + " " + SETTING + " Could this make search up to 30x faster?\n"
    rules, model = extract_claims(text), extract_claims(text, kinds="model")
    assert rules == extract_claims(text, kinds="rules")
    assert [(r.claim_id, r.text, r.quantities) for r in rules] == [(r.claim_id, r.text, r.quantities) for r in model]
    assert all(not r.cue.startswith("model") for r in rules)
    with pytest.raises(ValueError, match="unknown kinds 'neural'"):
        extract_claims(text, kinds="neural")


def test_scores_by_hand_on_a_tiny_model():
    """A model whose only non-zero weights are the bias (−1) and ``n:percent`` (+3). In "It was
    5%." the number 5% has 7 structural features (``s:numbers:1``, ``n:shape:0%``, ``n:unit:%``,
    ``n:decimals:0``, ``n:percent``, ``n:magnitude:0``, ``n:position:2``), a unit-norm group,
    so x(n:percent) = 1/√7 and p = 1/(1 + e^{−(−1 + 3/√7)}) = 1/(1 + e^{−0.133893}) = 0.533423."""
    from claims.quantities import find_quantities

    sentence = "It was 5%."
    quantities = find_quantities(sentence)
    features = km.number_features(sentence, quantities[0], km.sentence_features(sentence, quantities), "plain")
    assert sorted(f for f in features if f[:2] in ("s:", "n:", "r:")) == sorted(
        ["s:numbers:1", "n:shape:0%", "n:unit:%", "n:decimals:0", "n:percent", "n:magnitude:0", "n:position:2"])
    model = km.KindsModel(weights={0: -1.0, km.bucket("n:percent"): 3.0}, threshold=0.5, features="plain",
                          lam=1.0, sha256="0" * 64)
    (p,) = model.scores(sentence, quantities)
    assert p == pytest.approx(0.533423, abs=1e-6)


def test_weights_with_another_hash_are_refused(tmp_path):
    assert sha256_file(km.WEIGHTS) == km.WEIGHTS_SHA256
    assert km.load_model().threshold == json.loads(km.WEIGHTS.read_text(encoding="utf-8"))["threshold"]
    changed = tmp_path / "kinds_model.json"
    shutil.copyfile(km.WEIGHTS, changed)
    changed.write_text(changed.read_text(encoding="utf-8").replace('"threshold": ', '"threshold":  ', 1),
                       encoding="utf-8")
    with pytest.raises(RefusalError) as refused:
        km.load_model(changed)
    message = str(refused.value)
    assert "\n" not in message and "refusing to load them" in message
    assert km.WEIGHTS_SHA256[:12] in message
    with pytest.raises(RefusalError, match="not found"):
        km.load_model(tmp_path / "absent.json")


def test_training_is_deterministic(tmp_path, capsys):
    """Two trainings on the first 5 development documents write the same bytes."""
    sys.path.insert(0, str(REPO / "bench"))
    import train_kinds_model

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        assert train_kinds_model.main(["--documents", "5", "--no-cv", "--no-pin", "--output", str(out)]) == 0
    assert first.read_bytes() == second.read_bytes()
    data = json.loads(first.read_text(encoding="utf-8"))
    assert data["trained_on"]["part"] == "development" and len(data["trained_on"]["documents"]) == 5
    assert data["dimension"] == km.DIMENSION and data["weights"]
    assert sha256_file(km.WEIGHTS) == km.WEIGHTS_SHA256  # the shipped file untouched


def test_cli_kinds_option(tmp_path, cli):
    pack = tmp_path / "chapter.md"
    pack.write_text("# Results\n\n" + RESULT + " " + SETTING + "\n", encoding="utf-8")
    result = cli("claims", pack, "--format", "json", "--kinds", "model", "-o", tmp_path / "rows.json")
    assert result.exit_code == 0 and "measured results decided by claims/kinds_model.py" in result.output
    rows = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    assert [r["kind"] for r in rows] == [MEASURED, "method or definition"]
    assert rows[0]["cue"].startswith("model p=")
    default = json.loads(cli("claims", pack, "--format", "json").output)
    assert not default[0]["cue"].startswith("model")
    from typer.testing import CliRunner

    from cli import app

    bad = CliRunner().invoke(app, ["claims", str(pack), "--kinds", "neural"])
    assert bad.exit_code == 2
    assert "--kinds: unknown value 'neural'" in bad.output and "Traceback" not in bad.output


def test_bench_claims_time_with_the_model_measured_not_asserted():
    """bench/bench_claims.py's generated chapter (5,000 words here; the full 50,000-word run is
    in the report): the time with the model on is printed, never asserted; the rows agree."""
    sys.path.insert(0, str(REPO / "bench"))
    import bench_claims

    text = bench_claims.generate(5_000, 7)
    times = {}
    rows = {}
    for kinds in ("rules", "model"):
        start = time.perf_counter()
        rows[kinds] = extract_claims(text.split("== 2. Chapter text ==\n")[1], kinds=kinds)
        times[kinds] = time.perf_counter() - start
    print(f"bench_claims 5,000 words: rules {times['rules']:.3f} s, model {times['model']:.3f} s")
    assert [r.text for r in rows["rules"]] == [r.text for r in rows["model"]]


def test_model_rows_match_rule_rows_except_the_measured_kind_on_a_corpus_document():
    """On a development document of the corpus the model keeps every row, id, text, quantity and
    table value; a kind changes only to or from ``measured result``."""
    from audit.pack import load_pack

    corpus = REPO / "tests" / "data" / "corpus"
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    document = next(d for d in manifest["documents"] if d["id"] == "beir-readme" and d["part"] == "development")
    pack = load_pack(corpus / document["excerpt"])
    rules, model = extract_claims(pack), extract_claims(pack, kinds="model")
    assert [(r.claim_id, r.text, r.quantities, r.cited_names) for r in rules] == [
        (r.claim_id, r.text, r.quantities, r.cited_names) for r in model]
    for a, b in zip(rules, model):
        assert a.kind == b.kind or MEASURED in (a.kind, b.kind)
        assert (a.kind == "table value") == (b.kind == "table value")
