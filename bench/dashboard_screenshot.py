"""A real browser looks at the book dashboard: headless Chromium renders ``index.html``.

    python bench/dashboard_screenshot.py [--out /tmp/book-dashboard.png] [--chromium chromium]

Audits the test book (tests/data/book/, after a logged L03 sandbox run) into a temporary
directory, then runs Chromium headless three times on ``OUT/index.html`` (a ``file://`` URL; the
page fetches nothing):

1. ``--screenshot`` writes a PNG of the page (look at it);
2. ``--dump-dom`` prints the DOM *after* the page's script ran: every chapter must have its row
   (``data-number`` 1..N, in book order), every link must resolve to a file of OUT, and the
   script's counter must read ``N of N chapters shown``;
3. ``--dump-dom`` on ``index.html#q=fusion``: the filter must hide every row but chapter 4.

Exits 1 on any failed check, naming it. Chromium runs with ``--no-sandbox`` (containers run as
root) and a throwaway profile. A script, not a test: CI machines without Chromium skip it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def chromium(binary: str, profile: Path, *args: str) -> str:
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               f"--user-data-dir={profile}", "--virtual-time-budget=3000", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"chromium failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "book-dashboard.png")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser")
                        or "chromium")
    args = parser.parse_args()

    from test_book import BOOK, DATE, sandbox

    from books.run import BookOptions, run_book

    work = Path(tempfile.mkdtemp(prefix="book-dashboard-"))
    try:
        shutil.copytree(BOOK, work / "book")
        sandbox(work / "sandbox", work / "log.jsonl")
        result = run_book(BookOptions(directory=work / "book", output=work / "out", log=work / "log.jsonl",
                                      offline=True, report_date=DATE, sources_cache=work / "cache"))
        page = (work / "out" / "index.html").resolve()
        url = page.as_uri()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        chromium(args.chromium, work / "profile", f"--screenshot={args.out.resolve()}", "--window-size=1500,900",
                 "--hide-scrollbars", url)
        problems = []
        if not args.out.is_file() or args.out.stat().st_size < 5000:
            problems.append("no screenshot written")
        dom = chromium(args.chromium, work / "profile", "--dump-dom", url)
        numbers = [int(n) for n in re.findall(r'<tr data-number="(\d+)"', dom)]
        expected = [row["number"] for row in result.rows]
        if numbers != expected:
            problems.append(f"rows after the script ran: {numbers}, expected {expected}")
        for row in result.rows:
            if f'href="{row["report"]}"' not in dom:
                problems.append(f"no link to {row['report']}")
        hrefs = re.findall(r'href="([^"]+)"', dom)
        broken = [h for h in hrefs if not (work / "out" / h).is_file()]
        if broken or not hrefs:
            problems.append(f"links that do not resolve: {broken}")
        shown = re.search(r'<span id="shown">([^<]*)</span>', dom)
        if not shown or shown.group(1) != f"{len(expected)} of {len(expected)} chapters shown":
            problems.append(f"the script did not run: counter {shown.group(1) if shown else None!r}")
        filtered = chromium(args.chromium, work / "profile", "--dump-dom", url + "#q=fusion")
        visible = re.findall(r'<tr data-number="(\d+)"(?![^>]*display: none)[^>]*>', filtered)
        if visible != ["4"]:
            problems.append(f"filter q=fusion shows rows {visible}, expected ['4']")
        print(f"screenshot: {args.out} ({args.out.stat().st_size:,} bytes)" if args.out.is_file() else "no screenshot")
        print(f"rows after JavaScript: {len(numbers)} of {len(expected)}; links: {len(hrefs)}, "
              f"{len(hrefs) - len(broken)} resolve; counter: {shown.group(1) if shown else None!r}; "
              f"filter q=fusion leaves rows {visible}")
        for problem in problems:
            print(f"FAILED: {problem}")
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
