"""Markdown templates shipped as package data (read with importlib.resources)."""
