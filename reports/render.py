"""The seven-section research report, built only from parsed, logged and recorded facts.

No language model and no guessing: every row comes from the pack (parsing), the claim rows
(deterministic extraction), binding verdicts (the execution log), source records (recorded
look-ups) and claim links (stated reasons). Where none of those holds a fact, the report says
UNVERIFIED (for sources and claims) or UNRUN (for experiments); it never writes a run id, a date
or a result that the log or a source record does not hold.

Evidence classes (the pack's vocabulary, never blurred) label every piece of evidence:
``background`` (the chapter's own method, definition or limit statements), ``reported by a
source`` (what a looked-up source record says), ``reproduced locally`` (a logged ok run),
``hypothesis`` (an interpretation not yet tested; this rule-based report states none of its
own, so the label appears only where a pack or claims file supplies one) and ``proposed
experiment`` (UNRUN work). A claim with no evidence of any class says so: "none held — UNVERIFIED".

Priorities: ``high`` — a reproduced number contradicts the chapter, or a binding cannot be
checked; ``medium`` — a measured result or attribution has no verified evidence; ``low`` —
everything else.
"""

from __future__ import annotations

import string
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from reports.markdown import bullets, escape_inline, table

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
    similarity_links: bool = False


# ---------------------------------------------------------------------------------------------
# Small readers that tolerate the pack's identity being a dataclass or a mapping.

def _get(obj: Any, name: str, default: Any = None) -> Any:
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _identity(pack: Any) -> dict[str, str]:
    identity = _get(pack, "identity", {})
    fields = ("book", "chapter", "chapter_number", "stable_id", "chapter_url", "research_pack_url",
              "fingerprint")
    out = {name: _get(identity, name) for name in fields}
    extra = _get(pack, "identity_extra", {}) or {}
    out.update({k: v for k, v in dict(extra).items() if k not in out})
    return {k: str(v) for k, v in out.items() if v not in (None, "")}


def _date(iso: str | None) -> str:
    return iso[:10] if iso else UNVERIFIED


