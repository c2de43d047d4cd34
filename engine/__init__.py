"""Reproducible retrieval-evaluation engine behind chapter-audit.

Subpackages, one subsystem each (import rules in docs/DEVELOPING.md, enforced by
tests/test_layout.py):

* ``runs``: the shared run machinery (errors, hashing, file readers, manifests and run ids,
  the execution log, all-or-nothing output directories, versions, bundled fixtures). It
  imports nothing else from the project.
* ``retrieval``: the L03 sandbox (tokeniser, corpus, index, BM25, tie rule, fusion,
  reranker, Recall/NDCG, TREC formats, the sandbox pipeline).
* ``encoder``: the local all-MiniLM-L6-v2 on onnxruntime.
* ``budget``: the chapter-15 evidence budgets (Count, Characters, MMR).
* ``r03``: the R03 obligation-aware reranker (coverage, freeze and barrier, oracle, bootstrap).
* ``ledger``: the W03 acquisition ledger.

``experiments`` registers every runnable experiment once (entry point, parameters, result
names, whether a claims file may re-run it); the CLI and ``verify --rerun`` both call through it.
"""
