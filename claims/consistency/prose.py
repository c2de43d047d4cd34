"""Prose against tables: a number in a sentence that names a table's row and column agrees with
the cell.

**Which sentences and cells.** Claim rows (``claims.extract``) whose text holds no ``|`` (table
lines are not prose). A cell is *named* by a sentence when the sentence names its row label and
its column header (every part of a row label joined from several label columns): a label that is a metric (``nDCG@10``) is named by the same metric, cut-off
included; any other label by its text as a whole word (case-insensitive). A column under a
spanning group header (``BEIR › nDCG@10``, audit.htmltable) is named by its last label under its
group (:func:`_column_named`): a sentence naming another group of the table, or no group where
two groups hold that label, never names it. When the cell's metric
comes from its group row, caption or a section heading and another table has the same pair of
labels, the sentence must name that metric too.

**Which numbers.** The sentence's quantities that state a value: not ratios ``k/N``, cut-offs
right after ``@``, signed numbers (``+0.05``; a minus-signed one only when a verb, ``of``, ``=`` or
``:`` introduces it: "reaches an nDCG@10 of −0.700" against a cell −0.050 is compared, where
before any minus sign left the number out), bounds (``< 0.7``, *at most*, *up to*), ranges, multipliers, ``±`` terms, years,
identifiers or parameters (``claims.extract`` roles), and not a change — a number after *by /
than / from / over / vs / gain / drop / increase / decrease / difference / improvement / margin*
or before *points / pp / times / × / higher / lower / more / less / better / worse*. A range ("0.81–0.85",
"between 0.81 and 0.85") is checked as a range: every named cell printed like it lies within it
(:func:`_check_ranges`). Of those,
only numbers printed with the cell's number of decimals, with fewer decimals but at least one (the
cell rounded: ``0.95`` of a cell ``1.000`` is compared and fails, ``0.98`` of ``0.983`` passes; campaign o
found the first unchecked), or as a percentage of a fraction cell (a
cell in [−1, 1]: ``41.85%`` is never compared with a count of 9175040).

**Tolerance.** Both numbers are put on one scale; they agree when their printed intervals meet:
|q − v| ≤ h_q + h_v (+1e−9); at one precision (h_q = h_v) when they overlap, |q − v| < h_q + h_v
(−1e−9), since one value printed twice at one precision gives the same digits (``3`` vs ``2``,
``0.982`` vs ``0.983`` disagree). A named cell passes when any number of the sentence agrees with it.
It fails only when it is the one named cell left unexplained and the sentence holds a comparable
number that agrees with no named cell — leaving out a number followed by a word of another label
of the same table ("160 layers" beside a row "Number of layers": that row's number) and one equal
to the sum of the cell's column (a total: "1000 questions" over 550 + 200 + 250); with several such cells the sentence is skipped as
ambiguous (which number belongs to which cell cannot be told).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.consistency.cells import EPS, Printed, fmt, normalise_label, within
from claims.consistency.context import TableView, metrics_named
from claims.consistency.vocabulary import is_delta
from claims.consistency.model import Check, make_check

KIND = "prose"
CONTEXT_SOURCES = ("group row", "caption", "section heading")


@dataclass(frozen=True)
class Cell:
    view: TableView
    r: int
    c: int
    number: Printed
    factor: float

    @property
    def where(self) -> str:
        return self.view.where(self.r, self.c)


@lru_cache(maxsize=4096)
def _label_test(label: str) -> tuple:
    """How a label is recognised: ("parts", tests) | ("metric", name) | ("text", pattern) | ("never",)."""
    parts = [p for p in label.split(" / ") if p.strip()]
    if len(parts) > 1:
        return ("parts", tuple(_label_test(part) for part in parts))
    label_metrics = metrics_named(label)
    plain = normalise_label(label)
    if len(plain) < 2:
        return ("never",)
    if len(label_metrics) == 1 and len(plain) <= len(label_metrics[0]) + 2:
        return ("metric", label_metrics[0])
    return ("text", re.compile(rf"(?<![\w]){re.escape(plain)}(?![\w])"))


GROUP_SEPARATOR = " › "   # a header under a spanning group header: "BEIR › nDCG@10" (audit.htmltable)


def _group_named(text: str, metrics: list[str], group: str) -> bool:
    """Whether the sentence names a group header (every level of ``A › B``)."""
    return all(_names(text, metrics, _label_test(level)) for level in group.split(GROUP_SEPARATOR))


def _column_named(text: str, metrics: list[str], view: TableView, c: int) -> bool:
    """Whether a sentence names the column ``c`` whose header sits under a group (``BEIR ›
    nDCG@10``): it names the column's last label (``nDCG@10``), and its group, or no group of the
    table while no other group of it holds a column of that last label. A sentence naming another
    group of the table and not this one ("on MS MARCO") never names this column; nor does one that
    names no group when two groups each hold an ``nDCG@10``."""
    group, _, last = view.header[c].rpartition(GROUP_SEPARATOR)
    if not _names(text, metrics, _label_test(last)):
        return False
    if _group_named(text, metrics, group):
        return True
    others = {h.rpartition(GROUP_SEPARATOR)[0] for h in view.header if GROUP_SEPARATOR in h} - {group}
    if any(_group_named(text, metrics, other) for other in others):
        return False
    return not any(GROUP_SEPARATOR in h and i != c and h.rpartition(GROUP_SEPARATOR)[0] != group
                   and normalise_label(h.rpartition(GROUP_SEPARATOR)[2]) == normalise_label(last)
                   for i, h in enumerate(view.header))


def _names(text: str, metrics: list[str], test: tuple) -> bool:
    """Whether a sentence (lower-cased ``text``, its prose ``metrics``) names a label (every part of a
    joined ``A / B`` row label)."""
    if test[0] == "parts":
        return all(_names(text, metrics, part) for part in test[1])
    if test[0] == "metric":
        return test[1] in metrics
    if test[0] == "text":
        return test[1].search(text) is not None
    return False


CHANGE_BEFORE = re.compile(r"\b(?:by|than|from|over|vs\.?|versus|gain|gains|drop|drops|increase|decrease|"
                           r"difference|improvement|delta|margin)\s+(?:of\s+|an?\s+|about\s+|roughly\s+)?$", re.I)
BOUND_BEFORE = re.compile(r"(?:<|>|≤|≥|<=|>=|≲|≳|\bat most|\bat least|\bup to|\bbelow|\babove|\bunder)\s*$", re.I)
NEGATIVE_VALUE_BEFORE = re.compile(r"(?:\b(?:of|is|was|are|were|at|reaches|reached|reach|scores?|scored|gives?|gave|"
                                   r"gets?|got|yields?|yielded|equals?)|[=:])\s*$", re.I)
"""A number with a minus sign is a (negative) value when a verb or ``of`` / ``=`` / ``:`` introduces it
("a correlation of −0.12", "Δ = −0.112"); otherwise a signed number is a change ("(−0.05)")."""
NEXT_WORD = re.compile(r"\s*([A-Za-z][A-Za-z-]{2,})")
CHANGE_AFTER = re.compile(r"^\s*(?:points?|pp\b|percentage|times|×|x\b|higher|lower|more|less|better|worse)", re.I)


def _is_value(sentence: str, q) -> bool:
    """A printed value, not a cut-off, ratio, change, interval, multiplier or parameter."""
    start, end = q.span
    if q.is_ratio or (start > 0 and sentence[start - 1] == "@") or sentence[start:start + 1] in "+±":
        return False
    if sentence[start:start + 1] in "-\u2212" and not NEGATIVE_VALUE_BEFORE.search(sentence[:start]):
        return False   # '(−0.05)', '−0.05 vs BM25': a signed change, not a value
    role = getattr(q, "role", "value")
    if role != "value" or getattr(q, "upper", None) is not None \
            or getattr(q, "is_multiplier", False) or getattr(q, "plus_minus", False):
        return False
    return not (CHANGE_BEFORE.search(sentence[:start]) or CHANGE_AFTER.match(sentence[end:])
                or BOUND_BEFORE.search(sentence[:start]))


def _words(label: str) -> set[str]:
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.findall(r"[a-z][a-z-]{2,}", label.lower())}


def _belongs_elsewhere(sentence: str, q, cell: Cell) -> bool:
    """The number is followed by a word of another label of the cell's table and of neither of the
    cell's own labels ("160 layers" where the table has a row "Number of layers"): it is that
    label's number, not a contradiction of this cell."""
    match = NEXT_WORD.match(sentence, q.span[1])
    if not match:
        return False
    word = next(iter(_words(match.group(1))), "")
    view = cell.view
    own = _words(view.row_label(cell.r)) | _words(view.header[cell.c])
    others = set().union(*(_words(view.row_label(r)) for r in view.data_rows()), *(_words(h) for h in view.header))
    return bool(word) and word in others and word not in own