def _format_value(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:.9f}".rstrip("0").rstrip(".")
        return text if text not in ("", "-") else "0"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _same_precision(claimed: str, value: Any) -> str:
    """Format a reproduced number at the claim's printed precision (for a proposed correction)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return _format_value(value)
    digits = claimed.split(".")[1] if "." in claimed else ""
    decimals = len("".join(ch for ch in digits if ch.isdigit()))
    text = f"{value:,.{decimals}f}" if "," in claimed else f"{value:.{decimals}f}"
    if claimed.startswith(".") and text.startswith("0."):
        text = text[1:]
    return text


def _normalise(text: str) -> str:
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


def verdicts_by_claim(claims: list[Any], verdicts: list[Any]) -> tuple[dict[str, list[Any]], list[Any]]:
    """Attach each verdict to the claim rows whose text contains its quote (else: unplaced)."""
    placed: dict[str, list[Any]] = defaultdict(list)
    unplaced = []
    for verdict in verdicts:
        quote = _normalise(verdict.binding.quote or verdict.binding.claimed)
        hits = [c for c in claims if quote and quote in _normalise(c.text)]
        for claim in hits:
            placed[claim.claim_id].append(verdict)
        if not hits:
            unplaced.append(verdict)
    return placed, unplaced


def _source_label(source: Any) -> str:
    return f"{source.kind}:{source.identifier}"


def _link_key(link: Any) -> str:
    """``kind:identifier`` of the source a claim link points at (as :func:`_source_label`)."""
    return f"{link.source_kind}:{link.source}"


def _link_text(link: Any, sources: dict[str, Any]) -> str:
    source = sources.get(_link_key(link))
    state = source.status if source is not None else UNVERIFIED
    if link.kind == "topical-only":
        return f"{_link_key(link)}: topical only — supports nothing"
    if link.kind == "similarity":
        return (f"{_link_key(link)} ({link.reason}; source {state}; a candidate for a human check — "
                "similarity alone supports nothing)")
    return f"{_link_key(link)} ({link.reason}; source {state})"


def assess_claim(claim: Any, verdicts: list[Any], links: list[Any], sources: dict[str, Any]) -> ClaimAssessment:
    """Rule-based evidence, concern, priority and response for one claim row."""
    evidence: list[str] = []
    for v in verdicts:
        if v.run_id:
            evidence.append(f"{REPRODUCED}: run {v.run_id} ({_date(v.run_ended_at)}) gives "
                            f"{v.binding.key} = {_format_value(v.reproduced) if v.reproduced is not None else '—'}"
                            f" — {v.status}")
        else:
            evidence.append(f"bound to experiment {v.binding.experiment}: {UNRUN} ({v.status})")
    support = [l for l in links if l.kind == "mention"]  # only a named source can back a claim
    for link in links:
        evidence.append(_link_text(link, sources))
    kind = claim.kind
    statuses = {v.status for v in verdicts}
    verified_support = [l for l in support if getattr(sources.get(_link_key(l)), "status", "") == "VERIFIED"]
    if "MISMATCH" in statuses:
        bad = next(v for v in verdicts if v.status == "MISMATCH")
        concern = (f"the chapter prints {bad.claimed.text}; the logged run gives "
                   f"{_format_value(bad.reproduced)} (difference {bad.difference:+.2e}, tolerance "
                   f"{bad.claimed.tolerance:.1e})")
        return ClaimAssessment(claim, evidence, REPRODUCED, concern, "high",
                               f"correct {bad.claimed.text} to {_same_precision(bad.claimed.text, bad.reproduced)}",
                               verdicts, links)
    if statuses & {"CHANGED", "MISSING KEY"}:
        bad = next(v for v in verdicts if v.status in ("CHANGED", "MISSING KEY"))
        return ClaimAssessment(claim, evidence, NO_EVIDENCE, f"binding cannot be checked: {bad.note}", "high",
                               "repair the binding or re-run the experiment", verdicts, links)
    if "NO RUN" in statuses:
        return ClaimAssessment(claim, evidence, PROPOSED,
                               f"bound experiment not run: {UNRUN}; the number is {UNVERIFIED}", "medium",
                               "run the bound experiment (chapter-audit verify --rerun)", verdicts, links)
    if verdicts:
        return ClaimAssessment(claim, evidence, REPRODUCED,
                               "none: every bound number reproduced within its printed precision", "low",
                               "keep", verdicts, links)
    if not evidence:
        evidence.append("none recorded")
    if kind == "measured result":
        return ClaimAssessment(claim, evidence, NO_EVIDENCE,
                               f"measured result with no logged run or verified source: {UNVERIFIED}", "medium",
                               "bind it to a reproducible run, or cite the source that reports it", verdicts, links)
    if kind == "attribution":
        if verified_support:
            names = ", ".join(sorted({_link_key(l) for l in verified_support}))
            return ClaimAssessment(claim, evidence, REPORTED,
                                   "source metadata verified; its full text was not read, so what it says "
                                   f"about this claim is {UNVERIFIED}", "medium", f"add a citation to {names}",
                                   verdicts, links)
        named = ", ".join(getattr(claim, "cited_names", []) or []) or "a source"
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


def experiment_rows(inputs: ReportInputs) -> list[ExperimentRow]:
    from claims.verify import find_run

    rows = []
    by_experiment: dict[str, list[Any]] = defaultdict(list)
    for verdict in inputs.verdicts:
        by_experiment[verdict.binding.experiment].append(verdict)
    seen = set()
    for claims_file in inputs.claims_files:
        for exp_id, experiment in sorted(claims_file.experiments.items()):
            if exp_id in seen:
                continue
            seen.add(exp_id)
            record = find_run(inputs.log_records, experiment)
            verdicts = by_experiment.get(exp_id, [])
            matched = sum(v.status == "MATCH" for v in verdicts)
            if record is None:
                status = f"{UNRUN}: the log holds no ok run of '{experiment.command}' with these parameters"
            else:
                results = "; ".join(f"{v.binding.key} = {_format_value(v.reproduced)} ({v.status})"
                                    for v in verdicts if v.run_id == record["run_id"])
                status = (f"ran: run {record['run_id']}, {record.get('ended_at', UNVERIFIED)}, status ok; "
                          f"{matched} of {len(verdicts)} bound numbers match"
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
    for index, gap in enumerate(_get(inputs.pack, "unresolved_gaps", []) or [], start=1):
        rows.append(ExperimentRow(
            name=f"{PROPOSED}: gap {index}",
            tests=str(gap),
            method="not yet specified: design a run that measures it and bind its numbers in a claims file",
            success="a logged ok run whose bound numbers answer the gap",
            failure="no run can be specified from the available data",
            status=f"{UNRUN}: no experiment has been specified or run"))
    return rows


# ---------------------------------------------------------------------------------------------
# Sections.

def section_context(inputs: ReportInputs) -> str:
    pack = inputs.pack
    identity = _identity(pack)
    rows = [[name.replace("_", " "), value] for name, value in identity.items() if name != "fingerprint"]
    fp = inputs.fingerprint
    rows.append(["stated fingerprint", fp.stated or "none stated"])
    rows.append(["fingerprint of the text read", fp.computed])
    fp_text = {"MATCH": "MATCH: the text read is the fingerprinted revision",
               "MISMATCH": "MISMATCH: the text read is not the fingerprinted revision",
               "EXCERPT": "EXCERPT: the pack holds only part of the chapter, so it cannot match the "
                          "full-chapter fingerprint",
               "NO-FINGERPRINT": "no fingerprint stated; the revision read is identified by the hash above"}
    rows.append(["fingerprint status", fp_text.get(fp.status, fp.status)])
    rows.append(["text read", f"{inputs.pack_path.name} (sha256 {inputs.pack_sha256})"])
    paragraphs = max((c.paragraph for c in inputs.claims), default=0)
    scope = (f"excerpt: {paragraphs} paragraphs, {len(inputs.claims)} sentences; the rest of the chapter "
             "was not read" if _get(pack, "is_excerpt", False)
             else f"whole text: {paragraphs} paragraphs, {len(inputs.claims)} sentences")
    rows.append(["scope", scope])
    rows.append(["report date", inputs.report_date])
    ok_runs = [r for r in inputs.log_records if r.get("status") == "ok"]
    rows.append(["execution log", f"{inputs.log_path} ({len(inputs.log_records)} records, {len(ok_runs)} ok)"])
    bound = sum(len(cf.bindings) for cf in inputs.claims_files)
    rows.append(["claims files", "; ".join(f"{Path(cf.path).name} ({len(cf.bindings)} bindings)"
                                           for cf in inputs.claims_files)
                 + f" — {bound} printed numbers bound to runs" if inputs.claims_files
                 else "none given: no printed number is bound to a run"])
    verified = sum(1 for s in inputs.sources if s.status == "VERIFIED")
    lookups = ("offline: no source was looked up in this run (cached records are used where they exist)"
               if inputs.offline else "online: each candidate looked up with httpx (see section 3)")
    rows.append(["source look-ups", f"{lookups}; {verified} of {len(inputs.sources)} verified"])
    rows.append(["claim links", "explicit mentions and embedding similarity" if inputs.similarity_links
                 else "explicit mentions only (embedding similarity not used)"])
    rows.append(["method", "no language model: rows come from parsing, the execution log and recorded "
                           "source look-ups"])
    parts = [table(["Field", "Value"], rows)]
    if _get(pack, "is_excerpt", False):
        snapshot = _get(pack, "snapshot_url") or "the pack's snapshot link"
        parts.append(escape_inline(
            f"The chapter text in this pack is an EXCERPT. The complete snapshot ({snapshot}) was not "
            "fetched, and nothing in this report describes the missing text: please paste the remainder "
            "of the chapter to audit it."))
    material = _get(pack, "associated_material", []) or []
    if material:
        parts.append("Associated material (availability is not evidence: no run of it is recorded unless "
                     "section 6 cites one):")
        parts.append(bullets(escape_inline(_material_text(item)) for item in material))
    return "\n\n".join(parts)


def _material_text(item: Any) -> str:
    if isinstance(item, str):
        return item
    label = _get(item, "label") or _get(item, "description") or ""
    url = _get(item, "url") or ""
    note = _get(item, "note") or ""
    return " — ".join(part for part in (label, url, note) if part)


def section_claims(inputs: ReportInputs, assessments: list[ClaimAssessment]) -> str:
    rows = []
    for a in assessments:
        c = a.claim
        rows.append([c.claim_id, f"{c.text} ({_get(c, 'location') or f'paragraph {c.paragraph}, sentence {c.sentence}'})",
                     c.kind, "; ".join(a.evidence), a.evidence_class, a.concern, a.priority, a.response])
    head = ["ID", "Claim and location", "Kind", "Current evidence", "Evidence class", "Concern", "Priority",
            "Proposed response"]
    counts = defaultdict(int)
    for a in assessments:
        counts[a.priority] += 1
    summary = (f"{len(assessments)} claim rows: {counts['high']} high, {counts['medium']} medium, "
               f"{counts['low']} low priority.")
    return summary + "\n\n" + table(head, rows)


def _bears_on(link: Any) -> str:
    """How one claim link reads in the ledger's "Bears on" column."""
    if link.kind == "topical-only":
        return f"{link.claim_id}: topical only — supports nothing"
    if link.kind == "similarity":
        return f"{link.claim_id}: {link.reason} (a candidate to check; similarity alone supports nothing)"
    return f"{link.claim_id}: {link.reason}"


