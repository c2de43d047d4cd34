"""Chapter-15 evidence budgets: Count, Characters and MMR under a character allowance.

Owns: ``units`` (corpus formats and the unit-text rule), ``selection`` (the batched selectors)
and ``run`` (the ``budget run`` pipeline). Conventions in docs/budget.md.

May import: ``engine.runs``; ``engine.retrieval.trec`` (the candidate run is a TREC run file)
and ``engine.encoder`` (without ``--vectors`` the unit texts are encoded).
"""