def _is_column_total(q, cell: Cell) -> bool:
    """The number equals the sum of the cell's column over the table's rows ("a benchmark of 1000
    questions" above a table whose Questions column holds 550, 200 and 250): a total, not this cell."""
    view = cell.view
    column = [view.numbers[r][cell.c] for r in view.data_rows()]
    column = [n for n in column if n is not None]
    if len(column) < 2:
        return False
    total = sum(n.scaled(cell.factor)[0] for n in column)
    half = sum(n.scaled(cell.factor)[1] for n in column)
    qv, qh = _scaled_q(q, cell)
    return within(abs(qv - total), qh + half)


ROUNDED_MIN_DECIMALS = 1
"""A prose number printed with fewer decimals than its cell is compared when it has at least this
many ('0.95' of a cell 1.000, campaign o): a rounding of the cell agrees by the printed-interval rule,
anything else is a contradiction. Whole numbers are left out ('on 50 topics' beside a cell 0.983 is
no print of it)."""


def _comparable(values: list, cell: Cell) -> list:
    """The value quantities printed like the cell (same decimals, fewer decimals but at least
    ``ROUNDED_MIN_DECIMALS`` — the cell rounded —, or a % of a fraction cell)."""
    out = []
    for q in values:
        if q.decimals == cell.number.decimals and q.is_percent == cell.number.percent:
            out.append(q)
        elif ROUNDED_MIN_DECIMALS <= q.decimals < cell.number.decimals and q.is_percent == cell.number.percent:
            out.append(q)  # the cell rounded in prose ('0.95' of a cell 1.000; '0.98' of 0.983 agrees)
        elif (q.is_percent and not cell.number.percent and cell.factor == 1 and q.decimals + 2 >= cell.number.decimals
              and abs(cell.number.value) <= 1):
            out.append(q)  # a percentage of a fraction cell (0.4185 as 41.85%), never of a count (9175040)
    return out


