"""Multiple-comparison corrections of p-values over the compared pairs.

* **Bonferroni** (Dunn 1961, "Multiple comparisons among means", JASA 56): ``min(1, m·p)``;
* **Holm** (1979, "A simple sequentially rejective multiple test procedure", Scand. J.
  Statist. 6): with the m p-values sorted ascending, ``p_(i)`` becomes
  ``max_{j <= i} min(1, (m − j + 1)·p_(j))`` (the step-down adjusted p-values, as
  ``statsmodels.stats.multitest.multipletests(method="holm")`` returns them); equal p-values
  keep their input order.

A family is one measure's p-values over every compared pair (run − baseline). ``None`` (an
undefined p-value) stays ``None`` and is not counted in m.
"""

from __future__ import annotations

from collections.abc import Sequence


def bonferroni(p_values: Sequence[float | None]) -> list[float | None]:
    m = sum(p is not None for p in p_values)
    return [None if p is None else min(1.0, m * p) for p in p_values]


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    defined = [(p, i) for i, p in enumerate(p_values) if p is not None]
    m = len(defined)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(defined, key=lambda item: (item[0], item[1]))):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out
