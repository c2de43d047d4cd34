"""Spreadsheet-safe CSV cells.

Spreadsheet programs (Excel, LibreOffice Calc, Google Sheets) evaluate a cell whose text starts
with ``=``, ``+``, ``-`` or ``@`` as a formula, so text copied from an input (a document title, a
topic id) could run one when a CSV output is opened. Following OWASP's "CSV injection" advice,
such a text cell is prefixed with a single quote ``'``, which these programs show as text.
A cell that is a number as written (``-0.25``, ``+3``, ``-1e-05``) is left alone, so numeric
columns stay numeric; non-string values (ints, floats) are never changed.
"""

from __future__ import annotations

import math
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@")


def neutralise_cell(value: Any) -> Any:
    """``value`` unchanged unless it is text starting with ``= + - @`` that is not a number."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        if math.isfinite(float(value)):
            return value
    except ValueError:
        pass
    return "'" + value
