"""Kinds from evidence (issue 19): number roles, measurement cues and vetoes (claims/kinds.py),
credits to people, organisations, papers and citation roles (claims/attribution.py), as the
claim rows show them. Each case is a sentence shape of a real page with its decision by hand."""

from __future__ import annotations

import pytest

from claims.attribution import credits
from claims.extract import MEASURED, extract_claims


def row(sentence: str):
    rows = [r for r in extract_claims(sentence) if r.kind != "table value"]
    assert len(rows) == 1, [r.text for r in rows]
    return rows[0]


def roles(sentence: str) -> list[tuple[str, str]]:
    return [(q.text, q.role) for q in row(sentence).quantities]


@pytest.mark.parametrize("sentence", [
    "The model retains 90% of its score after quantisation.",
    "Key observation: All 39 misalignments (24.4%) are false positives.",
    "These models reach at least 85% of their performance on various benchmarks.",
    "The results are quite solid, within 15% of commonly used encoder models.",
    "On one GPU the training run takes just 30 seconds.",
    "Indexing takes around twenty minutes on a modern desktop.",
    "We might get around 13 qps on a reasonably modern CPU.",
    "The release ranks 1st on the leaderboard.",
    "With binary quantization the same vectors only require 128 MB of RAM.",
])
def test_measured_results_with_any_verb(sentence):
    assert row(sentence).kind == MEASURED, row(sentence).cue


@pytest.mark.parametrize("sentence, reason", [
    ("Is 80% accuracy good enough for production?", "question"),
    ("This could make search up to 30x faster.", "speculation"),
    ("You would therefore need around 1TB of memory.", "speculation"),
    ("Support for other model types with 2x throughput will be added in the future.", "plan"),
])
def test_questions_speculation_and_plans_are_not_results(sentence, reason):
    assert row(sentence).kind != MEASURED


@pytest.mark.parametrize("sentence, expected", [
    ("Embedding models are used 1) for retrieval or 2) for every task.", [("1", "step"), ("2", "step")]),
    ("It runs on a Platinum 8168 CPU and Llama 3 weights.", [("8168", "identifier"), ("3", "identifier")]),
    ("You need CUDA>=11.2 and >8 GB RAM.", [("11.2", "parameter"), ("8 GB", "parameter")]),
    ("We provide 15 diverse datasets and 8 labeled examples.", [("15", "count"), ("8", "count")]),
    ("SetFit outperforms the baseline on 7 of the 11 RAFT tasks.", [("7", "value"), ("11", "count")]),
    ("The context is only 64 characters instead of 256.", [("64 characters", "parameter"), ("256", "parameter")]),
    ("It reproduces GPT-2 (124M) on a single 40GB node.", [("124M", "identifier"), ("40GB", "parameter")]),
    ("The mean document length averages 20.5 tokens.", [("20.5 tokens", "value")]),
])
def test_number_roles(sentence, expected):
    assert roles(sentence) == expected


@pytest.mark.parametrize("sentence, expected", [
    # a score below 1 printed with two or more decimals after a name is a value, not a version
    ("BM25 reaches an nDCG@10 of 0.550 and Hybrid 0.400.", [("0.550", "value"), ("0.400", "value")]),
    # a number printed alike in a list of such scores is one too (1.00 is no version)
    ("Scores: BM25 0.41, Dense 0.45 and Hybrid 1.00.", [("0.41", "value"), ("0.45", "value"), ("1.00", "value")]),
    # versions stay identifiers: one decimal, a whole number, two decimals above 1 outside a list of scores
    ("The model GPT 3.5 was used.", [("3.5", "identifier")]),
    ("It runs on Python 3.11 and Ubuntu 22.04.", [("3.11", "identifier"), ("22.04", "identifier")]),
    # a sentence about versions or installs keeps a 0.xx after a name a version
    ("We upgrade to Pandas 0.25 first.", [("0.25", "identifier")]),
])
def test_a_score_after_a_name_is_a_value_not_a_version(sentence, expected):
    assert roles(sentence) == expected


