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


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-bind-") as tmp:
        workdir = Path(tmp)
        run_case("demo", DEMO_PACK, DEMO_GOLD,
                 lambda b, s: place_demo(b.quote, b.claimed, s), workdir)
        run_case("W03", W03_PACK, W03_GOLD,
                 lambda b, s: place_w03(b.binding_id, b.claimed, s), workdir)


if __name__ == "__main__":
    main()
