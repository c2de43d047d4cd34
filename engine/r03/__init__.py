"""The R03 obligation-aware reranker.

Owns: ``benchmark`` (the R02-style benchmark reader), ``coverage`` (facets, objective, greedy
selection), ``freeze`` (judgment barrier, immutable freeze), ``oracle``, ``bootstrap`` (paired
bootstrap), ``metrics`` (R03 metrics and rendering) and ``pipeline`` (``r03 prepare`` /
``r03 evaluate``). Conventions in docs/r03.md.

May import: ``engine.runs``; ``engine.retrieval.metrics`` (pooled nDCG) and ``engine.encoder``
(requirement vectors when none are supplied).
"""
