"""Rendering of the seven-section research report."""