def test_non_results_do_not_make_a_measured_result():
    # counts, settings and names give no measured result even next to a metric word
    assert row("MTEB includes 56 datasets across 8 tasks and summarises >2000 results.").kind != MEASURED
    assert row("We evaluate with NDCG@10 on text-embedding-3-small and e5-base-v2.").kind != MEASURED


@pytest.mark.parametrize("sentence, names", [
    ("ELMo assigns a representation to each word :cite:`Peters.Neumann.Iyyer.ea.2018`.", ("Peters 2018",)),
    ("Performance scales as a power-law with training compute {cite}`kaplan2020scaling`.", ("kaplan 2020",)),
    ("As shown in the Figure extracted from Qu and al., 2021, larger batches help.", ("Qu",)),
    ("MTEB was launched by Muennighoff et al (2022) as a benchmark.", ("Muennighoff et al",)),
    ("In an internal micro-benchmark by LMSYS, the backend achieves 30x higher throughput.", ("LMSYS",)),
    ("We pre-train the model following the method retromae.", ("retromae",)),
    ("According to Efficient Benchmarking, a paper from IBM Research, fewer examples suffice.",
     ("Efficient Benchmarking", "IBM Research")),
    ("The FP8 format was first introduced in the paper “FP8 for Deep Learning”.", ("FP8 for Deep Learning",)),
])
def test_credits_name_the_source(sentence, names):
    credit = credits(sentence)
    assert credit is not None and credit.names == names


@pytest.mark.parametrize("sentence", [
    "DPR is a dense retrieval method described in the following paper:",
    "Specifically, the authors calculated the rank location from the real ranks.",
])
def test_credits_without_a_name(sentence):
    credit = credits(sentence)
    assert credit is not None and credit.names == ()


@pytest.mark.parametrize("sentence", [
    "Our own efforts are described in the following paper:",
    "As shown in Figure 4, this speed-up comes with comparable performance.",
    "Photo by Rafael Drück on Unsplash.",
    "Then it embeds every query into another matrix (shown in green).",
    "For more details on why, check our upcoming paper.",
])
def test_not_credits(sentence):
    assert credits(sentence) is None


def test_a_measured_result_keeps_its_credit_in_the_cue():
    r = row("In an internal micro-benchmark by LMSYS, the backend achieves up to 30x higher throughput.")
    assert r.kind == MEASURED and r.cue.endswith("; credited to LMSYS")
    assert "LMSYS" in r.cited_names
    r = row("Yamada et al. (2021) introduced a rescore step to boost the performance.")
    assert (r.kind, r.cited_names) == ("attribution", ["Yamada et al."])


@pytest.mark.parametrize("sentence", [
    "We clocked the same job at 3 hours and 30 minutes per epoch.",
    "Llama3 8B can generate 1 token every 13 ms under light load.",
    "We were able to reduce the build times from 50 minutes to 18 minutes.",
    "The throughput of data redistribution was almost doubled.",
])
def test_rates_reductions_and_doubling_are_results(sentence):
    assert row(sentence).kind == MEASURED, row(sentence).cue


def test_issue_numbers_and_labelled_counts_are_not_results():
    assert roles("We create an object cache (#7162) to hold these objects.") == [("7162", "identifier")]
    assert roles("Average input tokens: 202, average output tokens: 179") == [("202", "count"), ("179", "count")]
    assert roles("Each content node has 72 vcpus, 128 GB memory, 400 GB disk.") == [
        ("72", "count"), ("128 GB", "parameter"), ("400 GB", "parameter")]


def test_a_product_possessive_is_no_attribution():
    assert row("This result was obtained by using Screwdriver’s configurable resource management.").kind != "attribution"
    r = row("Today we follow Robertson’s method for the weights.")
    assert (r.kind, r.cited_names) == ("attribution", ["Robertson"])