def section_sources(inputs: ReportInputs) -> str:
    if not inputs.sources:
        return "The pack lists no candidate sources; no source was looked up."
    by_source: dict[str, list[Any]] = defaultdict(list)
    for link in inputs.links:
        by_source[_link_key(link)].append(link)
    rows = []
    for s in inputs.sources:
        if s.status == "VERIFIED":
            fields = "; ".join(f"{k}: {_format_value(v)}" for k, v in sorted(s.verified.items()))
            verified_at = f"verified {_date(s.accessed_at)}" + (" (from cache)" if s.from_cache else "")
        else:
            fields = f"{UNVERIFIED}: {s.reason}"
            verified_at = UNVERIFIED
        accessed = f"accessed {_date(s.accessed_at)}" if s.accessed_at else "not accessed"
        links = by_source.get(_source_label(s), [])
        bears = "; ".join(_bears_on(l) for l in links) or "no claim linked"
        limits = ["metadata record only: it identifies the source but cannot support a claim's content"
                  if s.reading_status == "abstract only" else "nothing was read"]
        if s.status != "VERIFIED":
            limits.append("absence of a record is not evidence that the source is fabricated")
        rows.append([f"{_source_label(s)} — {s.description}", fields, s.url, s.reading_status, bears,
                     "; ".join(limits), f"{verified_at}; {accessed}"])
    head = ["Source", "Verified metadata", "URL", "Reading status", "Bears on", "Limitations",
            "Verification and access dates"]
    return table(head, rows)


