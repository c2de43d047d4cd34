"""Hostile-input sweep: every command on inputs from issue 10, in child processes.

Each case runs ``python -m cli ...`` with a time limit and records its exit code, whether
stderr/stdout holds a Python traceback, and the time it took. A case fails when it prints a
traceback, exits with a code outside 0-4 (130/143 are signals), or exceeds the limit (a hang or
a quadratic blow-up). Prints one line per case and a summary; exits 1 if any case failed.

    .venv/bin/python bench/hostile_inputs.py [--limit SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
L03 = REPO / "engine" / "fixtures" / "l03"
R03 = REPO / "engine" / "fixtures" / "r03_mini"
PACK = REPO / "audit" / "examples" / "sandbox-chapter-pack.txt"


def sandbox(work: Path, name: str, **swap: Path) -> list[str]:
    files = {"corpus": L03 / "corpus.jsonl", "topics": L03 / "topics.jsonl", "qrels": L03 / "qrels.txt",
             "dense-run": L03 / "supplied_run.tsv", "dense-metadata": L03 / "supplied_run_metadata.json"}
    files.update({k.replace("_", "-"): v for k, v in swap.items()})
    args = ["sandbox", "run"]
    for option, path in files.items():
        args += [f"--{option}", str(path)]
    return args + ["--output", str(work / f"out-{name}"), "--log", str(work / f"log-{name}.jsonl")]


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def corpus_with(line: str) -> str:
    return (L03 / "corpus.jsonl").read_text() + line + "\n"


def cases(work: Path) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    deep = "[" * 100_000 + "]" * 100_000
    huge = "9" * 5000
    # JSON and JSONL readers
    for name, line in {
        "corpus-huge-int": '{"doc_id": "D-X", "title": "t", "text": "x", "n": %s}' % huge,
        "corpus-deep": '{"doc_id": "D-X", "title": "t", "text": "x", "n": %s}' % deep,
        "corpus-surrogate": '{"doc_id": "D-\\ud800", "title": "t", "text": "x"}',
        "corpus-wrong-type": '{"doc_id": ["D-X"], "title": 5, "text": {"a": 1}}',
        "corpus-nul": '{"doc_id": "D-\\u0000", "title": "t", "text": "x"}',
    }.items():
        out.append((name, sandbox(work, name, corpus=write(work / f"{name}.jsonl", corpus_with(line)))))
    for name, text in {"meta-deep": deep, "meta-huge-int": '{"model_identity": %s}' % huge,
                       "meta-list": "[1, 2]"}.items():
        out.append((name, sandbox(work, name, dense_metadata=write(work / f"{name}.json", text))))
    qrels = (L03 / "qrels.txt").read_text()
    for name, grade in {"qrels-huge": huge, "qrels-1e999": "1e999", "qrels-neg-huge": "-" + huge}.items():
        out.append((name, sandbox(work, name, qrels=write(work / f"{name}.txt", qrels + f"T-01 0 D-003 {grade}\n"))))
    run = (L03 / "supplied_run.tsv").read_text()
    out.append(("run-score-huge", sandbox(work, "run-score-huge", dense_run=write(
        work / "run-huge.tsv", run + f"T-01 Q0 D-009 99 {huge} x\n"))))
    fifo = work / "fifo.jsonl"
    os.mkfifo(fifo)
    out.append(("corpus-fifo", sandbox(work, "corpus-fifo", corpus=fifo)))
    (work / "a-dir").mkdir()
    out.append(("corpus-dir", sandbox(work, "corpus-dir", corpus=work / "a-dir")))
    out.append(("corpus-nul-name", sandbox(work, "x", corpus=Path(str(work / "a") + "\x00b"))))
    out.append(("log-is-dir", sandbox(work, "log-dir")[:-1] + [str(work)]))
    write(work / "a-file", "x")
    out.append(("output-is-file", sandbox(work, "output-file")[:-4] + ["--output", str(work / "a-file"),
                                                                       "--log", str(work / "l.jsonl")]))
    out.append(("seed-minus-one", ["r03", "evaluate", "--benchmark", str(R03), "--freeze", str(work / "fz"),
                                   "--output", str(work / "ev"), "--seed", "-1", "--log", str(work / "r.jsonl")]))
    # budget and encode sizes
    budget = ["budget", "run", "--corpus", str(L03 / "corpus.jsonl"), "--run", str(L03 / "supplied_run.tsv"),
              "--qrels", str(L03 / "qrels.txt"), "--log", str(work / "b.jsonl")]
    vectors = np.ones((10, 4), dtype=np.float64) * 1e300
    np.save(work / "big.npy", vectors)
    write(work / "ids.json", "".join(f"D-{i:03d}\n" for i in range(1, 11)))
    out.append(("budget-overflowing-vectors", budget + ["--output", str(work / "bo"), "--vectors",
                                                        str(work / "big.npy"), "--vector-ids", str(work / "ids.json")]))
    header = b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 384), }"
    write(work / "absurd.npy", header.ljust(10 + 118, b" ")[:127] + b"\n" + b"\0" * 64)
    out.append(("budget-absurd-npy", budget + ["--output", str(work / "bn"), "--vectors", str(work / "absurd.npy"),
                                               "--vector-ids", str(work / "ids.json")]))
    out.append(("budget-unit-cap", budget + ["--output", str(work / "bu"), "--unit-cap", "1000000000000"]))
    out.append(("budget-depth", budget + ["--output", str(work / "bd"), "--depth", "1000000000000"]))
    out.append(("budget-threads", budget + ["--output", str(work / "bt"), "--intra-op-threads", "1000000000"]))
    out.append(("encode-threads", ["encode", "--input", str(L03 / "corpus.jsonl"), "--field", "text", "--output",
                                   str(work / "v.npy"), "--intra-op-threads", "1000000000",
                                   "--log", str(work / "e.jsonl")]))
    # claims files and logs
    claims_src = (REPO / "claims" / "bindings" / "w03.toml").read_text()
    for name, text in {"claims-huge-int": claims_src + f"\n[extra]\nn = {huge}\n",
                       "claims-deep": claims_src + "\n[extra]\nn = " + "[" * 50_000 + "]" * 50_000 + "\n",
                       "claims-tolerance-inf": claims_src.replace('key = "macro.bm25.recall@3"',
                                                                  'key = "macro.bm25.recall@3"\ntolerance = inf', 1),
                       "claims-binding-not-table": 'binding = [1, 2]\n',
                       "claims-fraction-huge": claims_src.replace('claimed = "0.888889"', f'claimed = "{huge}/1"', 1)}.items():
        out.append((name, ["verify", str(write(work / f"{name}.toml", text)), "--log", str(work / "none.jsonl")]))
    good = json.dumps({"run_id": "x", "status": "ok", "command": "sandbox run", "parameters": {"k": 3},
                       "outputs": {"a": "b"}, "results": {"metrics": "/etc/passwd"}})
    for name, text in {"log-damaged": '{"run_id": "cut\n' + good + "\n",
                       "log-wrong-types": '{"run_id": "x", "status": "ok", "outputs": [1], "results": 5}\n',
                       "log-huge-int": '{"run_id": "x", "status": "ok", "n": %s}\n' % huge,
                       "log-deep": deep + "\n", "log-surrogate": '{"run_id": "\\udc00", "status": "ok"}\n',
                       "log-forged-result": good + "\n"}.items():
        out.append((name, ["verify", str(REPO / "claims" / "bindings" / "w03.toml"), "--log",
                           str(write(work / f"{name}.jsonl", text))]))
    # packs, chapters, results pages
    pack = PACK.read_text()
    for name, text in {"pack-separators": pack.replace("== 2. Chapter text ==\n",
                                                       "== 2. Chapter text ==\nA\x1cB\x1dC\x1eD | 0.5 |\n"),
                       "pack-spaces": pack.replace("== 2. Chapter text ==\n", "== 2. Chapter text ==\n" + " " * 100_000 + "x\n"),
                       "pack-evidence-spaces": pack.replace("== 4. Existing evidence ==\n",
                                                            "== 4. Existing evidence ==\n- " + " " * 100_000 + "x\n"),
                       "pack-bad-url": pack.replace("== 4. Existing evidence ==\n",
                                                    "== 4. Existing evidence ==\n- A source (http://[::1/x)\n"),
                       "pack-surrogate": pack + "\n\ud800\n"}.items():
        path = write(work / f"{name}.txt", text.encode("utf-8", "surrogatepass") if name == "pack-surrogate" else text)
        out.append((name + ":report", ["report", str(path), "--output", str(work / f"{name}.md"), "--offline",
                                       "--log", str(work / "none.jsonl"), "--sources-cache", str(work / "cache")]))
        out.append((name + ":claims", ["claims", str(path)]))
        out.append((name + ":fingerprint", ["fingerprint", str(path)]))
        out.append((name + ":sources", ["sources", str(path), "--offline", "--sources-cache", str(work / "cache")]))
    page = (REPO / "tests" / "data" / "results" / "synthetic_results.md").read_text()
    for name, text in {"consistency-0-tasks": page.replace("has 8 tasks", "has 0 tasks"),
                       "consistency-huge": page.replace("| 0.6500 |", "| " + "9" * 400 + ".5 |", 1),
                       "consistency-1e309": page.replace("| 0.6500 |", "| 1e309 |", 1)}.items():
        out.append((name, ["consistency", str(write(work / f"{name}.md", text))]))
    out.append(("consistency-tasks-0", ["consistency", str(write(work / "p0.md", page)), "--tasks", "all=0"]))
    out.append(("fingerprint-fifo", ["fingerprint", str(fifo)]))
    out.append(("report-cache-is-file", ["report", str(PACK), "--output", str(work / "rc.md"), "--offline",
                                         "--log", str(work / "none.jsonl"), "--sources-cache", str(work / "a-file")]))
    out.append(("demo-workdir-is-file", ["demo", "--workdir", str(work / "a-file")]))
    out.append(("prepare-empty-pattern", ["r03", "prepare", "--benchmark", str(R03), "--freeze", str(work / "fz2"),
                                          "--barrier-pattern", "", "--log", str(work / "p.jsonl")]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per case")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hostile-"))
    failures = 0
    try:
        all_cases = cases(work)
        for name, args in all_cases:
            start = time.perf_counter()
            try:
                done = subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True,
                                      timeout=options.limit, cwd=work, errors="replace")
                code, text = done.returncode, done.stdout + done.stderr
            except subprocess.TimeoutExpired:
                code, text = None, ""
            except ValueError as exc:  # an argument the OS cannot pass (NUL byte): not our command
                code, text = 2, f"not passable: {exc}"
            seconds = time.perf_counter() - start
            traceback = "Traceback (most recent call last)" in text
            bad = code is None or traceback or code not in (0, 1, 2, 3, 4, 130, 143)
            failures += bad
            last = (text.strip().splitlines() or [""])[-1][:110]
            print(f"{'FAIL' if bad else 'ok  '} {name:34s} exit {code!s:>4}  {seconds:6.2f} s  {last}")
        print(f"{len(all_cases)} cases, {failures} failed (traceback, unexpected exit or over {options.limit:g} s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
