"""The report's rules: what evidence each claim has, its concern, priority and response;
which experiments ran; which minimal changes follow. Pure functions of the report's inputs.

Evidence classes (the pack's vocabulary, never blurred) label every piece of evidence:
``background`` (the chapter's own method, definition or limit statements), ``reported by a
source`` (a verified source the claim names), ``reproduced locally`` (a logged ok run),
``hypothesis`` (an interpretation not yet tested; this rule-based report states none of its
own, so the label appears only where a pack or claims file supplies one) and ``proposed
experiment`` (UNRUN work). A claim with no evidence of any class says so: "none held — UNVERIFIED".

Priorities: ``high`` — a reproduced number contradicts the chapter, or a binding cannot be
checked; ``medium`` — a measured result or attribution has no verified evidence; ``low`` —
everything else. Only a *mention* link (the claim names the source) can back a claim; a
similarity link is a candidate for a human check and a topical link supports nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.runs.runlog import newest

BACKGROUND = "background"
REPORTED = "reported by a source"
REPRODUCED = "reproduced locally"
HYPOTHESIS = "hypothesis"
PROPOSED = "proposed experiment"
NO_EVIDENCE = "none held — UNVERIFIED"
EVIDENCE_CLASSES = (BACKGROUND, REPORTED, REPRODUCED, HYPOTHESIS, PROPOSED)

UNVERIFIED = "UNVERIFIED"
UNRUN = "UNRUN"


@dataclass
class Fingerprint:
    computed: str
    stated: str | None
    status: str            # MATCH | MISMATCH | EXCERPT | NO-FINGERPRINT


@dataclass
class ReportInputs:
    """Everything the renderer reads; assembled by :func:`reports.build.build_report_inputs`."""

    pack: Any
    pack_path: Path
    pack_sha256: str
    claims: list[Any]
    fingerprint: Fingerprint
    report_date: str
    offline: bool
    log_path: Path
    log_records: list[dict[str, Any]]
    verdicts: list[Any] = field(default_factory=list)
    claims_files: list[Any] = field(default_factory=list)
    sources: list[Any] = field(default_factory=list)
    links: list[Any] = field(default_factory=list)
    reference_entries: set[str] = field(default_factory=set)   # claim ids that are reference-list entries
    reference_origins: list[str] = field(default_factory=list)  # per chapter-reference record: its origin
    pack_source_count: int | None = None   # sources[:n] are the pack's leads; the rest the chapter's own
    similarity_links: bool = False
    searches: list[Any] = field(default_factory=list)   # sources.search.SearchResult, by target
    search_enabled: bool = False
    consistency: list[Any] = field(default_factory=list)  # failed checks of the chapter's own numbers
    document: Any = None   # audit.document.Document of the chapter text (section 1 lists its code and tables)
    kinds: str = "rules"   # who decided the measured-result kind of each claim row (section 1 says)
    history: str = ""      # research history (books.run: the book pass this report differs from); "" = no row


# ---------------------------------------------------------------------------------------------
# Small readers that tolerate the pack's identity being a dataclass or a mapping.

def attribute(obj: Any, name: str, default: Any = None) -> Any:
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def identity_fields(pack: Any) -> dict[str, str]:
    identity = attribute(pack, "identity", {})
    fields = ("book", "chapter", "chapter_number", "stable_id", "chapter_url", "research_pack_url",
              "fingerprint")
    out = {name: attribute(identity, name) for name in fields}
    extra = attribute(pack, "identity_extra", {}) or {}
    out.update({k: v for k, v in dict(extra).items() if k not in out})
    return {k: str(v) for k, v in out.items() if v not in (None, "")}


def date_part(iso: str | None) -> str:
    return iso[:10] if iso else UNVERIFIED


def metadata_value(value: Any) -> str:
    """A verified metadata value in words: booleans yes/no, None "none", empty "empty"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if value == "" or value == [] or value == {}:
        return "empty"
    return format_value(value)


def metadata_text(verified: dict[str, Any]) -> str:
    return "; ".join(f"{k}: {metadata_value(v)}" for k, v in sorted(verified.items()))


CANDIDATE_NOTE = "candidate: confirm before citing"


def search_evidence(search: Any) -> list[str]:
    """How a primary-source search reads as a claim's evidence (a candidate, never support)."""
    if search is None:
        return []
    if not search.hits:
        return [f"primary-source search: {search.summary}"]
    return [f"found by search: {h.record.kind}:{h.record.identifier} ({h.service}, score "
            f"{h.score:.1f}; query '{h.query}') — {CANDIDATE_NOTE}, not support"
            for h in search.hits]


