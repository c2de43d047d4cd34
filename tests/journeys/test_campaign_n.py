"""Campaign n: wrong verdicts with exit 0 on surfaces the first campaign did not reach.

Each test runs the command line as a user does (``python -m cli`` in a fresh interpreter) on files
written here, decides the right verdict by hand (and by a peer library where one exists) and
asserts it. Every test failed before its fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from commands import run_cli
from sources_server import SourcesServer


@pytest.fixture(scope="module")
def server():
    with SourcesServer(tls=False) as running:
        yield running


def _sources_env(server) -> dict[str, str]:
    return {"CHAPTER_AUDIT_CROSSREF_API": f"{server.url}/crossref",
            "CHAPTER_AUDIT_ARXIV_API": f"{server.url}/arxiv/api",
            "CHAPTER_AUDIT_GITHUB_API": f"{server.url}/github",
            "CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP": "1"}


CITED_PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Budgets

== 2. Chapter text ==

BM25 is the ranking function of the probabilistic relevance framework (Robertson and Zaragoza).

== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- Robertson and Zaragoza (2009). The Probabilistic Relevance Framework: BM25 and Beyond. https://doi.org/10.9999/test.1
- Quillfeather, A. and Oakhurst, B. (2002). Budgeted Selection of Evidence Units. doi:10.9999/test.1
- Quillfeather, A. and Oakhurst, B. (2001). Budgeted Selection of Evidence Units. doi:10.9999/test.1
- Quillfeather (2019). Invented gains from budgeted selection. doi:10.9999/retracted.1
"""


def _rows(output: str) -> list[str]:
    return [re.sub(r"\s+", " ", line).strip() for line in output.splitlines() if line.startswith("doi ")]


def test_a_doi_that_resolves_to_another_work_is_never_silently_verified(server, tmp_path: Path) -> None:
    """The loopback Crossref record of 10.9999/test.1 is "Budgeted Selection of Evidence Units",
    Quillfeather and Oakhurst, issued 2001-07. The pack cites (1) Robertson and Zaragoza (2009),
    "The Probabilistic Relevance Framework" under that DOI: another work; (2) the right work with
    the year 2002: off by one; (3) the right work, right year: no doubt. ``sources`` printed all
    three VERIFIED with nothing else, so a user read (1) as a verified Robertson paper. The record
    is still the record (VERIFIED), but each disagreement is now a DISCREPANCY: the names, the
    year and the title (token_set_ratio 31.5, below 60); line (3) has none."""
    (tmp_path / "pack.txt").write_text(CITED_PACK, encoding="utf-8")
    done = run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache", cwd=tmp_path,
                   env=_sources_env(server))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    wrong, off_by_one, right, _ = _rows(done.stdout)
    assert wrong.startswith("doi 10.9999/test.1 VERIFIED abstract only Budgeted Selection of Evidence Units (2001-07); "
                            "DISCREPANCY: the pack's description names 'Robertson', who is not among the verified "
                            "authors (Quillfeather, Oakhurst, The Example Consortium)")
    assert "DISCREPANCY: the pack's description names 'Zaragoza'" in wrong
    assert "DISCREPANCY: the pack's description gives the year 2009, the verified record 2001 (2001-07)" in wrong
    assert ("DISCREPANCY: the pack's description cites the title 'The Probabilistic Relevance Framework: BM25 and "
            "Beyond', the identifier resolves to 'Budgeted Selection of Evidence Units' (title agreement 31.5, below 60)"
            ) in wrong
    assert off_by_one.count("DISCREPANCY") == 1
    assert "DISCREPANCY: the pack's description gives the year 2002, the verified record 2001 (2001-07)" in off_by_one
    assert "DISCREPANCY" not in right


def test_a_description_that_is_no_citation_is_not_read_as_one() -> None:
    """Only a description that opens with authors then the year is checked as a citation:
    "The Pyserini toolkit (2021)" or "leaderboard as of March 2023" name no authors."""
    from sources.leads import written_as_citation

    assert [written_as_citation(d) for d in (
        "Robertson and Zaragoza (2009). The Probabilistic Relevance Framework.",
        "Lin, J., Ma, X., et al. (2021). Pyserini.", "Karpukhin et al. 2020, Dense Passage Retrieval",
        "The Pyserini toolkit (2021). Pyserini.", "Official MS MARCO leaderboard as of March 2023",
        "The Example Consortium (2020). A report.", "Carbonell and Goldstein's MMR; the reference.")] == [
        True, True, True, False, False, False, False]


