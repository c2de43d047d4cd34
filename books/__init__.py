"""Whole books: every chapter of a directory audited in one pass, incrementally by fingerprint.

Owns: ``layout`` (the chapters of a book directory, ``book.toml``), ``keys`` (what a chapter's
report depends on), ``chapter`` (one chapter's audit: the task an executor runs), ``index``
(``index.md`` and the self-contained ``index.html``), ``history`` (``passes.jsonl``: the book's
research history) and ``run`` (one pass: lock, reuse, publish, log).

May import: ``reports`` (the report is written by :func:`reports.build.write_report`),
``claims``, ``sources``, ``audit`` and ``engine.runs`` (executor, output directories, log).
It sits between ``reports`` and ``cli``: only the command line imports it.
"""
