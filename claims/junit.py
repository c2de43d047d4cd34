"""``verify --junit FILE``: the verdicts as a JUnit XML report for CI dashboards.

Shape (the common JUnit schema, as read by Jenkins, GitLab and GitHub test reporters)::

    <testsuites name="chapter-audit verify" tests="N" failures="F" errors="0">
      <testsuite name="CLAIMS.toml" tests="N" failures="F" errors="0" skipped="0">
        <testcase classname="EXPERIMENT" name="BINDING-ID">
          <failure type="MISMATCH" message="claimed 0.889, reproduced 0.888438 ...">details</failure>
        </testcase>
      </testsuite>
    </testsuites>

One test case per binding, in file order; every verdict except ``MATCH`` is a failure whose
``type`` is the verdict and whose message carries the claimed and reproduced values and the
note (``NO RUN``, ``MISSING KEY``, ``CHANGED`` …). No times or timestamps are written, so the same
verdicts give the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

SUITES_NAME = "chapter-audit verify"
# characters XML 1.0 cannot hold even as references (https://www.w3.org/TR/xml/#charsets)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: Any) -> str:
    """``value`` as text XML can hold: a control character (a quote's ``\\u0001`` or terminal
    escape) is written as ``\\x01``; ElementTree wrote it raw, so the report did not parse and the
    next ``--junit`` refused to replace it as "not a chapter-audit JUnit report"."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", str(value))


def _failure_message(verdict: Any, reproduced: str) -> str:
    text = f"{verdict.status}: claimed {verdict.claimed.text}, reproduced {reproduced}"
    if verdict.difference is not None:
        text += f" (difference {verdict.difference:+.2e}, tolerance {verdict.claimed.tolerance:.2e})"
    if verdict.note:
        text += f"; {verdict.note}"
    return text


def junit_xml(verdicts: list[Any], claims_path: str | Path) -> str:
    """The JUnit XML document (module docstring) as text with an XML declaration."""
    from claims.verify import format_reproduced

    failures = sum(not v.ok for v in verdicts)
    counts = {"tests": str(len(verdicts)), "failures": str(failures), "errors": "0"}
    suites = ET.Element("testsuites", {"name": SUITES_NAME, **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": xml_text(claims_path), **counts, "skipped": "0"})
    for verdict in verdicts:
        binding = verdict.binding
        case = ET.SubElement(suite, "testcase", {"classname": xml_text(binding.experiment),
                                                 "name": xml_text(binding.binding_id)})
        reproduced = format_reproduced(verdict.reproduced)
        if verdict.ok:
            continue
        failure = ET.SubElement(case, "failure", {"type": verdict.status,
                                                 "message": xml_text(_failure_message(verdict, reproduced))})
        failure.text = xml_text("\n".join([
            f"quote: {binding.quote}", f"claimed: {verdict.claimed.text}", f"reproduced: {reproduced}",
            f"key: {binding.result or ''} {binding.key}".rstrip(), f"run: {verdict.run_id or 'none'}",
            f"verdict: {verdict.status}" + (f" ({verdict.note})" if verdict.note else "")]))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def is_junit_report(path: Path) -> bool:
    """Whether ``path`` holds a report this module wrote (which ``--junit`` may replace)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return False
    return root.tag == "testsuites" and root.get("name") == SUITES_NAME


def check_junit_target(target: str | Path) -> None:
    """RefusalError if ``target`` exists and is not a report this module wrote."""
    from engine.runs.errors import RefusalError

    target = Path(target)
    if target.exists() and not is_junit_report(target):
        raise RefusalError(f"{target}: exists and is not a chapter-audit JUnit report; not replaced")


def hold_junit_target(target: str | Path) -> None:
    """Check ``--junit`` before anything runs and hold its output lock until :func:`write_junit`
    (or the process ends): a second ``verify`` writing the same file meanwhile is refused, naming
    this one (engine.runs.outdir)."""
    import atexit

    from engine.runs.outdir import file_output

    check_junit_target(target)
    held = file_output(Path(target), holder="verify --junit", may_replace=is_junit_report, flag="--junit")
    held.__enter__()
    _HELD_TARGETS[str(Path(target))] = held
    atexit.register(_release, str(Path(target)))


_HELD_TARGETS: dict[str, Any] = {}


def _release(target: str) -> None:
    held = _HELD_TARGETS.pop(target, None)
    if held is not None:
        held.__exit__(None, None, None)


def write_junit(verdicts: list[Any], claims_path: str | Path, target: str | Path) -> None:
    """Write the report; an existing file that is not one of our reports is never replaced."""
    from engine.runs.outdir import publish_file

    try:
        check_junit_target(target)
        target = Path(target)
        publish_file(target, junit_xml(verdicts, claims_path), replace=target.exists() and is_junit_report(target))
    finally:
        _release(str(Path(target)))
