"""Building blocks the puzzle kinds share, below them in the import graph: nothing here imports a kind,
a stage (generators, run, solvers, store, analysis) or a dispatcher.

:mod:`.generation` -- a generated puzzle (:class:`~.generation.Generated`), the blank target, the dig-out
loop and the random fill that the kinds' generators build on.
"""
