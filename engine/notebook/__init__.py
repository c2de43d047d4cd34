"""Recorded notebook runs: execute a Jupyter notebook in a fresh kernel, one logged run.

Owns: ``run`` (the ``notebook run`` experiment: nbclient execution, ``outputs.json``) and
``outputs`` (what each cell printed, as a bindable result). Conventions in docs/notebook.md.

May import: ``engine.runs`` only (and the third-party nbformat, nbclient and, through the
kernel, ipykernel).
"""