def _scaled_q(q, cell: Cell) -> tuple[float, float]:
    half = 0.5 * 10.0 ** (-q.decimals)
    if q.is_percent and not cell.number.percent:
        return q.value / 100, half / 100
    return q.value * cell.factor, half * cell.factor


def _agrees(q, cell: Cell) -> tuple[bool, float, float]:
    qv, qh = _scaled_q(q, cell)
    cv, ch = cell.number.scaled(cell.factor)
    gap = abs(qv - cv)
    if _same_precision(qh, ch):
        # one value printed twice at one precision prints the same digits: intervals [v − h, v + h)
        # of two different prints only touch, so touching is a contradiction ('3' vs 2, '0.982' vs 0.983)
        return gap < qh + ch - EPS, gap, qh + ch
    return within(gap, qh + ch), gap, qh + ch


def _same_precision(qh: float, ch: float) -> bool:
    """Both half-units equal on the common scale (0.982 and 0.983; 98.2% and 0.983)."""
    return abs(qh - ch) <= EPS * max(1.0, qh, ch)


def _cells(views: list[TableView]) -> list[Cell]:
    cells = []
    for view in views:
        for r in view.data_rows():
            for c in view.numeric_columns():
                number = view.numbers[r][c]
                if number is None or is_delta(view.header[c]):
                    continue
                metric, _ = view.metric_of(r, c)
                cells.append(Cell(view, r, c, number, view.factor(r, c, metric)))
    return cells


