"""The result of a consistency run: one ``Check`` per relation tested, grouped by kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GENERIC = "generic"
R03_LAYOUT = "R03 layout"
# kinds that relate two or more printed numbers; a range check alone is not a relation
RELATION_KINDS = ("aggregate", "difference", "granularity", "repeated", "prose",
                  "grim", "effect", "lost-gained",
                  "percent-of-baseline", "ratio-to-baseline", "prose-ratio", "prose-points", "code-count",
                  "prose-fraction", "prose-change", "prose-times", "prose-shares", "prose-rank", "prose-sum")
STATUSES = ("pass", "fail", "skip")


@dataclass
class Check:
    check_id: str
    group: str            # the check's kind: aggregate, difference, granularity, range, repeated, prose, …
    subset: str
    status: str           # pass | fail | skip
    arithmetic: str       # the cells used and the arithmetic, or the reason for a skip
    line: int | None = None
    origin: str = GENERIC  # generic | R03 layout
    locations: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.group if self.origin == GENERIC else f"{self.origin} {self.group}"

    def as_dict(self) -> dict[str, Any]:
        return {"check_id": self.check_id, "group": self.group, "subset": self.subset,
                "status": self.status, "arithmetic": self.arithmetic, "line": self.line,
                "origin": self.origin, "locations": list(self.locations)}


def make_check(kind: str, check_id: str, ok: bool | None, arithmetic: str, line: int | None,
               locations: tuple[str, ...] = ()) -> Check:
    """A generic check: ``ok`` None is a skip (``arithmetic`` then says why)."""
    status = "skip" if ok is None else ("pass" if ok else "fail")
    return Check(f"{kind}:{check_id}", kind, "", status, arithmetic, line, GENERIC, locations)


@dataclass
class ConsistencyReport:
    path: str
    tasks: dict[str, int]
    requirements: dict[str, int]
    count_sources: dict[str, str]
    tables: list[Any]                 # R03-layout view of every table (kind, subset, line)
    checks: list[Check]
    n_tables: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status == "fail"]

    @property
    def skipped(self) -> list[Check]:
        return [c for c in self.checks if c.status == "skip"]

    def counts(self, origin: str | None = None) -> dict[str, int]:
        checks = [c for c in self.checks if origin is None or c.origin == origin]
        return {s: sum(1 for c in checks if c.status == s) for s in STATUSES}

    def counts_by_kind(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for check in self.checks:
            out.setdefault(check.kind, dict.fromkeys(STATUSES, 0))[check.status] += 1
        return out

    @property
    def relations_checked(self) -> int:
        """How many relations between printed numbers (every kind but ``range``) passed or failed."""
        return sum(1 for c in self.checks if c.group in RELATION_KINDS and c.status != "skip")

    @property
    def checkable(self) -> bool:
        """True when at least one check ran (passed or failed): a relation between printed numbers
        or a range check of a column's values; False only when nothing at all was checkable."""
        return any(c.status != "skip" for c in self.checks)

    def exit_code(self, strict: bool = False) -> int:
        """1 on any failure (or, with strict, any skip); 3 when no check at all could run; else 0."""
        if self.failed:
            return 1
        if not self.checkable:
            return 3
        if strict and self.skipped:
            return 1
        return 0
