"""The store stage: the records of runs and the results store they are gathered into.

``records`` (the data classes of a run's row), ``provenance`` (solver versions, options and
machine), ``chunks`` (a job's chunk file and its integrity), ``results`` (the typed schema,
each run's one ``outcome``, ``gather`` and ``read_store``).  The names of ``results`` are
importable from here (``puzzlebench.store.read_store``, ``puzzlebench.store.MANIFEST``), as
before the stage was a package; they load on first use, so importing ``records`` alone (as a
solver's child process does) does not load pandas and pyarrow.
"""

from .._moved import forwarding

__getattr__, __dir__ = forwarding(__name__, ".results")
