"""The fix-first list: what needs the author's decision, most serious first (issue 22).

It opens section 1, before the provenance table, and is built only from facts the rest of the
report already holds. Order (a category's items in document order):

1. claims resting on a **RETRACTED** source (the notice DOI, source and date cited), and each
   retracted source itself;
2. printed numbers a logged run **contradicts** (MISMATCH): the run id, the printed and the
   logged value, and the proposed text with the run's value at the printed precision;
3. **consistency failures** of the chapter's own numbers (a demonstrated internal error);
4. claims resting on a source under an **expression of concern** or **CORRECTED**;
5. bindings that **cannot be checked** (a changed or untraceable result, a missing key, a quoted
   sentence that no longer prints the claimed value);
6. **measured results and attributions with no evidence** (medium priority), a measured result
   whose bound numbers match but which prints others no binding covers included, and a table
   value bound to no run in a table whose other cells are bound (``reports.ranking.unbacked_cells``);
7. **dead or mismatched references**: a source whose look-up answered 404 or a record for a
   different identifier, or whose pack description contradicts the verified record.

Categories 3 and 6 list their first ten items in full and the rest as links on one line, so the
list stays short on a long chapter. Every claim item starts with a link to its row in section 2 (``[C-004-01](#c-004-01)``); a
source item links to its row in section 3 (``#s-3``); a consistency item to its line in
section 4 (``#k-1``). Nothing else links anywhere.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from reports.markdown import anchor_link, escape_inline
from sources.records import notice_text

MAX_UNEVIDENCED = 10
DEAD_REASONS = ("returned 404", "for a different DOI", "different id", "returned no entry", "Crossref record has no")


def _item(link: str, text: str) -> str:
    return f"{link} {escape_inline(text)}"


def fix_first_items(inputs: Any, assessments: list[Any], source_rows: dict[str, str],
                    consistency_ids: list[tuple[str, Any]]) -> list[str]:
    """Markdown list items (already escaped) in the order of the module docstring."""
    from reports.assess import (format_value, normalise_quote, proposed_text, same_precision, source_label,
                                stale_bindings, verdicts_by_claim)

    retracted, mismatched, concern, unchecked, unevidenced, dead = [], [], [], [], [], []
    for a in assessments:
        c = a.claim
        link = anchor_link(c.claim_id, c.claim_id)
        for flag in getattr(a, "flags", ()):
            (retracted if flag.startswith("RETRACTED") else concern).append(_item(link, f"{flag}: {c.text}"))
        for v in a.verdicts:
            if v.status == "MISMATCH" and v.run_id:
                new = same_precision(v.claimed.text, v.reproduced)
                mismatched.append(_item(link, (
                    f"contradicted by run {v.run_id}: the chapter prints {v.claimed.text}; the run logs "
                    f"{v.read_at} = {format_value(v.reproduced)}. Proposed text: "
                    f"“{proposed_text(c.text, v.claimed.text, new)}”")))
            elif v.status in ("CHANGED", "MISSING KEY", "NOT COMPUTED", "UNTRACEABLE"):
                unchecked.append(_item(link, f"binding {v.binding.binding_id} cannot be checked "
                                             f"({v.status}: {v.note or 'no note'}): {c.text}"))
        partly = bool(a.verdicts) and all(v.status == "MATCH" for v in a.verdicts)  # numbers left unbound
        if (a.priority == "medium" and (not a.verdicts or partly) and c.kind in ("measured result", "attribution")
                and not getattr(a, "flags", ())):
            unevidenced.append((link, c, a))
    _, unplaced = verdicts_by_claim(inputs.claims, inputs.verdicts)
    for v in stale_bindings(inputs.claims, unplaced):   # the chapter changed after its claims file
        quote = normalise_quote(v.binding.quote)
        claim = next(c for c in inputs.claims if quote in normalise_quote(c.text))
        unchecked.append(_item(anchor_link(claim.claim_id, claim.claim_id), (
            f"binding {v.binding.binding_id} cannot be checked: its sentence no longer prints "
            f"{v.binding.claimed} (the claims file is older than the chapter; update its claimed value): "
            f"{claim.text}")))
    for s in inputs.sources:
        label = source_label(s)
        row = source_rows.get(label)
        if row is None:
            continue
        status = getattr(s, "update_status", None)
        if status == "RETRACTED":
            notices = "; ".join(notice_text(u) for u in s.update_notices(status))
            retracted.insert(0, _item(anchor_link(row, label), f"RETRACTED source ({notices}): "
                                                               f"{s.verified.get('title', s.description)}"))
        reason = s.reason or ""
        if s.status != "VERIFIED" and any(r in reason for r in DEAD_REASONS):
            dead.append(_item(anchor_link(row, label), f"dead or mismatched reference: {reason}"))
        for d in s.discrepancies:
            dead.append(_item(anchor_link(row, label), f"mismatched reference: DISCREPANCY — {d}"))
    consistency = [_item(anchor_link(anchor, anchor.upper()), f"the chapter's own numbers disagree "
                                                             f"({check.group}): {check.arithmetic}"
                         + (f" (chapter line {check.line})" if check.line else ""))
                   for anchor, check in consistency_ids[:MAX_UNEVIDENCED]]
    if len(consistency_ids) > MAX_UNEVIDENCED:
        rest = ", ".join(anchor_link(anchor, anchor.upper()) for anchor, _ in consistency_ids[MAX_UNEVIDENCED:])
        consistency.append(f"{escape_inline(f'{len(consistency_ids) - MAX_UNEVIDENCED} more consistency failures:')} "
                           f"{rest}")
    from reports.ranking import unbacked_cells

    for a in unbacked_cells(assessments):   # a results table's cell that no binding covers
        unevidenced.append((anchor_link(a.claim.claim_id, a.claim.claim_id), a.claim, SimpleNamespace(
            concern=f"table value with no evidence: its table's other cells are bound to runs, this one to none "
                    f"({a.claim.text})")))
    lacking = [_item(link, a.concern if a.concern.startswith(c.kind) else f"{c.kind} with no evidence: {a.concern}")
               for link, c, a in unevidenced[:MAX_UNEVIDENCED]]
    if len(unevidenced) > MAX_UNEVIDENCED:
        rest = ", ".join(link for link, _, _ in unevidenced[MAX_UNEVIDENCED:])
        lacking.append(f"{escape_inline(f'{len(unevidenced) - MAX_UNEVIDENCED} more with no evidence:')} {rest}")
    return retracted + mismatched + consistency + concern + unchecked + lacking + dead


def render_fix_first(items: list[str]) -> str:
    if not items:
        return ("### Fix first\n\nNothing needs the author's decision: no number is contradicted, no source is "
                "retracted or corrected, and every measured result and attribution has evidence.")
    return "### Fix first\n\n" + "\n".join(f"{n}. {item}" for n, item in enumerate(items, start=1))
