"""`chapter-audit demo`: the main job on the bundled example, offline, in one command.

1. ``sandbox run`` on the bundled L03 fixture with the W03 parameters;
2. ``r03 prepare`` then ``r03 evaluate`` on the bundled R03 mini benchmark (A21, B18);
3. ``report`` on the bundled example pack, binding its numbers to those logged runs.

Every step is the registered experiment the CLI command runs (:mod:`engine.experiments`), so each
run is logged in the demo's own execution log (``WORKDIR/log.jsonl``) and the report reads only that log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.runs.errors import RefusalError
from engine.runs.fixtures_path import fixtures_dir

EXAMPLES = Path(__file__).resolve().parents[1] / "audit" / "examples"
EXAMPLE_PACK = EXAMPLES / "sandbox-chapter-pack.txt"
EXAMPLE_CLAIMS = EXAMPLES / "sandbox-chapter.claims.toml"


@dataclass
class DemoResult:
    workdir: Path
    report: Path
    log: Path
    run_ids: dict[str, str] = field(default_factory=dict)
    matched: int = 0
    bound: int = 0
    claims: int = 0
    sources: int = 0

    def summary_lines(self) -> list[str]:
        lines = [f"{name}: run {run_id}" for name, run_id in self.run_ids.items()]
        lines.append(f"report: {self.report} ({self.claims} claim rows, {self.sources} sources UNVERIFIED "
                     f"offline, {self.matched}/{self.bound} bound numbers match)")
        lines.append(f"log: {self.log}")
        return lines


def run_demo(workdir: str | Path, report_date: str | None = None) -> DemoResult:
    """Run the three steps into a new ``workdir`` (refused if it exists and is not empty)."""
    from engine.experiments import run_experiment
    from reports.build import ReportOptions, parse_report_date, write_report

    workdir = Path(workdir)
    if workdir.exists() and any(workdir.iterdir()):
        raise RefusalError(f"{workdir}: exists and is not empty; the demo writes only into a new directory "
                           "(choose another --workdir)")
    parse_report_date(report_date)
    log = workdir / "log.jsonl"
    l03 = fixtures_dir() / "l03"
    mini = fixtures_dir() / "r03_mini"
    result = DemoResult(workdir=workdir, report=workdir / "report.md", log=log)
    steps = {
        "sandbox run": dict(corpus=l03 / "corpus.jsonl", topics=l03 / "topics.jsonl", qrels=l03 / "qrels.txt",
                            dense_run=l03 / "supplied_run.tsv", dense_metadata=l03 / "supplied_run_metadata.json",
                            output=workdir / "sandbox", k=3, candidate_depth=5, hybrid_alpha=0.55,
                            rerank_weight=0.25),
        "r03 prepare": dict(benchmark=mini, freeze=workdir / "r03-freeze"),
        "r03 evaluate": dict(benchmark=mini, freeze=workdir / "r03-freeze", output=workdir / "r03-results"),
    }
    for command, values in steps.items():
        result.run_ids[command] = run_experiment(command, values, log=log)["run_id"]
    _, inputs = write_report(ReportOptions(
        pack=EXAMPLE_PACK, output=result.report, log=log, claims_files=(EXAMPLE_CLAIMS,),
        sources_cache=workdir / "sources", offline=True, report_date=report_date))
    result.matched = sum(v.ok for v in inputs.verdicts)
    result.bound = len(inputs.verdicts)
    result.claims = len(inputs.claims)
    result.sources = len(inputs.sources)
    return result
