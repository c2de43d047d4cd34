"""The polite HTTP client every metadata look-up goes through.

* **https only.** A plain ``http://`` URL (as a request or as a redirect target) is refused before
  any connection, except a loopback host (``127.0.0.1``, ``::1``, ``localhost``) when the caller
  explicitly allows it (``allow_loopback_http``; tests only). Redirects are followed by hand, at
  most ``max_redirects`` times, each target checked by the same rule.
* **Redirects stay with the API.** A redirect may go only to the host that was asked or to one of
  :data:`REDIRECT_HOSTS` (the documented API hosts, e.g. ``api.github.com`` for a renamed
  repository); never to an address literal that is link-local, private, loopback, multicast,
  reserved or unspecified (a loopback one only with ``allow_loopback_http``).
* **Paths are not rewritten.** A URL whose path holds a ``.`` or ``..`` segment (also
  percent-encoded) or a backslash is refused, so an identifier put into a path cannot climb out
  of it; a malformed URL (``http://[::1/x``) is refused, never raised. ``request_url`` records the
  URL as sent on the wire.
* **Timeouts.** Separate connect and read timeouts (default 5 s and 10 s); a host name is
  resolved within ``connect_timeout`` too (in a helper thread, unless a proxy does it).
* **Fail fast.** A host that cannot be reached (connection refused, a name that does not
  resolve, no connection within the connect timeout, a network that is unreachable) is *not*
  retried, and it is not asked again for the rest of the run: every later request to it returns
  at once, ``not attempted: HOST could not be reached earlier in this run (REASON)``. The
  memory (:class:`Reachability`) lives on the :class:`ClientConfig`, so the look-ups and the
  search of one ``sources`` or ``report`` run share it.
* **Retries** (a small bounded budget). HTTP 429 and 5xx up to ``max_attempts`` (3) attempts in
  all; a read timeout (the host accepted and did not answer) up to ``timeout_attempts`` (2). The
  wait before attempt *k+1* is ``backoff_base * 2**(k-1)`` capped at ``backoff_max``; a
  ``Retry-After`` (seconds or HTTP date) on a 429 or 5xx replaces it, capped at
  ``retry_after_cap`` (10 s). A host whose request ended in timeouts, or in 429 after its
  retries, is not asked again in the run either (it did not answer; it asked us to stop). All
  back-off waits for one host together are bounded by ``retry_budget`` (20 s a run); once it is
  spent, requests to that host get one attempt each.
  Other 4xx answers are final (not retried); so is a failed certificate check.
* **Size limit.** The body is streamed and the request abandoned once it exceeds ``max_bytes``
  (default 2 MiB) — also when ``Content-Length`` announces more.
* **Identification.** ``User-Agent: chapter-audit/<version>`` plus, when a contact is configured
  (``CHAPTER_AUDIT_CONTACT``: an e-mail address or a URL), ``(mailto:...)`` / ``(+URL)`` — the form
  Crossref's "polite pool" asks for.
* **Spacing.** ``min_interval`` seconds between requests to one host (arXiv asks for 3 s).

A fetch never raises for network trouble: it returns a :class:`FetchResult` whose ``error`` says
what happened, so the caller can record the source as UNVERIFIED with that reason.
"""

from __future__ import annotations

import email.utils
import errno
import hashlib
import ipaddress
import os
import re
import socket
import ssl
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import timezone
from importlib import metadata
from urllib.parse import urljoin, urlsplit

import httpx

from engine.runs.runlog import utc_now

LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}
MiB = 1 << 20
RETRY_STATUSES = {429, 500, 502, 503, 504}
REDIRECT_STATUSES = {301, 302, 303, 307, 308}
ENV_CONTACT = "CHAPTER_AUDIT_CONTACT"
ENV_CA_FILE = "CHAPTER_AUDIT_CA_FILE"


def _version() -> str:
    try:
        return metadata.version("chapter-audit")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


