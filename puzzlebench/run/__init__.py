"""The run stage: from a planned job to result rows.

``jobs`` (a :class:`~.jobs.Job` of the grid), ``runner`` (one run resolved, built, solved, decoded and
checked; a solver name is resolved by :mod:`puzzlebench.solvers.configs`), ``worker`` (the solver's child
process and its time limit; :mod:`puzzlebench.system.processes` ends it with its parent), ``batch`` (a
job's runs in fair order, as chunk-file lines), ``validation`` (an instance set's files, reference
solutions and uniqueness, for ``validate`` and ``import``).
"""
