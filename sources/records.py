"""The source record: what was looked up, what the response actually said, and how it was read.

Conventions (see docs/sources.md):

* ``status`` is ``VERIFIED`` (the metadata API returned a record for exactly this identifier
  and the fields in ``verified`` were read from that response) or ``UNVERIFIED`` (anything
  else, with ``reason``). There is deliberately no "not found"/"fabricated" status: the absence
  of a record (a 404, an empty arXiv feed, a timeout) is never evidence that a source does not
  exist, so it is reported as ``UNVERIFIED`` with the literal observation as the reason
  (e.g. ``"Crossref returned 404"``).
* ``reading_status`` follows the research pack's ledger vocabulary: ``"full text"`` only when the
  full text was fetched (our look-ups never do this), ``"abstract only"`` when a metadata record
  (and at most an abstract) was read, ``"not accessible"`` when nothing was read.
* ``accessed_at`` is the UTC time (ISO 8601, ``Z``) of the last request attempt, ``None`` when no
  request was made (offline, or a kind with no metadata API). A record reused from the cache keeps
  its original ``accessed_at`` and says ``from_cache = True``.
* ``notes`` — observations about the candidate line (e.g. further identifiers it names);
  ``discrepancies`` — where the pack's description contradicts the verified record
  (:func:`sources.leads.description_conflicts`), recomputed on every run.
* kind ``citation`` is a candidate line with no identifier: UNVERIFIED, never looked up
  (it may be *searched*, see :mod:`sources.search`); its identifier is the citation text.
* ``response_sha256`` is the sha256 of the response body bytes (after HTTP content decoding) of
  the final attempt, ``None`` when there was no body.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.runs.errors import InputError

KINDS = ("doi", "arxiv", "github", "url", "citation")
VERIFIED = "VERIFIED"
UNVERIFIED = "UNVERIFIED"
STATUSES = (VERIFIED, UNVERIFIED)

FULL_TEXT = "full text"
ABSTRACT_ONLY = "abstract only"
NOT_ACCESSIBLE = "not accessible"
READING_STATUSES = (FULL_TEXT, ABSTRACT_ONLY, NOT_ACCESSIBLE)

# Crossref update types (``updated-by[].type``) by what they mean for a chapter citing the work.
RETRACTED = "RETRACTED"
CONCERN = "EXPRESSION OF CONCERN"
CORRECTED = "CORRECTED"
RETRACTION_TYPES = ("retraction", "partial_retraction", "withdrawal", "removal")
CONCERN_TYPES = ("expression_of_concern",)
CORRECTION_TYPES = ("correction", "erratum", "corrigendum", "addendum", "clarification")

REASON_OFFLINE = "offline run: not looked up"
REASON_NO_API = "no metadata API for this kind of URL: not looked up"
REASON_CITATION = "free-text citation with no identifier (URL, DOI or arXiv id): not looked up"


@dataclass
class SourceRecord:
    """One candidate source and the outcome of looking it up (JSON round-trips exactly)."""

    kind: str
    identifier: str
    description: str
    url: str
    status: str = UNVERIFIED
    reason: str | None = None
    reading_status: str = NOT_ACCESSIBLE
    verified: dict[str, Any] = field(default_factory=dict)
    request_url: str | None = None
    http_status: int | None = None
    accessed_at: str | None = None
    response_sha256: str | None = None
    attempts: int = 0
    from_cache: bool = False
    line: int | None = None
    notes: list[str] = field(default_factory=list)
    discrepancies: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if self.reading_status not in READING_STATUSES:
            raise ValueError(f"reading_status must be one of {READING_STATUSES}, "
                             f"got {self.reading_status!r}")
        if self.status == UNVERIFIED and not self.reason:
            raise ValueError("an UNVERIFIED record must say why (reason)")

    @property
    def key(self) -> str:
        """``kind:identifier``, the identity used by the cache and by claim links."""
        return f"{self.kind}:{self.identifier}"

    @property
    def title(self) -> str | None:
        """The verified title (GitHub: the repository's full name), if any."""
        value = self.verified.get("title") or self.verified.get("full_name")
        return str(value) if value else None

    @property
    def date(self) -> str | None:
        """The most informative verified date: Crossref issued, arXiv updated, GitHub pushed_at."""
        for name in ("issued", "updated", "published", "pushed_at"):
            if self.verified.get(name):
                return str(self.verified[name])
        return None

    @property
    def renamed(self) -> str | None:
        """``"OLD → NEW"`` when a GitHub look-up followed a rename (the verified ``full_name``
        differs from the repository asked, ignoring case), else None."""
        full_name = self.verified.get("full_name")
        if self.kind == "github" and isinstance(full_name, str) \
                and full_name.lower() != self.identifier.lower():
            return f"{self.identifier} → {full_name}"
        return None

    @property
    def updates(self) -> list[dict[str, str]]:
        """The verified Crossref ``updated-by`` entries (retraction, correction, ... notices)."""
        value = self.verified.get("updated_by") if self.status == VERIFIED else None
        return [u for u in value if isinstance(u, dict)] if isinstance(value, list) else []

    @property
    def update_status(self) -> str | None:
        """RETRACTED, EXPRESSION OF CONCERN or CORRECTED (the most serious update), else None."""
        types = {u.get("type") for u in self.updates}
        if types & set(RETRACTION_TYPES):
            return RETRACTED
        if types & set(CONCERN_TYPES):
            return CONCERN
        if types & set(CORRECTION_TYPES):
            return CORRECTED
        return None

    def update_notices(self, status: str | None = None) -> list[dict[str, str]]:
        """The update entries behind ``status`` (default: the record's own update status)."""
        wanted = {RETRACTED: RETRACTION_TYPES, CONCERN: CONCERN_TYPES,
                  CORRECTED: CORRECTION_TYPES}.get(status or self.update_status or "", ())
        return [u for u in self.updates if u.get("type") in wanted]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, path: str | None = None) -> "SourceRecord":
        """Rebuild a record; a missing or ill-typed field is an :class:`InputError`."""
        if not isinstance(data, dict):
            raise InputError("a source record must be a JSON object", path=path)
        names = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - names
        if unknown:
            raise InputError(f"unknown source-record fields {sorted(unknown)}", path=path)
        for required in ("kind", "identifier", "description", "url"):
            if not isinstance(data.get(required), str):
                raise InputError("missing or non-string field", path=path, field=required)
        if not isinstance(data.get("verified", {}), dict):
            raise InputError("must be an object", path=path, field="verified")
        for name in ("notes", "discrepancies"):
            value = data.get(name, [])
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise InputError("must be a list of strings", path=path, field=name)
        try:
            return cls(**{k: v for k, v in data.items()})
        except (TypeError, ValueError) as exc:
            raise InputError(str(exc), path=path) from exc


def notice_text(update: dict[str, str]) -> str:
    """``retraction notice doi:10.x/y (retraction-watch, 2023-04-22)`` of one Crossref update."""
    kind = update.get("label") or update.get("type", "update").replace("_", " ")
    where = ", ".join(p for p in (update.get("source"), update.get("date")) if p)
    if not update.get("doi") and update.get("source") == "arXiv comment":  # sources.arxiv: withdrawn
        return f"{kind.lower()} ({where}: {update.get('comment') or 'the entry says withdrawn'})"
    notice = f"doi:{update['doi']}" if update.get("doi") else "no notice DOI given"
    return f"{kind.lower()} notice {notice}" + (f" ({where})" if where else "")
