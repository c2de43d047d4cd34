"""The draft claims TOML that ``chapter-audit bind`` writes from :mod:`claims.suggest`.

Layout: a header stating the counts; one ``[experiment.*]`` table per logged experiment
(command, parameters and input hashes by role) that holds a best candidate: its ``match``
table is the run's numeric and word parameters and its ``inputs`` table the sha256 of each
input by role, so ``verify`` reads that run and no other experiment's; its ``rerun`` steps are
rebuilt from the logged invocation (:mod:`claims.rerun_steps`); one ``[[binding]]`` per printed number with a
matching value, its alternatives as comments; every *ambiguous* number (its best two candidates
rank equal) as a comment listing the candidates, never silently chosen; and, at the end, every
unmatched number as a comment with its nearest value, never as a binding. Strings are TOML basic strings (JSON escapes are valid TOML).
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


def experiment_key(value: RunValue) -> tuple[Any, ...]:
    """What identifies a value's experiment: command, match parameters, input hashes by role."""
    return (value.command, value.match, value.inputs)


def experiment_ids(suggestions: list[Suggestion],
                   records: list[dict[str, Any]] | None = None) -> dict[tuple[Any, ...], str]:
    """An id per experiment of the best candidates: ``sandbox-run``; experiments of one command
    that differ in their inputs are named after the files that differ (``sandbox-run-qrels-strict``)
    when the log says which, else numbered (``sandbox-run-2``)."""
    groups: dict[tuple[Any, ...], RunValue] = {}
    for suggestion in suggestions:
        if suggestion.best is not None:
            groups.setdefault(experiment_key(suggestion.best.value), suggestion.best.value)
    ids: dict[tuple[Any, ...], str] = {}
    taken: set[str] = set()
    for group, value in groups.items():
        slug = _slug(value.command)
        peers = [v for v in groups.values() if v.command == value.command]
        name = slug
        if len(peers) > 1:
            suffix = _distinguishing_files(value, peers, records or [])
            name = f"{slug}-{suffix}" if suffix else slug
        n, candidate = 1, name
        while candidate in taken:
            n += 1
            candidate = f"{name}-{n}"
        taken.add(candidate)
        ids[group] = candidate
    return ids


def _distinguishing_files(value: RunValue, peers: list[RunValue], records: list[dict[str, Any]]) -> str:
    """The stems of the input files whose hashes differ among experiments of one command."""
    import re

    roles = sorted({role for peer in peers for role, _ in peer.inputs})
    differing = [role for role in roles if len({dict(peer.inputs).get(role) for peer in peers}) > 1]
    record = next((r for r in records if r.get("run_id") == value.run_id and r.get("ended_at") == value.ended_at),
                  None)
    inputs = ((record or {}).get("invocation") or {}).get("inputs") or {}
    stems = [Path(inputs[role]["path"]).stem for role in differing if role in inputs]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(stems)).strip("-.")[:60]


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