@dataclass
class ClientConfig:
    """Politeness and safety settings (defaults are the production values)."""

    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    max_attempts: int = 3
    timeout_attempts: int = 2
    backoff_base: float = 1.0
    backoff_max: float = 8.0
    retry_after_cap: float = 10.0
    retry_budget: float = 20.0     # seconds of back-off one host may cost a run, all requests together
    max_bytes: int = 2 * MiB
    max_redirects: int = 5
    contact: str | None = None
    verify: bool | ssl.SSLContext = True
    trust_env: bool = True
    min_interval: dict[str, float] = field(default_factory=lambda: {"export.arxiv.org": 3.0})
    reachability: "Reachability" = field(default_factory=lambda: Reachability(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.timeout_attempts < 1:
            raise ValueError("max_attempts and timeout_attempts must be at least 1")
        if self.max_bytes < 1:
            raise ValueError("max_bytes must be positive")

    @classmethod
    def from_env(cls, **overrides) -> "ClientConfig":
        """Defaults plus ``CHAPTER_AUDIT_CONTACT`` and ``CHAPTER_AUDIT_CA_FILE`` (an extra CA
        bundle to trust instead of the default one, e.g. for a local mirror)."""
        values: dict = {"contact": os.environ.get(ENV_CONTACT) or None}
        ca_file = os.environ.get(ENV_CA_FILE)
        if ca_file:
            values["verify"] = ssl.create_default_context(cafile=ca_file)
        values.update(overrides)
        return cls(**values)

    def user_agent(self) -> str:
        agent = f"chapter-audit/{_version()}"
        contact = (self.contact or "").strip()
        if contact:
            if "@" in contact and "://" not in contact:
                agent += f" (mailto:{contact.removeprefix('mailto:')})"
            else:
                agent += f" (+{contact})"
        return agent


@dataclass
class FetchResult:
    """What one logical request produced (after retries and redirects)."""

    request_url: str
    final_url: str | None = None
    http_status: int | None = None
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    attempts: int = 0
    waits: list[float] = field(default_factory=list)
    accessed_at: str | None = None
    unreachable: bool = False    # the look-up could not be made (network or service trouble)

    @property
    def sha256(self) -> str | None:
        return hashlib.sha256(self.body).hexdigest() if self.body is not None else None

    @property
    def ok(self) -> bool:
        return self.error is None and self.http_status == 200 and self.body is not None


class UnsafeURL(Exception):
    """A URL this client refuses to request."""


# Reasons (FetchResult.error, SourceRecord.reason) of a look-up that could not be made.
NETWORK_REASON_PREFIXES = ("cannot reach ", "not attempted: ", "timeout (", "HTTP 429", "HTTP 5",
                           "connection error")


def is_network_failure(reason: str | None) -> bool:
    """Whether a record's reason says the look-up could not be made (as opposed to an answer
    such as a 404, or a deliberate skip such as an offline run)."""
    return bool(reason) and str(reason).startswith(NETWORK_REASON_PREFIXES)


class Reachability:
    """Hosts found unreachable in this run (``host[:port]`` → reason), shared by every client
    made from one :class:`ClientConfig`; and how many requests each failed or skipped."""

    def __init__(self) -> None:
        self.down: dict[str, str] = {}
        self.failed: dict[str, int] = {}
        self.waited: dict[str, float] = {}
        self._lock = threading.Lock()

    def spend(self, netloc: str, wait: float, budget: float) -> bool:
        """Charge ``wait`` seconds of back-off to ``netloc``; False (nothing charged) when that
        would exceed the run's ``budget`` for the host."""
        with self._lock:
            spent = self.waited.get(netloc, 0.0)
            if spent + wait > budget:
                return False
            self.waited[netloc] = spent + wait
            return True

    def mark_down(self, netloc: str, reason: str) -> None:
        with self._lock:
            self.down.setdefault(netloc, reason)

    def count_failure(self, netloc: str) -> None:
        with self._lock:
            self.failed[netloc] = self.failed.get(netloc, 0) + 1


def _netloc(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host


def _connect_reason(exc: BaseException) -> str | None:
    """Why a connection could not be made (refused, name not resolved, unreachable), or None
    when the error is not of that kind (e.g. a certificate failure)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, socket.gaierror):
            return f"host name not resolved ({current.strerror or current})"
        if isinstance(current, ConnectionRefusedError):
            return "connection refused"
        if isinstance(current, OSError) and current.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return "network unreachable"
        current = current.__cause__ or current.__context__
    text = str(exc)
    if "CERTIFICATE_VERIFY_FAILED" in text:
        return None
    for marker, reason in (("Name or service not known", "host name not resolved"),
                           ("nodename nor servname", "host name not resolved"),
                           ("Temporary failure in name resolution", "host name not resolved"),
                           ("No address associated", "host name not resolved"),
                           ("Connection refused", "connection refused"),
                           ("Network is unreachable", "network unreachable"),
                           ("No route to host", "network unreachable")):
        if marker in text:
            return reason
    return None


def resolve_within(host: str, port: int, timeout: float) -> str | None:
    """Resolve ``host`` in a daemon thread, waiting at most ``timeout`` seconds: None when it
    resolves, else the reason (the system resolver's own timeout can be much longer)."""
    if _address(host) is not None:
        return None
    outcome: list[BaseException | None] = []

    def work() -> None:
        try:
            socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported, never raised
            outcome.append(exc)

    thread = threading.Thread(target=work, name=f"resolve {host}", daemon=True)
    thread.start()
    thread.join(timeout)
    if not outcome:
        return f"host name not resolved within {timeout:g} s"
    error = outcome[0]
    if error is None:
        return None
    if isinstance(error, socket.gaierror):
        return f"host name not resolved ({error.strerror or error})"
    return f"host name not resolved ({type(error).__name__}: {error})"


def _proxied(url: str) -> bool:
    """Whether the environment sends ``url`` through a proxy (which then resolves the name)."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    if not (proxies.get(parts.scheme) or proxies.get("all")):
        return False
    try:
        return not urllib.request.proxy_bypass(parts.hostname or "")
    except OSError:  # pragma: no cover - platform lookup trouble: assume the proxy is used
        return True


# Hosts a redirect may lead to besides the host asked: the documented metadata API hosts.
REDIRECT_HOSTS = frozenset({"api.crossref.org", "export.arxiv.org", "arxiv.org", "api.github.com"})
_DOT_SEGMENT = re.compile(r"(?:^|/)(?:\.|%2e){1,2}(?:/|$)", re.IGNORECASE)


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None


def is_internal_address(host: str) -> bool:
    """Whether ``host`` is an address literal no public API lives at."""
    address = _address(host)
    if address is None:
        return False
    return (address.is_private or address.is_loopback or address.is_link_local or address.is_multicast
            or address.is_reserved or address.is_unspecified)


def check_redirect(origin: str, target: str, *, allow_loopback_http: bool = False) -> None:
    """Raise :class:`UnsafeURL` unless a redirect from ``origin`` to ``target`` is allowed."""
    check_url(target, allow_loopback_http=allow_loopback_http)
    asked = (urlsplit(origin).hostname or "").lower()
    host = (urlsplit(target).hostname or "").lower()
    if is_internal_address(host) and not (allow_loopback_http and is_loopback(host)) and host != asked:
        raise UnsafeURL(f"refused redirect to an internal address: {target}")
    if host != asked and host not in REDIRECT_HOSTS:
        raise UnsafeURL(f"refused redirect from {asked} to another host: {target}")


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback and host in LOOPBACK_HOSTS
    except ValueError:
        return False


def check_url(url: str, *, allow_loopback_http: bool = False) -> None:
    """Raise :class:`UnsafeURL` unless ``url`` is https (or an allowed loopback http URL), well
    formed, and its path has no dot segments or backslashes."""
    if not isinstance(url, str) or any(ch in url for ch in "\x00\r\n\t "):
        raise UnsafeURL(f"refused malformed URL: {url!r}")
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as exc:
        raise UnsafeURL(f"refused malformed URL ({exc}): {url}") from None
    scheme = parts.scheme.lower()
    if not hostname:
        raise UnsafeURL(f"refused URL without a host: {url}")
    if _DOT_SEGMENT.search(parts.path) or "\\" in parts.path or "%5c" in parts.path.lower():
        raise UnsafeURL(f"refused URL with a dot segment or backslash in its path: {url}")
    if scheme == "https":
        return
    if scheme == "http":
        if allow_loopback_http and is_loopback(parts.hostname):
            return
        raise UnsafeURL(f"refused non-https URL: {url}")
    raise UnsafeURL(f"refused URL scheme {scheme!r}: {url}")


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date), or None."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = now if now is not None else time.time()
    return max(0.0, when.timestamp() - current)


class _TooLarge(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class PoliteClient:
    """A sync httpx client with the rules above. Use as a context manager."""

    def __init__(self, config: ClientConfig | None = None, *,
                 allow_loopback_http: bool = False) -> None:
        self.config = config or ClientConfig()
        self.allow_loopback_http = allow_loopback_http
        self._last_request: dict[str, float] = {}
        self._resolved: set[str] = set()
        self.last_request_url: str | None = None  # the first request's URL as sent (httpx form)
        self._client = httpx.Client(
            timeout=httpx.Timeout(self.config.read_timeout, connect=self.config.connect_timeout),
            follow_redirects=False,
            verify=self.config.verify,
            trust_env=self.config.trust_env,
            headers={"User-Agent": self.config.user_agent()},
        )

    def __enter__(self) -> "PoliteClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def _space(self, url: str) -> None:
        host = (urlsplit(url).hostname or "").lower()
        interval = self.config.min_interval.get(host, 0.0)
        last = self._last_request.get(host)
        if interval > 0 and last is not None:
            remaining = interval - (time.monotonic() - last)
            if remaining > 0:
                time.sleep(remaining)
        self._last_request[host] = time.monotonic()

    def get(self, url: str, *, headers: dict[str, str] | None = None) -> FetchResult:
        """GET ``url`` politely; never raises for network or HTTP trouble."""
        result = FetchResult(request_url=url)
        cfg = self.config
        try:
            check_url(url, allow_loopback_http=self.allow_loopback_http)
        except UnsafeURL as exc:
            result.error = str(exc)
            return result
        netloc = _netloc(url)
        reach = cfg.reachability
        if netloc in reach.down:   # fail fast: this host could not be reached earlier in the run
            result.error = f"not attempted: {netloc} could not be reached earlier in this run ({reach.down[netloc]})"
            result.unreachable = True
            reach.count_failure(netloc)
            return result
        unresolved = self._resolve(url)
        if unresolved is not None:
            result.accessed_at = utc_now()
            result.error = f"cannot reach {netloc}: {unresolved}"
            result.unreachable = True
            reach.mark_down(netloc, unresolved)
            reach.count_failure(netloc)
            return result
        last_error = None
        timeouts = 0
        for attempt in range(1, cfg.max_attempts + 1):
            result.attempts = attempt
            result.accessed_at = utc_now()
            result.http_status, result.body, result.headers, result.final_url = None, None, {}, None
            retry_after = None
            try:
                status, body, resp_headers, final_url = self._follow(url, headers or {})
                result.request_url = self.last_request_url or url
            except UnsafeURL as exc:
                result.error = str(exc)
                return result
            except _TooLarge as exc:
                result.http_status = exc.status
                result.error = f"response larger than limit ({cfg.max_bytes} bytes)"
                return result
            except httpx.ConnectTimeout:
                # no connection within the connect timeout: the host is unreachable, not slow
                return self._unreachable(result, netloc, f"no connection within {cfg.connect_timeout:g} s")
            except httpx.TimeoutException as exc:
                kind = {httpx.ReadTimeout: "read", httpx.WriteTimeout: "write",
                        httpx.PoolTimeout: "pool"}.get(type(exc), "request")
                last_error = f"timeout ({kind}, {cfg.read_timeout:g} s)"
                timeouts += 1
                if timeouts >= cfg.timeout_attempts:
                    break
            except httpx.TransportError as exc:
                reason = _connect_reason(exc)
                if reason is not None:   # refused, unresolvable, unreachable: never retried
                    return self._unreachable(result, netloc, reason)
                result.error = f"connection error: {type(exc).__name__}: {exc}".strip()
                result.unreachable = True
                reach.count_failure(netloc)
                return result   # a failed certificate check or a broken connection: not retried
            else:
                result.http_status = status
                result.headers = resp_headers
                result.final_url = final_url
                result.body = body
                if status in RETRY_STATUSES:
                    last_error = f"HTTP {status}" + (" (rate limited)" if status == 429 else "")
                    retry_after = parse_retry_after(resp_headers.get("retry-after"))
                else:
                    return result
            if attempt == cfg.max_attempts:
                break
            if retry_after is not None:
                wait = min(retry_after, cfg.retry_after_cap)
            else:
                wait = min(cfg.backoff_base * (2 ** (attempt - 1)), cfg.backoff_max)
            if not reach.spend(netloc, wait, cfg.retry_budget):
                break   # this host has used up the run's back-off budget: no more retries to it
            result.waits.append(wait)
            time.sleep(wait)
        result.error = f"{last_error} after {result.attempts} attempt" + \
            ("s" if result.attempts != 1 else "")
        result.unreachable = True
        reach.count_failure(netloc)
        if timeouts >= cfg.timeout_attempts:
            reach.mark_down(netloc, f"did not answer within {cfg.read_timeout:g} s, {timeouts} times")
        elif result.http_status == 429:
            reach.mark_down(netloc, "rate limited (HTTP 429)")
        return result

    def _unreachable(self, result: FetchResult, netloc: str, reason: str) -> FetchResult:
        result.error = f"cannot reach {netloc}: {reason}"
        result.unreachable = True
        self.config.reachability.mark_down(netloc, reason)
        self.config.reachability.count_failure(netloc)
        return result

    def _resolve(self, url: str) -> str | None:
        """Resolve the host once per client within the connect timeout (None: resolved, or a
        proxy resolves it)."""
        host = (urlsplit(url).hostname or "").lower()
        if host in self._resolved or _address(host) is not None or host == "localhost":
            return None
        if not isinstance(getattr(self._client, "_transport", None), httpx.HTTPTransport):
            return None   # a mock or custom transport does not use the system resolver
        if self.config.trust_env and _proxied(url):
            return None
        parts = urlsplit(url)
        reason = resolve_within(host, parts.port or (443 if parts.scheme == "https" else 80),
                                self.config.connect_timeout)
        if reason is None:
            self._resolved.add(host)
        return reason

    def _follow(self, url: str, headers: dict[str, str]):
        current = url
        self.last_request_url = None
        for _ in range(self.config.max_redirects + 1):
            check_url(current, allow_loopback_http=self.allow_loopback_http)
            self._space(current)
            with self._client.stream("GET", current, headers=headers) as response:
                if current == url:
                    self.last_request_url = str(response.request.url)
                if response.status_code in REDIRECT_STATUSES and "location" in response.headers:
                    try:
                        target = urljoin(current, response.headers["location"])
                    except ValueError:
                        raise UnsafeURL(f"refused malformed redirect from {current}") from None
                    check_redirect(url, target, allow_loopback_http=self.allow_loopback_http)
                    current = target
                    continue
                declared = response.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > self.config.max_bytes:
                    raise _TooLarge(response.status_code)
                chunks: list[bytes] = []
                size = 0
                # the read timeout bounds each read, not the body: a server that drips a byte every
                # few seconds never trips it, and a look-up hung for as long as the server liked
                deadline = time.monotonic() + BODY_DEADLINE_READS * self.config.read_timeout
                for chunk in response.iter_bytes():
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout(f"body not complete within {BODY_DEADLINE_READS} read timeouts")
                    size += len(chunk)
                    if size > self.config.max_bytes:
                        raise _TooLarge(response.status_code)
                    chunks.append(chunk)
                return (response.status_code, b"".join(chunks),
                        {k.lower(): v for k, v in response.headers.items()}, current)
        raise UnsafeURL(f"more than {self.config.max_redirects} redirects from {url}")


BODY_DEADLINE_READS = 3   # a whole body must arrive within 3 read timeouts (30 s by default)


@dataclass
class SourceEndpoints:
    """Base URLs of the three metadata APIs (tests point them at a loopback server).

    ``allow_loopback_http`` permits plain-http URLs on 127.0.0.1 / ::1 / localhost only; every
    other http URL is refused whatever this says.
    """

    crossref: str = "https://api.crossref.org"
    arxiv: str = "https://export.arxiv.org/api"
    github: str = "https://api.github.com"
    allow_loopback_http: bool = False

    @classmethod
    def from_env(cls) -> "SourceEndpoints":
        """Defaults, overridable by ``CHAPTER_AUDIT_CROSSREF_API``, ``CHAPTER_AUDIT_ARXIV_API``,
        ``CHAPTER_AUDIT_GITHUB_API`` (e.g. a mirror) and ``CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP=1``."""
        default = cls()
        return cls(
            crossref=os.environ.get("CHAPTER_AUDIT_CROSSREF_API") or default.crossref,
            arxiv=os.environ.get("CHAPTER_AUDIT_ARXIV_API") or default.arxiv,
            github=os.environ.get("CHAPTER_AUDIT_GITHUB_API") or default.github,
            allow_loopback_http=os.environ.get("CHAPTER_AUDIT_ALLOW_LOOPBACK_HTTP") == "1",
        )
