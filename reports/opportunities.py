"""Runnable experiment opportunities for report section 6.

A gap the pack lists, or a measured-result sentence no claims file binds, is matched against
what this toolkit can run (:data:`CAPABILITIES`: ``sandbox run``, ``budget run``, ``r03``,
``notebook run``) by cue words, first capability in order that fires wins. A match names the
exact command with every parameter the chapter states (:func:`stated_parameters`: depth, unit
cap, content cap, MMR weights, cutoff k, hybrid alpha, candidate depth, rerank weight; each
found by a fixed pattern in the chapter text, numbers written as words included), the inputs it
still needs as upper-case placeholders, and success/failure criteria that name the printed
numbers to compare. Unstated parameters are left at the command's default and said to be
defaults. Where nothing fires, the row stays "not yet specified". Nothing here runs anything:
every such row is UNRUN.

Word cues, not a model: a gap that only speaks of downstream task outcomes, user studies or
answers matches nothing (:data:`OUT_OF_REACH`), because no command here measures them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "twenty": 20, "fifty": 50, "hundred": 100}
_N = r"(\d[\d,]*|" + "|".join(WORD_NUMBERS) + r")"
_F = r"(\d*\.\d+)"

OUT_OF_REACH = re.compile(r"\b(task outcomes?|downstream|user stud(?:y|ies)|answer quality|human)\b", re.I)

# parameter -> patterns over the chapter text (first match wins); group 1 (and 2) are the values
PARAMETER_PATTERNS: dict[str, tuple[str, ...]] = {
    "depth": (rf"(?<!candidate )\bdepth[- ](?:of )?{_N}\b", rf"\btop[- ]{_N} candidates\b"),
    "unit_cap": (rf"\bunit cap (?:of )?{_N}\b", rf"\b{_N} (?:whole )?units per (?:query|packet)\b"),
    "char_cap": (rf"\b{_N}[- ]character (?:allowance|cap|budget|limit)\b",
                 rf"\b(?:allowance|cap|budget) of {_N} characters\b"),
    "relevance_weight": (rf"(?<![\d.]){_F} relevance weight\b", rf"=\s*{_F}\s*/\s*r\b"),
    "redundancy_weight": (rf"(?<![\d.]){_F} redundancy weight\b", rf"/\s*r\s*[-−]\s*{_F}"),
    "k": (rf"\bcutoff (?:of |k\s*=\s*)?{_N}\b", r"@(\d+)\b"),
    "hybrid_alpha": (rf"\bhybrid weight (?:of |α\s*=\s*)?{_F}", rf"\b(?:alpha|α)\s*(?:=|of)\s*{_F}"),
    "candidate_depth": (rf"\bcandidate depth (?:of )?{_N}\b",),
    "rerank_weight": (rf"\brerank(?:ing)? weight (?:of )?{_F}",),
}


@dataclass(frozen=True)
class StatedParameter:
    name: str
    value: Any
    quote: str


def _number(text: str) -> int | float:
    text = text.lower().replace(",", "")
    if text in WORD_NUMBERS:
        return WORD_NUMBERS[text]
    return float(text) if "." in text else int(text)


@lru_cache(maxsize=8)
def stated_parameters(text: str) -> dict[str, StatedParameter]:
    """Every parameter of :data:`PARAMETER_PATTERNS` the chapter states, with the words stating it."""
    found: dict[str, StatedParameter] = {}
    for name, patterns in PARAMETER_PATTERNS.items():
        for pattern in patterns:
            match = re.search(pattern, text, re.I)
            if match:
                found[name] = StatedParameter(name, _number(match.group(1)), match.group(0))
                break
    return found


@dataclass(frozen=True)
class Capability:
    """A command of this toolkit that can answer a question about the chapter."""

    name: str
    cues: re.Pattern[str]
    command: str
    parameters: tuple[tuple[str, str], ...]            # (parameter name, option)
    needed: tuple[tuple[str, str], ...]                # (option or positional placeholder, what it is)
    output: str = "--output DIR"


CAPABILITIES: tuple[Capability, ...] = (
    Capability("budget", re.compile(r"\b(budget|allowance|content cap|unit cap|character cap|evidence packet|"
                                    r"selector|MMR|redundancy)\b", re.I),
               "chapter-audit budget run",
               (("depth", "--depth"), ("unit_cap", "--unit-cap"), ("char_cap", "--char-cap"),
                ("relevance_weight", "--relevance-weight"), ("redundancy_weight", "--redundancy-weight")),
               (("--corpus CORPUS.jsonl", "the candidate documents (title and text)"),
                ("--run RUN.tsv", "the ranked candidates as a TREC run"),
                ("--qrels QRELS.txt", "the relevance judgements"))),
    Capability("r03", re.compile(r"\b(coverage|requirements?|obligations?|oracle)\b", re.I),
               "chapter-audit r03 prepare / r03 evaluate", (),
               (("--benchmark BENCHMARK_DIR", "tasks, pools, grades and agreed requirements"),
                ("--freeze FREEZE_DIR", "a new directory for the frozen manifest"))),
    Capability("sandbox", re.compile(r"\b(BM25|hybrid|fusion|recall(?:@\d+)?|NDCG(?:@\d+)?)\b", re.I),
               "chapter-audit sandbox run",
               (("k", "--k"), ("candidate_depth", "--candidate-depth"), ("hybrid_alpha", "--hybrid-alpha"),
                ("rerank_weight", "--rerank-weight")),
               (("--corpus CORPUS.jsonl", "the documents"), ("--topics TOPICS.jsonl", "the queries"),
                ("--qrels QRELS.txt", "the judgements"), ("--dense-run RUN.tsv", "the supplied run"),
                ("--dense-metadata METADATA.json", "the supplied run's metadata"))),
    Capability("notebook", re.compile(r"\b(notebook|colab|ipynb)\b", re.I),
               "chapter-audit notebook run", (),
               (("NOTEBOOK.ipynb", "the notebook file, downloaded"),)),
)


SCOPE_OF = {"budget": "budget run", "r03": "r03 evaluate", "sandbox": "sandbox run", "notebook": "notebook run"}


def answerable(capability: Capability, text: str, claim: bool = False) -> bool:
    """Whether the command computes what ``text`` is about (``engine.experiments.CLAIM_SCOPES``): no
    excluded method is named, and a claim names one of its metrics, a gap one of its methods or
    metrics. A BM25 sandbox run does not reproduce a dense retriever's number; "resource
    requirements" is not requirement coverage."""
    from engine.experiments import CLAIM_SCOPES

    scope = CLAIM_SCOPES.get(SCOPE_OF.get(capability.name, ""))
    if scope is None:
        return False

    def names(patterns: tuple[str, ...]) -> bool:
        return any(re.search(rf"(?<!\w){p}(?!\w)", text, re.I) for p in patterns)

    if names(scope.excludes):
        return False
    return names(scope.metrics) if claim else (names(scope.methods) or names(scope.metrics))


