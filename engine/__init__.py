"""Reproducible retrieval-evaluation engine behind chapter-audit.

One algorithm per small module; pipelines (`sandbox`, `budget_run`, `r03`) compose them
and record every run in a manifest and the execution log (`runlog`).
"""
