"""The L03 retrieval sandbox and its parts.

Owns: ``text`` (tokeniser), ``corpus`` (corpus and topics), ``index`` and ``bm25`` (``bm25_shards``: top-k over index shards), ``ranking``
(the tie rule), ``fusion`` (min–max hybrid, RRF, CombSUM, CombMNZ), ``rerank`` (fixed-set reranker), ``metrics``
(Recall, NDCG), ``measures`` (the measure notation and every measure family), ``ranked``
(array-backed ranked lists), ``trec`` (qrels and run files), ``trec_arrays`` (vectorised TREC
reading), ``evaluate`` (the ``evaluate`` command) and ``sandbox`` (the pipeline; ``sandbox_shards``: its BM25 on
index shards). Conventions in
docs/sandbox.md and docs/evaluate.md.

May import: ``engine.runs``; ``engine.stats.bootstrap``, ``engine.stats.randomisation``,
``engine.stats.ttest`` and ``engine.stats.corrections`` (``evaluate``'s paired comparison of runs).
"""
