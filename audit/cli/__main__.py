"""``python -m audit.cli`` runs the command line."""

from audit.cli.root import main

main()
