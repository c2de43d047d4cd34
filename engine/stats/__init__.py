"""Statistics shared by several subsystems: the paired bootstrap and the paired randomisation test.

Owns: ``bootstrap`` (paired percentile bootstrap over tasks/topics, as in R03) and
``randomisation`` (paired sign-flip randomisation test), ``ttest`` (paired Student t-test with
our own t distribution) and ``corrections`` (Bonferroni, Holm). All are pure functions; the
Monte-Carlo ones take their seed and draw count as parameters.

May import: ``engine.runs`` (nothing of it is needed today). Imported by ``engine.r03``
(bootstrap for the R03 contrasts) and ``engine.retrieval`` (``evaluate``'s paired comparison).
"""