def section_findings(inputs: ReportInputs, assessments: list[ClaimAssessment], unplaced: list[Any]) -> str:
    supporting, qualifying, contradictory, unresolved = [], [], [], []
    for a in assessments:
        cid = a.claim.claim_id
        for v in a.verdicts:
            line = (f"[{cid}] {REPRODUCED}: {v.binding.key} = {_format_value(v.reproduced)} in run {v.run_id} "
                    f"against the printed {v.claimed.text}") if v.run_id else ""
            if v.status == "MATCH":
                supporting.append(line + " — matches within printed precision.")
            elif v.status == "MISMATCH":
                contradictory.append(line + " — differs beyond printed precision.")
            else:
                unresolved.append(f"[{cid}] {v.binding.binding_id}: {v.status} — {v.note or UNRUN}.")
        if not a.verdicts and a.priority == "medium":
            unresolved.append(f"[{cid}] {a.evidence_class}: {a.concern}.")
        for link in a.links:
            if link.kind == "topical-only":
                qualifying.append(f"[{cid}] {_link_key(link)}: topical only — supports nothing.")
            elif link.kind == "similarity":
                qualifying.append(f"[{cid}] {_link_key(link)}: {link.reason}; a candidate for a human check, "
                                  "not support.")
            elif a.evidence_class == REPORTED:
                qualifying.append(f"[{cid}] {REPORTED}: {_link_key(link)} is named ({link.reason}); its "
                                  f"metadata is verified but its full text was not read.")
    for v in unplaced:
        unresolved.append(f"binding {v.binding.binding_id} quotes text not found in this chapter "
                          f"({v.binding.quote!r}): {v.status}.")
    for gap in _get(inputs.pack, "unresolved_gaps", []) or []:
        unresolved.append(f"gap stated by the pack: {gap} ({UNRUN}).")
    if _get(inputs.pack, "is_excerpt", False):
        unresolved.append("the chapter beyond the excerpt was not read: its claims are not audited.")
    parts = []
    for title, items in (("Supporting", supporting), ("Qualifying", qualifying),
                         ("Contradictory", contradictory), ("Unresolved", unresolved)):
        parts.append(f"### {title}\n\n" + bullets(escape_inline(i) for i in items))
    return "\n\n".join(parts)


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

    def add(claim_id: str, change: str, rationale: str, tradeoff: str, recommendation: str, reason: str) -> None:
        out.append(Proposal(f"P-{len(out) + 1}", claim_id, change, rationale, tradeoff, recommendation, reason))

    for a in assessments:
        cid = a.claim.claim_id
        mismatches = [v for v in a.verdicts if v.status == "MISMATCH"]
        if mismatches:
            v = mismatches[0]
            new = _same_precision(v.claimed.text, v.reproduced)
            add(cid, f"correction: replace \"{v.claimed.text}\" with \"{new}\" in: {a.claim.text}",
                f"run {v.run_id} logs {v.binding.key} = {_format_value(v.reproduced)}",
                "none beyond the edit; if the printed value came from another run, name that run instead",
                "accept", "the logged run contradicts the printed value beyond its precision")
        elif a.evidence_class == REPORTED and a.response.startswith("add a citation"):
            add(cid, f"citation: {a.response[len('add a '):]} for: {a.claim.text}",
                "the claim names this source and its metadata is verified",
                "the source's full text was not read: check the cited passage before publishing", "revise",
                "metadata verified, content not read")
        elif a.claim.kind == "attribution" and a.priority == "medium":
            add(cid, f"citation needed: {a.claim.text}", a.concern,
                "an unverified citation could be wrong; verify before adding", "defer",
                "no verified source record yet")
        elif a.claim.kind == "measured result" and a.priority == "medium":
            add(cid, f"evidence: bind or cite the measured result: {a.claim.text}", a.concern,
                "binding needs the run's result key; citing needs a verified source", "defer",
                "no logged run or verified source holds this number")
    for row in experiment_rows(inputs):
        if row.status.startswith(UNRUN):
            add("—", f"experiment: {row.tests}", f"{PROPOSED}; {row.status}",
                "costs a run; the chapter stays as it is until results exist", "defer",
                "proposed experiments are not results")
    return out


