"""Analysis of the results store: statistics, tables, figures and summary.md.

``run_analysis(runs_path, out_dir)`` writes everything; the modules hold the
parts: ``outcomes`` (what a run counts as), ``stats`` (pure statistics),
``tables``, ``significance``, ``figures`` and ``report``.
"""

from .pipeline import run_analysis

__all__ = ["run_analysis"]
