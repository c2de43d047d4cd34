"""Research-pack parsing, fingerprints and the chapter-audit command line."""
