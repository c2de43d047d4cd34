"""Shared run machinery used by every experiment.

Owns: ``errors`` (InputError → exit 2, RefusalError → exit 3), ``hashing`` (sha256, canonical
JSON), ``jsonl`` (JSONL, text and JSON readers naming FILE:LINE), ``manifest`` (run ids from
input hashes and parameters), ``runlog`` (the append-only execution log), ``outdir``
(all-or-nothing output directories, atomic file writes), ``versions``, ``fixtures_path`` and
``executor`` (serial, process pool or Dask: the one way to run independent tasks on workers) and
``progress`` (the one progress display of long steps).

May import: the standard library and numpy only (``executor`` imports the optional ``distributed``
lazily, ``progress`` rich, lazily, on a terminal); never another engine subpackage.
"""
