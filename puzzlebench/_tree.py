"""The source tree this package was imported from, and the check that its plug-in folders are that tree's.

In a source tree the packages ``puzzlebench.formulations`` and ``puzzlebench.analysis`` live in the
top-level folders ``formulations/`` and ``analysis/``, beside ``puzzlebench/``; the build backend maps
them there (``[tool.setuptools.package-dir]`` of ``pyproject.toml``), for an install and an editable
install alike.  An editable install maps them to the tree it was made from, so a second checkout run
with the first one's environment would mix its own ``puzzlebench`` with the first one's formulations:
:func:`check_plugin_folder` refuses that with one line naming the install that fixes it.
"""

from __future__ import annotations

from pathlib import Path

from .errors import PuzzleError

TREE = Path(__file__).resolve().parents[1]
"""The folder that holds the ``puzzlebench`` package: in a source tree its root (with ``instances/``,
``config.yaml`` and ``.git``), in a wheel install ``site-packages``."""


def check_plugin_folder(package: str, init_file: str) -> None:
    """Refuse the plug-in package ``package`` (``puzzlebench.formulations``) whose ``__init__.py`` is
    ``init_file`` when :data:`TREE` is a source tree and the package is not its folder."""
    folder = Path(init_file).resolve().parent
    expected = TREE / package.rpartition(".")[2]
    if (TREE / "pyproject.toml").is_file() and folder != expected:  # a source tree, not site-packages
        raise PuzzleError(f"{package} is loaded from {folder}, but puzzlebench from {TREE}: this environment's "
                          f"install is another checkout's; install this one: pip install -e {TREE}")

