"""Render a 250-row chapter's report to HTML (markdown-it-py) and screenshot it with headless Chromium.

    PYTHONPATH=. .venv/bin/python bench/render_report_html.py [--out DIR] [--rows 250]

Generates a Markdown chapter of our own (seeded): sections of prose with measured results (some
bound to a logged run that contradicts one), attributions with inline arXiv links and a reference
list, a results table with a "% of baseline" column holding one planted error; writes the offline
report, renders it with markdown-it-py (CommonMark + tables, raw HTML on so that the report's own
row anchors work, exactly as a Markdown viewer would), adds a small stylesheet, and runs
``chromium --headless --screenshot`` on the file. Prints the paths, the row count and whether the
fix-first list and the ranked table appear in the rendered HTML (checked in the HTML, not by eye).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STYLE = """<style>body{font-family:sans-serif;font-size:13px;max-width:1500px;margin:1em auto}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 4px;vertical-align:top}
td:nth-child(2){max-width:380px}td:nth-child(4){max-width:300px;font-size:11px}</style>"""


def chapter(rows: int, seed: int = 11) -> str:
    rng = random.Random(seed)
    systems = ["BM25", "Dense", "Hybrid", "Rerank"]
    parts = ["# A generated chapter\n"]
    n = 0
    section = 0
    while n < rows:
        section += 1
        parts.append(f"## Section {section}\n")
        for _ in range(6):
            s = rng.choice(systems)
            kind = rng.random()
            if kind < 0.3:
                parts.append(f"{s} reaches Recall@100 of {rng.random():.3f} on collection {n}.")
            elif kind < 0.45:
                parts.append(f"As shown by [Author{n} et al.](https://arxiv.org/abs/2{n % 10}01.{10000 + n}), "
                             f"{s} is a strong baseline.")
            else:
                parts.append(f"This paragraph explains step {n} of the method in words without numbers.")
            n += 1
        parts.append("")
    parts.append("## Results\n\nTable of our runs:\n")
    parts.append("| System | nDCG@10 | % of BM25 |\n|---|---|---|")
    parts.append("| BM25 | 0.400 | 100% |\n| Dense | 0.440 | 110% |\n| Hybrid | 0.480 | 125% |\n")
    parts.append("Min-max fusion lifts macro NDCG@3 to 0.889 on three topics.\n")
    parts.append("## References\n")
    parts.append("1. Robertson and Zaragoza (2009). The Probabilistic Relevance Framework. "
                 "https://doi.org/10.1561/1500000019")
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "chapter-audit-render")
    parser.add_argument("--rows", type=int, default=250)
    args = parser.parse_args()
    from markdown_it import MarkdownIt

    from engine.runs.runlog import recorded_run
    from reports.build import ReportOptions, write_report

    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    page = out / "chapter.md"
    page.write_text(chapter(args.rows), encoding="utf-8")
    run = out / "run"
    run.mkdir()
    (run / "metrics.json").write_text(json.dumps({"macro": {"hybrid": {"ndcg@3": 0.888438415}}}))
    (run / "manifest.json").write_text(json.dumps({"run_id": "sandbox-run-render"}))
    log = out / "log.jsonl"
    with recorded_run(log, "sandbox run", {"k": 3}) as rec:
        rec.run_id = "sandbox-run-render"
        rec.add_outputs(run)
        rec.results = {"metrics": str((run / "metrics.json").resolve()),
                       "manifest": str((run / "manifest.json").resolve())}
    claims = out / "claims.toml"
    claims.write_text('[experiment.fusion]\ncommand = "sandbox run"\nresult = "metrics"\n\n[[binding]]\n'
                      'id = "hybrid"\nexperiment = "fusion"\nquote = "lifts macro NDCG@3 to 0.889"\n'
                      'claimed = "0.889"\nkey = "macro.hybrid.ndcg@3"\n', encoding="utf-8")
    path, inputs = write_report(ReportOptions(pack=page, output=out / "report.md", log=log, claims_files=(claims,),
                                              sources_cache=out / "cache", offline=True, report_date="2026-12-01",
                                              search=False))
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(path.read_text(encoding="utf-8"))
    html_path = out / "report.html"
    html_path.write_text("<!doctype html><meta charset=utf-8>" + STYLE + html, encoding="utf-8")
    fix_first = html.find("<h3>Fix first</h3>")
    internal = html.count('href="#')
    print(f"chapter {page} → {len(inputs.claims)} claim rows; report {path}; HTML {html_path}")
    print(f"fix-first list rendered: {fix_first >= 0 and html.find('<ol>', fix_first) > 0}; "
          f"before the provenance table: {0 <= fix_first < html.find('<table>')}; "
          f"row anchors: {html.count('<a id=')}; links to them: {internal}")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        print("chromium not found: no screenshot")
        return 0
    png = out / "report.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                        f"--screenshot={png}", "--window-size=1500,2600", html_path.as_uri()],
                       check=False, capture_output=True, timeout=120)
    print(f"screenshot: {png} ({png.stat().st_size if png.exists() else 0} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
