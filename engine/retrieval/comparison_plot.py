"""``evaluate --plot FILE.svg``: the per-topic differences of each compared pair, drawn.

One panel per compared pair and measure: the per-topic differences ``run − baseline`` sorted
ascending (one bar a topic), the mean difference as a line and the paired bootstrap 95%
interval as a band. The figure's data are the logged values: the per-topic values of
``metrics.json`` and the interval of ``comparison.json`` of the same run, read back from the
published files.

matplotlib is an optional extra (``pip install 'chapter-audit[plot]'``), imported only here and
only when a plot is asked for; without it ``--plot`` is refused with one line before the run
starts. The SVG is byte-for-byte reproducible: the Agg-free SVG backend, a fixed
``svg.hashsalt``, glyphs as paths, no date or creator in its metadata.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.runs.errors import InputError

HASH_SALT = "chapter-audit"


def require_matplotlib() -> None:
    """InputError naming ``--plot`` when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("needs matplotlib, the optional extra 'plot': pip install 'chapter-audit[plot]'",
                         field="--plot") from None


def pair_differences(metrics: dict[str, Any], comparison: dict[str, Any]) -> list[dict[str, Any]]:
    """For each pair and measure: the sorted per-topic differences and the logged interval."""
    base = comparison["baseline"]
    panels = []
    for pair, per_measure in comparison["pairs"].items():
        other = pair[: -len(f"-minus-{base}")]
        for key in metrics["measures"]:          # the order asked for (comparison.json sorts its keys)
            values = per_measure[key]
            topics = metrics["runs"][base]["per_topic"]
            diffs = sorted(metrics["runs"][other]["per_topic"][t][key] - topics[t][key] for t in topics)
            panels.append({"pair": pair, "measure": key, "differences": diffs, "mean": values["difference"],
                           "ci_low": values["ci_low"], "ci_high": values["ci_high"]})
    return panels


def write_plot(output_dir: Path, target: Path) -> None:
    """Draw the comparison of a published ``evaluate`` output directory into ``target`` (SVG)."""
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    metrics = json.loads((output_dir / "metrics.json").read_text(encoding="utf-8"))
    comparison = json.loads((output_dir / "comparison.json").read_text(encoding="utf-8"))
    panels = pair_differences(metrics, comparison)
    with matplotlib.rc_context({"svg.hashsalt": HASH_SALT, "svg.fonttype": "path", "font.family": "DejaVu Sans",
                                "axes.unicode_minus": False}):
        figure, axes = plt.subplots(len(panels), 1, figsize=(7.0, 2.4 * len(panels)), squeeze=False)
        for axis, panel in zip(axes[:, 0], panels):
            n = len(panel["differences"])
            if panel["ci_low"] is not None and panel["ci_high"] is not None:   # one topic: no interval
                axis.axhspan(panel["ci_low"], panel["ci_high"], color="#9ecae1", alpha=0.6,
                             label=f"{int(comparison['level'] * 100)}% paired bootstrap interval")
            axis.bar(range(1, n + 1), panel["differences"], color="#3182bd", width=0.8, label="per-topic difference")
            axis.axhline(panel["mean"], color="#08306b", linewidth=1.2, label=f"mean {panel['mean']:+.4f}")
            axis.axhline(0.0, color="black", linewidth=0.6)
            axis.set_title(f"{panel['pair']}: {panel['measure']} ({n} topics, sorted)", fontsize=9)
            axis.set_xlabel("topic (sorted by difference)", fontsize=8)
            axis.set_ylabel("difference", fontsize=8)
            axis.tick_params(labelsize=7)
            axis.legend(fontsize=7, loc="upper left")
        figure.tight_layout()
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.partial")
        figure.savefig(temporary, format="svg", metadata={"Date": None, "Creator": None})
        plt.close(figure)
        temporary.replace(target)
