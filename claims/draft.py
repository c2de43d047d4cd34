"""The draft claims TOML that ``chapter-audit bind`` writes from :mod:`claims.suggest`.

Layout: a header stating the counts; one ``[experiment.*]`` table per logged command and
parameter set that holds a best candidate (its ``match`` table is the run's numeric and word
parameters, so ``verify`` reads the same run); one ``[[binding]]`` per printed number with a
matching value, its alternatives as comments (an *ambiguous* number, whose best two candidates
score the same, says so); and, at the end, every unmatched number as a comment with its nearest
value, never as a binding. Strings are TOML basic strings (JSON escapes are valid TOML).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claims.suggest import Candidate, RunValue, Suggestion

MAX_ALTERNATIVES = 5


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def format_value(value: Any, decimals: int = 6) -> str:
    """A value as the draft shows it: floats with at least 6 decimals, lists as printed."""
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)


def _decimals(claimed: str) -> int:
    digits = claimed.split(".", 1)[1] if "." in claimed else ""
    return max(6, len([ch for ch in digits if ch.isdigit()]) + 2)


def _slug(command: str) -> str:
    return "-".join(command.split()) or "run"


def experiment_ids(suggestions: list[Suggestion]) -> dict[tuple[str, tuple[tuple[str, Any], ...]], str]:
    """An id per (command, match) of the best candidates: ``sandbox-run``, ``sandbox-run-2``, …"""
    ids: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}
    used: dict[str, int] = {}
    for suggestion in suggestions:
        best = suggestion.best
        if best is None:
            continue
        group = (best.value.command, best.value.match)
        if group in ids:
            continue
        slug = _slug(best.value.command)
        used[slug] = used.get(slug, 0) + 1
        ids[group] = slug if used[slug] == 1 else f"{slug}-{used[slug]}"
    return ids


def _describe(candidate: Candidate, decimals: int) -> str:
    value = candidate.value
    return f"{value.result}: {value.key} = {format_value(value.value, decimals)} (score {candidate.score:g})"


def unmatched_note(suggestion: Suggestion) -> str:
    """``no value within precision; nearest: KEY = VALUE`` (or that nothing is near)."""
    near = suggestion.nearest
    if near is None:
        return "no value within precision; nothing near it in the logged results"
    return (f"no value within precision; nearest: {near.value.key} = "
            f"{format_value(near.value.value, _decimals(suggestion.claimed))}")


def draft_claims_toml(suggestions: list[Suggestion], *, pack_path: str, log_path: str) -> str:
    """The draft claims file's text (module docstring)."""
    ids = experiment_ids(suggestions)
    bound = [s for s in suggestions if s.best is not None]
    unmatched = [s for s in suggestions if s.best is None]
    ambiguous = [s for s in bound if s.status == "ambiguous"]
    lines = [
        f"# Draft claims file written by `chapter-audit bind` from {pack_path} and the log {log_path}.",
        "# Every binding is a suggestion: check that its key is the figure the sentence means.",
        f"# {len(suggestions)} printed numbers: {len(bound) - len(ambiguous)} bound, {len(ambiguous)} ambiguous "
        f"(bound to the first of equally ranked candidates), {len(unmatched)} unmatched (not bound; listed at the end).",
        "",
    ]
    groups: dict[str, RunValue] = {}
    for suggestion in bound:
        value = suggestion.best.value
        groups.setdefault(ids[(value.command, value.match)], value)
    for exp_id, value in groups.items():
        results = [s.best.value.result for s in bound if ids[(s.best.value.command, s.best.value.match)] == exp_id]
        default_result = max(sorted(set(results)), key=results.count)
        lines += [f"[experiment.{exp_id}]",
                  f"command = {_string(value.command)}",
                  f"result = {_string(default_result)}",
                  f"description = {_string(f'logged run {value.run_id} ({value.ended_at})')}",
                  "# rerun = [[...]]  # add the argument list(s) that re-run it, for `verify --rerun` (docs/verify.md)"]
        if value.match:
            lines.append(f"[experiment.{exp_id}.match]")
            lines += [f"{name} = {_value(item)}" for name, item in value.match]
        lines.append("")
    for suggestion in bound:
        best = suggestion.best
        exp_id = ids[(best.value.command, best.value.match)]
        decimals = _decimals(suggestion.claimed)
        lines += ["[[binding]]",
                  f"id = {_string(_binding_id(suggestion, suggestions))}",
                  f"experiment = {_string(exp_id)}",
                  f"quote = {_string(suggestion.quote)}",
                  f"claimed = {_string(suggestion.claimed)}",
                  f"key = {_string(best.value.key)}",
                  f"result = {_string(best.value.result)}"]
        if best.value.pattern:
            lines.append(f"pattern = {_string(best.value.pattern)}")
        lines.append(f"# {suggestion.claim_id}; best of {len(suggestion.candidates)}: {_describe(best, decimals)}")
        if suggestion.status == "ambiguous":
            lines.append("# AMBIGUOUS: the next candidate ranks equal; choose the right one")
        for other in suggestion.candidates[1:1 + MAX_ALTERNATIVES]:
            lines.append(f"# alternative: {other.value.command}: {_describe(other, decimals)}")
        if len(suggestion.candidates) > 1 + MAX_ALTERNATIVES:
            lines.append(f"# … and {len(suggestion.candidates) - 1 - MAX_ALTERNATIVES} more")
        lines.append("")
    if unmatched:
        lines.append("# Unmatched printed numbers (no binding written):")
        for suggestion in unmatched:
            lines.append(f"# {suggestion.claim_id} {_string(suggestion.claimed)} in {_string(suggestion.quote)}: "
                         f"{unmatched_note(suggestion)}")
    return "\n".join(lines).rstrip("\n") + "\n"


def _binding_id(suggestion: Suggestion, suggestions: list[Suggestion]) -> str:
    same = [s for s in suggestions if s.claim_id == suggestion.claim_id]
    return f"{suggestion.claim_id}-{same.index(suggestion) + 1}"


def write_draft(pack_path: str | Path, log_path: str | Path, output: str | Path) -> tuple[list[Suggestion], Path]:
    """Read the pack and the log, suggest, and write the draft; refuse to replace a file."""
    from audit.pack import load_pack
    from claims.extract import extract_claims
    from claims.suggest import run_values, suggest
    from engine.runs.errors import InputError, RefusalError
    from engine.runs.outdir import file_output, publish_file
    from engine.runs.runlog import read_records

    output = Path(output)
    if output.exists():
        raise RefusalError(f"{output} exists; bind never replaces a file (choose another --output)")
    if not Path(log_path).is_file():
        raise InputError("no such log file", path=log_path)
    pack = load_pack(pack_path)
    suggestions = suggest(extract_claims(pack), run_values(read_records(log_path)))
    text = draft_claims_toml(suggestions, pack_path=str(pack_path), log_path=str(log_path))
    if any(s.best is not None for s in suggestions):
        with file_output(output, holder="bind"):  # checked again under the output lock (engine.runs.outdir)
            publish_file(output, text)            # linked into place: never replaces a file
    return suggestions, output
