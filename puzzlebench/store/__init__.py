"""The store stage: the records of runs and the results store they are gathered into.

``records`` (the data classes of a run's row), ``provenance`` (solver versions, options and
machine), ``chunks`` (a job's chunk file and its integrity), ``results`` (the typed schema,
each run's one ``outcome``, ``gather`` and ``read_store``: ``from puzzlebench.store.results import
read_store``).  The package itself imports nothing, so importing ``records`` alone (as a solver's
child process does) does not load pandas and pyarrow.
"""
