"""Network failures fail fast (sources/http.py, docs/sources.md "Fail fast"): a refused
connection or a name that does not resolve is not retried, the host is not asked again in the
run, and ``sources`` exits 1 saying how many look-ups could not be made and which hosts.

Everything runs on loopback: a port with nothing listening (refused), a socket that accepts and
never answers (read timeout), ``.invalid`` host names (RFC 6761: they never resolve; the
resolution fails locally) and a resolver replaced by a slow one. Wall times are only checked
against the 20 s goal of issue 21, as an upper bound, never tighter.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from sources import http
from sources.check import check_sources
from sources.http import ClientConfig, PoliteClient, SourceEndpoints, is_network_failure
from test_sources_cli import PACK  # the same five leads the sources CLI tests look up

REPO = Path(__file__).resolve().parents[1]
LOOKED_UP = 4   # the web page has no metadata API


def free_port() -> int:
    """A loopback port with nothing listening on it (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_sources(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[subprocess.CompletedProcess, float]:
    pack = tmp_path / "pack.txt"
    pack.write_text(PACK, encoding="utf-8")
    full = {**os.environ, "PYTHONPATH": str(REPO), **env}
    full.pop("CHAPTER_AUDIT_CONTACT", None)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cli", "sources", str(pack), "--sources-cache",
                           str(tmp_path / "cache"), *args], capture_output=True, text=True, env=full,
                          timeout=120, cwd=tmp_path)
    return done, time.monotonic() - started


def test_refused_everywhere_fails_fast_and_says_so(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"CHAPTER_AUDIT_CROSSREF_API": base + "/crossref", "CHAPTER_AUDIT_ARXIV_API": base + "/arxiv",
           "CHAPTER_AUDIT_GITHUB_API": base + "/github", "CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP": "1"}
    done, wall = run_sources(tmp_path, env, "--format", "json")
    assert done.returncode == 1, done.stderr
    assert wall < 20, wall   # the goal, as an upper bound only
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"{tmp_path / 'pack.txt'}: look-ups not made: {LOOKED_UP} of 5 sources could not be looked up, "
        f"1 of 1 searches incomplete; unreachable: 127.0.0.1:{port}: connection refused"]
    document = json.loads(done.stdout)
    assert document["not_reached"] == {"sources": LOOKED_UP, "searches": 1,
                                       "hosts": {f"127.0.0.1:{port}": "connection refused"}}
    reasons = [(r["reason"], r["attempts"]) for r in document["records"]]
    assert reasons[0] == (f"cannot reach 127.0.0.1:{port}: connection refused", 1)   # asked once, not retried
    skipped = f"not attempted: 127.0.0.1:{port} could not be reached earlier in this run (connection refused)"
    assert reasons[1:4] == [(skipped, 0)] * 3
    assert reasons[4] == ("no metadata API for this kind of URL: not looked up", 0)
    assert document["searches"][0]["status"] == f"search failed: Crossref: {skipped}; arXiv: {skipped}"