def match_capability(text: str, claim: bool = False) -> Capability | None:
    """The first capability whose cues the text contains and whose scope answers it (``claim``:
    the text is a measured-result sentence, which must name a metric the command computes),
    unless it is out of reach."""
    if OUT_OF_REACH.search(text):
        return None
    for capability in CAPABILITIES:
        if capability.cues.search(text) and answerable(capability, text, claim):
            return capability
    return None


def command_line(capability: Capability, stated: dict[str, StatedParameter], notebook: str = "") -> tuple[str, str]:
    """(the exact command, a note saying which values the chapter states and which are defaults)."""
    from engine.experiments import EXPERIMENTS

    if capability.name == "r03":
        return ("chapter-audit r03 prepare --benchmark BENCHMARK_DIR --freeze FREEZE_DIR; then chapter-audit "
                "r03 evaluate --benchmark BENCHMARK_DIR --freeze FREEZE_DIR --output DIR",
                "seed 129300 and 10,000 draws are the defaults")
    if capability.name == "notebook":
        return f"chapter-audit notebook run {notebook or 'NOTEBOOK.ipynb'} --output DIR --timeout 600", ""
    registered = EXPERIMENTS[capability.command.removeprefix("chapter-audit ")]
    parts = [capability.command] + [needed for needed, _ in capability.needed] + [capability.output]
    from_chapter, defaults = [], []
    for name, option in capability.parameters:
        if name in stated:
            value = stated[name].value
            parts.append(f"{option} {value}")
            from_chapter.append(f"{option} from “{stated[name].quote}”")
        else:
            defaults.append(f"{option} {registered.parameter(name).default}")
    note = "; ".join(filter(None, [
        ("stated by the chapter: " + ", ".join(from_chapter)) if from_chapter else "",
        ("not stated, left at the default: " + ", ".join(defaults)) if defaults else ""]))
    return " ".join(parts), note


@dataclass(frozen=True)
class Opportunity:
    capability: Capability
    method: str
    success: str
    failure: str


def opportunity(text: str, chapter_text: str, numbers: list[str], notebook: str = "") -> Opportunity | None:
    """The runnable experiment for a gap or claim text, or None (stays "not yet specified")."""
    capability = match_capability(text)
    if capability is None:
        return None
    return opportunity_for(capability, chapter_text, numbers, notebook)


def opportunity_for(capability: Capability, chapter_text: str, numbers: list[str],
                    notebook: str = "") -> Opportunity:
    """Method, success and failure criteria of one capability run (module docstring)."""
    command, note = command_line(capability, stated_parameters(chapter_text), notebook)
    needed = "; ".join(f"{placeholder} ({what})" for placeholder, what in capability.needed)
    method = f"`{command}`; inputs still needed: {needed}" + (f"; {note}" if note else "")
    printed = ", ".join(numbers)
    if capability.name == "notebook":
        success = ("the run is logged ok and the numbers it prints, bound with pattern bindings, match "
                   + (f"the chapter's {printed}" if printed else "the chapter's printed figures"))
        failure = "the run is logged failed (failing cell named), or a bound printed number differs"
    elif printed:
        success = (f"a logged ok run whose bound results reproduce {printed} at their printed precision (the "
                   "chapter's printed numbers, except where a logged run contradicts one: then the run's value)")
        failure = f"any of {printed} differs beyond its printed precision, or the run fails"
    else:
        success = "a logged ok run whose bound results answer the question"
        failure = "the run fails, or its results contradict the chapter"
    return Opportunity(capability, method, success, failure)


def notebook_material(pack: Any, attribute: Callable[..., Any]) -> tuple[str, str] | None:
    """(label, URL) of the first associated notebook of the pack, if any."""
    for item in attribute(pack, "associated_material", []) or []:
        url = attribute(item, "url") or ""
        label = attribute(item, "label") or ""
        if url.endswith(".ipynb") or re.search(r"\b(notebook|colab)\b", f"{label} {url}", re.I):
            return label, url
    return None
