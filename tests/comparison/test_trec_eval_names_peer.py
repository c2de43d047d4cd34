"""trec_eval's measure names, as `evaluate --measures` translates them, against trec_eval itself.

Two peers:

* **trec_eval's own output**: ``tests/data/trec_eval/out.test.aq`` is trec_eval 10.0's
  ``trec_eval -m all_trec -q test/qrels.test test/results.test`` (its ``make test`` reference,
  copied unchanged; tests/data/trec_eval/README.md). Every translated name it prints
  (``ndcg_cut_k``, ``P_k``, ``recall_k``, ``map_cut_k``, ``success_k``, ``ndcg``, ``map``,
  ``recip_rank``, ``Rprec``) equals ours per topic and over all topics to its 4 printed decimals,
  and every other name it prints is refused in one line naming the nearest measure we have.
* **pytrec_eval** (trec_eval 9 in-process, the ``test`` extra), per topic to 1e-9 on a generated
  graded collection (grades −1 … 4, ties, unjudged and judged non-relevant documents, topics
  without a relevant document, cutoffs beyond the run length), asked in trec_eval's ``-m``
  spelling (``ndcg_cut.10``), answering in its printed one (``ndcg_cut_10``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.retrieval.evaluate import evaluate_runs
from engine.retrieval.measures import parse_measure, parse_measures, trec_eval_name, trec_eval_notes
from engine.retrieval.trec import read_qrels
from engine.retrieval.trec_arrays import RunArrays, read_run_arrays
from engine.runs.errors import InputError

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
TRANSLATED = ("ndcg_cut", "P", "recall", "map_cut", "success", "ndcg", "map", "recip_rank", "Rprec")


def printed_output() -> dict[str, dict[str, float]]:
    """out.test.aq: name → {topic or 'all': value} for the numeric measures."""
    table: dict[str, dict[str, float]] = {}
    for line in (DATA / "out.test.aq").read_text(encoding="utf-8").splitlines():
        name, topic, value = line.split()
        try:
            table.setdefault(name, {})[topic] = float(value)
        except ValueError:
            table.setdefault(name, {})[topic] = float("nan")   # runid, relstring
    return table


def family(name: str) -> str:
    head, _, tail = name.rpartition("_")
    return head if tail.replace(".", "").isdigit() else name


def test_every_translated_name_equals_trec_evals_printed_value():
    printed = printed_output()
    names = [n for n in printed if family(n) in TRANSLATED]
    assert len(names) == 9 * 4 + 3 + 4   # P, recall, map_cut, ndcg_cut at 9 cutoffs; success at 3; 4 plain
    measures = parse_measures(",".join(names))
    qrels = read_qrels(DATA / "qrels.test")
    topic_ids, [ours] = evaluate_runs(qrels, {"STANDARD": read_run_arrays(DATA / "results.test")}, measures)
    compared = 0
    for name, measure in zip(names, measures):
        values = dict(zip(topic_ids, ours.per_topic[measure.key].tolist()))
        topics = [t for t in printed[name] if t != "all"]
        for topic in topics:
            assert values[topic] == pytest.approx(printed[name][topic], abs=5e-5 + 1e-12), (name, topic)
            compared += 1
        mean = sum(values[t] for t in topics) / len(topics)
        assert mean == pytest.approx(printed[name]["all"], abs=5e-5 + 1e-12), name
    assert compared == 43 * 3
    # a figure checked by hand against the file: ndcg_cut_10 of topic 302 is 0.7530
    assert f"{dict(zip(topic_ids, ours.per_topic['nDCG@10'].tolist()))['302']:.4f}" == "0.7530"


def test_every_other_name_trec_eval_prints_is_refused_naming_the_nearest():
    refused = {}
    for name in printed_output():
        if family(name) in TRANSLATED:
            continue
        with pytest.raises(InputError) as error:
            parse_measure(name)
        refused[family(name)] = str(error.value)
    assert len(refused) == 28
    assert refused["bpref"] == ("field '--measures': trec_eval's bpref is not implemented; the nearest we have "
                                "is AP (known: nDCG@k, nDCG(dcg='exp-log2')@k, P[(rel=r)]@k, R[(rel=r)]@k, RR[@k], "
                                "AP[@k], Rprec, Success@k, Judged@k, recall@k, ndcg@k)")
    assert "the nearest we have is P@k" in refused["set_P"]
    assert "we have no measure like it" in refused["runid"]


def test_names_are_translated_in_both_spellings_and_said():
    assert [m.key for m in parse_measures("ndcg_cut.10,P.5,10 recall_100 map_cut_10 success.1 recip_rank map ndcg")] == [
        "nDCG@10", "P@5", "P@10", "R@100", "AP@10", "Success@1", "RR", "AP", "nDCG"]
    assert trec_eval_notes("nDCG@10,P_5") == [
        "note: --measures: trec_eval's P_5 is P@5 (relevant in the top k / k; unretrieved ranks count as non-relevant)"]
    assert trec_eval_name("nDCG@10") is None and trec_eval_name("Rprec") is None   # ours, or spelled alike
    with pytest.raises(InputError, match="trec_eval's ndcg_cut needs one cutoff here"):
        parse_measure("ndcg_cut")


def collection(seed: int = 20261202, n_topics: int = 40):
    rng = random.Random(seed)
    docs = [f"d{i:03d}" for i in range(120)]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for t in range(n_topics):
        tid = str(100 + t)
        judged = rng.sample(docs, rng.randint(1, 15))
        grades = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for d in judged}
        if t % 9 == 4:  # no relevant document
            grades = {d: rng.choice([-1, 0]) for d in judged}
        qrels[tid] = grades
        others = [d for d in docs if d not in grades]
        listed = rng.sample(judged, rng.randint(0, len(judged))) + rng.sample(others, rng.randint(1, 30))
        run[tid] = {d: float(rng.randint(0, 8)) / 4.0 for d in listed}      # many exact ties
    return qrels, run


def test_translated_names_equal_pytrec_eval_per_topic():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    asked = ["ndcg_cut.5", "ndcg_cut.10", "ndcg_cut.100", "P.5", "P.20", "recall.10", "recall.100", "map_cut.5",
             "map_cut.1000", "success.1", "success.10", "ndcg", "map", "recip_rank", "Rprec"]
    qrels, run = collection()
    measures = parse_measures(",".join(asked))
    rows = [(t, d, s) for t, ds in run.items() for d, s in ds.items()]
    arrays = RunArrays.from_rows([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    topic_ids, [ours] = evaluate_runs({t: {d: float(g) for d, g in ds.items()} for t, ds in qrels.items()},
                                      {"run": arrays}, measures)
    peer = pytrec_eval.RelevanceEvaluator(qrels, {a.split(".")[0] for a in asked} - {"ndcg_cut", "P", "recall",
                                                                                      "map_cut", "success"}
                                          | {"ndcg_cut.5,10,100", "P.5,20", "recall.10,100", "map_cut.5,1000",
                                             "success.1,10"}).evaluate(run)
    compared = 0
    for name, measure in zip(asked, measures):
        printed_name = name.replace(".", "_")
        values = dict(zip(topic_ids, ours.per_topic[measure.key].tolist()))
        for tid in topic_ids:
            assert values[tid] == pytest.approx(peer[tid][printed_name], abs=1e-9), (name, tid)
            compared += 1
        assert any(v > 0 for v in values.values()) and any(v < 1 for v in values.values()), name
    assert compared == len(asked) * 40