def draft_claims_toml(suggestions: list[Suggestion], *, pack_path: str, log_path: str,
                      records: list[dict[str, Any]] | None = None, claims_path: str | Path | None = None) -> str:
    """The draft claims file's text (module docstring); ``records`` (the log's) and
    ``claims_path`` (where the draft goes) let it write runnable ``rerun`` steps."""
    bound = [s for s in suggestions if s.status == "bound"]
    ids = experiment_ids(bound, records)
    unmatched = [s for s in suggestions if s.best is None]
    ambiguous = [s for s in suggestions if s.status == "ambiguous"]
    lines = [
        f"# Draft claims file written by `chapter-audit bind` from {pack_path} and the log {log_path}.",
        "# Every binding is a suggestion: check that its key is the figure the sentence means.",
        f"# {len(suggestions)} printed numbers: {len(bound)} bound, {len(ambiguous)} ambiguous "
        f"(equally ranked candidates listed, not bound), {len(unmatched)} unmatched (not bound; listed at the end).",
        "",
    ]
    groups: dict[str, RunValue] = {}
    for suggestion in bound:
        value = suggestion.best.value
        groups.setdefault(ids[experiment_key(value)], value)
    for exp_id, value in groups.items():
        results = [s.best.value.result for s in bound if ids[experiment_key(s.best.value)] == exp_id]
        default_result = max(sorted(set(results)), key=results.count)
        lines += [f"[experiment.{exp_id}]",
                  f"command = {_string(value.command)}",
                  f"result = {_string(default_result)}",
                  f"description = {_string(f'logged run {value.run_id} ({value.ended_at})')}"]
        lines += _rerun_lines(value, records, claims_path, log_path)
        if value.match:
            lines.append(f"[experiment.{exp_id}.match]")
            lines += [f"{name} = {_value(item)}" for name, item in value.match]
        if value.inputs:
            lines.append(f"[experiment.{exp_id}.inputs]")
            lines += [f"{_key(role)} = {_string(digest)}" for role, digest in value.inputs]
        lines.append("")
    for suggestion in bound:
        best = suggestion.best
        exp_id = ids[experiment_key(best.value)]
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
        for other in suggestion.candidates[1:1 + MAX_ALTERNATIVES]:
            lines.append(f"# alternative: {other.value.command}: {_describe(other, decimals)}")
        if len(suggestion.candidates) > 1 + MAX_ALTERNATIVES:
            lines.append(f"# … and {len(suggestion.candidates) - 1 - MAX_ALTERNATIVES} more")
        lines.append("")
    if ambiguous:
        lines.append("# Ambiguous printed numbers (equally ranked candidates; no binding written, choose one):")
        for suggestion in ambiguous:
            decimals = _decimals(suggestion.claimed)
            top = [c for c in suggestion.candidates if c.score == suggestion.candidates[0].score]
            lines.append(f"# {suggestion.claim_id} {_string(suggestion.claimed)} in {_string(suggestion.quote)}:")
            lines += [f"#   {c.value.command} run {c.value.run_id}: {_describe(c, decimals)}"
                      for c in top[:1 + MAX_ALTERNATIVES]]
        lines.append("")
    if unmatched:
        lines.append("# Unmatched printed numbers (no binding written):")
        for suggestion in unmatched:
            lines.append(f"# {suggestion.claim_id} {_string(suggestion.claimed)} in {_string(suggestion.quote)}: "
                         f"{unmatched_note(suggestion)}")
    return "\n".join(lines).rstrip("\n") + "\n"


def _key(name: str) -> str:
    """A TOML key: bare when it can be, else quoted."""
    import re

    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _string(name)


def _rerun_lines(value: RunValue, records: list[dict[str, Any]] | None, claims_path: str | Path | None,
                 log_path: str) -> list[str]:
    """``rerun = [[...], ...]`` rebuilt from the value's logged run, or a comment saying why not."""
    from claims.rerun_steps import NoSteps, rerun_steps

    record = next((r for r in reversed(records or []) if r.get("run_id") == value.run_id
                   and r.get("ended_at") == value.ended_at and r.get("status") == "ok"), None)
    if record is None or claims_path is None:
        return ["# rerun = [[...]]  # add the argument list(s) that re-run it, for `verify --rerun` (docs/verify.md)"]
    try:
        steps = rerun_steps(record, records or [], claims_path, log_path)
    except NoSteps as exc:
        return [f"# rerun = [[...]]  # not rebuilt: {exc}; add the argument list(s) that re-run it (docs/verify.md)"]
    body = ",\n         ".join("[" + ", ".join(_string(arg) for arg in step) + "]" for step in steps)
    return [f"rerun = [{body}]"]


def _binding_id(suggestion: Suggestion, suggestions: list[Suggestion]) -> str:
    same = [s for s in suggestions if s.claim_id == suggestion.claim_id]
    return f"{suggestion.claim_id}-{same.index(suggestion) + 1}"


def write_draft(pack_path: str | Path, log_path: str | Path, output: str | Path) -> tuple[list[Suggestion], Path]:
    """Read the pack and the log, suggest, and write the draft; refuse to replace a file."""
    from audit.pack import load_pack
    from claims.extract import extract_claims
    from claims.suggest import run_values, suggest
    from claims.verify import read_log_records
    from engine.runs.errors import RefusalError
    from engine.runs.outdir import file_output, publish_file

    output = Path(output)
    if output.exists():
        raise RefusalError(f"{output}: exists; bind never replaces a file (choose another --output)")
    records = read_log_records(log_path)  # a missing or empty log: one line, exit 2
    pack = load_pack(pack_path)
    # bind always reads the kinds by the rules (not the claims/report default, the model): its
    # conservative contract is pinned by bench_bind and the W03 bindings
    suggestions = suggest(extract_claims(pack, kinds="rules"), run_values(records, log_path))
    text = draft_claims_toml(suggestions, pack_path=str(pack_path), log_path=str(log_path),
                             records=records, claims_path=output)
    if any(s.status == "bound" for s in suggestions):
        with file_output(output, holder="bind"):  # checked again under the output lock (engine.runs.outdir)
            publish_file(output, text)            # linked into place: never replaces a file
    return suggestions, output
