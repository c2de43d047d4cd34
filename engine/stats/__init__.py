"""Statistics shared by several subsystems: the paired bootstrap and the paired randomisation test.

Owns: ``bootstrap`` (paired percentile bootstrap over tasks/topics, as in R03) and
``randomisation`` (paired sign-flip randomisation test). Both are pure numpy functions with
their seed and draw count as parameters.

May import: ``engine.runs`` (nothing of it is needed today). Imported by ``engine.r03``
(bootstrap for the R03 contrasts) and ``engine.retrieval`` (``evaluate``'s paired comparison).
"""