def format_value(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:.9f}".rstrip("0").rstrip(".")
        return text if text not in ("", "-") else "0"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if value is None:  # nothing was read or computed (NOT COMPUTED, MISSING KEY): never "None"
        return "—"
    return str(value)


def same_precision(claimed: str, value: Any) -> str:
    """Format a reproduced number at the claim's printed precision (for a proposed correction)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return format_value(value)
    scientific = re.match(r"^\s*[-+−]?\d+(?:\.(\d+))?(?:[eE]([-+−]?\d+)|\s?([×x*·])\s?10(\^|\*\*)([-+−]?\d+))\s*$",
                          claimed)
    if scientific:  # same exponent and mantissa digits as printed: 2.5e-3 → 2.6e-3
        exponent = int((scientific.group(2) or scientific.group(5)).replace("−", "-"))
        decimals = len(scientific.group(1) or "")
        mantissa = f"{value / 10.0 ** exponent:.{decimals}f}"
        if scientific.group(2) is not None:
            marker = claimed[claimed.lower().index("e", 1)]
            return f"{mantissa}{marker}{scientific.group(2)}"
        return f"{mantissa}{scientific.group(3)}10{scientific.group(4)}{scientific.group(5)}"
    fraction = re.match(r"^\s*\d+\s*/\s*(\d+)\s*$", claimed)
    if fraction:  # k/N: the same N when the value is a whole count of it (3/4 → 2/4), else the value
        total = int(fraction.group(1))
        count = value * total
        return f"{round(count)}/{total}" if total and abs(count - round(count)) < 1e-9 else format_value(value)
    percent = claimed.rstrip().endswith("%")
    if percent:   # 75% reproduced as 0.8 is 80%, never "1"
        value = value * 100
    digits = claimed.rstrip().rstrip("%").split(".")[1] if "." in claimed else ""
    decimals = len("".join(ch for ch in digits if ch.isdigit()))
    text = f"{value:,.{decimals}f}" if "," in claimed else f"{value:.{decimals}f}"
    if claimed.lstrip("+-−").startswith(".") and text.lstrip("-").startswith("0."):
        text = text.replace("0.", ".", 1)
    if claimed.lstrip().startswith("+") and not text.startswith("-"):
        text = "+" + text   # a signed change keeps its sign: +0.05 → +0.06
    elif "−" in claimed:
        text = text.replace("-", "−")   # the printed minus sign (U+2212) is kept
    return text + (claimed.rstrip()[len(claimed.rstrip().rstrip("%").rstrip()):] if percent else "")


def normalise_quote(text: str) -> str:
    return " ".join(text.split()).casefold()


# ---------------------------------------------------------------------------------------------
# Claim-level evidence.

@dataclass
class ClaimAssessment:
    claim: Any
    evidence: list[str]
    evidence_class: str
    concern: str
    priority: str
    response: str
    verdicts: list[Any]
    links: list[Any]
    flags: tuple[str, ...] = ()   # "RETRACTED source …" / "CORRECTED source …": the claim rests on it


def proposed_text(text: str, printed: str, new: str) -> str:
    """The sentence with the first occurrence of the printed number replaced by ``new``."""
    import re as _re

    match = _re.search(rf"(?<![\d.]){_re.escape(printed)}(?![\d])", text)
    if match is None:
        return text.replace(printed, new, 1)
    return text[:match.start()] + new + text[match.end():]


SUPPORT_KINDS = ("mention", "cites")   # a named source, or a reference the sentence cites by position


def prints_claimed(claim: Any, claimed: str) -> bool:
    """Whether the claim row's text prints the binding's claimed value (a number's own digits, not
    inside a longer number); a list or text claim is not checked here."""
    from claims.bindings import parse_claimed

    text = claimed.strip()
    try:
        kind = parse_claimed(text).kind
    except (ValueError, OverflowError):
        return True
    if kind not in ("number", "fraction"):
        return True
    spaced = normalise_quote(claim.text)
    return re.search(r"(?<![\d.,])" + re.escape(normalise_quote(text)) + r"(?![\d]|[.,]\d)", spaced) is not None


def verdicts_by_claim(claims: list[Any], verdicts: list[Any]) -> tuple[dict[str, list[Any]], list[Any]]:
    """Attach each verdict to the claim rows whose text contains its quote and prints its claimed
    value (else: unplaced; a quote found in a sentence that no longer prints the claimed value is
    a stale binding, :func:`stale_bindings`)."""
    placed: dict[str, list[Any]] = defaultdict(list)
    unplaced = []
    for verdict in verdicts:
        quote = normalise_quote(verdict.binding.quote or verdict.binding.claimed)
        hits = [c for c in claims if quote and quote in normalise_quote(c.text)
                and prints_claimed(c, verdict.binding.claimed)]
        for claim in hits:
            placed[claim.claim_id].append(verdict)
        if not hits:
            unplaced.append(verdict)
    return placed, unplaced


def binding_counts(claims: list[Any], verdicts: list[Any]) -> tuple[int, int, int]:
    """``(matched, bound, not printed)``: of the ``bound`` verdicts, how many MATCH a number this
    chapter prints, and how many quote text the chapter does not print (a binding left behind by
    an edit checks nothing of the chapter, however its run compares: :func:`verdicts_by_claim`)."""
    _, unplaced = verdicts_by_claim(list(claims), list(verdicts))
    unheld = {id(v) for v in unplaced}
    matched = sum(1 for v in verdicts if v.ok and id(v) not in unheld)
    return matched, len(verdicts), len(unheld)


def stale_bindings(claims: list[Any], unplaced: list[Any]) -> list[Any]:
    """Unplaced verdicts whose quote the chapter holds, in a sentence that does not print the
    claimed value: the chapter changed after the claims file was written."""
    out = []
    for verdict in unplaced:
        quote = normalise_quote(verdict.binding.quote or "")
        if quote and any(quote in normalise_quote(c.text) for c in claims):
            out.append(verdict)
    return out


def source_label(source: Any) -> str:
    return f"{source.kind}:{source.identifier}"


def link_key(link: Any) -> str:
    """``kind:identifier`` of the source a claim link points at (as :func:`source_label`)."""
    return f"{link.source_kind}:{link.source}"


def link_text(link: Any, sources: dict[str, Any]) -> str:
    source = sources.get(link_key(link))
    state = source.status if source is not None else UNVERIFIED
    if link.kind == "topical-only":
        return f"{link_key(link)}: topical only — supports nothing"
    if link.kind == "similarity":
        return (f"{link_key(link)} ({link.reason}; source {state}; a candidate for a human check — "
                "similarity alone supports nothing)")
    update = getattr(source, "update_status", None) if source is not None else None
    return f"{link_key(link)} ({link.reason}; source {update or state})"


def source_flags(links: list[Any], sources: dict[str, Any]) -> tuple[str, ...]:
    """``RETRACTED source doi:X (retraction notice doi:N (retraction-watch, 2023-04-22))`` for each
    supporting link whose verified record carries a Crossref update (retraction first)."""
    from sources.records import notice_text

    flags = []
    for link in links:
        if link.kind not in SUPPORT_KINDS:
            continue
        source = sources.get(link_key(link))
        status = getattr(source, "update_status", None)
        if status:
            notices = "; ".join(notice_text(u) for u in source.update_notices(status))
            flags.append(f"{status} source {link_key(link)} ({notices})")
    return tuple(sorted(set(flags), key=lambda f: (not f.startswith("RETRACTED"), f)))


def abstract_evidence(claim: Any, links: list[Any], sources: dict[str, Any]) -> str | None:
    """``doi:X's abstract: “… 0.889 NDCG@3 …”`` when a verified, supporting source's abstract states
    one of the claim's numbers with the same unit and names the claim's metric in the same
    sentence (:func:`reports.numbers.stated_in`); else None."""
    from reports.numbers import stated_in

    for link in links:
        if link.kind not in SUPPORT_KINDS:
            continue
        source = sources.get(link_key(link))
        if getattr(source, "status", "") != "VERIFIED":
            continue
        abstract = (getattr(source, "verified", {}) or {}).get("abstract")
        phrase = stated_in(claim, abstract) if isinstance(abstract, str) else None
        if phrase:
            return f"{link_key(link)}'s abstract: “{phrase}”"
    return None


def assess_claim(claim: Any, verdicts: list[Any], links: list[Any], sources: dict[str, Any],
                 search: Any = None) -> ClaimAssessment:
    """:func:`assess_base`, then: a claim resting on a RETRACTED source is high priority with the
    notice cited (CORRECTED or under an expression of concern: at least medium); a claim whose
    linked, verified source's abstract states its number is ``reported by a source``."""
    base = assess_base(claim, verdicts, links, sources, search)
    flags = source_flags(links, sources)
    quoted = abstract_evidence(claim, links, sources) if getattr(claim, "quantities", None) else None
    if quoted and base.evidence_class in (NO_EVIDENCE, BACKGROUND):
        base.evidence.insert(0, f"{REPORTED}: {quoted}")
        base.evidence_class = REPORTED
        if base.priority == "medium" and not verdicts:
            base.priority = "low"
            base.concern = ("the number is stated in a verified source's abstract; its full text was not read")
            base.response = "keep; cite the source at this sentence"
    if flags:
        base.flags = flags
        retracted = any(f.startswith("RETRACTED") for f in flags)
        base.priority = "high" if retracted else ("high" if base.priority == "high" else "medium")
        base.concern = "; ".join(flags) + ("; " + base.concern if base.concern and base.concern != "none" else "")
        base.response = ("remove or replace the retracted source and re-check the claim" if retracted
                         else "check the correction notice and cite the corrected version") + \
            ("; " + base.response if base.response != "keep" else "")
    return base


