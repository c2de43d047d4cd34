"""``python -m cli`` runs the command line."""

from cli.root import main

main()