def test_a_retracted_work_is_never_shown_as_plainly_verified(server, tmp_path: Path) -> None:
    """10.9999/retracted.1 carries a retraction (publisher and Retraction Watch, 2021-05-04).
    ``sources`` printed "VERIFIED ... Invented gains from budgeted selection (2019-03-02)" and not a
    word of the retraction (only ``report`` said it). The table now says RETRACTED with the notice;
    the citation itself agrees with the record (name, year, title), so no DISCREPANCY."""
    (tmp_path / "pack.txt").write_text(CITED_PACK, encoding="utf-8")
    done = run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache", cwd=tmp_path,
                   env=_sources_env(server))
    assert done.returncode == 0, done.stderr
    retracted = _rows(done.stdout)[3]
    assert retracted.startswith(
        "doi 10.9999/retracted.1 VERIFIED abstract only Invented gains from budgeted selection (2019-03-02); "
        "RETRACTED: retraction notice doi:10.9999/retraction-notice.1 (publisher, 2021-05-04); "
        "retraction notice doi:10.9999/retraction-notice.1 (retraction-watch, 2021-05-04) ")
    assert "DISCREPANCY" not in retracted
    records = json.loads(run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache",
                                 "--format", "json", cwd=tmp_path, env=_sources_env(server)).stdout)["records"]
    assert [len(r["discrepancies"]) for r in records] == [4, 1, 0, 0]


WITHDRAWN_FEED = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>http://arxiv.org/abs/9999.00005v2</id>
    <updated>2031-05-06T00:00:00Z</updated>
    <published>2030-01-02T00:00:00Z</published>
    <title>Invented Dense Retrieval Gains</title>
    <summary>This paper has been withdrawn by the author due to an error in the evaluation.</summary>
    <author><name>Cora Lindqvist</name></author>
    <arxiv:comment>This paper has been withdrawn by the author due to an error in the evaluation</arxiv:comment>
  </entry>