PARTLY_REPRODUCED = "measured result partly reproduced"


def unbound_numbers(claim: Any, verdicts: list[Any]) -> list[str]:
    """The printed numbers of ``claim`` that none of its bindings covers, left to right (each
    binding covers one printed occurrence of its claimed text)."""
    from collections import Counter

    from claims.suggest import printed_values

    covered = Counter(v.claimed.text for v in verdicts)
    left = []
    for printed in printed_values(claim):
        if covered[printed.claimed] > 0:
            covered[printed.claimed] -= 1
        else:
            left.append(printed.claimed)
    return left


def assess_base(claim: Any, verdicts: list[Any], links: list[Any], sources: dict[str, Any],
                 search: Any = None) -> ClaimAssessment:
    """Rule-based evidence, concern, priority and response for one claim row (``search``: the
    claim's primary-source search, whose hits are candidates and never support)."""
    evidence: list[str] = []
    for v in verdicts:
        if v.run_id and v.status not in ("MATCH", "MISMATCH"):
            # nothing was reproduced (NOT COMPUTED, CHANGED, MISSING KEY, …): the run is named, not
            # called a local reproduction
            evidence.append(f"logged run {v.run_id} ({date_part(v.run_ended_at)}), nothing reproduced: "
                            f"{v.read_at} — {v.status}")
        elif v.run_id:
            evidence.append(f"{REPRODUCED}: run {v.run_id} ({date_part(v.run_ended_at)}) gives "
                            f"{v.read_at} = {format_value(v.reproduced) if v.reproduced is not None else '—'}"
                            f" — {v.status}")
        else:
            evidence.append(f"bound to experiment {v.binding.experiment}: {UNRUN} ({v.status})")
    support = [l for l in links if l.kind in SUPPORT_KINDS]  # only a named or cited source can back a claim
    for link in links:
        if link.kind != "topical-only":   # topical nearness supports nothing: shown in section 3 only
            evidence.append(link_text(link, sources))
    evidence.extend(search_evidence(search))
    kind = claim.kind
    statuses = {v.status for v in verdicts}
    verified_support = [l for l in support if getattr(sources.get(link_key(l)), "status", "") == "VERIFIED"]
    if "MISMATCH" in statuses:
        bad = next(v for v in verdicts if v.status == "MISMATCH")
        concern = (f"the chapter prints {bad.claimed.text}; the logged run gives "
                   f"{format_value(bad.reproduced)} (difference {bad.difference:+.2e}, tolerance "
                   f"{bad.claimed.tolerance:.1e})")
        return ClaimAssessment(claim, evidence, REPRODUCED, concern, "high",
                               f"correct {bad.claimed.text} to {same_precision(bad.claimed.text, bad.reproduced)}",
                               verdicts, links)
    if statuses & {"CHANGED", "MISSING KEY", "NOT COMPUTED"}:
        bad = next(v for v in verdicts if v.status in ("CHANGED", "MISSING KEY", "NOT COMPUTED"))
        return ClaimAssessment(claim, evidence, NO_EVIDENCE, f"binding cannot be checked: {bad.note}", "high",
                               "repair the binding or re-run the experiment", verdicts, links)
    if "NO RUN" in statuses:
        return ClaimAssessment(claim, evidence, PROPOSED,
                               f"bound experiment not run: {UNRUN}; the number is {UNVERIFIED}", "medium",
                               "run the bound experiment (chapter-audit verify --rerun)", verdicts, links)
    if verdicts:
        unbound = unbound_numbers(claim, verdicts) if kind == "measured result" else []
        if unbound:   # the bound numbers match; the others rest on nothing (never "keep")
            listed = ", ".join(unbound)
            return ClaimAssessment(claim, evidence, REPRODUCED,
                                   f"{PARTLY_REPRODUCED}: {listed} not bound to any run: {UNVERIFIED}", "medium",
                                   f"bind {listed} to a reproducible run, or cite the source that reports it",
                                   verdicts, links)
        return ClaimAssessment(claim, evidence, REPRODUCED,
                               "none: every bound number reproduced within its printed precision", "low",
                               "keep", verdicts, links)
    if not evidence:
        evidence.append("none recorded")
    if kind == "measured result":
        if support:   # a named or cited source is a candidate until its record states the number
            lead = link_key(support[0])
            record = sources.get(lead)
            state = ("its verified abstract does not state this number with its unit and metric"
                     if getattr(record, "status", "") == "VERIFIED"
                     else f"its record is {UNVERIFIED} ({getattr(record, 'reason', None) or 'not looked up'})")
            return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                                   f"measured result with no logged run; it names or cites {lead}, a candidate: "
                                   f"{state}", "medium",
                                   f"check the number in {lead}, or bind it to a reproducible run", verdicts, links)
        return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                               f"measured result bound to no logged run, with no verified source: {UNVERIFIED}", "medium",
                               "bind it to a reproducible run, or cite the source that reports it", verdicts, links)
    if kind == "table value":
        key = claim.text.split(" = ", 1)[0]
        return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                               f"table number not bound to a run: {UNVERIFIED} if it reports a result", "low",
                               f"bind it with quote = {key!r} if it reports a result; keep if it is a setting",
                               verdicts, links)
    if kind == "attribution":
        cited = [l for l in verified_support if l.kind == "cites"]
        if cited:   # the sentence itself cites a verified record (a link, a footnote, a reference marker)
            names = ", ".join(sorted({link_key(l) for l in cited}))
            return ClaimAssessment(claim, evidence, REPORTED,
                                   f"the sentence cites {names}, whose record is verified; its full text was not "
                                   f"read, so what it says about this claim is {UNVERIFIED}", "low",
                                   "keep; check the cited passage", verdicts, links)
        if verified_support:
            names = ", ".join(sorted({link_key(l) for l in verified_support}))
            return ClaimAssessment(claim, evidence, REPORTED,
                                   "source metadata verified; its full text was not read, so what it says "
                                   f"about this claim is {UNVERIFIED}", "medium", f"add a citation to {names}",
                                   verdicts, links)
        named = ", ".join(getattr(claim, "cited_names", []) or []) or "a source"
        unverified = [l for l in support if l.kind == "cites"]
        if unverified:
            lead = link_key(unverified[0])
            why = getattr(sources.get(lead), "reason", None) or "not looked up"
            return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                                   f"attributes to {named}; the sentence cites {lead}, whose record is {UNVERIFIED} "
                                   f"({why})", "medium", f"verify {lead} (run the report online) or correct the "
                                   "citation", verdicts, links)
        hits = search.hits if search is not None else []
        if hits:
            found = ", ".join(f"{h.record.kind}:{h.record.identifier}" for h in hits)
            return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                                   f"attributes to {named}; no verified source record in the pack: "
                                   f"{UNVERIFIED}; found by search: {found} ({CANDIDATE_NOTE})", "medium",
                                   f"confirm the found-by-search candidate ({found}); if it is the source, "
                                   "add its identifier to the pack and cite it", verdicts, links)
        return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                               f"attributes to {named}; no verified source record: {UNVERIFIED}", "medium",
                               "verify and cite the primary source", verdicts, links)
    if kind == "scope or limitation":
        return ClaimAssessment(claim, evidence, BACKGROUND, "none: states a limit of the chapter's evidence",
                               "low", "keep", verdicts, links)
    if kind == "recommendation":
        return ClaimAssessment(claim, evidence, BACKGROUND, "recommendation without stated evidence", "low",
                               "keep; support it if a reader could dispute it", verdicts, links)
    if getattr(claim, "quantities", None):
        return ClaimAssessment(claim, evidence, BACKGROUND,
                               "states a parameter or count; not checked against an implementation", "low",
                               "keep; bind it if the chapter's code is available", verdicts, links)
    return ClaimAssessment(claim, evidence, BACKGROUND, "none", "low", "keep", verdicts, links)


