"""The module paths of the flat layout, kept working after the modules moved into their stages.

Until the package was grouped by stage (``model/``, ``run/``, ``store/``, ``workflow/``), its
modules sat side by side at its root: ``puzzlebench.runner``, ``puzzlebench.records``,
``puzzlebench.config`` and the rest of :data:`MOVED` (and, before that, the kinds' generators sat in
``puzzlebench/generators/``).  Scripts that import them keep working:
:func:`install` puts a finder in ``sys.meta_path`` that answers an old name with the module
object of its new one (the same object: a monkeypatch through either name is seen by both).
``puzzlebench.model``, ``puzzlebench.store`` and ``puzzlebench.workflow`` are packages now; they
give the names of the old modules themselves (``store`` and ``workflow`` through :func:`forwarding`).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

MOVED = {
    "puzzlebench.mps": "puzzlebench.model.mps",
    "puzzlebench.jobs": "puzzlebench.run.jobs",
    "puzzlebench.batch": "puzzlebench.run.batch",
    "puzzlebench.runner": "puzzlebench.run.runner",
    "puzzlebench.worker": "puzzlebench.run.worker",
    "puzzlebench.processes": "puzzlebench.run.processes",
    "puzzlebench.solver_configs": "puzzlebench.run.solver_configs",
    "puzzlebench.records": "puzzlebench.store.records",
    "puzzlebench.chunks": "puzzlebench.store.chunks",
    "puzzlebench.provenance": "puzzlebench.store.provenance",
    "puzzlebench.config": "puzzlebench.workflow.config",
    "puzzlebench.study": "puzzlebench.workflow.study",
    "puzzlebench.cluster": "puzzlebench.workflow.cluster",
    "puzzlebench.sampling": "puzzlebench.workflow.sampling",
    "puzzlebench.sets": "puzzlebench.io.sets",
    # the generators, before they moved into their kinds' folders
    **{f"puzzlebench.generators.{kind}": f"puzzlebench.kinds.{kind}.generator"
       for kind in ("sudoku", "killer", "kakuro", "takuzu")},
}
"""Old module path -> the module it is now."""


class MovedFinder:
    """Imports an old module path of :data:`MOVED` as the module at its new path: a meta path finder
    and its loader (the import protocol's ``find_spec``, ``create_module`` and ``exec_module``;
    ``importlib.abc``'s base classes add nothing to it and cost ``--help`` 10 ms to import)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])  # already initialised: its own name and spec kept

    def exec_module(self, module):
        pass


def install() -> None:
    """Answer the old module paths (once per interpreter)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())


def forwarding(package: str, module: str):
    """``(__getattr__, __dir__)`` for ``package``: its missing names are those of its submodule
    ``module`` (PEP 562), imported on first use, so ``from puzzlebench.store import read_store``
    reads ``puzzlebench.store.results`` without every import of the package loading it."""

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(importlib.import_module(module, package), name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(dir(importlib.import_module(module, package))))

    return __getattr__, __dir__
