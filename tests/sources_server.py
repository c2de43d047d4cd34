"""A real HTTP(S) server on 127.0.0.1 that speaks the three metadata APIs, for the sources tests.

Routes (all metadata below is invented for these tests — it describes no real work):

* Crossref ``/crossref/works/{doi}`` — ``10.9999/test.1`` (a full record), ``10.9999/missing``
  (404), ``10.9999/slow`` (answers after ``slow_seconds``), ``10.9999/ratelimited-once`` (429 with
  ``Retry-After: 1``, then the record), ``10.9999/ratelimited`` (429 forever),
  ``10.9999/malformed`` (broken JSON), ``10.9999/oversized`` (a body of ``OVERSIZED_BYTES`` with a
  Content-Length), ``10.9999/oversized-stream`` (the same, no Content-Length),
  ``10.9999/flaky`` (500, then the record), ``10.9999/redirect-http`` (301 to a non-loopback http
  URL), ``10.9999/otherdoi`` (a record for a different DOI), ``10.9999/retracted.1`` (retracted:
  ``updated-by`` from the publisher and from Retraction Watch) and ``10.9999/corrected.1`` (a correction).
* arXiv ``/arxiv/api/query?id_list=ID`` — ``9999.00001`` (latest v2), ``9999.00001v1``,
  ``9999.99999`` (a feed with no entry), ``9999.00002`` (an error entry).
* Crossref ``10.9999/markup`` — a title and abstract with JATS/HTML markup and an author with
  the suffix "Jr.".
* GitHub ``/github/repos/example-org/example-repo``, ``.../missing`` (404),
  ``.../old-name`` (301 to ``.../example-repo``), ``old-owner/example-repo`` (301 to
  ``example-org/example-repo``: a transfer to another owner).
* Searches, shaped like the real answers: Crossref ``/crossref/works?query.bibliographic=Q&rows=N``
  (a ``work-list`` message; for a Q naming Carbonell five items — a full match, a partial one
  with a ``<i>`` title and a "Jr." author, one without a DOI, one without a title, an unrelated
  one; for Quillfeather the ``10.9999/test.1`` work; for Failing HTTP 503; otherwise no items)
  and arXiv ``/arxiv/api/query?search_query=Q`` (for Carbonell two entries that agree only in
  part; otherwise an empty feed).

``hits`` counts requests per path-with-query; ``requests`` keeps (path, headers) in order.
With ``tls=True`` the server speaks HTTPS with a throwaway self-signed certificate made by the
``openssl`` command (``ssl_context()`` gives a client context trusting exactly that certificate).
"""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

OVERSIZED_BYTES = 64 * 1024


def _json(value) -> bytes:
    return json.dumps(value, sort_keys=True, indent=1).encode("utf-8")


CROSSREF_TEST_1 = _json({
    "status": "ok", "message-type": "work", "message-version": "1.0.0",
    "message": {
        "DOI": "10.9999/test.1",
        "title": ["Budgeted  Selection of Evidence\n Units"],
        "author": [{"given": "Ada", "family": "Quillfeather", "sequence": "first"},
                   {"given": "Bram", "family": "Oakhurst", "sequence": "additional"},
                   {"name": "The Example Consortium", "sequence": "additional"}],
        "container-title": ["Journal of Invented Results"],
        "issued": {"date-parts": [[2001, 7]]},
        "publisher": "Nobody",
    },
})
CROSSREF_OTHER = _json({"status": "ok", "message": {"DOI": "10.9999/something.else",
                                                    "title": ["Another Work"]}})
ARXIV_V2 = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title type="html">ArXiv Query: id_list=9999.00001</title>
  <id>http://arxiv.org/api/fixture</id>
  <updated>2030-01-01T00:00:00-05:00</updated>
  <entry>
    <id>http://arxiv.org/abs/9999.00001v2</id>
    <updated>2030-02-03T04:05:06Z</updated>
    <published>2029-12-31T23:59:59Z</published>
    <title>HyPE: Hypothetical Passage
      Expansion for Testing</title>
    <summary>  We describe a made-up method used only as a test fixture.  </summary>
    <author><name>Cora Lindqvist</name></author>
    <author><name>Dev Anand Rao</name></author>
    <arxiv:doi>10.9999/test.2</arxiv:doi>
    <link href="http://arxiv.org/abs/9999.00001v2" rel="alternate" type="text/html"/>
  </entry>
