"""Plug-in registries: formulations and solver adapters register themselves here.

A formulation is a function ``(puzzle) -> Model`` in any module of the top-level
``formulations/`` folder, decorated with :func:`formulation`.  A solver adapter
is a subclass of :class:`puzzlebench.solvers.base.Adapter` in ``puzzlebench/solvers/``,
decorated with :func:`adapter` (the contract: its steps, one shared solve), or a
function ``(model, options) -> SolverResult`` decorated with :func:`solver` (the
older form, still taken).  Dropping in a module is all it takes: the
folders are scanned on first use.  Installed packages add theirs through the
entry-point groups ``puzzlebench.formulations`` and ``puzzlebench.solvers``:
each entry point names a module (or an object in one) that registers on import,
and is loaded after the folder.

A function adapter may also give ``options(settings)``, which applies a mapping of solver
options to a fresh solver object and raises ValueError naming the first one the
solver refuses (used to check a configuration before any job starts), and
``mps(path, options)``, which solves an MPS file with the solver's own reader.
``all_different=True`` declares an adapter that reads ``Model.all_different`` (the
groups are part of the model it receives, and so of the model's identity in its runs), and
``products=True`` one that reads ``Model.products`` likewise.
An :class:`~puzzlebench.solvers.base.Adapter` gives all of these as its methods and attributes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import PuzzleError
from .plugins import entry_points
from .kinds import get_kind


def applies_to_every_puzzle(puzzle) -> bool:
    """Every puzzle of the formulation's type."""
    return True


@dataclass(frozen=True)
class FormulationInfo:
    """A registered formulation.  ``applies(puzzle)`` is False for the puzzles it is not made
    for; ``takes`` says which it takes (the reason their runs are ``skipped`` records)."""

    puzzle: str
    name: str
    description: str
    build: Callable
    applies: Callable[[object], bool] = applies_to_every_puzzle
    relaxation: bool = False  # its grids may break a rule: the checker's rejections are expected
    takes: str = "every puzzle of its type"  # the puzzles ``applies`` accepts, in words
    constraints: str = ""  # the exact model in math (``formulations --json``)

    def not_applicable(self, puzzle) -> str | None:
        """Why the formulation does not apply to ``puzzle``, or None when it does."""
        if self.applies(puzzle):
            return None
        return f"formulation {self.name} does not apply to this puzzle: it takes {self.takes}"


@dataclass(frozen=True)
class SolverInfo:
    name: str
    description: str
    solve: Callable
    version: Callable[[], str]
    kind: str  # "mip" or "cp"
    check_options: Callable[[dict], None] | None = None
    mps: Callable | None = None  # (path, SolveOptions) -> SolverResult, the solver's own MPS reader
    all_different: bool = False  # reads Model.all_different (MIP adapters ignore the declaration)
    adapter: object | None = None  # the Adapter behind solve (registered as a class): run.worker splits its solve
    products: bool = False  # reads Model.products

    @property
    def declarations(self) -> tuple[str, ...]:
        """The kinds of ``Model`` declaration this solver reads (part of its runs' model identity)."""
        return tuple(name for name, reads in (("all_different", self.all_different), ("products", self.products))
                     if reads)

    def installed(self) -> str | None:
        """None when the solver's library loads, else why it does not."""
        try:
            self.version()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
        return None


_FORMULATIONS: dict[tuple[str, str], FormulationInfo] = {}
_SOLVERS: dict[str, SolverInfo] = {}
_loaded = {"formulations": False, "solvers": False}


def formulation(puzzle: str, name: str, description: str, applies: Callable[[object], bool] | None = None, *,
                takes: str | None = None, relaxation: bool = False, constraints: str = ""):
    """Register ``build(puzzle) -> Model`` as formulation ``name`` of ``puzzle``.

    ``applies(puzzle) -> bool``, when given, says which puzzles the formulation takes, and
    ``takes`` says it in words ("puzzles with lines of at most 18 cells"): the reason the
    others' runs are skipped (a formulation with ``applies`` and no ``takes`` is refused).  ``relaxation=True`` declares a model that leaves out some of
    the puzzle's rules: the checker rejecting its grids is then expected, not an anomaly.
    ``constraints`` states the exact model in math (``puzzlebench formulations --json`` lists it; the
    build's docstring is documentation only).
    """
    get_kind(puzzle)  # an unknown puzzle: the error naming the known kinds
    if applies is not None and not (takes or "").strip():
        raise ValueError(f"formulation {puzzle}/{name}: applies= needs takes=, the puzzles it takes in words")

    def register(build):
        key = (puzzle, name)
        if key in _FORMULATIONS and _FORMULATIONS[key].build is not build:
            raise ValueError(f"formulation {puzzle}/{name} is registered twice")
        limits = {"applies": applies, "takes": " ".join(takes.split())} if applies is not None else {}
        _FORMULATIONS[key] = FormulationInfo(puzzle, name, " ".join(description.split()), build,
                                             relaxation=relaxation, constraints=constraints.strip(), **limits)
        return build
    return register


SOLVER_KINDS = ("mip", "cp")