def check_prose(claims: list, views: list[TableView]) -> list[Check]:
    cells = _cells(views)
    pairs: dict[tuple[str, str], set[int]] = {}
    for cell in cells:
        key = (normalise_label(cell.view.row_label(cell.r)), normalise_label(cell.view.header[cell.c]))
        pairs.setdefault(key, set()).add(cell.view.index)
    by_labels: dict[tuple[str, str], list[Cell]] = {}
    for cell in cells:
        by_labels.setdefault((cell.view.row_label(cell.r), cell.view.header[cell.c]), []).append(cell)
    tests = {label: _label_test(label) for pair in by_labels for label in pair}
    checks: list[Check] = []
    for claim in claims:
        line = getattr(claim, "line", 0)
        where = claim.location + (f" (line {line})" if line else "")
        sentence = claim.text
        if "|" in sentence or not claim.quantities:
            continue
        text = " ".join(sentence.replace("\u2212", "-").split()).lower()
        sentence_metrics = metrics_named(sentence, prose=True)
        named_labels = {label for label, test in tests.items() if _names(text, sentence_metrics, test)}
        named = []
        for (row, column), group in by_labels.items():
            if row not in named_labels:
                continue
            if GROUP_SEPARATOR in column:   # "BEIR › nDCG@10": its last label, under its own group
                group = [cell for cell in group if _column_named(text, sentence_metrics, cell.view, cell.c)]
            elif column not in named_labels:
                continue
            shared = len(pairs[(normalise_label(row), normalise_label(column))]) > 1
            for cell in group:
                metric, source = cell.view.metric_of(cell.r, cell.c)
                if metric and source in CONTEXT_SOURCES and shared and metric not in sentence_metrics:
                    continue
                named.append(cell)
        named = _in_named_context(named, text)
        if not named:
            continue
        values = [q for q in claim.quantities if _is_value(sentence, q)]
        spans = _ranges(sentence, values) + [_ends(q) for q in claim.quantities if _is_range(sentence, q)]
        in_range = {id(q) for pair in spans for q in pair}
        values = [q for q in values if id(q) not in in_range]
        checks += _check_ranges(claim, where, sentence, named, spans)
        explained = set()
        unmatched = []
        owner = _owners(sentence, named, values, tests)
        for cell in named:
            comparable = _comparable(values, cell)
            agreeing = [q for q in comparable if _agrees(q, cell)[0]]
            swapped = _swapped(cell, agreeing, named, values, owner)
            if swapped is not None:
                q, other = swapped
                checks.append(make_check(KIND, f"{claim.claim_id}:{cell.view.index}:{cell.r}:{cell.c}", False, (
                    f"[{claim.claim_id}] {where}: the sentence gives {q.text!r} to "
                    f"{other.view.row_label(other.r)!r}; the table gives {cell.number.text} to "
                    f"{cell.view.row_label(cell.r)!r} at {cell.where} ✗ (the two rows' values are swapped): {sentence!r}"),
                    cell.view.row_line(cell.r), (where, cell.where)))
                explained.update(id(q) for q in agreeing)
                continue
            explained.update(id(q) for q in agreeing)
            if agreeing:
                q = agreeing[0]
                _, gap, tol = _agrees(q, cell)
                checks.append(make_check(KIND, f"{claim.claim_id}:{cell.view.index}:{cell.r}:{cell.c}", True, (
                    f"[{claim.claim_id}] {q.text!r} vs {cell.number.text} at {cell.where} ✓ "
                    f"(|Δ| {fmt(gap)} ≤ {fmt(tol)})"), cell.view.row_line(cell.r),
                    (claim.location, cell.where)))
            elif comparable:
                unmatched.append((cell, comparable))
        left = [(cell, [q for q in comparable if id(q) not in explained and not _belongs_elsewhere(sentence, q, cell)
                        and not _is_column_total(q, cell)]) for cell, comparable in unmatched]
        left = [(cell, qs) for cell, qs in left if qs]
        if len(left) == 1:
            cell, qs = left[0]
            q = qs[0]
            _, gap, tol = _agrees(q, cell)
            checks.append(make_check(KIND, f"{claim.claim_id}:{cell.view.index}:{cell.r}:{cell.c}", False, (
                f"[{claim.claim_id}] {where}: {q.text!r} vs {cell.number.text} at {cell.where} ✗ "
                f"(|Δ| {fmt(gap)} {'>' if gap > tol + EPS else '≥'} {fmt(tol)}) — the sentence names the row "
                f"and column of this cell: "
                f"{sentence!r}"), cell.view.row_line(cell.r), (where, cell.where)))
        elif len(left) > 1:
            shown = [c.where for c, _ in left[:3]] + ([f"{len(left) - 3} more"] if len(left) > 3 else [])
            checks.append(make_check(KIND, f"{claim.claim_id}:ambiguous", None, (
                f"[{claim.claim_id}] {where}: names {len(left)} cells ({'; '.join(shown)}) and numbers "
                f"that match none of them; which number belongs to which cell cannot be told"), None,
                (where,) + tuple(shown)))
    return checks