def test_unresolvable_hosts_fail_fast_in_text_too(tmp_path):
    env = {"CHAPTER_AUDIT_CROSSREF_API": "https://crossref.example.invalid",
           "CHAPTER_AUDIT_ARXIV_API": "https://arxiv.example.invalid/api",
           "CHAPTER_AUDIT_GITHUB_API": "https://github.example.invalid"}
    done, wall = run_sources(tmp_path, env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert wall < 20, wall
    summary = [line for line in done.stdout.splitlines() if line.startswith("look-ups not made:")]
    assert len(summary) == 1
    assert summary[0].startswith(f"look-ups not made: {LOOKED_UP} of 5 sources could not be looked up, "
                                 "1 of 1 searches incomplete; unreachable: ")
    for host in ("arxiv.example.invalid", "crossref.example.invalid", "github.example.invalid"):
        assert f"{host}: host name not resolved" in summary[0]
    rows = {line.split()[1]: line for line in done.stdout.splitlines()[1:6]}
    assert "cannot reach crossref.example.invalid: host name not resolved" in rows["10.9999/test.1"]
    assert "not attempted: crossref.example.invalid could not be reached" in rows["10.9999/missing"]


def test_offline_is_not_a_network_failure(tmp_path):
    done, _ = run_sources(tmp_path, {"CHAPTER_AUDIT_CROSSREF_API": "https://crossref.example.invalid"},
                          "--offline")
    assert done.returncode == 0, done.stderr
    assert "look-ups not made" not in done.stdout and done.stderr == ""


@pytest.fixture
def silent_server():
    """Accepts TCP connections (the kernel's backlog) and never answers a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    yield listener.getsockname()[1]
    listener.close()


def test_a_server_that_never_answers_is_bounded(silent_server):
    base = f"http://127.0.0.1:{silent_server}"
    endpoints = SourceEndpoints(crossref=base + "/crossref", arxiv=base + "/arxiv", github=base + "/github",
                                allow_loopback_http=True)
    config = ClientConfig(connect_timeout=0.5, read_timeout=0.3, backoff_base=0.01, trust_env=False,
                          min_interval={})
    candidates = [SimpleNamespace(description=f"lead {i}", url=f"https://doi.org/10.9999/x.{i}", line=i)
                  for i in range(6)]
    started = time.monotonic()
    found = check_sources(candidates, offline=False, cache_dir=None, endpoints=endpoints,
                          client_config=config, search=False)
    assert time.monotonic() - started < 20
    first, *rest = found.records
    assert (first.reason, first.attempts) == ("timeout (read, 0.3 s) after 2 attempts", 2)   # one retry
    netloc = f"127.0.0.1:{silent_server}"
    assert {(r.reason, r.attempts) for r in rest} == {
        (f"not attempted: {netloc} could not be reached earlier in this run "
         "(did not answer within 0.3 s, 2 times)", 0)}
    assert found.unreached_lookups == 6 and found.incomplete
    assert found.unreachable_hosts == {netloc: "did not answer within 0.3 s, 2 times"}


def test_name_resolution_is_bounded_by_the_connect_timeout(monkeypatch):
    def slow_resolver(*args, **kwargs):
        time.sleep(3)
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(http.socket, "getaddrinfo", slow_resolver)
    config = ClientConfig(connect_timeout=0.2, trust_env=False, min_interval={})
    started = time.monotonic()
    with PoliteClient(config) as client:
        first = client.get("https://api.crossref.org/works/10.9999/x")
        second = client.get("https://api.crossref.org/works/10.9999/y")
    assert time.monotonic() - started < 3   # did not wait for the resolver's 3 s
    assert (first.error, first.attempts, first.unreachable) == \
        ("cannot reach api.crossref.org: host name not resolved within 0.2 s", 0, True)
    assert second.error == ("not attempted: api.crossref.org could not be reached earlier in this run "
                            "(host name not resolved within 0.2 s)")
    assert config.reachability.failed == {"api.crossref.org": 2}


def test_which_reasons_count_as_not_reached():
    for reason in ("cannot reach h: connection refused", "timeout (read, 10 s) after 2 attempts",
                   "HTTP 503 after 3 attempts", "HTTP 429 (rate limited) after 3 attempts",
                   "not attempted: h could not be reached earlier in this run (x)",
                   "connection error: ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED]"):
        assert is_network_failure(reason), reason
    for reason in ("Crossref returned 404", "offline run: not looked up", None,
                   "no metadata API for this kind of URL: not looked up",
                   "offline run: not looked up (last online attempt 2026-01-01T00:00:00Z: cannot reach h: x)"):
        assert not is_network_failure(reason), reason


def test_back_off_is_bounded_per_host_and_run():
    """A host answering 503 forever: retries stop once its run's back-off budget is spent."""
    import httpx

    seen = []

    def handler(request):
        seen.append(str(request.url))
        return httpx.Response(503)

    config = ClientConfig(backoff_base=0.01, backoff_max=0.02, retry_budget=0.045, trust_env=False, min_interval={})
    with PoliteClient(config) as client:
        client._client = httpx.Client(transport=httpx.MockTransport(handler))
        results = [client.get(f"https://api.crossref.org/works/10.9999/{i}") for i in range(4)]
    # waits 0.01 + 0.02 (first request), 0.01 (second); any further wait would pass 0.045: one attempt each
    assert [r.waits for r in results] == [[0.01, 0.02], [0.01], [], []]
    assert [r.attempts for r in results] == [3, 2, 1, 1] and len(seen) == 7
    assert {r.error for r in results} == {"HTTP 503 after 3 attempts", "HTTP 503 after 2 attempts",
                                          "HTTP 503 after 1 attempt"}
    assert config.reachability.waited == {"api.crossref.org": pytest.approx(0.04)}


def test_a_host_that_drops_connections_is_asked_once():
    """A listener whose backlog is full: the kernel drops further SYNs, as a black-holed host does,
    so the connection times out (connect timeout) and is not retried."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        try:
            filler.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        fillers.append(filler)
    time.sleep(0.1)
    config = ClientConfig(connect_timeout=0.5, read_timeout=0.3, trust_env=False, min_interval={})
    try:
        started = time.monotonic()
        with PoliteClient(config, allow_loopback_http=True) as client:
            first = client.get(f"http://127.0.0.1:{port}/crossref/works/10.9999/a")
            second = client.get(f"http://127.0.0.1:{port}/arxiv/query?id_list=9999.00001")
        assert time.monotonic() - started < 20
    finally:
        for sock in fillers + [listener]:
            sock.close()
    assert (first.error, first.attempts) == (f"cannot reach 127.0.0.1:{port}: no connection within 0.5 s", 1)
    assert (second.error, second.attempts) == (
        f"not attempted: 127.0.0.1:{port} could not be reached earlier in this run (no connection within 0.5 s)", 0)


def test_report_online_with_services_refused_is_written_and_exits_1(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pack = tmp_path / "pack.txt"
    pack.write_text(PACK, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "CHAPTER_AUDIT_CROSSREF_API": base + "/crossref",
           "CHAPTER_AUDIT_ARXIV_API": base + "/arxiv", "CHAPTER_AUDIT_GITHUB_API": base + "/github",
           "CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP": "1"}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cli", "report", str(pack), "-o", str(tmp_path / "report.md"),
                           "--log", str(tmp_path / "log.jsonl"), "--sources-cache", str(tmp_path / "c"),
                           "--date", "2026-12-01", "--format", "json"], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path)
    assert time.monotonic() - started < 20
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["not_reached"] == {"sources": LOOKED_UP, "searches": 1,
                                                      "hosts": {f"127.0.0.1:{port}": "connection refused"}}
    assert done.stderr.startswith(f"{pack}: look-ups not made: {LOOKED_UP} of 5 sources could not be looked up")
    assert f"cannot reach 127.0.0.1:{port}: connection refused" in (tmp_path / "report.md").read_text()
