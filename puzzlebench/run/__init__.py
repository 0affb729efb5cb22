"""The run stage: from a planned job to result rows.

``jobs`` (a :class:`~.jobs.Job` of the grid), ``solver_configs`` (a solver name resolved to an
adapter and its options), ``runner`` (one run resolved, built, solved, decoded and checked),
``worker`` and ``processes`` (the solver's child process, its time limit and its end with its
parent), ``batch`` (a job's runs in fair order, as chunk-file lines).
"""