RANGE_JOIN = re.compile(r"^\s*(?:[–—-]|to|and)\s*$", re.I)
RANGE_OPEN = re.compile(r"(?:\bfrom|\bbetween)\s+$", re.I)


def _ranges(sentence: str, values: list) -> list[tuple]:
    """Pairs of value quantities printed as one range: "0.81–0.85", "0.81 - 0.85", "between 0.81
    and 0.85" (one precision, the first not above the second); "from 0.81 to 0.85" is a change, not
    a range, and is no value at all here."""
    out = []
    ordered = sorted(values, key=lambda q: q.span[0])
    for lo, hi in zip(ordered, ordered[1:]):
        gap = sentence[lo.span[1]:hi.span[0]]
        if not RANGE_JOIN.match(gap) or lo.decimals != hi.decimals or lo.is_percent != hi.is_percent \
                or lo.value > hi.value:
            continue
        word = gap.strip().lower()
        opened = RANGE_OPEN.search(sentence[:lo.span[0]])
        if word == "and" and not (opened and opened.group(0).strip().lower() == "between"):
            continue
        if word == "to" and not opened:
            continue
        if any(id(lo) in {id(q) for q in pair} for pair in out):
            continue
        out.append((lo, hi))
    return out


@dataclass(frozen=True)
class _End:
    """One end of a range the reader gave as one quantity ('0.80–0.82': value 0.80, upper 0.82)."""

    value: float
    decimals: int
    is_percent: bool
    text: str


def _is_range(sentence: str, q) -> bool:
    """A quantity the reader read as a range of values (``upper`` set; not a bound, not after a change word)."""
    if getattr(q, "upper", None) is None or getattr(q, "role", "value") != "value" or q.is_ratio:
        return False
    start = q.span[0]
    return not (CHANGE_BEFORE.search(sentence[:start]) or BOUND_BEFORE.search(sentence[:start]))


def _ends(q) -> tuple[_End, _End]:
    """The two ends of a range quantity, each printed at the range's precision."""
    low, high = sorted((float(q.value), float(q.upper)))
    return (_End(low, q.decimals, q.is_percent, f"{low:.{q.decimals}f}"),
            _End(high, q.decimals, q.is_percent, f"{high:.{q.decimals}f}"))


def _check_ranges(claim, where: str, sentence: str, named: list[Cell], spans: list[tuple]) -> list[Check]:
    """A range printed beside named cells ("BM25 and hybrid reach nDCG@10 of 0.81–0.85"): each
    named cell printed like the range's ends must lie in [lo − h_lo − h_cell, hi + h_hi + h_cell];
    one sentence with one range only (two ranges: which cells each spans cannot be told, no check).
    Before, the two ends were compared as two values (0.80–0.82 of a cell 0.812: both "disagreed")."""
    if len(spans) != 1:
        return []
    lo, hi = spans[0]
    out = []
    for cell in named:
        if not _comparable([lo], cell):
            continue
        lv, lh = _scaled_q(lo, cell)
        hv, hh = _scaled_q(hi, cell)
        cv, ch = cell.number.scaled(cell.factor)
        ok = lv - lh - ch - EPS <= cv <= hv + hh + ch + EPS
        out.append(make_check(KIND, f"{claim.claim_id}:{cell.view.index}:{cell.r}:{cell.c}:range", ok, (
            f"[{claim.claim_id}] {where}: the range {lo.text}–{hi.text} vs {cell.number.text} at {cell.where} "
            f"{'✓ (within' if ok else '✗ (outside'} [{fmt(lv - lh - ch)}, {fmt(hv + hh + ch)}])"
            + ("" if ok else f": {sentence!r}")), cell.view.row_line(cell.r), (where, cell.where)))
    return out