# ---------------------------------------------------------------------------------------------
# Experiments: one per claims-file experiment, plus one per unresolved gap of the pack.

@dataclass
class ExperimentRow:
    name: str
    tests: str
    method: str
    success: str
    failure: str
    status: str
    reproduces: tuple[str, ...] = ()   # the claim ids of a "reproduce C-…" row (sections 5 and 7 cite it)


def experiment_rows(inputs: ReportInputs) -> list[ExperimentRow]:
    from claims.verify import find_run, identity_pins

    rows = []
    by_experiment: dict[str, list[Any]] = defaultdict(list)
    for verdict in inputs.verdicts:
        by_experiment[verdict.binding.experiment].append(verdict)
    _, unplaced = verdicts_by_claim(list(inputs.claims), list(inputs.verdicts))
    unheld = {id(v) for v in unplaced}   # bindings whose quoted number this chapter does not print
    seen = set()
    for claims_file in inputs.claims_files:
        for exp_id, experiment in sorted(claims_file.experiments.items()):
            if exp_id in seen:
                continue
            seen.add(exp_id)
            record = find_run(inputs.log_records, experiment, pins=identity_pins(experiment, claims_file.path))
            verdicts = by_experiment.get(exp_id, [])
            matched = sum(v.status == "MATCH" for v in verdicts)
            if record is None:
                status = f"{UNRUN}: the log holds no ok run of '{experiment.command}' with these parameters"
            else:
                results = "; ".join(f"{v.read_at} = {format_value(v.reproduced)} ({v.status})"
                                    for v in verdicts if v.run_id == record["run_id"])
                status = (f"ran: run {record['run_id']}, {record.get('ended_at', UNVERIFIED)}, status ok; "
                          f"{matched} of {len(verdicts)} bound numbers match"
                          + (f" ({held} of them quote text this chapter does not print: they check nothing "
                             "of it)" if (held := sum(id(v) in unheld for v in verdicts)) else "")
                          + (f"; results: {results}" if results else ""))
            method = f"chapter-audit {experiment.command}"
            if experiment.match:
                method += " with " + ", ".join(f"{k}={v}" for k, v in sorted(experiment.match.items()))
            rows.append(ExperimentRow(
                name=f"{PROPOSED}: {exp_id}" if record is None else exp_id,
                tests=experiment.description or f"the numbers bound to {exp_id}",
                method=method,
                success=experiment.success or "every bound number matches within its printed precision",
                failure=experiment.failure or "any bound number differs beyond its printed precision",
                status=status))
    rows.extend(opportunity_rows(inputs))
    return rows