</feed>
"""
ARXIV_V1 = ARXIV_V2.replace(b"9999.00001v2", b"9999.00001v1").replace(
    b"2030-02-03T04:05:06Z", b"2029-12-31T23:59:59Z")
ARXIV_EMPTY = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <title type="html">ArXiv Query: id_list=9999.99999</title>
  <opensearch:totalResults>0</opensearch:totalResults>
</feed>
"""
ARXIV_ERROR = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_9999.00002</id>
    <title>Error</title>
    <summary>incorrect id format for 9999.00002</summary>
  </entry>
</feed>
"""
GITHUB_REPO = _json({
    "id": 1, "name": "example-repo", "full_name": "example-org/example-repo",
    "description": "An invented repository for the sources tests.", "archived": False,
    "pushed_at": "2030-03-04T05:06:07Z", "html_url": "https://github.com/example-org/example-repo",
    "license": {"key": "mit", "spdx_id": "MIT", "name": "MIT License"},
})
NOT_FOUND = _json({"status": "error", "message": "Resource not found."})
CROSSREF_MARKUP_WORK = {
    "DOI": "10.9999/markup",
    "title": ["Selecting with <i>MMR</i> under a <b>budget</b> &amp; a cap"],
    "author": [{"given": "Rex", "family": "Goldstein", "suffix": "Jr.", "sequence": "first"},
               {"given": "Ines", "family": "Ålund", "sequence": "additional"}],
    "abstract": "<jats:title>Abstract</jats:title><jats:p>An invented abstract about "
                "<jats:italic>budgets</jats:italic>.</jats:p>",
    "issued": {"date-parts": [[2003]]},
}
CROSSREF_MARKUP = _json({"status": "ok", "message-type": "work", "message": CROSSREF_MARKUP_WORK})


# Updated works, shaped as Crossref documents them (tutorial "Get Retraction Watch metadata from
# Crossref's API", https://crossref.gitlab.io/tutorials/get-rw-metadata/, and the real record of
# 10.1016/S0140-6736(97)11096-0): ``updated-by`` entries with DOI, type, label, source, ``updated``
# as date-parts/date-time/timestamp and ``record-id``; the notice carries ``update-to``.
CROSSREF_RETRACTED = _json({
    "status": "ok", "message-type": "work", "message-version": "1.0.0",
    "message": {
        "DOI": "10.9999/retracted.1",
        "title": ["Invented gains from budgeted selection"],
        "author": [{"given": "Ada", "family": "Quillfeather", "sequence": "first"}],
        "container-title": ["Journal of Invented Results"],
        "issued": {"date-parts": [[2019, 3, 2]]},
        "abstract": "<jats:p>Budgeted selection lifts NDCG@10 to 0.512 on the invented collection.</jats:p>",
        "updated-by": [
            {"DOI": "10.9999/retraction-notice.1", "type": "retraction", "label": "Retraction",
             "source": "publisher",
             "updated": {"date-parts": [[2021, 5, 4]], "date-time": "2021-05-04T00:00:00Z",
                         "timestamp": 1620086400000}},
            {"DOI": "10.9999/retraction-notice.1", "type": "retraction", "label": "Retraction",
             "source": "retraction-watch", "record-id": "40001",
             "updated": {"date-parts": [[2021, 5, 4]], "date-time": "2021-05-04T00:00:00Z",
                         "timestamp": 1620086400000}},
        ],
    },
})
CROSSREF_CORRECTED = _json({
    "status": "ok", "message-type": "work", "message-version": "1.0.0",
    "message": {
        "DOI": "10.9999/corrected.1",
        "title": ["Character allowances for evidence packets"],
        "author": [{"given": "Bram", "family": "Oakhurst", "sequence": "first"}],
        "container-title": ["Journal of Invented Results"],
        "issued": {"date-parts": [[2020]]},
        "updated-by": [
            {"DOI": "10.9999/correction-notice.1", "type": "correction", "label": "Correction",
             "source": "retraction-watch", "record-id": "40002",
             "updated": {"date-parts": [[2022, 1, 15]], "date-time": "2022-01-15T00:00:00Z",
                         "timestamp": 1642204800000}},
        ],
    },
})


def _work_list(items: list) -> bytes:
    return _json({"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                  "message": {"facets": {}, "total-results": len(items), "items": items,
                              "items-per-page": len(items), "query": {"start-index": 0}}})


SEARCH_CARBONELL = _work_list([
    {"DOI": "10.9999/mmr.1", "score": 61.2, "type": "proceedings-article",
     "title": ["Invented MMR re-ranking for test fixtures"],
     "author": [{"given": "Jaime", "family": "Carbonell", "sequence": "first"},
                {"given": "Jade", "family": "Goldstein", "sequence": "additional"}],
     "container-title": ["Proceedings of an Invented Conference"],
     "issued": {"date-parts": [[1998, 8]]}},
    {"DOI": "10.9999/MMR.2", "score": 40.5, "title": ["<i>MMR</i> for invented summaries"],
     "author": [{"given": "Jade", "family": "Goldstein", "suffix": "Jr.", "sequence": "first"}],
     "issued": {"date-parts": [[2001]]}},
    {"score": 30.0, "title": ["An item with no DOI about MMR"],
     "author": [{"given": "Jaime", "family": "Carbonell"}, {"given": "Jade", "family": "Goldstein"}]},
    {"DOI": "10.9999/untitled", "score": 20.0,
     "author": [{"given": "Jaime", "family": "Carbonell"}]},
    {"DOI": "10.9999/unrelated", "score": 10.0, "title": ["Soil moisture in invented lakes"],
     "author": [{"given": "Ola", "family": "Nilsen"}], "issued": {"date-parts": [[2015, 3, 2]]}},
])
SEARCH_QUILLFEATHER = _work_list([json.loads(CROSSREF_TEST_1)["message"]])
SEARCH_EMPTY = _work_list([])
ARXIV_SEARCH_CARBONELL = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <title type="html">ArXiv Query: search_query=fixture</title>
  <opensearch:totalResults>2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/9999.00003v1</id>
    <updated>2030-01-01T00:00:00Z</updated><published>2030-01-01T00:00:00Z</published>
    <title>Diversity by invented marginal relevance</title>
    <summary>An invented entry.</summary>
    <author><name>Jaime Carbonell</name></author>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/9999.00004v3</id>
    <updated>2030-01-02T00:00:00Z</updated><published>2029-01-02T00:00:00Z</published>
    <title>Unrelated invented physics</title>
    <summary>Nothing to do with the query.</summary>
    <author><name>Ola Nilsen</name></author>
  </entry>
</feed>
"""


