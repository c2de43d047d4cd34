"""False-alarm sweep of every consistency check over a folder of real public Markdown pages.

    PYTHONPATH=. .venv/bin/python bench/sweep_consistency.py DIR [--manifest bench/data/sweep_manifest.json] [--cli]

The pages themselves are others' text and are not in the repository: ``bench/data/sweep_manifest.json``
names each one (repository, path, commit, and the sha256 of the page as swept; ``file`` is its name
under DIR), so the same folder can be rebuilt from the GitHub snapshots with
``git --git-dir=... show COMMIT:PATH > DIR/FILE``, or with ``--rebuild-from MIRRORS`` (a folder holding
one ``owner+name/repo`` git directory per repository, as ``fetch`` leaves them) before the sweep.
The pages were chosen as every Markdown file of each repository's snapshot with a pipe table of at
least three rows holding a number cell (``castorini/anserini``: every 7th of its 601, sorted by path). With ``--manifest`` every page is checked against
its sha256 first (a missing or changed page is counted and named, and left out).

Every page gets ``claims.consistency.check_results_page`` (the function ``chapter-audit consistency``
calls) in a loop that survives errors: a page that raises is counted with its traceback (the goal is
0). With ``--cli`` each page is instead run as ``python -m cli consistency PAGE --format json`` in a
new process, counting exit codes and any ``Traceback`` on stderr. Printed: pages, checks per kind
(pass / fail / skip), exit codes, tracebacks, wall time, then every failure with its arithmetic, so
that each can be read and judged by hand (docs/audit.md lists the verdicts).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

NEW_KINDS = ("percent-of-baseline", "ratio-to-baseline", "prose-ratio", "prose-points", "code-count")


def listed_pages(folder: Path, manifest: Path | None) -> tuple[list[Path], list[str]]:
    """The pages to sweep (sorted), and the manifest entries missing or changed under ``folder``."""
    if manifest is None:
        return sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".markdown", ".txt") and p.is_file()), []
    found, bad = [], []
    for entry in json.loads(manifest.read_text(encoding="utf-8")):
        page = folder / entry["file"]
        if not page.is_file():
            bad.append(f"missing: {entry['file']}")
        elif hashlib.sha256(page.read_bytes()).hexdigest() != entry["sha256"]:
            bad.append(f"changed: {entry['file']}")
        else:
            found.append(page)
    return sorted(found), bad


def rebuild(folder: Path, manifest: Path, mirrors: Path) -> int:
    """Write every manifest page from its repository's git directory under ``mirrors``; returns how
    many were written (a page whose bytes no longer match its sha256 is not written)."""
    written = 0
    for entry in json.loads(manifest.read_text(encoding="utf-8")):
        gitdir = mirrors / entry["repo"].replace("/", "+", 1) / "repo"
        done = subprocess.run(["git", "--git-dir", str(gitdir), "show", f"{entry['commit']}:{entry['path']}"],
                              capture_output=True)
        if done.returncode == 0 and hashlib.sha256(done.stdout).hexdigest() == entry["sha256"]:
            (folder / entry["file"]).parent.mkdir(parents=True, exist_ok=True)
            (folder / entry["file"]).write_bytes(done.stdout)
            written += 1
    return written


def run_library(page: Path) -> tuple[int | None, list[dict], str]:
    """(exit code, checks, traceback text) through the library function the CLI calls."""
    from claims.consistency import check_results_page
    try:
        report = check_results_page(page)
    except Exception as exc:  # an InputError is the CLI's exit 2, anything else a defect
        from engine.runs.errors import InputError
        if isinstance(exc, InputError):
            return 2, [], ""
        return None, [], traceback.format_exc()
    return report.exit_code(), [c.as_dict() for c in report.checks], ""


def run_cli(page: Path) -> tuple[int | None, list[dict], str]:
    """(exit code, checks, traceback text) from a new ``python -m cli consistency`` process."""
    done = subprocess.run([sys.executable, "-m", "cli", "consistency", str(page), "--format", "json"],
                          capture_output=True, text=True)
    checks = []
    if done.stdout.strip():
        try:
            checks = json.loads(done.stdout).get("checks", [])
        except json.JSONDecodeError:
            return done.returncode, [], "stdout is not JSON: " + done.stdout[:200]
    tb = done.stderr if "Traceback" in done.stderr else ""
    return done.returncode, checks, tb


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--manifest", type=Path, default=None)
    parser.add_argument("--cli", action="store_true", help="one CLI process per page")
    parser.add_argument("--rebuild-from", type=Path, default=None, help="git snapshots to rebuild FOLDER from")
    args = parser.parse_args(argv)
    if args.rebuild_from is not None:
        if args.manifest is None:
            parser.error("--rebuild-from needs --manifest")
        print(f"{rebuild(args.folder, args.manifest, args.rebuild_from)} pages written to {args.folder}")
    found, bad = listed_pages(args.folder, args.manifest)
    run = run_cli if args.cli else run_library
    counts: Counter[tuple[str, str]] = Counter()
    exits: Counter[str] = Counter()
    failures, tracebacks = [], []
    started = time.perf_counter()
    for page in found:
        code, checks, tb = run(page)
        exits[str(code)] += 1
        if tb:
            tracebacks.append(f"{page}:\n{tb}")
        for check in checks:
            counts[(check["group"], check["status"])] += 1
            if check["status"] == "fail":
                failures.append(f"{page.relative_to(args.folder)}:{check['line']}: {check['group']}: {check['arithmetic']}")
    elapsed = time.perf_counter() - started
    kinds = sorted({kind for kind, _ in counts})
    total = sum(counts.values())
    print(f"{len(found)} pages swept ({len(bad)} missing or changed), {total} checks, "
          f"{sum(v for (k, s), v in counts.items() if s == 'fail')} failures, {len(tracebacks)} tracebacks, "
          f"{elapsed:.1f} s ({'CLI' if args.cli else 'library'})")
    print("exit codes: " + ", ".join(f"{code}: {n}" for code, n in sorted(exits.items())))
    for kind in kinds:
        mark = " (issue 22)" if kind in NEW_KINDS else ""
        print(f"{kind}{mark}: {counts[(kind, 'pass')]} pass, {counts[(kind, 'fail')]} fail, {counts[(kind, 'skip')]} skip")
    for line in failures:
        print("FAIL", line)
    for line in bad:
        print("NOT SWEPT", line)
    for line in tracebacks:
        print("TRACEBACK", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