def _unbound_measured(inputs: ReportInputs) -> list[Any]:
    placed, _ = verdicts_by_claim(inputs.claims, inputs.verdicts)
    return [c for c in inputs.claims
            if c.kind == "measured result" and c.quantities and c.claim_id not in placed]


NOT_CHECKED = "not checked"
"""Section 6's status of measured results no claims file binds when the log holds an ok run of their command."""


def _unbound_status(records: list[dict[str, Any]], command: str) -> str:
    """Section 6's status for numbers no claims file binds: UNRUN only when the log holds no ok
    run of the command; otherwise the latest such run, to bind against (it checked nothing yet)."""
    # a capability of two commands ("chapter-audit r03 prepare / r03 evaluate") is run by its last one
    name = command.split(" / ")[-1].removeprefix("chapter-audit ").strip()
    runs = [r for r in records if r.get("command") == name and r.get("status") == "ok"]
    if not runs:
        return f"{UNRUN}: runnable with this toolkit once the inputs are supplied; not run"
    latest = newest(runs)
    return (f"{NOT_CHECKED}: the log holds an ok run of {name} (latest run {latest.get('run_id')}); "
            "bind the numbers to it with `chapter-audit bind` and verify them")


def notebook_run(records: list[dict[str, Any]], url: str) -> dict[str, Any] | None:
    """The latest logged ``notebook run`` whose notebook input has the URL's file name (any status)."""
    name = url.rstrip("/").rsplit("/", 1)[-1]
    for record in reversed(records):
        if record.get("command") == "notebook run" and any(
                Path(path).name == name for path in (record.get("inputs") or {})):
            return record
    return None


