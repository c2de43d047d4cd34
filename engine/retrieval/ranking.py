"""The tie rule used everywhere: score descending, then document id ascending.

Stated once here (README "Conventions"). Scores are compared exactly as floats; two
documents tie only when their scores are bit-for-bit equal.
"""

from __future__ import annotations

from collections.abc import Mapping


def order_by_score(scores: Mapping[str, float]) -> list[tuple[str, float]]:
    """``[(doc, score)]`` sorted by score descending, equal scores by doc id ascending."""
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
