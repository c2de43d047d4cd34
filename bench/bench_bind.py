"""Benchmark: how often ``chapter-audit bind`` puts the right binding at rank 1.

    .venv/bin/python bench/bench_bind.py

Runs the experiments of two hand-written claims files (their ``rerun`` steps, logged in a
temporary log), then suggests bindings without those files and scores rank 1 against them:

* **demo**: the bundled example chapter (``audit/examples/sandbox-chapter-pack.txt``) against
  ``audit/examples/sandbox-chapter.claims.toml`` (11 bound numbers). The deliberately
  mis-rounded ``0.889`` is right when it comes out unbound with the gold key as its nearest value.
* **W03**: ``bench/data/w03-chapter-pack.txt`` (our own sentences restating the W03 case
  figures) against ``claims/bindings/w03.toml`` (61 numbers). :data:`W03_PLACES` says which
  sentence and which words before each number hold each gold binding's figure.

Goals (issue 13): demo ≥ 10/11, W03 ≥ 90 % at rank 1. Prints the figures, the misses, the
time of the suggestion step alone, and whether each draft TOML passes ``verify`` on the log.

* **labelled chapters** (issue 20): four small chapters of our own (``bench/data/bind/*-pack.txt``)
  with gold claims files written by hand (``*.claims.toml``) and planted coincidences:
  per-document scores equal to printed percentages (35 %, 5 %), one value under two metrics
  (R@100 = RR@10 = 0.90; RR@10 = AP@1000 = 0.111 on one topic), one value of several keys
  ("both runs reach P@10 of 0.24"), and two runs of one command and parameters with different
  qrels. Every printed number ``bind`` considers is scored: one with a gold binding is right when
  it is bound (not ambiguous) to that key of that experiment; one without is right when it is
  left unbound (ambiguous or unmatched). A *false bind* is a binding written to any other key.
  Goals: false binds 0, right at rank 1 ≥ 95 %.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from audit.pack import load_pack  # noqa: E402
from claims.bindings import ClaimsFile, load_claims_file  # noqa: E402
from claims.draft import draft_claims_toml  # noqa: E402
from claims.extract import extract_claims  # noqa: E402
from claims.suggest import Suggestion, run_values, suggest  # noqa: E402
from claims.verify import rerun_experiments, verify_bindings  # noqa: E402
from engine.runs.runlog import read_records  # noqa: E402

DEMO_PACK = REPO / "audit/examples/sandbox-chapter-pack.txt"
DEMO_GOLD = REPO / "audit/examples/sandbox-chapter.claims.toml"
W03_PACK = REPO / "bench/data/w03-chapter-pack.txt"
W03_GOLD = REPO / "claims/bindings/w03.toml"

# gold binding id -> (words of its sentence, words of its quote ending at the number)
W03_PLACES: dict[str, tuple[str, str]] = {
    "ledger-declared": ("declared population", "contains 12"),
    "ledger-discovered": ("discovered stage", "stage contains 11"),
    "ledger-attempted": ("attempted fetches", "recorded 11"),
    "ledger-usable": ("usable responses", "and 10"),
    "ledger-parsed": ("Parsing produced", "produced 10"),
    "ledger-admitted": ("admitted stage", "holds 10"),
    "ledger-discovery-coverage": ("Discovery coverage", "reaches 11/12"),
    "ledger-usable-response-rate": ("Discovery coverage", "reaches 10/11"),
    "ledger-index-admission": ("Discovery coverage", "reaches 10/10"),
    **{f"tokens-D-{i:03d}": (f"D-{i:03d} contains", f"D-{i:03d} contains") for i in range(1, 11)},
    "tokens-mean": ("mean document length", "averages 20.5"),
    **{f"df-{term}": (f"{term} has a document frequency", "document frequency of")
       for term in ("sampling", "strata", "negative", "controls", "held", "out")},
    **{f"idf-{term}": (f"{term} has a document frequency", "IDF of")
       for term in ("sampling", "strata", "negative", "controls", "held", "out")},
    "df-query": ("query token", "document frequency of 6"),
    "idf-query": ("query token", "IDF of 0.526093"),
    **{f"bm25-T-03-{d}": ("BM25 scores", f"{d} at") for d in ("D-005", "D-006", "D-008", "D-001", "D-010")},
    **{f"bm25-top3-{t}": (f"For {t}, BM25 returns", "BM25 returns") for t in ("T-01", "T-02", "T-03")},
    **{f"bm25-recall-{t}": (f"For {t}, BM25 returns", "Recall@3 of") for t in ("T-01", "T-02", "T-03")},
    **{f"bm25-ndcg-{t}": (f"For {t}, BM25 returns", "NDCG@3 of") for t in ("T-01", "T-02", "T-03")},
    "supplied-top3-T-03": ("supplied opaque run places", "places"),
    "hybrid-top3-T-03": ("supplied opaque run places", "hybrid top three"),
    "macro-recall-bm25": ("BM25 reaches macro", "Recall@3 of"),
    "macro-ndcg-bm25": ("BM25 reaches macro", "NDCG@3 of"),
    "macro-recall-frozen_dense": ("supplied opaque run reaches", "Recall@3 of"),
    "macro-ndcg-frozen_dense": ("supplied opaque run reaches", "NDCG@3 of"),
    "macro-recall-hybrid": ("The hybrid reaches", "Recall@3 of"),
    "macro-ndcg-hybrid": ("The hybrid reaches", "NDCG@3 of"),
    "macro-recall-reranked": ("fixed-set reranker reaches", "Recall@3 of"),
    "macro-ndcg-reranked": ("fixed-set reranker reaches", "NDCG@3 of"),
    "stage-d010-bm25-rank": ("D-010 sits", "BM25 rank 5"),
    "stage-d010-hybrid-rank": ("D-010 sits", "hybrid rank 3"),
    "stage-macro-recall-rise": ("rises by", "rises by"),
}


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def place_demo(gold_quote: str, claimed: str, suggestions: list[Suggestion]) -> Suggestion | None:
    """The suggestion of the gold number: same printed value, sentence holding the gold quote."""
    hits = [s for s in suggestions if s.claimed == claimed and _normal(gold_quote) in _normal(s.sentence)]
    words = set(_normal(gold_quote).split())
    return max(hits, key=lambda s: len(words & set(_normal(s.quote).split())), default=None)


def place_w03(binding_id: str, claimed: str, suggestions: list[Suggestion]) -> Suggestion | None:
    sentence, quote = W03_PLACES[binding_id]
    hits = [s for s in suggestions if s.claimed == claimed and sentence in s.sentence and quote in s.quote]
    return hits[0] if len(hits) == 1 else None


def score(gold: ClaimsFile, suggestions: list[Suggestion], place) -> tuple[int, list[str]]:
    right, misses = 0, []
    for binding in gold.bindings:
        experiment = gold.experiments[binding.experiment]
        want = (experiment.command, binding.result or experiment.result, binding.key)
        found = place(binding, suggestions)
        if found is None:
            misses.append(f"{binding.binding_id}: number not found in the text")
            continue
        chosen = found.best or found.nearest
        got = None if chosen is None else (chosen.value.command, chosen.value.result, chosen.value.key)
        if got == want:
            right += 1
        else:
            misses.append(f"{binding.binding_id} {binding.claimed}: gold {want[1]}:{want[2]}, "
                          f"rank 1 {got[1] + ':' + got[2] if got else 'none'} ({found.status})")
    return right, misses


def run_case(name: str, pack: Path, gold_path: Path, place, workdir: Path) -> None:
    log = workdir / f"{name}.jsonl"
    gold = load_claims_file(gold_path)
    for outcome in rerun_experiments(gold, log, workdir / name):
        assert outcome.code == 0, outcome
    rows = extract_claims(load_pack(pack))
    started = time.perf_counter()
    suggestions = suggest(rows, run_values(read_records(log), log))
    seconds = time.perf_counter() - started
    right, misses = score(gold, suggestions, place)
    total = len(gold.bindings)
    print(f"{name}: {right}/{total} right at rank 1 ({100 * right / total:.1f}%); "
          f"{len(suggestions)} printed numbers, {sum(s.best is not None for s in suggestions)} bound, "
          f"{sum(s.status == 'ambiguous' for s in suggestions)} ambiguous, "
          f"{sum(s.best is None for s in suggestions)} unmatched; suggestion step {seconds:.3f} s")
    for miss in misses:
        print(f"  miss: {miss}")
    draft = workdir / f"{name}.claims.toml"
    draft.write_text(draft_claims_toml(suggestions, pack_path=str(pack), log_path=str(log)), encoding="utf-8")
    verdicts = verify_bindings(load_claims_file(draft), log)
    print(f"  draft verified on the same log: {sum(v.ok for v in verdicts)}/{len(verdicts)} MATCH")


LABELLED = REPO / "bench/data/bind"


def labelled_case(name: str, workdir: Path) -> tuple[int, int, int, list[str]]:
    """(right, total, false binds, misses) of one labelled chapter (module docstring)."""
    gold_path = LABELLED / f"{name}.claims.toml"
    gold = load_claims_file(gold_path)
    log = workdir / f"{name}.jsonl"
    for outcome in rerun_experiments(gold, log, workdir / name):
        assert outcome.code == 0, outcome
    records = read_records(log)
    suggestions = suggest(extract_claims(load_pack(LABELLED / f"{name}-pack.txt")), run_values(records, log))
    inputs_of = {}  # gold experiment id -> the input hashes of the run its rerun wrote
    for exp_id, experiment in gold.experiments.items():
        from claims.verify import find_run, identity_pins

        run = find_run(records, experiment, pins=identity_pins(experiment, gold_path))
        inputs_of[exp_id] = dict((run.get("invocation") or {}).get("inputs") or {})
    right, false, misses = 0, 0, []
    for s in suggestions:
        wanted = [b for b in gold.bindings if b.claimed == s.claimed and _normal(b.quote) == _normal(s.quote)]
        got = s.best if s.status == "bound" else None
        if not wanted:
            if got is None:
                right += 1
            else:
                false += 1
                misses.append(f"FALSE BIND {s.claimed!r} in {s.quote!r}: {got.value.result}:{got.value.key}")
            continue
        binding = wanted[0]
        experiment = gold.experiments[binding.experiment]
        want_inputs = {role: entry.get("sha256") for role, entry in inputs_of[binding.experiment].items()}
        same = got is not None and (got.value.command, got.value.result, got.value.key) == (
            experiment.command, binding.result or experiment.result, binding.key) and all(
            want_inputs.get(role) == digest for role, digest in got.value.inputs)
        if same:
            right += 1
        elif got is not None:
            false += 1
            misses.append(f"FALSE BIND {binding.binding_id} {s.claimed!r}: gold {binding.key}, bound "
                          f"{got.value.result}:{got.value.key}")
        else:
            misses.append(f"{binding.binding_id} {s.claimed!r}: gold {binding.key}, {s.status}")
    missing = [b.binding_id for b in gold.bindings
               if not any(b.claimed == s.claimed and _normal(b.quote) == _normal(s.quote) for s in suggestions)]
    misses += [f"{b}: gold number not among the printed numbers bind reads" for b in missing]
    return right, len(suggestions) + len(missing), false, misses


def labelled(workdir: Path) -> None:
    names = sorted(p.name[:-len("-pack.txt")] for p in LABELLED.glob("*-pack.txt"))
    total_right = total = total_false = 0
    for name in names:
        right, count, false, misses = labelled_case(name, workdir)
        total_right, total, total_false = total_right + right, total + count, total_false + false
        print(f"labelled {name}: {right}/{count} right at rank 1, {false} false binds")
        for miss in misses:
            print(f"  miss: {miss}")
    print(f"labelled chapters ({len(names)}): {total_right}/{total} right at rank 1 "
          f"({100 * total_right / total:.1f}%), {total_false} false binds")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-bind-") as tmp:
        workdir = Path(tmp)
        labelled(workdir)
        run_case("demo", DEMO_PACK, DEMO_GOLD,
                 lambda b, s: place_demo(b.quote, b.claimed, s), workdir)
        run_case("W03", W03_PACK, W03_GOLD,
                 lambda b, s: place_w03(b.binding_id, b.claimed, s), workdir)


if __name__ == "__main__":
    main()