def run_citation(record: dict[str, Any]) -> str:
    """``run ID, DATE, status S`` (and the error of a failed run) of one log record."""
    text = f"run {record.get('run_id')}, {record.get('ended_at', UNVERIFIED)}, status {record.get('status')}"
    return text + (f" ({record['error']})" if record.get("error") else "")


def opportunity_rows(inputs: ReportInputs) -> list[ExperimentRow]:
    """Gap rows, runnable-claim rows and the associated-notebook row (reports/opportunities.py)."""
    from reports.opportunities import (CAPABILITIES, match_capability, notebook_material, opportunity,
                                       opportunity_for)

    capabilities = {c.name: c for c in CAPABILITIES}

    chapter_text = attribute(inputs.pack, "chapter_text", "") or ""
    notebook = notebook_material(inputs.pack, attribute)
    notebook_file = notebook[1].rstrip("/").rsplit("/", 1)[-1] if notebook else ""
    unbound = _unbound_measured(inputs)
    unbound_ids = {id(c) for c in unbound}
    measured = [c for c in inputs.claims if c.kind == "measured result" and c.quantities]
    by_capability: dict[str, list[Any]] = defaultdict(list)      # every measured claim, bound or not
    for claim in measured:
        capability = match_capability(claim.text, claim=True)
        if capability is not None:
            by_capability[capability.name].append(claim)

    contradicted = {(v.binding.quote or "", v.claimed.text): v for v in inputs.verdicts
                    if v.status == "MISMATCH" and v.run_id}

    def numbers(claims: list[Any]) -> list[str]:
        """The printed numbers to reproduce; for one a logged run contradicts, the run's value (the
        success criterion is never to reproduce a number shown to be wrong)."""
        from claims.suggest import printed_values

        out = []
        for c in claims:
            for p in printed_values(c):
                bad = next((v for (quote, claimed), v in contradicted.items()
                            if claimed == p.claimed and normalise_quote(quote) in normalise_quote(c.text)), None)
                if bad is not None:
                    out.append(f"{same_precision(p.claimed, bad.reproduced)} ({c.claim_id}: run {bad.run_id} logs "
                               f"{format_value(bad.reproduced)}; the printed {p.claimed} is contradicted)")
                else:
                    out.append(f"{p.claimed} ({c.claim_id})")
        return out

    rows, covered = [], set()
    for index, gap in enumerate(attribute(inputs.pack, "unresolved_gaps", []) or [], start=1):
        capability = match_capability(str(gap))
        found = None if capability is None else opportunity(
            str(gap), chapter_text, numbers(by_capability.get(capability.name, [])), notebook_file)
        if found is None:
            rows.append(ExperimentRow(
                name=f"{PROPOSED}: gap {index}", tests=str(gap),
                method="not yet specified: nothing in this toolkit runs it; design a run that measures it "
                       "and bind its numbers in a claims file",
                success="a logged ok run whose bound numbers answer the gap",
                failure="no run can be specified from the available data",
                status=f"{UNRUN}: no experiment has been specified or run"))
            continue
        covered.add(found.capability.name)
        rows.append(ExperimentRow(
            name=f"{PROPOSED}: gap {index} ({found.capability.command.removeprefix('chapter-audit ')})",
            tests=str(gap), method=found.method, success=found.success, failure=found.failure,
            status=f"{UNRUN}: runnable with this toolkit once the inputs are supplied; not run"))
    for name, every in sorted(by_capability.items()):
        claims = [c for c in every if id(c) in unbound_ids]
        if name in covered or name == "notebook" or not claims:
            continue
        found = opportunity_for(capabilities[name], chapter_text, numbers(claims), notebook_file)
        rows.append(ExperimentRow(
            name=f"{PROPOSED}: reproduce {', '.join(c.claim_id for c in claims)}",
            tests="the measured results no claims file binds", method=found.method, success=found.success,
            failure=found.failure, status=_unbound_status(inputs.log_records, found.capability.command),
            reproduces=tuple(c.claim_id for c in claims)))
    if notebook is not None:
        found = opportunity_for(capabilities["notebook"], chapter_text, numbers(unbound), notebook_file)
        record = notebook_run(inputs.log_records, notebook[1])
        status = (f"ran: {run_citation(record)}" if record is not None
                  else f"{UNRUN}: no recorded run of this notebook in the log")
        rows.append(ExperimentRow(
            name=f"{PROPOSED}: run the associated notebook" if record is None else "associated notebook",
            tests=f"whether {notebook[0] or 'the notebook'} ({notebook[1]}) runs today and what it prints",
            method=found.method.replace("NOTEBOOK.ipynb (the notebook file, downloaded)",
                                        f"{notebook_file} (downloaded from {notebook[1]})"),
            success=found.success, failure=found.failure, status=status))
    return rows


