"""Report section 6: runnable experiment opportunities with the chapter's stated parameters.

Seed 002 is the first test: its gap "Budget accounting is specified but not audited end-to-end"
is exactly `budget run` with the chapter's depth-ten candidates, three units, the 1,200-character
cap and MMR weights .7/.3; its other gap (diversity effects on task outcomes) is out of reach,
so it stays "not yet specified"; its Colab notebook gets a `notebook run` row, and the logged run
of that notebook is cited in section 1 and section 6 once, and only once, the log holds one.
"""

from __future__ import annotations

import json

from support import seed

from reports.opportunities import match_capability, stated_parameters

BUDGET_COMMAND = ("chapter-audit budget run --corpus CORPUS.jsonl --run RUN.tsv --qrels QRELS.txt --output DIR "
                  "--depth 10 --unit-cap 3 --char-cap 1200 --relevance-weight 0.7 --redundancy-weight 0.3")


def section(report: str, number: int) -> str:
    start = report.index(f"## {number}.")
    end = report.index(f"## {number + 1}.") if f"## {number + 1}." in report else len(report)
    return report[start:end]


def rows(report: str) -> dict[str, list[str]]:
    out = {}
    for line in section(report, 6).splitlines():
        if line.startswith("| proposed") or line.startswith("| associated"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            out[cells[0]] = cells
    return out


def report_for(pack, tmp_path, cli, log, *kinds):
    output = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.md"
    result = cli("report", pack, "--output", output, "--log", log, "--offline", "--date", "2026-11-30", *kinds)
    assert result.exit_code == 0, result.output
    return output.read_text(encoding="utf-8")


def test_seed_002_names_the_budget_run_and_keeps_the_out_of_reach_gap_unspecified(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    log.write_text("")
    # about the proposed budget run, not the kinds: it states the rules, which read C-001-03 (the
    # observed sizes the budget run reproduces) right; the default classifier too since
    # fd6430259fd4 (tests/test_kinds_default.py)
    table = rows(report_for(seed("002_1cad392b6b549eb0.txt"), tmp_path, cli, log, "--kinds", "rules"))
    gap1 = table["proposed experiment: gap 1"]
    assert gap1[1] == "No measurement of diversity effects on the book's task outcomes."
    assert gap1[2].startswith("not yet specified") and gap1[5].startswith("UNRUN")
    gap2 = table["proposed experiment: gap 2 (budget run)"]
    assert gap2[1] == "Budget accounting is specified but not audited end-to-end."
    assert f"`{BUDGET_COMMAND}`" in gap2[2]
    assert "--depth from “depth-ten”" in gap2[2] and "--char-cap from “1,200-character allowance”" in gap2[2]
    assert "1,298 (C-001-03)" in gap2[3] and "1,108 (C-001-03)" in gap2[3]
    assert gap2[5].startswith("UNRUN")
    notebook = table["proposed experiment: run the associated notebook"]
    assert "`chapter-audit notebook run 15-chapter.ipynb --output DIR --timeout 600`" in notebook[2]
    assert notebook[5] == "UNRUN: no recorded run of this notebook in the log"


def test_a_logged_notebook_run_is_cited_only_when_it_exists(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    record = {"run_id": "notebook-run-0123456789ab", "command": "notebook run",
              "parameters": {"timeout": 600, "kernel": "python3", "cell_index_base": 0},
              "inputs": {"/data/15-chapter.ipynb": "0" * 64}, "outputs": {}, "results": {},
              "status": "failed", "error": "NotebookCellFailed: cell 7: ModuleNotFoundError: No module named 'x'",
              "started_at": "2026-11-30T01:00:00Z", "ended_at": "2026-11-30T01:00:09Z", "versions": {}}
    other = dict(record, run_id="notebook-run-ffffffffffff", inputs={"/data/16-chapter.ipynb": "1" * 64})
    log.write_text(json.dumps(other) + "\n")
    report = report_for(seed("002_1cad392b6b549eb0.txt"), tmp_path, cli, log)
    assert "recorded:" not in section(report, 1)  # a run of another notebook is not this notebook's run
    log.write_text(json.dumps(other) + "\n" + json.dumps(record) + "\n")
    report = report_for(seed("002_1cad392b6b549eb0.txt"), tmp_path, cli, log)
    cited = ("recorded: run notebook-run-0123456789ab, 2026-11-30T01:00:09Z, status failed "
             "(NotebookCellFailed: cell 7: ModuleNotFoundError: No module named 'x')")
    assert cited in section(report, 1)
    assert rows(report)["associated notebook"][5] == "ran: " + cited.removeprefix("recorded: ")


def test_demo_gaps_name_the_sandbox_and_r03_commands(tmp_path, cli):
    from pathlib import Path

    pack = Path(__file__).resolve().parents[1] / "audit/examples/sandbox-chapter-pack.txt"
    log = tmp_path / "log.jsonl"
    log.write_text("")
    table = rows(report_for(pack, tmp_path, cli, log))
    sandbox = table["proposed experiment: gap 1 (sandbox run)"][2]
    assert "--output DIR --k 3 --candidate-depth 5 --hybrid-alpha 0.55 --rerank-weight 0.25`" in sandbox
    r03 = table["proposed experiment: gap 2 (r03 prepare / r03 evaluate)"][2]
    assert "chapter-audit r03 prepare --benchmark BENCHMARK_DIR --freeze FREEZE_DIR" in r03


def test_stated_parameters_and_capabilities():
    found = stated_parameters("Every number comes from one run with a cutoff of three, a candidate depth of "
                              "five, a hybrid weight of 0.55 and a rerank weight of 0.25.")
    assert {n: p.value for n, p in found.items()} == {"k": 3, "candidate_depth": 5, "hybrid_alpha": 0.55,
                                                      "rerank_weight": 0.25}
    weights = stated_parameters("marginal = 0.7 / r - 0.3 * redundancy, under a 900-character budget")
    assert {n: p.value for n, p in weights.items()} == {"relevance_weight": 0.7, "redundancy_weight": 0.3,
                                                        "char_cap": 900}
    assert match_capability("No measurement of diversity effects on the book's task outcomes.") is None
    assert match_capability("Budget accounting is not audited.").name == "budget"
    assert match_capability("Macro NDCG@3 was never re-run.").name == "sandbox"
    assert match_capability("The colab notebook was never executed.").name == "notebook"
    assert match_capability("Nothing about retrieval here.") is None


def test_a_command_is_named_only_for_what_it_computes():
    """Issue 22: the registry's CLAIM_SCOPES decide; a BM25 sandbox run never "reproduces" a dense
    retriever's number, and "resource requirements" is not requirement coverage."""
    assert match_capability("DPR reaches Recall@20 of 78.4 on Natural Questions.", claim=True) is None
    assert match_capability("A dense retriever with hybrid fusion reaches NDCG@10 of 0.52.", claim=True) is None
    assert match_capability("State the resource requirements before comparing methods.") is None
    assert match_capability("BM25 reaches macro Recall@3 of 0.889.", claim=True).name == "sandbox"
    assert match_capability("BM25 is fast on ten topics.", claim=True) is None      # names no metric it computes
    assert match_capability("The dense top five covers 2/4 requirements.", claim=True).name == "r03"


def test_a_contradicted_number_is_never_the_success_criterion(tmp_path, cli):
    from cli.demo import run_demo

    run_demo(tmp_path / "demo", report_date="2026-12-01")
    text = (tmp_path / "demo" / "report.md").read_text(encoding="utf-8")
    gap = rows(text)["proposed experiment: gap 1 (sandbox run)"]
    assert "0.888 (C-004-01: run sandbox-run-" in gap[3] and "the printed 0.889 is contradicted)" in gap[3]
    assert "0.889 (C-004-01)" not in gap[3] and "0.889 (C-004-01)" not in gap[4]