def section_upgrade(inputs: ReportInputs, props: list[Proposal]) -> str:
    edits = [p for p in props if not p.change.startswith("experiment:")]
    if not edits:
        intro = ("No change to the chapter text is recommended from the evidence held: no reproduced number "
                 "contradicts it and no citation can be added from verified sources.")
    else:
        intro = (f"{len(edits)} minimal change(s) follow from the evidence held; nothing here rewrites "
                 "text that the evidence does not touch.")
    rows = [[p.proposal_id, p.claim_id, p.change, p.rationale, p.tradeoff] for p in props]
    parts = [intro, table(["Proposal", "Claim", "Change", "Rationale", "Tradeoff"], rows) if rows
             else "No proposals."]
    material = _get(inputs.pack, "associated_material", []) or []
    if material:
        parts.append("Associated resources: record a run of each associated notebook before citing what it "
                     "prints; report any edit to it as a dependency of this chapter, not applied here.")
    return "\n\n".join(parts)


def section_experiments(inputs: ReportInputs) -> str:
    rows = [[r.name, r.tests, r.method, r.success, r.failure, r.status] for r in experiment_rows(inputs)]
    if not rows:
        return f"No experiment is bound or proposed. {UNRUN}: nothing was run for this chapter."
    return table(["Experiment", "What it tests", "Method", "Success criterion", "Failure criterion", "Status"],
                 rows)


def section_checklist(inputs: ReportInputs, props: list[Proposal]) -> str:
    rows = [[f"{p.proposal_id}: {p.change}", p.recommendation, p.reason] for p in props]
    if _get(inputs.pack, "is_excerpt", False):
        rows.insert(0, ["Supply the complete chapter text so the remainder can be audited", "accept",
                        "the pack holds an excerpt; unread text is not audited"])
    if inputs.fingerprint.status == "MISMATCH":
        rows.insert(0, ["Confirm which revision is being audited", "accept",
                        "the text read does not match the stated fingerprint"])
    if not rows:
        rows.append(["Leave the chapter unchanged", "accept", "no evidence held calls for a change"])
    return table(["Decision", "Recommendation", "Reason"], rows)


def render_report(inputs: ReportInputs) -> str:
    """The report as Markdown (deterministic for the same inputs and date)."""
    sources = {_source_label(s): s for s in inputs.sources}
    links_by_claim: dict[str, list[Any]] = defaultdict(list)
    for link in inputs.links:
        links_by_claim[link.claim_id].append(link)
    placed, unplaced = verdicts_by_claim(inputs.claims, inputs.verdicts)
    assessments = [assess_claim(c, placed.get(c.claim_id, []), links_by_claim.get(c.claim_id, []), sources)
                   for c in inputs.claims]
    props = proposals(inputs, assessments)
    identity = _identity(inputs.pack)
    title = identity.get("chapter") or inputs.pack_path.stem
    template = string.Template(resources.files("templates").joinpath("report.md").read_text(encoding="utf-8"))
    return template.substitute(
        title=escape_inline(title),
        date=inputs.report_date,
        classes=", ".join(EVIDENCE_CLASSES),
        context=section_context(inputs),
        claims=section_claims(inputs, assessments),
        sources=section_sources(inputs),
        findings=section_findings(inputs, assessments, unplaced),
        upgrade=section_upgrade(inputs, props),
        experiments=section_experiments(inputs),
        checklist=section_checklist(inputs, props),
    ).rstrip("\n") + "\n"