</feed>
"""


@pytest.fixture(scope="module")
def odd_server():
    """Loopback routes the shared server lacks: a withdrawn arXiv entry (shaped as arXiv's API
    answers for a withdrawn article: the new version's comment and abstract say so) and a Crossref
    DOI whose 301 points at itself."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, unquote, urlsplit

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def _send(self, code: int, body: bytes = b"", headers: dict | None = None) -> None:
            self.send_response(code)
            for name, value in {"Content-Type": "application/atom+xml", **(headers or {})}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            if unquote(parts.path) == "/crossref/works/10.9999/loop":
                return self._send(301, headers={"Location": "/crossref/works/10.9999/loop"})
            if parts.path == "/arxiv/api/query" and parse_qs(parts.query).get("id_list") == ["9999.00005"]:
                return self._send(200, WITHDRAWN_FEED)
            if unquote(parts.path) == "/crossref/works/10.9999/nodoi":   # a work-list where a work belongs
                return self._send(200, json.dumps({"status": "ok", "message-type": "work-list", "message": {
                    "items": [], "total-results": 0}}).encode(), headers={"Content-Type": "application/json"})
            return self._send(404, b"{}")

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_a_withdrawn_arxiv_paper_is_retracted_not_plainly_verified(odd_server, tmp_path: Path) -> None:
    """arXiv answers a withdrawn article with its new version, whose comment and abstract say
    "This paper has been withdrawn by the author". ``sources`` said "VERIFIED ... Invented Dense
    Retrieval Gains" and ``report`` rested the chapter's claim on it with no word of doubt. Now
    the table says RETRACTED (withdrawal, from the arXiv comment) and the report puts the claim
    first with high priority. A 301 that points at itself stays UNVERIFIED (more than 5 redirects).
    A Crossref answer that names no DOI (a work-list where a work belongs) was VERIFIED with no
    title; it cannot be shown to be the work asked for: UNVERIFIED."""
    (tmp_path / "pack.txt").write_text(
        "== 1. Identity ==\nBook: Invented Book\nChapter: Dense\n\n== 2. Chapter text ==\n\n"
        "Lindqvist's dense retriever gains 4 points of nDCG@10.\n\n== 4. Existing evidence ==\n"
        "- Lindqvist (2030). Invented Dense Retrieval Gains. arXiv:9999.00005\n"
        "- A loop. doi:10.9999/loop\n- A list. doi:10.9999/nodoi\n", encoding="utf-8")
    env = _sources_env(odd_server)
    done = run_cli("sources", "pack.txt", "--no-search", "--sources-cache", "cache", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    arxiv, loop, nodoi = [re.sub(r"\s+", " ", line) for line in done.stdout.splitlines()[1:4]]
    assert nodoi.startswith("doi 10.9999/nodoi UNVERIFIED not accessible Crossref's answer names no DOI "
                            "(message-type 'work-list'): cannot tell it is the work asked for")
    assert arxiv.startswith("arxiv 9999.00005 VERIFIED abstract only Invented Dense Retrieval Gains "
                            "(2031-05-06T00:00:00Z); RETRACTED: withdrawal (arXiv comment, 2031-05-06: This paper "
                            "has been withdrawn by the author due to an error in the evaluation)")
    assert loop.startswith("doi 10.9999/loop UNVERIFIED not accessible more than 5 redirects from ")
    report = run_cli("report", "pack.txt", "--no-search", "--sources-cache", "cache", "-o", "report.md",
                     cwd=tmp_path, env=env)
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| high | remove or replace the retracted source and re-check the claim;" in text
    assert "S-1 RETRACTED — arxiv:9999.00005" in text
    from sources.arxiv import WITHDRAWN_COMMENT

    assert [bool(WITHDRAWN_COMMENT.search(c)) for c in (
        "This submission has been withdrawn by arXiv administrators due to text reuse", "Withdrawn",
        "Accepted at SIGIR 2021. An earlier version was withdrawn from ICLR")] == [True, True, False]


def test_ndcg_spelt_as_ranx_spells_it_says_it_is_another_measure(tmp_path: Path) -> None:
    """A ranx user asks ``evaluate --measures ndcg@10`` (ranx's spelling). Graded qrels: topic 301
    d1 = 2, d2 = 1; topic 302 d5 = 1, d6 = 3. The run ranks d4, d1, d2 and d5, d6. ranx's
    ``ndcg@10`` (linear gain) is 0.733190, its ``ndcg_burges@10`` 0.684406; ``evaluate`` printed
    0.684406 under the name ``ndcg@10`` (the sandbox's W03 measure) without a word. The value is the
    documented one, so it stays, but stderr now says which measure it is and what to ask for; and
    ``nDCG@10`` is ranx's ``ndcg@10`` to 1e-12 (computed here with ranx)."""
    from ranx import Qrels, Run, evaluate

    (tmp_path / "qrels.txt").write_text("301 0 d1 2\n301 0 d2 1\n302 0 d5 1\n302 0 d6 3\n", encoding="utf-8")
    (tmp_path / "run.txt").write_text("301 Q0 d4 1 2.5 x\n301 Q0 d1 2 2.4 x\n301 Q0 d2 3 0.5 x\n"
                                      "302 Q0 d5 1 3.0 x\n302 Q0 d6 2 2.9 x\n", encoding="utf-8")
    done = run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "ndcg@10,nDCG@10",
                   "-o", "out", "--log", "log.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    macro = json.loads((tmp_path / "out" / "metrics.json").read_text())["runs"]["x"]["macro"]
    peer = evaluate(Qrels({"301": {"d1": 2, "d2": 1}, "302": {"d5": 1, "d6": 3}}),
                    Run({"301": {"d4": 2.5, "d1": 2.4, "d2": 0.5}, "302": {"d5": 3.0, "d6": 2.9}}),
                    ["ndcg@10", "ndcg_burges@10"])
    assert abs(macro["nDCG@10"] - peer["ndcg@10"]) < 1e-12 and abs(macro["ndcg@10"] - peer["ndcg_burges@10"]) < 1e-12
    assert round(peer["ndcg@10"], 6) == 0.733190 and round(macro["ndcg@10"], 6) == 0.684406
    assert ("warning: ndcg@10 is the sandbox's W03 nDCG with gain 2**g - 1 (ir_measures' nDCG(dcg='exp-log2')@10, "
            "ranx's ndcg_burges@10); ranx's ndcg@10 and ir_measures' nDCG@10 take the grade as gain: ask for "
            "nDCG@10 for that number") in done.stderr
    assert "nDCG@10 is" not in done.stderr


def test_one_claims_file_never_binds_two_chapters_of_one_name(tmp_path: Path) -> None:
    """The user's book holds 03-fusion.md (Recall@3 0.75, the supplied run's macro value, bound by
    ``bind`` into 03-fusion.claims.toml) and the older pack 03-fusion.txt, which prints 0.80.
    ``book`` bound both chapters by that one claims file: the pack's verify.json said MATCH and its
    report "1 of 1 bound numbers match" of a number it does not print. Now the shared name is
    refused (exit 2, nothing written); named after its chapter it binds that chapter only."""
    from userfiles import sandbox_args, write_sandbox_inputs

    inputs = write_sandbox_inputs(tmp_path / "inputs")
    assert run_cli(*sandbox_args(inputs, tmp_path / "run", tmp_path / "log.jsonl"), cwd=tmp_path).returncode == 0
    book = tmp_path / "book"
    book.mkdir()
    (book / "03-fusion.md").write_text("# Fusion\n\nThe supplied dense run reaches a Recall@3 of 0.75 on our "
                                       "two topics.\n", encoding="utf-8")
    bound = run_cli("bind", "book/03-fusion.md", "--log", "log.jsonl", "-o", "book/03-fusion.claims.toml", cwd=tmp_path)
    assert bound.returncode == 0 and 'claimed = "0.75"' in (book / "03-fusion.claims.toml").read_text()
    (book / "03-fusion.txt").write_text(
        "== 1. Identity ==\nBook: Invented Book\nChapter: Fusion\n\n== 2. Chapter text ==\n\n"
        "The supplied dense run reaches a Recall@3 of 0.80 on our two topics.\n", encoding="utf-8")
    refused = run_cli("book", "book", "-o", "out", "--log", "log.jsonl", "--offline", cwd=tmp_path)
    assert refused.returncode == 2 and not (tmp_path / "out").exists()
    assert refused.stderr.strip() == (
        f"{book / '03-fusion.claims.toml'}: would bind each of the chapters 03-fusion.md, 03-fusion.txt; name it "
        "after the chapter it binds (e.g. 03-fusion.md.claims.toml) or list the chapters in book.toml")
    (book / "03-fusion.claims.toml").rename(book / "03-fusion.md.claims.toml")
    done = run_cli("book", "book", "-o", "out", "--log", "log.jsonl", "--offline", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    verdicts = json.loads((tmp_path / "out" / "chapters" / "03-fusion.md" / "verify.json").read_text())
    assert [(v["claimed"], v["verdict"]) for v in verdicts] == [("0.75", "MATCH")]
    assert not (tmp_path / "out" / "chapters" / "03-fusion.txt" / "verify.json").exists()


def test_an_improvement_over_a_baseline_never_binds_the_runs_own_value(tmp_path: Path) -> None:
    """Three topics, one relevant document each; run a finds all three at rank 1 (P@1 1.0), run b
    only topic 1 (P@1 0.333333); ``evaluate`` logs b − a = −0.666667. The chapter says "Run b
    improves P@1 by 0.333 over run a": false (b is 0.667 worse). ``bind`` bound 0.333 to
    ``runs.b.macro.P@1`` (b's own value) and ``verify`` said MATCH. An improvement over a baseline
    is a difference: it may bind ``pairs.b-minus-a.P@1.difference`` (then MISMATCH) or nothing."""
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n2 0 d2 1\n3 0 d3 1\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("1 Q0 d1 1 2 a\n2 Q0 d2 1 1 a\n3 Q0 d3 1 1 a\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("1 Q0 d1 1 2 b\n2 Q0 d9 1 1 b\n3 Q0 d8 1 1 b\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "a.txt", "--run", "b.txt", "--measures", "P@1",
                   "-o", "out", "--log", "log.jsonl", "--draws", "200", cwd=tmp_path).returncode == 0
    (tmp_path / "chapter.md").write_text("# Comparison\n\nRun b improves P@1 by 0.333 over run a on our three "
                                         "topics.\n", encoding="utf-8")
    run_cli("bind", "chapter.md", "--log", "log.jsonl", "-o", "chapter.toml", cwd=tmp_path)
    draft = (tmp_path / "chapter.toml").read_text(encoding="utf-8") if (tmp_path / "chapter.toml").exists() else ""
    assert 'key = "runs.b.macro.P@1"' not in draft


HTML_TABLE_CHAPTER = """# Fusion results

As the table shows, the hybrid reaches an nDCG@3 of 0.982.

<table>
<tr><th>System</th><th>Recall@3</th><th>nDCG@3</th></tr>
<tr><td>BM25</td><td>1.00</td><td>1.000</td></tr>
<tr><td>Dense</td><td>0.75</td><td>0.576</td></tr>
<tr><td>Hybrid</td><td>1.00</td><td>0.892</td></tr>
</table>
"""


def test_numbers_in_an_html_table_are_read_as_a_table(tmp_path: Path) -> None:
    """The same table as a pipe table gives ``consistency`` "tables read: 1" and one FAIL: the prose
    says the hybrid's nDCG@3 is 0.982, its cell says 0.892 (|Δ| 0.09). Written as HTML (as many
    site generators and notebooks export it) ``consistency`` read 0 tables and exited 3, and
    ``report`` said "tables read: none" of a chapter holding nine numbers in a table."""
    (tmp_path / "chapter.md").write_text(HTML_TABLE_CHAPTER, encoding="utf-8")
    done = run_cli("consistency", "chapter.md", cwd=tmp_path)
    assert "tables read: 1" in done.stdout
    assert done.returncode == 1 and "'0.982' vs 0.892" in done.stdout


def _two_runs(tmp_path: Path) -> None:
    """Topics 1–3, one relevant document each. Run ``a`` (tag anserini.bm25, named anserini_bm25)
    finds topics 1 and 2 at rank 1: P@1 per topic 1, 1, 0, macro 0.666667; run ``b`` only topic 1:
    macro 0.333333; the pair b − a: −0.333333, randomisation p = 1.0 (200 draws), t-test df 2."""
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n2 0 d2 1\n3 0 d3 1\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("1 Q0 d1 1 2 anserini.bm25\n2 Q0 d2 1 1 anserini.bm25\n"
                                    "3 Q0 d7 1 1 anserini.bm25\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("1 Q0 d1 1 2 b\n2 Q0 d9 1 1 b\n3 Q0 d8 1 1 b\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "a.txt", "--run", "b.txt", "--measures", "P@1",
                   "-o", "out", "--log", "log.jsonl", "--draws", "200", cwd=tmp_path).returncode == 0


def _draft_keys(tmp_path: Path, sentence: str) -> list[str]:
    (tmp_path / "chapter.md").write_text(f"# Results\n\n{sentence}\n", encoding="utf-8")
    run_cli("bind", "chapter.md", "--log", "log.jsonl", "-o", "chapter.toml", cwd=tmp_path)
    draft = tmp_path / "chapter.toml"
    text = draft.read_text(encoding="utf-8") if draft.exists() else ""
    return re.findall(r'^key = "(.*)"$', text, flags=re.MULTILINE)


def test_a_precision_is_never_bound_to_a_p_value(tmp_path: Path) -> None:
    """Topics 301 and 302 (one relevant document each, TREC-style ids): run a finds both at
    rank 1 (P@1 1.0), run b only 302 (P@1 0.5); b − a = −0.5, randomisation p = 1.0 (two topics:
    every sign flip is as extreme), t-test df 1. "Run b reaches a P@1 of 1.00" is false. ``bind``
    bound it to ``pairs.b-minus-a.P@1.randomisation_p`` (the alternatives listed were the corrected
    p-values and ``t_test_df``), so ``verify`` said MATCH of a precision against a p-value."""
    (tmp_path / "qrels.txt").write_text("301 0 d1 1\n301 0 d2 1\n302 0 d5 1\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("301 Q0 d1 1 2 a\n301 Q0 d2 2 1 a\n302 Q0 d5 1 1 a\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("301 Q0 d9 1 2 b\n301 Q0 d1 2 1 b\n302 Q0 d5 1 1 b\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "a.txt", "--run", "b.txt", "--measures", "P@1",
                   "-o", "out", "--log", "log.jsonl", "--draws", "200", cwd=tmp_path).returncode == 0
    keys = _draft_keys(tmp_path, "Run b reaches a P@1 of 1.00.")
    assert not [k for k in keys if k.rsplit(".", 1)[-1].startswith(("randomisation_p", "t_test"))], keys


def test_a_number_said_over_all_topics_never_binds_one_topics_value(tmp_path: Path) -> None:
    """"On our three topics, anserini.bm25 reaches a P@1 of 1.00" is false (macro 0.666667).
    ``bind`` bound it to ``runs.anserini_bm25.per_topic.1.P@1`` (topic 1's 1.0: TREC topic ids are
    numbers, and no topic is named) and ``verify`` said MATCH."""
    _two_runs(tmp_path)
    keys = _draft_keys(tmp_path, "On our three topics, anserini.bm25 reaches a P@1 of 1.00.")
    assert not [k for k in keys if ".per_topic." in k], keys


def test_a_table_values_line_is_its_cells_line(tmp_path: Path) -> None:
    """Line 3 is the table's header, 4 its delimiter, 5 BM25's row, 6 Dense's. ``claims`` gave
    both cells line 3, so an editor jumping to FILE:LINE of "Dense · Recall@3 = 0.75" lands on
    the header (a sentence's row already carries its own line)."""
    (tmp_path / "chapter.md").write_text("# Results\n\n| System | Recall@3 |\n|---|---|\n| BM25 | 1.00 |\n"
                                         "| Dense | 0.75 |\n", encoding="utf-8")
    done = run_cli("claims", "chapter.md", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert [(r["text"], r["line"]) for r in rows if r["kind"] == "table value"] == [
        ("T-1 · BM25 · Recall@3 = 1.00", 5), ("T-1 · Dense · Recall@3 = 0.75", 6)]


def test_a_number_rounded_the_wrong_way_at_a_half_is_no_match(tmp_path: Path) -> None:
    """Twenty topics, one relevant document each; the run finds eleven at rank 1, so P@1 is
    11/20 = 0.55 (metrics.json writes 0.55) and, over 8 topics with 3 found, 0.375. The chapter
    prints "0.5" and "37%": 0.55 rounds to 0.6 and 37.5% to 38% under both conventions in use
    (half up; half to even), so both are rounding errors. ``verify`` said MATCH (the tolerance,
    half a printed unit, held inclusively). Now MISMATCH; "0.6" and "38%" stay MATCH, and so
    does "0.4" for 0.45 (half to even) and "0.5" for 0.45 (half up)."""
    lines = [f"{t} 0 d{t} 1" for t in range(1, 21)]
    (tmp_path / "qrels.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [f"{t} Q0 d{t if t <= 11 else 'x'} 1 1.0 mine" for t in range(1, 21)]
    (tmp_path / "run.txt").write_text("\n".join(found) + "\n", encoding="utf-8")
    (tmp_path / "small.txt").write_text("\n".join(lines[:8]) + "\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "P@1",
                   "-o", "out", "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    (tmp_path / "run8.txt").write_text("\n".join(found[:3] + [f"{t} Q0 dx 1 1.0 mine" for t in range(4, 9)]) + "\n",
                                       encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "small.txt", "--run", "run8.txt", "--measures", "P@1",
                   "-o", "out8", "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    assert json.loads((tmp_path / "out" / "metrics.json").read_text())["runs"]["mine"]["macro"]["P@1"] == 0.55
    experiment = ('[experiment.{name}]\ncommand = "evaluate"\nresult = "metrics"\n'
                  '[experiment.{name}.inputs]\nqrels = "{qrels}"\n')
    from engine.runs.hashing import sha256_file

    claims = (experiment.format(name="twenty", qrels=sha256_file(tmp_path / "qrels.txt"))
              + experiment.format(name="eight", qrels=sha256_file(tmp_path / "small.txt")))
    for number, (name, claimed) in enumerate([("twenty", "0.5"), ("twenty", "0.6"), ("eight", "37%"),
                                              ("eight", "38%")], start=1):
        claims += (f'\n[[binding]]\nid = "b{number}"\nexperiment = "{name}"\nquote = "P@1"\n'
                   f'claimed = "{claimed}"\nkey = "runs.mine.macro.P@1"\n')
    (tmp_path / "claims.toml").write_text(claims, encoding="utf-8")
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", "--format", "json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    verdicts = json.loads(done.stdout)
    verdicts = verdicts["bindings"] if isinstance(verdicts, dict) else verdicts
    assert [(v["claimed"], v["reproduced"], v["verdict"]) for v in verdicts] == [
        ("0.5", 0.55, "MISMATCH"), ("0.6", 0.55, "MATCH"), ("37%", 0.375, "MISMATCH"), ("38%", 0.375, "MATCH")]

    from claims.bindings import parse_claimed
    from claims.verify import compare

    assert compare(parse_claimed("0.4"), 0.45)[0] and compare(parse_claimed("0.5"), 0.45)[0]


def test_a_moved_book_never_reuses_reports_that_name_the_old_folder(tmp_path: Path) -> None:
    """The user runs ``book`` in ``project/``, then moves the project to ``moved/`` and runs it
    again. The chapter is unchanged, so its report was copied byte for byte, and said
    "execution log | …/project/log.jsonl", a log that is no longer there (consistency.json named
    the old chapter path too). Where the chapter and the log are is now part of the key: the
    moved chapter is audited again and names the files it read."""
    project = tmp_path / "project"
    (project / "book").mkdir(parents=True)
    (project / "book" / "01-intro.md").write_text("# Intro\n\nWe retrieve with BM25 on two topics.\n",
                                                  encoding="utf-8")
    (project / "log.jsonl").write_text("", encoding="utf-8")
    args = ("book", "book", "-o", "out", "--log", "log.jsonl", "--offline")
    assert run_cli(*args, cwd=project).returncode == 0
    again = run_cli(*args, cwd=project)
    assert again.returncode == 0 and "1 unchanged" in again.stdout
    moved = project.rename(tmp_path / "moved")
    done = run_cli(*args, cwd=moved)
    assert done.returncode == 0, done.stderr
    assert "1 changed" in done.stdout
    report = (moved / "out" / "chapters" / "01-intro.md" / "report.md").read_text(encoding="utf-8")
    assert f"| execution log | {moved / 'log.jsonl'} " in report and str(project) not in report


def test_the_latest_run_of_a_merged_log_is_the_one_that_ended_last(tmp_path: Path) -> None:
    """The user evaluated on Monday (P@1 0.5: one of two topics), fixed the run file's doc ids
    and evaluated again (P@1 1.0) into a new folder, then rotated the log and later put the old
    lines back after the new ones (``cat log.1.jsonl >> log.jsonl``). The claims file pins the
    qrels only. ``verify`` read "the latest ok run" by line, the Monday run, and said MATCH of the
    chapter's stale 0.5; it now reads the run that ended last (1.0): MISMATCH, naming that run."""
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n2 0 d2 1\n", encoding="utf-8")
    (tmp_path / "run.txt").write_text("1 Q0 d1 1 2 mine\n2 Q0 dx 1 1 mine\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "P@1", "-o", "monday",
                   "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    (tmp_path / "run.txt").write_text("1 Q0 d1 1 2 mine\n2 Q0 d2 1 1 mine\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "P@1", "-o", "tuesday",
                   "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    monday, tuesday = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(monday)  # both ran within this second; Monday's run ended a day earlier
    record["started_at"], record["ended_at"] = "2026-11-30T09:00:00Z", "2026-11-30T09:00:01Z"
    monday = json.dumps(record) + "\n"
    (tmp_path / "log.jsonl").write_text(tuesday + monday, encoding="utf-8")
    from engine.runs.hashing import sha256_file

    (tmp_path / "claims.toml").write_text(
        f'[experiment.e]\ncommand = "evaluate"\nresult = "metrics"\n[experiment.e.inputs]\n'
        f'qrels = "{sha256_file(tmp_path / "qrels.txt")}"\n\n[[binding]]\nid = "p1"\nexperiment = "e"\n'
        f'quote = "P@1"\nclaimed = "0.5"\nkey = "runs.mine.macro.P@1"\n', encoding="utf-8")
    done = run_cli("verify", "claims.toml", "--log", "log.jsonl", "--format", "json", cwd=tmp_path)
    verdicts = json.loads(done.stdout)
    verdicts = verdicts["bindings"] if isinstance(verdicts, dict) else verdicts
    assert done.returncode == 1 and [(v["reproduced"], v["verdict"], v["run_id"]) for v in verdicts] == [
        (1.0, "MISMATCH", json.loads(tuesday)["run_id"])]


def test_a_chapter_edited_after_its_claims_file_is_never_no_flags(tmp_path: Path) -> None:
    """The maintainer's chapter printed "a Recall@3 of 0.75" (the supplied run's macro value), bound
    by ``bind``. The author then edits it to 0.80, which the run contradicts, and nobody touches the
    claims file. ``book`` said NO-FLAGS with 0 contradicted and 0 unchecked: the binding's MATCH
    of "… of 0.75", a sentence the chapter no longer has, stood for the chapter. Now a binding the
    chapter does not hold is unchecked: the chapter is UNCHECKED."""
    from userfiles import sandbox_args, write_sandbox_inputs

    inputs = write_sandbox_inputs(tmp_path / "inputs")
    assert run_cli(*sandbox_args(inputs, tmp_path / "run", tmp_path / "log.jsonl"), cwd=tmp_path).returncode == 0
    (tmp_path / "book").mkdir()
    chapter = tmp_path / "book" / "04-fusion.md"
    chapter.write_text("# Fusion\n\nThe supplied dense run reaches a Recall@3 of 0.75 on our two topics.\n",
                       encoding="utf-8")
    assert run_cli("bind", "book/04-fusion.md", "--log", "log.jsonl", "-o", "book/04-fusion.claims.toml",
                   cwd=tmp_path).returncode == 0
    args = ("book", "book", "-o", "out", "--log", "log.jsonl", "--offline")
    first = run_cli(*args, cwd=tmp_path)
    assert first.returncode == 0 and "NO-FLAGS" in first.stdout
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("0.75", "0.80"), encoding="utf-8")
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "out" / "chapters" / "04-fusion.md" / "summary.json").read_text())
    assert summary["status"] == "UNCHECKED" and summary["counts"]["unchecked"] == 1, summary
    report = (tmp_path / "out" / "chapters" / "04-fusion.md" / "report.md").read_text(encoding="utf-8")
    assert ("1 of 1 bound numbers match (1 of them quote text this chapter does not print: they check "
            "nothing of it)") in report


def test_a_bibtex_entry_whose_doi_is_another_works_is_a_discrepancy(server, tmp_path: Path) -> None:
    """The chapter's .bib gives Robertson and Zaragoza's 2009 monograph the DOI 10.9999/test.1,
    which is Quillfeather and Oakhurst's 2001 paper (a DOI pasted from the wrong entry); the
    second entry is that paper, rightly. ``sources --references`` verified both without a word;
    now the first carries the name, year and title discrepancies and the second none."""
    (tmp_path / "refs.bib").write_text(
        "@article{robertson2009,\n  author = {Robertson, Stephen and Zaragoza, Hugo},\n"
        "  title = {The Probabilistic Relevance Framework: BM25 and Beyond},\n  year = {2009},\n"
        "  doi = {10.9999/test.1}\n}\n@article{quill2001,\n  author = {Quillfeather, Ada and Oakhurst, Bram},\n"
        "  title = {Budgeted Selection of Evidence Units},\n  year = {2001},\n  doi = {10.9999/test.1}\n}\n",
        encoding="utf-8")
    (tmp_path / "chapter.md").write_text("# BM25\n\nBM25 comes from the probabilistic relevance framework "
                                         "[@robertson2009].\n", encoding="utf-8")
    done = run_cli("sources", "chapter.md", "--references", "refs.bib", "--no-search", "--sources-cache", "cache",
                   "--format", "json", cwd=tmp_path, env=_sources_env(server))
    assert done.returncode == 0, done.stderr
    wrong, right = json.loads(done.stdout)["records"]
    assert any("gives the year 2009, the verified record 2001" in d for d in wrong["discrepancies"])
    assert any("cites the title 'The Probabilistic Relevance Framework: BM25 and Beyond'" in d
               for d in wrong["discrepancies"])
    assert right["discrepancies"] == [] and right["status"] == wrong["status"] == "VERIFIED"


def test_a_report_never_says_no_table_was_read_of_a_chapter_with_an_html_table(tmp_path: Path) -> None:
    """``report`` said "tables read | none" of a chapter whose nine numbers sit in a ``<table>`` at
    line 5, as though it had no table. The table is now read (T-1, lines 5–10, its caption the
    sentence above it); one never closed (no ``</table>``) is still named as set aside, its numbers
    not read, bound or checked."""
    (tmp_path / "chapter.md").write_text(HTML_TABLE_CHAPTER, encoding="utf-8")
    (tmp_path / "broken.md").write_text(HTML_TABLE_CHAPTER.replace("</table>\n", ""), encoding="utf-8")
    for name in ("chapter", "broken"):
        done = run_cli("report", f"{name}.md", "--offline", "-o", f"{name}-report.md", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert ("| tables read | T-1: 3 columns (System, Recall@3, nDCG@3) × 3 rows, lines 5–10 after “As the table "
            "shows, the hybrid reaches an nDCG@3 of 0.982.” |") in (tmp_path / "chapter-report.md").read_text(encoding="utf-8")
    assert ("| tables read | 1 HTML table(s) set aside at line(s) 5: their numbers are not read, bound or "
            "checked |") in (tmp_path / "broken-report.md").read_text(encoding="utf-8")


def test_a_printed_ndcg_never_binds_the_other_ndcg(tmp_path: Path) -> None:
    """The log holds one evaluate run with both ``ndcg@10`` (gain 2**g − 1: 0.684406) and
    ``nDCG@10`` (linear, ir_measures' and trec_eval's: 0.733190) — the data of the ranx test above.
    "Run x reaches an nDCG@10 of 0.684" is false under the name it prints; ``bind`` bound it to
    ``runs.x.macro.ndcg@10`` and ``verify`` said MATCH."""
    (tmp_path / "qrels.txt").write_text("301 0 d1 2\n301 0 d2 1\n302 0 d5 1\n302 0 d6 3\n", encoding="utf-8")
    (tmp_path / "run.txt").write_text("301 Q0 d4 1 2.5 x\n301 Q0 d1 2 2.4 x\n301 Q0 d2 3 0.5 x\n"
                                      "302 Q0 d5 1 3.0 x\n302 Q0 d6 2 2.9 x\n", encoding="utf-8")
    assert run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", "ndcg@10,nDCG@10",
                   "-o", "out", "--log", "log.jsonl", cwd=tmp_path).returncode == 0
    keys = _draft_keys(tmp_path, "Run x reaches an nDCG@10 of 0.684 on our two topics.")
    assert "runs.x.macro.ndcg@10" not in keys, keys


def test_a_server_that_drips_its_answer_cannot_hold_a_look_up(tmp_path: Path) -> None:
    """A metadata server sends its headers, then one byte every 0.1 s of a 200-byte body. Each
    read is within the read timeout (here 0.3 s; 10 s by default), so the look-up waited for the
    whole body, as long as the server liked (a real drip holds ``sources`` for hours). A body must
    now arrive within 3 read timeouts: the look-up ends as a read timeout (0.9 s, two attempts),
    never VERIFIED on a partial body."""
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from sources.http import ClientConfig, PoliteClient

    class Drip(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "200")
            self.end_headers()
            try:
                for _ in range(200):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        config = ClientConfig(connect_timeout=0.5, read_timeout=0.3, max_attempts=2, backoff_base=0.01,
                              backoff_max=0.05, trust_env=False, min_interval={})
        with PoliteClient(config, allow_loopback_http=True) as client:
            result = client.get(f"http://127.0.0.1:{httpd.server_address[1]}/crossref/works/10.9999/drip")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.body is None and result.error == "timeout (read, 0.3 s) after 2 attempts", result


def test_the_report_summary_never_counts_a_binding_the_chapter_no_longer_prints(tmp_path: Path) -> None:
    """The same edit as above, through ``report``: the chapter now prints 0.80 and its claims file
    still binds "… of 0.75", which the run reproduces. The command's summary said "1/1 bound
    numbers match", the MATCH of a sentence the chapter no longer has; it now counts only the
    numbers the chapter prints, and says how many bindings check nothing of it."""
    from userfiles import sandbox_args, write_sandbox_inputs

    inputs = write_sandbox_inputs(tmp_path / "inputs")
    assert run_cli(*sandbox_args(inputs, tmp_path / "run", tmp_path / "log.jsonl"), cwd=tmp_path).returncode == 0
    chapter = tmp_path / "04-fusion.md"
    chapter.write_text("# Fusion\n\nThe supplied dense run reaches a Recall@3 of 0.75 on our two topics.\n",
                       encoding="utf-8")
    assert run_cli("bind", "04-fusion.md", "--log", "log.jsonl", "-o", "04-fusion.claims.toml",
                   cwd=tmp_path).returncode == 0
    args = ("report", "04-fusion.md", "--claims", "04-fusion.claims.toml", "--log", "log.jsonl", "--offline")
    before = run_cli(*args, "-o", "before.md", cwd=tmp_path)
    assert before.returncode == 0, before.stderr
    assert "1/1 bound numbers match" in before.stdout and "check nothing" not in before.stdout
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("0.75", "0.80"), encoding="utf-8")
    after = run_cli(*args, "-o", "after.md", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert ("0/1 bound numbers match (1 quote text the chapter does not print: they check nothing of it)"
            in after.stdout), after.stdout
    summary = json.loads(run_cli(*args, "-o", "json.md", "--format", "json", cwd=tmp_path).stdout)
    assert (summary["bound"], summary["matched"], summary["not_printed"]) == (1, 0, 1)