def make_certificate(directory: Path) -> tuple[Path, Path] | None:
    """A self-signed certificate for 127.0.0.1/localhost via ``openssl``; None if unavailable."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    cert, key = directory / "cert.pem", directory / "key.pem"
    command = [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
               "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
               "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
    done = subprocess.run(command, capture_output=True, timeout=30)
    if done.returncode != 0:
        return None
    return cert, key


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args) -> None:  # silence
        pass

    def _send(self, status: int, body: bytes, *, content_type: str = "application/json",
              headers: dict[str, str] | None = None, length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def do_GET(self) -> None:  # noqa: N802
        state = self.server.state
        with state.lock:
            state.hits[self.path] += 1
            count = state.hits[self.path]
            state.requests.append((self.path, dict(self.headers.items())))
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        query = parse_qs(parts.query)
        if path == "/crossref/works":
            return self._crossref_search(query.get("query.bibliographic", [""])[0])
        if path.startswith("/crossref/works/"):
            return self._crossref(path[len("/crossref/works/"):], count)
        if path == "/arxiv/api/query" and "search_query" in query:
            return self._arxiv_search(query["search_query"][0])
        if path == "/arxiv/api/query":
            ids = query.get("id_list", [""])
            return self._arxiv(ids[0])
        if path.startswith("/github/repos/"):
            return self._github(path[len("/github/repos/"):])
        self._send(404, NOT_FOUND)

    def _crossref(self, doi: str, count: int) -> None:
        state = self.server.state
        if doi == "10.9999/test.1":
            return self._send(200, CROSSREF_TEST_1)
        if doi == "10.9999/slow":
            time.sleep(state.slow_seconds)
            return self._send(200, CROSSREF_TEST_1)
        if doi == "10.9999/ratelimited-once":
            if count == 1:
                return self._send(429, b'{"status":"error"}', headers={"Retry-After": "1"})
            return self._send(200, CROSSREF_TEST_1.replace(b"10.9999/test.1",
                                                           b"10.9999/ratelimited-once"))
        if doi == "10.9999/ratelimited":
            return self._send(429, b'{"status":"error"}', headers={"Retry-After": "1"})
        if doi == "10.9999/flaky":
            if count == 1:
                return self._send(500, b"internal error", content_type="text/plain")
            return self._send(200, CROSSREF_TEST_1.replace(b"10.9999/test.1", b"10.9999/flaky"))
        if doi == "10.9999/malformed":
            return self._send(200, b'{"status": "ok", "message": {"title": ["trunc')
        if doi == "10.9999/oversized":
            return self._send(200, b" " * OVERSIZED_BYTES)
        if doi == "10.9999/oversized-stream":
            return self._send(200, b" " * OVERSIZED_BYTES, length=False)
        if doi == "10.9999/redirect-http":
            return self._send(301, b"", headers={"Location": "http://example.invalid/works/x"})
        if doi == "10.9999/otherdoi":
            return self._send(200, CROSSREF_OTHER)
        if doi == "10.9999/markup":
            return self._send(200, CROSSREF_MARKUP)
        if doi == "10.9999/retracted.1":
            return self._send(200, CROSSREF_RETRACTED)
        if doi == "10.9999/corrected.1":
            return self._send(200, CROSSREF_CORRECTED)
        return self._send(404, NOT_FOUND)

    def _crossref_search(self, query: str) -> None:
        if "Carbonell" in query:
            return self._send(200, SEARCH_CARBONELL)
        if "Quillfeather" in query:
            return self._send(200, SEARCH_QUILLFEATHER)
        if "Failing" in query:
            return self._send(503, b"unavailable", content_type="text/plain")
        return self._send(200, SEARCH_EMPTY)

    def _arxiv_search(self, query: str) -> None:
        body = ARXIV_SEARCH_CARBONELL if "carbonell" in query.lower() else ARXIV_EMPTY
        self._send(200, body, content_type="application/atom+xml")

    def _arxiv(self, arxiv_id: str) -> None:
        bodies = {"9999.00001": ARXIV_V2, "9999.00001v2": ARXIV_V2, "9999.00001v1": ARXIV_V1,
                  "9999.00002": ARXIV_ERROR}
        self._send(200, bodies.get(arxiv_id, ARXIV_EMPTY), content_type="application/atom+xml")

    def _github(self, repo: str) -> None:
        if repo == "example-org/example-repo":
            return self._send(200, GITHUB_REPO)
        if repo == "example-org/old-name":
            return self._send(301, b"", headers={"Location": "/github/repos/example-org/example-repo"})
        if repo == "old-owner/example-repo":
            return self._send(301, b"", headers={"Location": "/github/repos/example-org/example-repo"})
        return self._send(404, _json({"message": "Not Found"}))


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.hits: Counter[str] = Counter()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.slow_seconds = 1.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    state: _State

    def handle_error(self, request, client_address) -> None:  # a client gave up: not our problem
        pass


class SourcesServer:
    """Start with ``with SourcesServer(tls=True) as server:``; ``server.url`` is the base URL."""

    def __init__(self, *, tls: bool = True) -> None:
        self.state = _State()
        self._tmp = tempfile.TemporaryDirectory(prefix="sources-server-")
        self.cert: Path | None = None
        pair = make_certificate(Path(self._tmp.name)) if tls else None
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.state = self.state
        if pair is not None:
            self.cert, key = pair
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.cert, key)
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.tls = self.cert is not None
        host, port = self.httpd.server_address[:2]
        self.url = f"{'https' if self.tls else 'http'}://{host}:{port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> "SourcesServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._tmp.cleanup()

    @property
    def hits(self) -> Counter[str]:
        return self.state.hits

    @property
    def total_hits(self) -> int:
        return sum(self.state.hits.values())

    def reset(self) -> None:
        with self.state.lock:
            self.state.hits.clear()
            self.state.requests.clear()

    def ssl_context(self) -> ssl.SSLContext | bool:
        """A client context trusting only this server's certificate (True for plain http)."""
        if self.cert is None:
            return True
        return ssl.create_default_context(cafile=str(self.cert))

    def endpoints(self):
        from sources.http import SourceEndpoints

        return SourceEndpoints(crossref=f"{self.url}/crossref", arxiv=f"{self.url}/arxiv/api",
                               github=f"{self.url}/github", allow_loopback_http=not self.tls)

    def client_config(self, **overrides):
        from sources.http import ClientConfig

        values = dict(connect_timeout=0.5, read_timeout=0.3, max_attempts=3, backoff_base=0.01,
                      backoff_max=0.05, retry_after_cap=0.05, max_bytes=16 * 1024,
                      verify=self.ssl_context(), trust_env=False, min_interval={})
        values.update(overrides)
        return ClientConfig(**values)
