"""Analysis of the results store: statistics, tables, figures and summary.md.

``run_analysis(runs_path, out_dir)`` (in ``pipeline``) writes everything; the
other modules hold the parts: ``outcomes`` (what a run counts as), ``stats``
(pure statistics), ``tables``, ``significance``, ``formatting`` (tables as
CSV, Markdown and LaTeX), ``figures`` and ``report`` (summary.md).
"""

from .pipeline import run_analysis

__all__ = ["run_analysis"]
