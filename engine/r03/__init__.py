"""The R03 obligation-aware reranker.

Owns: ``benchmark`` (the R02-style benchmark reader), ``coverage`` (facets, objective, greedy
selection), ``freeze`` (judgment barrier, immutable freeze), ``oracle``, ``metrics`` (R03 metrics and rendering) and ``pipeline`` (``r03 prepare`` /
``r03 evaluate``). Conventions in docs/r03.md.

May import: ``engine.runs``; ``engine.retrieval.metrics`` (pooled nDCG), ``engine.encoder``
(requirement vectors when none are supplied) and ``engine.stats.bootstrap`` (the paired
bootstrap, shared with ``evaluate``).
"""
