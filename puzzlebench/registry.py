"""Plug-in registries: formulations and solver adapters register themselves here.

A formulation is a function ``(puzzle) -> Model`` in any module of the top-level
``formulations/`` folder, decorated with :func:`formulation`.  A solver adapter
is a function ``(model, options) -> SolverResult`` in ``puzzlebench/solvers/``,
decorated with :func:`solver`.  Dropping in a module is all it takes: the
folders are scanned on first use.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from .errors import PuzzleError
from .puzzles import PUZZLE_NAMES


def applies_to_every_puzzle(puzzle) -> bool:
    """every puzzle of its type"""
    return True


@dataclass(frozen=True)
class FormulationInfo:
    """A registered formulation.  ``applies(puzzle)`` is False for the puzzles it is not made
    for (its docstring says which it takes); their runs are ``skipped`` records."""

    puzzle: str
    name: str
    description: str
    build: Callable
    applies: Callable[[object], bool] = applies_to_every_puzzle

    def not_applicable(self, puzzle) -> str | None:
        """Why the formulation does not apply to ``puzzle``, or None when it does."""
        if self.applies(puzzle):
            return None
        takes = " ".join((self.applies.__doc__ or "").split()) or "some puzzles"
        return f"formulation {self.name} does not apply to this puzzle: it takes {takes}"

    @property
    def constraints(self) -> str:
        """The docstring: the exact constraints in math."""
        return (self.build.__doc__ or "").strip()


@dataclass(frozen=True)
class SolverInfo:
    name: str
    description: str
    solve: Callable
    version: Callable[[], str]
    kind: str  # "mip" or "cp"


_FORMULATIONS: dict[tuple[str, str], FormulationInfo] = {}
_SOLVERS: dict[str, SolverInfo] = {}
_loaded = {"formulations": False, "solvers": False}


def formulation(puzzle: str, name: str, description: str, applies: Callable[[object], bool] | None = None):
    """Register ``build(puzzle) -> Model`` as formulation ``name`` of ``puzzle``.

    ``applies(puzzle) -> bool``, when given, says which puzzles the formulation takes;
    its docstring ("puzzles with lines of at most 18 cells") is the reason their
    runs are skipped."""
    if puzzle not in PUZZLE_NAMES:
        raise ValueError(f"unknown puzzle {puzzle!r}")

    def register(build):
        key = (puzzle, name)
        if key in _FORMULATIONS and _FORMULATIONS[key].build is not build:
            raise ValueError(f"formulation {puzzle}/{name} is registered twice")
        _FORMULATIONS[key] = FormulationInfo(puzzle, name, " ".join(description.split()), build,
                                             applies or applies_to_every_puzzle)
        return build
    return register


def solver(name: str, *, version: Callable[[], str], description: str, kind: str = "mip"):
    """Register ``solve(model, options) -> SolverResult`` as solver ``name``."""
    def register(solve):
        _SOLVERS[name] = SolverInfo(name, " ".join(description.split()), solve, version, kind)
        return solve
    return register


def _load(package: str) -> None:
    if _loaded[package]:
        return
    pkg = importlib.import_module(f"puzzlebench.{package}")
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
    _loaded[package] = True


def formulations(puzzle: str | None = None) -> list[FormulationInfo]:
    _load("formulations")
    return [f for key, f in sorted(_FORMULATIONS.items()) if puzzle in (None, f.puzzle)]


def get_formulation(puzzle: str, name: str) -> FormulationInfo:
    _load("formulations")
    try:
        return _FORMULATIONS[(puzzle, name)]
    except KeyError:
        known = ", ".join(f.name for f in formulations(puzzle)) or "none"
        raise PuzzleError(f"unknown formulation {name!r} for {puzzle} (known: {known})") from None


def solvers() -> list[SolverInfo]:
    _load("solvers")
    return [_SOLVERS[k] for k in sorted(_SOLVERS)]


def get_solver(name: str) -> SolverInfo:
    _load("solvers")
    try:
        return _SOLVERS[name]
    except KeyError:
        raise PuzzleError(f"unknown solver {name!r} (known: {', '.join(sorted(_SOLVERS))})") from None
