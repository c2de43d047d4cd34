"""The ``chapter-audit`` command line (typer): the only package that imports typer.

``root`` holds the app; each area registers its commands from its own module (``sandbox``,
``encode``, ``budget``, ``r03``, ``chapter`` for fingerprint/claims/consistency, ``verify``,
``sources``, ``report`` for report and demo); ``common`` maps library errors to exit codes.
Commands parse arguments and call library functions; nothing outside this package imports it.
"""

from cli.root import app, main

__all__ = ["app", "main"]