def solver(name: str, *, version: Callable[[], str], description: str, kind: str = "mip",
           options: Callable[[dict], None] | None = None, mps: Callable | None = None,
           all_different: bool = False, products: bool = False):
    """Register ``solve(model, options) -> SolverResult`` as solver adapter ``name``.

    ``kind`` is "mip" or "cp" (a constraint-programming reference); ``options``,
    ``mps``, ``all_different`` and ``products`` are described in the module docstring.
    """
    if kind not in SOLVER_KINDS:
        raise ValueError(f"solver {name!r}: kind must be one of {', '.join(SOLVER_KINDS)}, not {kind!r}")

    def register(solve):
        _SOLVERS[name] = SolverInfo(name, " ".join(description.split()), solve, version, kind,
                                    options, mps, all_different, products=products)
        return solve
    return register


def adapter(cls):
    """Register the :class:`~puzzlebench.solvers.base.Adapter` subclass ``cls`` (an instance of it)
    as solver adapter ``cls.name``."""
    if cls.kind not in SOLVER_KINDS:
        raise ValueError(f"solver {cls.name!r}: kind must be one of {', '.join(SOLVER_KINDS)}, not {cls.kind!r}")
    instance = cls()
    _SOLVERS[cls.name] = SolverInfo(cls.name, " ".join(cls.description.split()), instance.solve, instance.version,
                                    cls.kind, instance.check_options,
                                    instance.solve_mps if instance.reads_mps else None, cls.all_different, instance,
                                    cls.products)
    return cls


def _load(package: str) -> None:
    if _loaded[package]:
        return
    pkg = importlib.import_module(f"puzzlebench.{package}")
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            _import(pkg, info.name)
    _loaded[package] = True
    for point in sorted(entry_points(group=f"puzzlebench.{package}"), key=lambda p: p.name):
        try:
            point.load()  # importing the module registers its plug-ins
        except (Exception, SystemExit) as exc:  # noqa: BLE001 -- sys.exit(0) on import too: one line, exit 2
            raise PuzzleError(f"entry point {point.name!r} ({point.value}) of group "
                              f"puzzlebench.{package} failed to load: {type(exc).__name__}: {exc}") from None


def _import(pkg, module: str) -> None:
    try:
        importlib.import_module(f"{pkg.__name__}.{module}")
    except SystemExit as exc:  # a module that exits on import would end the command silently
        raise PuzzleError(f"module {pkg.__name__}.{module} called sys.exit({exc.code!r}) on import",
                          path=str(Path(pkg.__path__[0]) / f"{module}.py")) from None


def _find(table: dict, key, package: str, named: str):
    """``table[key]`` or None, loading no more than it takes: first the one folder module named for it
    (a kind's formulations in ``<puzzle>.py``, an adapter in ``<name>.py``, ``-`` written ``_``), then,
    if that does not register it, the whole folder and the entry points.  A one-puzzle ``solve`` so
    imports one kind's formulations and one adapter."""
    if key not in table and not _loaded[package]:
        module = named.replace("-", "_")
        pkg = importlib.import_module(f"puzzlebench.{package}")
        if module.isidentifier() and not module.startswith("_") \
                and any((Path(folder) / f"{module}.py").is_file() for folder in pkg.__path__):
            _import(pkg, module)
    if key not in table:
        _load(package)
    return table.get(key)


def formulations(puzzle: str | None = None) -> list[FormulationInfo]:
    _load("formulations")
    return [f for key, f in sorted(_FORMULATIONS.items()) if puzzle in (None, f.puzzle)]


def registration_order(puzzle: str) -> list[str]:
    """The names of ``puzzle``'s formulations in the order the whole folder registers them: the
    folder's modules by name, each in its order of definition, then the entry points -- whichever
    module a lookup (:func:`_find`) imported first (:func:`formulations` sorts by name)."""
    _load("formulations")
    pkg = importlib.import_module("puzzlebench.formulations")
    folder = sorted(f"{pkg.__name__}.{info.name}" for info in pkgutil.iter_modules(pkg.__path__))
    rank = {module: k for k, module in enumerate(folder)}
    mine = [info for (kind, _), info in _FORMULATIONS.items() if kind == puzzle]
    return [info.name for info in sorted(mine, key=lambda info: rank.get(info.build.__module__, len(rank)))]


def get_formulation(puzzle: str, name: str) -> FormulationInfo:
    found = _find(_FORMULATIONS, (puzzle, name), "formulations", puzzle)
    if found is None:
        known = ", ".join(f.name for f in formulations(puzzle)) or "none"
        raise PuzzleError(f"unknown formulation {name!r} for {puzzle} (known: {known})")
    return found


def solvers() -> list[SolverInfo]:
    _load("solvers")
    return [_SOLVERS[k] for k in sorted(_SOLVERS)]


def loaded_solver(name: str) -> SolverInfo | None:
    """The solver registered as ``name`` if its module is loaded already, else None: it loads nothing, so a
    thread other than the main one may ask (the solver process's receiving thread)."""
    return _SOLVERS.get(name)


def get_solver(name: str) -> SolverInfo:
    found = _find(_SOLVERS, name, "solvers", name)
    if found is None:
        raise PuzzleError(f"unknown solver {name!r} (known: {', '.join(sorted(_SOLVERS))})")
    return found
