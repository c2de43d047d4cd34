"""The L03 retrieval sandbox and its parts.

Owns: ``text`` (tokeniser), ``corpus`` (corpus and topics), ``index`` and ``bm25``, ``ranking``
(the tie rule), ``fusion`` (min–max hybrid), ``rerank`` (fixed-set reranker), ``metrics``
(Recall, NDCG), ``trec`` (qrels and run files) and ``sandbox`` (the pipeline). Conventions in
docs/sandbox.md.

May import: ``engine.runs``.
"""