def _owners(sentence: str, named: list[Cell], values: list, tests: dict) -> dict[int, str]:
    """Which named row label each number is said of, when the sentence names two or more rows
    by their text: the row named nearest before it ("BM25 reaches 0.550 and Hybrid 0.400"), or,
    when the first number comes before any row ("0.550 for BM25 and 0.400 for Hybrid"), the row
    named nearest after it. {id(quantity): row label}; empty when the rows cannot be placed."""
    lowered = sentence.lower()
    mentions: list[tuple[int, str]] = []
    for row in {cell.view.row_label(cell.r) for cell in named}:
        test = tests.get(row)
        if not test or test[0] != "text":
            return {}
        mentions += [(m.start(), row) for m in test[1].finditer(lowered)]
    if len({row for _, row in mentions}) < 2 or not values:
        return {}
    mentions.sort()
    following = min(q.span[0] for q in values) < mentions[0][0]
    owners = {}
    for q in values:
        start = q.span[0]
        if following:
            after = [row for pos, row in mentions if pos > start]
            if after:
                owners[id(q)] = after[0]
        else:
            before = [row for pos, row in mentions if pos < start]
            if before:
                owners[id(q)] = before[-1]
    return owners


def _swapped(cell: Cell, agreeing: list, named: list[Cell], values: list, owner: dict[int, str]):
    """(the number, the other cell) when the sentence gives this cell's value to another named
    row of the same column and that row's value to this one: a swap, never two passes."""
    row = cell.view.row_label(cell.r)
    for q in agreeing:
        said_of = owner.get(id(q))
        if said_of is None or said_of == row:
            continue
        for other in named:
            if other.view is not cell.view or other.c != cell.c or other.view.row_label(other.r) != said_of:
                continue
            if any(owner.get(id(q2)) == row and _agrees(q2, other)[0]
                   for q2 in _comparable(values, other)):
                return q, other
    return None


_CONTEXT_WORD = re.compile(r"[a-z0-9][a-z0-9-]{2,}")


def _context_words(view: TableView) -> set[str]:
    """The words of a table's innermost section heading and its caption (lower case)."""
    table = view.table
    heading = table.section[-1] if getattr(table, "section", None) else ""
    return set(_CONTEXT_WORD.findall(f"{heading} {getattr(table, 'caption', '') or ''}".lower()))


def _in_named_context(named: list[Cell], text: str) -> list[Cell]:
    """Of cells with the same row and column in several tables, those of the tables whose own
    context (section heading, caption) the sentence names: "On NFCorpus, BM25 reaches 0.656" is
    said of the NFCorpus table's BM25 cell, never passed by the TREC-COVID table's. A sentence
    naming no table's own words keeps them all (as before)."""
    sentence_words = set(_CONTEXT_WORD.findall(text))
    groups: dict[tuple[str, str], list[Cell]] = {}
    for cell in named:
        groups.setdefault((normalise_label(cell.view.row_label(cell.r)), normalise_label(cell.view.header[cell.c])),
                          []).append(cell)
    kept: list[Cell] = []
    for cells in groups.values():
        views = {cell.view.index: cell.view for cell in cells}
        if len(views) < 2:
            kept += cells
            continue
        words = {index: _context_words(view) for index, view in views.items()}
        own = {index: ws - set.intersection(*(words[o] for o in words if o != index)) for index, ws in words.items()}
        said = {index for index, ws in own.items() if ws & sentence_words}
        kept += [cell for cell in cells if not said or cell.view.index in said]
    return [cell for cell in named if any(cell is k for k in kept)]
