"""URL → source identity: a DOI, an arXiv id (with its version if the URL gives one), a GitHub
repository, or just a URL.

Rules (documented in docs/sources.md):

* **DOI** — ``doi.org`` / ``dx.doi.org`` URLs, ``doi:`` strings, and publisher pages whose path
  contains ``/doi/[abs|full|pdf|epdf/]10.NNNN/...`` (ACM, Wiley, T&F, SAGE). The DOI is
  percent-decoded and lower-cased (DOIs are case-insensitive, Crossref stores them lower-case).
  The arXiv DataCite DOIs ``10.48550/arXiv.ID`` are identified as arXiv ids.
* **arXiv** — ``arxiv.org`` (also ``www.`` and ``export.``) ``/abs/``, ``/pdf/``, ``/html/`` URLs
  and ``arXiv:ID`` strings, new-style ``YYMM.NNNN[N]`` and old-style ``archive/YYMMNNN`` ids;
  an explicit ``vN`` is kept (``2212.10496v2``), none is added.
* **GitHub** — ``github.com/OWNER/REPO[/...]``, lower-cased (GitHub names are case-insensitive),
  a trailing ``.git`` dropped; GitHub's own site sections (``/features``, ``/orgs``, ...) are not
  repositories.
* anything else (also a malformed URL, or a DOI with a ``.``/``..`` path segment, a backslash or a
  control character, which could climb out of the look-up URL's path) is kind ``url`` with the
  URL (whitespace-stripped) as identifier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from engine.runs.errors import InputError

DOI_RE = re.compile(r"^(10\.\d{4,9}/\S+)$", re.IGNORECASE)
PUBLISHER_DOI_RE = re.compile(r"/doi/(?:abs/|full/|pdf/|epdf/|fullHtml/|book/)?(10\.\d{4,9}/.+)$",
                              re.IGNORECASE)
ARXIV_NEW = r"\d{4}\.\d{4,5}(?:v\d+)?"
ARXIV_OLD = r"[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
ARXIV_ID_RE = re.compile(rf"^(?:{ARXIV_NEW}|{ARXIV_OLD})$")
ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
ARXIV_HOSTS = {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}
DOI_HOSTS = {"doi.org", "dx.doi.org", "www.doi.org"}
GITHUB_HOSTS = {"github.com", "www.github.com"}
GITHUB_NAME_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*)$")
GITHUB_RESERVED = {
    "about", "apps", "blog", "collections", "contact", "customer-stories", "enterprise",
    "events", "explore", "features", "issues", "login", "marketplace", "new", "notifications",
    "orgs", "organizations", "pricing", "pulls", "search", "security", "settings", "sponsors",
    "topics", "trending", "users", "site", "readme", "codespaces",
}
TRAILING = ".,;:)]}>'\""


@dataclass(frozen=True)
class Identified:
    kind: str         # doi | arxiv | github | url
    identifier: str
    url: str


def _strip(text: str) -> str:
    text = text.strip()
    while text and text[-1] in TRAILING:
        # keep a closing parenthesis that belongs to the identifier, e.g. 10.1002/(SICI)...
        if text[-1] == ")" and text.count("(") >= text.count(")"):
            break
        text = text[:-1]
    return text


def normalise_doi(doi: str) -> str | None:
    """``10.xxxx/...`` lower-cased and percent-decoded, or None if it is not a DOI."""
    doi = _strip(unquote(doi.strip()))
    if doi.lower().startswith("doi:"):
        doi = doi[4:].strip()
    return doi.lower() if DOI_RE.match(doi) and safe_path_identifier(doi) else None


def safe_path_identifier(identifier: str) -> bool:
    """Whether an identifier may be put into a URL path (percent-encoded) as it is: no ``.`` or
    ``..`` segment, no backslash, no control character, at most 1,000 characters."""
    if len(identifier) > 1000 or any(ch == "\\" or ord(ch) < 32 or ord(ch) == 127 for ch in identifier):
        return False
    return not any(segment in (".", "..") for segment in identifier.split("/"))


def normalise_arxiv(identifier: str) -> str | None:
    """An arXiv id as written (version kept), or None."""
    identifier = _strip(identifier.strip())
    if identifier.lower().startswith("arxiv:"):
        identifier = identifier[6:]
    if identifier.endswith(".pdf"):
        identifier = identifier[:-4]
    return identifier if ARXIV_ID_RE.match(identifier) else None


def identify(url: str) -> Identified:
    """Classify one candidate URL (or ``doi:``/``arXiv:`` string). Never touches the network."""
    if not isinstance(url, str) or not url.strip():
        raise InputError("empty source URL")
    text = url.strip()
    lowered = text.lower()
    if lowered.startswith("doi:"):
        doi = normalise_doi(text)
        if doi:
            return _from_doi(doi, text)
    if lowered.startswith("arxiv:"):
        arxiv_id = normalise_arxiv(text)
        if arxiv_id:
            return Identified("arxiv", arxiv_id, text)
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
    except ValueError:  # malformed, e.g. "http://[::1/x": not an identifier, kept as a URL
        return Identified("url", text, text)
    path = unquote(parts.path)
    if host in DOI_HOSTS:
        doi = normalise_doi(path.lstrip("/"))
        if doi:
            return _from_doi(doi, text)
    if host in ARXIV_HOSTS:
        match = re.match(r"^/(?:abs|pdf|html)/(.+?)/?$", path)
        if match:
            arxiv_id = normalise_arxiv(match.group(1))
            if arxiv_id:
                return Identified("arxiv", arxiv_id, text)
    if host in GITHUB_HOSTS:
        segments = [s for s in path.split("/") if s]
        if len(segments) >= 2 and segments[0].lower() not in GITHUB_RESERVED:
            owner, repo = segments[0], segments[1]
            if repo.lower().endswith(".git"):
                repo = repo[:-4]
            if GITHUB_NAME_RE.match(owner) and GITHUB_NAME_RE.match(repo):
                return Identified("github", f"{owner}/{repo}".lower(), text)
    if host:
        match = PUBLISHER_DOI_RE.search(path)
        if match:
            doi = normalise_doi(match.group(1))
            if doi:
                return _from_doi(doi, text)
    return Identified("url", text, text)


def _from_doi(doi: str, url: str) -> Identified:
    match = ARXIV_DOI_RE.match(doi)
    if match:
        arxiv_id = normalise_arxiv(match.group(1))
        if arxiv_id:
            return Identified("arxiv", arxiv_id, url)
    return Identified("doi", doi, url)