@dataclass
class Proposal:
    proposal_id: str
    claim_id: str
    change: str
    rationale: str
    tradeoff: str
    recommendation: str
    reason: str


def proposals(inputs: ReportInputs, assessments: list[ClaimAssessment]) -> list[Proposal]:
    out: list[Proposal] = []
    inputs_sources = {source_label(s): s for s in inputs.sources}

    def add(claim_id: str, change: str, rationale: str, tradeoff: str, recommendation: str, reason: str) -> None:
        out.append(Proposal(f"P-{len(out) + 1}", claim_id, change, rationale, tradeoff, recommendation, reason))

    # Sections 6 and 7 must agree (campaign p): a measured result that section 6 says the log holds an
    # ok run for ("not checked: …") is never "no logged run" in sections 5 and 7, and that row of
    # section 6 gets its own decision in section 7, as an UNRUN one does.
    unbound_run = {cid: row.status for row in shared_experiment_rows(inputs)
                   if row.status.startswith(NOT_CHECKED) for cid in row.reproduces}

    for a in assessments:
        cid = a.claim.claim_id
        for flag in a.flags:
            retracted = flag.startswith("RETRACTED")
            add(cid, f"citation: {'remove or replace' if retracted else 'check and update'} the "
                     f"{flag.split(' (', 1)[0]} at: {a.claim.text}", flag,
                "the claim may need other support or rewording" if retracted else
                "the corrected version may change the cited figure",
                "accept" if retracted else "revise",
                "a retracted work cannot support a claim" if retracted else
                "cite the corrected version after reading the notice")
        mismatches = [v for v in a.verdicts if v.status == "MISMATCH"]
        if mismatches:
            v = mismatches[0]
            new = same_precision(v.claimed.text, v.reproduced)
            add(cid, f"correction: replace \"{v.claimed.text}\" with \"{new}\" in: {a.claim.text}",
                f"run {v.run_id} logs {v.read_at} = {format_value(v.reproduced)}",
                "none beyond the edit; if the printed value came from another run, name that run instead",
                "accept", "the logged run contradicts the printed value beyond its precision")
        elif a.evidence_class == REPORTED and a.response.startswith("add a citation"):
            add(cid, f"citation: {a.response[len('add a '):]} for: {a.claim.text}",
                "the claim names this source and its metadata is verified",
                "the source's full text was not read: check the cited passage before publishing", "revise",
                "metadata verified, content not read")
        elif a.claim.kind == "attribution" and a.priority == "medium":
            leads = [l for l in a.links if l.kind in SUPPORT_KINDS]
            if leads:
                lead = leads[0]
                source = inputs_sources.get(link_key(lead))
                why = getattr(source, "reason", None) or "not verified"
                add(cid, f"citation needed: {a.claim.text}", a.concern,
                    "an unverified citation could be wrong; verify before adding", "defer",
                    f"until {link_key(lead)} is verified ({why}); run the report online to look it up")
            elif "found by search" in a.concern:
                add(cid, f"citation needed: {a.claim.text}", a.concern,
                    "a search hit may be another work by the same authors", "revise",
                    "confirm the found-by-search candidate and add its identifier to the pack")
            else:
                add(cid, f"citation needed: {a.claim.text}", a.concern,
                    "an unverified citation could be wrong; verify before adding", "revise",
                    "no lead in the pack or the chapter names this source: add the primary source")
        elif a.claim.kind == "measured result" and a.priority == "medium":
            logged = unbound_run.get(cid)
            if logged is not None:   # section 6 says the log holds a run of it: never "no logged run" here
                add(cid, f"evidence: bind the measured result to the logged run: {a.claim.text}",
                    f"{a.concern}; {logged}",
                    "binding needs the run's result key; the run may not be the one the chapter reports",
                    "revise", f"{logged.split('; bind', 1)[0]}, but no claims file binds this number: bind it "
                              "with `chapter-audit bind` and verify it, or cite the source that reports it")
                continue
            add(cid, f"evidence: bind or cite the measured result: {a.claim.text}", a.concern,
                "binding needs the run's result key; citing needs a verified source", "revise",
                "the number has no logged run and no verified source: bind it to a run or cite the source "
                "that reports it, or mark it as the chapter's own unreproduced result")
    for row in shared_experiment_rows(inputs):
        if row.status.startswith(NOT_CHECKED):
            add("—", f"experiment: {row.tests} ({', '.join(row.reproduces)})", row.status,
                "none: the run exists; binding and verifying cost no new run",
                "accept", f"{row.status.split('; bind', 1)[0]}: bind {', '.join(row.reproduces)} to it with "
                          "`chapter-audit bind` and verify; no new run is needed")
        elif row.status.startswith(UNRUN):
            runnable = row.method.startswith("`")
            command = row.method.split("`")[1].split(" --", 1)[0] if runnable else ""
            add("—", f"experiment: {row.tests}", f"{PROPOSED}; {row.status}",
                "costs a run; the chapter stays as it is until results exist",
                "accept" if runnable else "defer",
                f"runnable here with {command} once its inputs are supplied; no text changes until its numbers "
                "are bound" if runnable else
                "no command of this toolkit measures it: it needs an experiment design before it can be run")
    return out


def shared_experiment_rows(inputs: ReportInputs) -> list[ExperimentRow]:
    """:func:`experiment_rows`, computed once per report (sections 5, 6 and 7 share them)."""
    cached = getattr(inputs, "_experiment_rows", None)
    if cached is not None:
        return cached
    rows = experiment_rows(inputs)
    try:
        object.__setattr__(inputs, "_experiment_rows", rows)
    except (AttributeError, TypeError):  # a frozen or slotted stand-in: recompute next time
        pass
    return rows
