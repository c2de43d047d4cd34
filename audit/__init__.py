"""The chapter reader: the document model (blocks, tables, sections), research packs, flattened pages and fingerprints.

It sits below everything that reads chapters (claims, reports) and imports only ``engine.runs``;
the command line and the demo live in ``cli``.
"""
