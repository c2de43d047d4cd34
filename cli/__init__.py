"""The ``chapter-audit`` command line (typer): the only package that imports typer.

``root`` holds the app; each area registers its commands from its own module (``sandbox``,
``encode``, ``budget``, ``r03``, ``chapter`` for fingerprint/claims/consistency, ``verify``,
``sources``, ``report`` for report and demo); ``common`` maps library errors to exit codes and
one ``FILE:LINE: message`` line, and holds the habits every command shares (``--format
text|json``, ``emit_json``); ``root`` adds ``--version``, ``-h`` and ``--progress/--no-progress``.
Commands parse arguments and call library functions; nothing outside this package imports it.
"""

from cli.root import app, main

__all__ = ["app", "main"]
