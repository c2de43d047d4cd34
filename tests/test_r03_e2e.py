"""End to end on the bundled mini benchmark (seed 000 cases A21 and B18), through the CLI."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import pytest

from engine.runs.runlog import read_records

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "r03_mini"


def encoder_available() -> bool:
    try:
        from engine.encoder.encode import EncoderConfig, load_encoder

        load_encoder(EncoderConfig())
    except Exception:  # noqa: BLE001 - any failure to load means: skip
        return False
    return True


needs_encoder = pytest.mark.skipif(not encoder_available(), reason="pinned MiniLM encoder not available")

# Seed 000 case tables: (checked ID, agreed requirements, new requirements at rank) per rank
SEED_CASES = {
    ("A21", "dense"): [(3449, "1, 4", "1, 4"), (3472, "None", "None"), (3475, "None", "None"),
                       (3478, "None", "None"), (4699, "None", "None")],
    ("A21", "typed"): [(3472, "None", "None"), (3449, "1, 4", "1, 4"), (3475, "None", "None"),
                       (3478, "None", "None"), (4699, "None", "None")],
    ("A21", "published_coverage"): [(4684, "1, 2, 4", "1, 2, 4"), (3475, "None", "None"),
                                    (3449, "1, 4", "None"), (147, "None", "None"), (4288, "None", "None")],
    ("A21", "oracle"): [(3429, "4", "4"), (3449, "1, 4", "1"), (4684, "1, 2, 4", "2"),
                        (3428, "3, 4", "3"), (3426, "4", "None")],
    ("B18", "dense"): [(3111, "None", "None"), (3090, "1, 2", "1, 2"), (3120, "None", "None"),
                       (75, "None", "None"), (3077, "4", "4")],
    ("B18", "typed"): [(3111, "None", "None"), (3090, "1, 2", "1, 2"), (3120, "None", "None"),
                       (75, "None", "None"), (3121, "1, 2", "None")],
    ("B18", "published_coverage"): [(3077, "4", "4"), (3121, "1, 2", "1, 2"), (3111, "None", "None"),
                                    (2740, "None", "None"), (1970, "None", "None")],
    ("B18", "oracle"): [(3077, "4", "4"), (3090, "1, 2", "1, 2"), (3121, "1, 2", "None"),
                        (4387, "1, 2", "None"), (3117, "2", "None")],
}
SEED_GRADES = {3449: "3", 3472: "1", 3475: "1", 3478: "0", 4699: "1", 4684: "3", 147: "0", 4288: "0",
               3429: "3", 3428: "2.5", 3426: "2", 3111: "1", 3090: "3", 3120: "1", 75: "1.5",
               3077: "3", 3121: "3", 2740: "0", 1970: "0", 4387: "3", 3117: "2.5"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if not encoder_available():
        pytest.skip("pinned MiniLM encoder not available")
    from typer.testing import CliRunner

    from cli import app

    base = tmp_path_factory.mktemp("r03")
    bench = base / "bench"
    shutil.copytree(FIXTURE, bench)
    log = base / "log.jsonl"
    runner = CliRunner()
    prep = runner.invoke(app, ["r03", "prepare", "--benchmark", str(bench), "--freeze", str(base / "freeze"),
                               "--log", str(log)], catch_exceptions=False)
    assert prep.exit_code == 0, prep.output
    ev = runner.invoke(app, ["r03", "evaluate", "--benchmark", str(bench), "--freeze", str(base / "freeze"),
                             "--output", str(base / "out"), "--log", str(log)], catch_exceptions=False)
    assert ev.exit_code == 0, ev.output
    results = json.loads((base / "out" / "results.json").read_text())
    return {"base": base, "bench": bench, "log": log, "results": results, "runner": runner, "app": app}


def test_oracle_selections_and_subset_counts(run):
    tasks = run["results"]["tasks"]
    assert tasks["A21"]["oracle_selection"] == [3429, 3449, 4684, 3428, 3426]
    assert tasks["B18"]["oracle_selection"] == [3077, 3090, 3121, 4387, 3117]
    assert tasks["A21"]["subsets_enumerated"] == math.comb(15, 5) == 3003
    assert tasks["B18"]["subsets_enumerated"] == math.comb(16, 5) == 4368
    assert run["results"]["aggregate"]["all"]["subsets_enumerated"] == 7371
    # B18: no document in the pool has agreed coverage for requirement 3
    assert tasks["B18"]["attainable_coverage"] == 0.75 and tasks["A21"]["attainable_coverage"] == 1.0


def test_seed_coverage_figures(run):
    tasks = run["results"]["tasks"]
    assert tasks["A21"]["dense"]["coverage@5"] == 0.5                 # 2/4
    pub = tasks["A21"]["published_coverage"]
    assert pub["coverage@5"] == 0.75                                  # 3/4
    assert pub["selection"] == [4684, 3475, 3449, 147, 4288]
    assert tasks["B18"]["typed"]["coverage@5"] == 0.5                 # 2/4
    assert tasks["B18"]["dense"]["coverage@5"] == 0.75                # 3/4
    assert tasks["B18"]["typed"]["lost_vs_dense"] == 1                # monitoring lost
    assert tasks["B18"]["published_coverage"]["coverage@5"] == 0.75   # restores 3/4


def test_every_seed_case_table_column(run):
    rows = list(csv.DictReader((run["base"] / "out" / "table_cases.csv").open(encoding="utf-8")))
    for (tid, method), expected in SEED_CASES.items():
        got = [r for r in rows if r["task_id"] == tid and r["method"] == method]
        assert [(int(r["doc_id"]), r["agreed_requirements"], r["new_requirements_at_rank"]) for r in got] == expected
    md = (run["base"] / "out" / "tables.md").read_text(encoding="utf-8")
    # two grade-0 documents in the published A21 coverage selection, rendered as in the seed
    assert "| 4 / 147 | the binding of Isaac | 0 | None | None |" in md
    assert "| 5 / 4288 | Buddhist two-truths doctrine | 0 | None | None |" in md
    assert "| 4 / 3428 | statistical power | 2.5 | 3, 4 | 3 |" in md
    for doc, grade in SEED_GRADES.items():
        assert any(r["doc_id"] == str(doc) and float(r["mean_grade"]) == float(grade) for r in rows)


def test_our_selection_is_the_frozen_one(run):
    frozen = json.loads((run["base"] / "freeze" / "selections.json").read_text())
    for tid in ("A21", "B18"):
        assert run["results"]["tasks"][tid]["coverage"]["selection"] == frozen[tid]
        assert len(set(frozen[tid])) == 5


def test_results_shape_aggregate_and_bootstrap(run):
    res = run["results"]
    assert set(res["aggregate"]) == {"all", "final", "development"}
    assert res["aggregate"]["final"]["tasks"] == 1 and res["aggregate"]["development"]["tasks"] == 1
    for subset in ("all", "final", "development"):
        boot = res["bootstrap"][subset]
        assert set(boot) == {"coverage-minus-dense", "coverage-minus-typed", "typed-minus-dense",
                             "oracle-minus-dense"}
    # one task per split subset: a bootstrap over one unit is not an interval: the bounds are
    # null with a note, the point estimate stays; the two-task subset keeps its interval
    for subset in ("development", "final"):
        for contrast in res["bootstrap"][subset].values():
            assert contrast["ndcg"][1:] == [None, None] and contrast["coverage"][1:] == [None, None]
        assert res["notes"][subset] == f"one task in subset {subset!r}: no interval (a bootstrap over one task is not an interval)"
    mean, lo, hi = res["bootstrap"]["development"]["typed-minus-dense"]["coverage"]
    assert mean == -0.25 and lo is None and hi is None
    assert all(None not in c["coverage"] for c in res["bootstrap"]["all"].values())
    tables = (run["base"] / "out" / "tables.md").read_text()
    dev = tables.split("## Subset `development`")[1].split("## ")[0]
    assert "-0.2500 [one task: no interval]" in dev
    assert "[-0.2500, -0.2500]" not in tables
    effects_csv = (run["base"] / "out" / "table_effects.csv").read_text()
    assert "development,typed-minus-dense,-0.25,,,-0.25,," not in effects_csv    # nDCG mean differs
    row = next(line for line in effects_csv.splitlines() if line.startswith("development,typed-minus-dense,"))
    assert row.endswith(",-0.25,,") and row.split(",")[3:5] == ["", ""]
    agg = res["aggregate"]["all"]
    assert agg["typed"]["lost_vs_dense"] == 1 and agg["dense"]["lost_vs_dense"] == 0
    assert agg["oracle"]["coverage@5"] == 0.875 and agg["oracle"]["ndcg@5"] == 1.0


def test_log_records_and_manifest(run):
    records = read_records(run["log"])
    assert [r["command"] for r in records] == ["r03 prepare", "r03 evaluate"]
    assert all(r["status"] == "ok" for r in records)
    assert records[1]["results"]["results"] == str((run["base"] / "out" / "results.json").resolve())
    manifest = json.loads((run["base"] / "out" / "manifest.json").read_text())
    assert manifest["run_id"] == records[1]["run_id"]
    assert manifest["parameters"] == {"seed": 129300, "draws": 10000,
                                      "freeze_run_id": json.loads((run["base"] / "freeze" / "freeze_manifest.json").read_text())["run_id"]}
    fm = json.loads((run["base"] / "freeze" / "freeze_manifest.json").read_text())
    assert fm["requirement_vectors"]["source"] == "computed"
    assert "judgments" not in fm["inputs"] and fm["judgments_opened"] is False
    assert set(fm["programs"]) >= {"engine/r03/coverage.py", "engine/r03/freeze.py", "engine/r03/pipeline.py",
                                   "engine/r03/benchmark.py", "engine/encoder/encode.py"}


def test_rerun_identical_writes_nothing_and_changed_run_is_a_disclosed_correction(run):
    base, runner, app = run["base"], run["runner"], run["app"]
    out = base / "out"
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    first_results = (out / "results.json").read_bytes()
    args = ["r03", "evaluate", "--benchmark", str(run["bench"]), "--freeze", str(base / "freeze"),
            "--output", str(out), "--log", str(run["log"])]
    again = runner.invoke(app, args, catch_exceptions=False)
    assert again.exit_code == 0 and "nothing differs" in again.output
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    changed = runner.invoke(app, args + ["--draws", "500"], catch_exceptions=False)
    assert changed.exit_code == 0, changed.output
    assert (out / "results.json").read_bytes() == first_results          # first results stay
    record = json.loads((out / "corrections" / "1" / "correction.json").read_text())
    assert record["first_run_id"] == json.loads((out / "manifest.json").read_text())["run_id"]
    assert record["new_run_id"] != record["first_run_id"]
    assert any("parameter draws: 10000 -> 500" in why for why in record["why"])
    assert record["numbers_differ"] is True
    assert all(d["path"].startswith(("bootstrap.", "bootstrap_parameters.")) for d in record["differing_numbers"])
    # the same changed run again: nothing new
    third = runner.invoke(app, args + ["--draws", "500"], catch_exceptions=False)
    assert third.exit_code == 0 and "nothing differs" in third.output
    assert not (out / "corrections" / "2").exists()


def test_empty_subset_is_reported_as_null_with_a_note(tmp_path, cli):
    import numpy as np

    bench = tmp_path / "bench"
    shutil.copytree(FIXTURE, bench)
    lines = [json.loads(x) for x in (bench / "tasks.jsonl").read_text().splitlines()]
    ids, rows = [], []
    for task in lines:
        task["split"] = "final"
        for n in range(1, 5):
            ids.append(f"{task['task_id']}:{n}")
            rows.append(np.eye(384, dtype=np.float32)[n])
    (bench / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in lines))
    np.save(bench / "vectors" / "requirements.npy", np.array(rows))
    (bench / "vectors" / "requirement_ids.json").write_text(json.dumps(ids))
    assert cli("r03", "prepare", "--benchmark", bench, "--freeze", tmp_path / "fz",
               "--log", tmp_path / "log.jsonl").exit_code == 0
    result = cli("r03", "evaluate", "--benchmark", bench, "--freeze", tmp_path / "fz", "--output",
                 tmp_path / "out", "--log", tmp_path / "log.jsonl", "--draws", "100")
    assert result.exit_code == 0, result.output
    res = json.loads((tmp_path / "out" / "results.json").read_text())
    assert res["aggregate"]["development"] is None and res["bootstrap"]["development"] is None
    assert "no tasks" in res["notes"]["development"]
    assert res["aggregate"]["final"]["tasks"] == 2
    assert "no tasks in subset 'development'" in (tmp_path / "out" / "tables.md").read_text()
