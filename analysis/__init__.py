"""Analysis of the results store: statistics, tables, figures and summary.md.

``run_analysis(runs_path, out_dir)`` (in ``pipeline``) writes everything; the
other modules hold the parts: ``outcomes`` (what a run counts as), ``stats``
(pure statistics), ``tables``, ``significance``, ``formatting`` (tables as
CSV, Markdown and LaTeX), ``figures`` and ``report`` (summary.md).
"""

from puzzlebench._tree import check_plugin_folder

check_plugin_folder(__name__, __file__)

from .pipeline import run_analysis  # noqa: E402

__all__ = ["run_analysis"]
