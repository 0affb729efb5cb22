"""The plug-in folders of the source tree this package was imported from.

In a source tree the packages ``puzzlebench.formulations`` and ``puzzlebench.analysis``
live in the top-level folders ``formulations/`` and ``analysis/``, beside
``puzzlebench/``.  An install maps them there (``pyproject.toml``), but an editable
install maps them to the tree it was made from: a second clone run with the first
clone's environment would mix its ``puzzlebench`` with the first one's formulations.
:func:`install` puts a finder first in ``sys.meta_path`` that loads them from the
tree ``puzzlebench`` itself came from, whenever that is a source tree (it holds
``pyproject.toml`` and the folder); otherwise (a wheel install) the installed copies
are used.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PLUGIN_FOLDERS = ("formulations", "analysis")
TREE = Path(__file__).resolve().parents[1]
"""The folder that holds the ``puzzlebench`` package: in a source tree its root (with ``instances/``,
``config.yaml`` and ``.git``), in a wheel install ``site-packages``."""


class TreeFinder:
    """Finds ``puzzlebench.<folder>`` in ``<tree>/<folder>`` (their modules follow its ``__path__``):
    a meta path finder (the import protocol's ``find_spec``)."""

    def __init__(self, tree: Path):
        self.packages = {f"puzzlebench.{name}": tree / name for name in PLUGIN_FOLDERS
                         if (tree / name / "__init__.py").is_file()}

    def find_spec(self, fullname, path=None, target=None):
        folder = self.packages.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])


def install() -> None:
    """Load the plug-in folders from :data:`TREE` when it is a source tree."""
    if not (TREE / "pyproject.toml").is_file():
        return
    if not any(isinstance(finder, TreeFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, TreeFinder(TREE))
