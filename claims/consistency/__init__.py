"""Consistency of a page's (or a chapter's) own numbers: statcheck / GRIM in spirit.

Inspired by statcheck (Nuijten et al. 2016) — recompute what a page reports from the other
numbers it reports — and by the GRIM test (Brown & Heathers 2017). One check per module, each
stating its tolerance rule: ``aggregate``, ``difference``, ``granularity``, ``ranges``,
``repeated``, ``prose``; ``r03_layout`` holds the layout-specific extras for the R03 results
page (seed 000); ``cells`` the printed-precision rule they share; ``context`` what a table
measures; ``page`` runs them all; ``report`` renders the result.
"""

from claims.consistency.model import Check, ConsistencyReport
from claims.consistency.page import check_chapter, check_results_page, check_text
from claims.consistency.r03_layout import parse_counts, read_tables
from claims.consistency.report import format_report, no_relation_message

__all__ = ["Check", "ConsistencyReport", "check_chapter", "check_results_page", "check_text",
           "format_report", "no_relation_message", "parse_counts", "read_tables"]
