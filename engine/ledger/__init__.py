"""The W03 acquisition ledger: declared → discovered → attempted → usable → parsed → admitted.

Owns: ``acquisition`` (the ledger and the ``sandbox ledger`` run). Conventions in docs/sandbox.md.

May import: ``engine.runs``; ``engine.retrieval.text`` (a record is admitted when it has at least
one token under the sandbox tokeniser).
"""
