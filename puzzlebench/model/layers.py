"""Models written elsewhere -- in a modelling layer (PuLP, Pyomo) or a model file -- as
:class:`~puzzlebench.model.Model` arrays.

A formulation a user has already written in PuLP or Pyomo runs here unchanged: it builds its model
as it always did and returns ``from_pulp(problem, decode)`` or ``from_pyomo(model, decode)``; a
model written to a file (MPS, LP) is read by ``from_mps(path, decode)``, and :func:`model_files`
registers a formulation whose model of each puzzle is a file of a folder.  The result is an
ordinary ``Model``: every adapter, the checker, the identity code and the store take it as they take
a native one, so a PuLP model of the same constraints as a native formulation has the same
fingerprint (rows and columns in any order) and the harness says so.

Each is read through its public interface: PuLP's ``variables()``, ``constraints`` and
``objective``; Pyomo's active ``Var``, ``Constraint`` and ``Objective`` components, each body
through ``generate_standard_repn``; a model file through HiGHS's reader (``readModel``,
``getLp``).  The columns are the variables in the layer's (file's) order, named as it prints them
(PuLP ``x_0_0_1``, Pyomo ``x[0,0,1]``: ``col_names``); the rows its constraints (``row_names``);
the seconds the conversion took are the model's ``conversion_time`` (a run records them beside
``build_time``, which includes them).  A row ``lower <= a x <= upper`` takes ``==``, ``<=``,
``>=`` and ranged constraints (a constant term in a body moves to the bounds); a bound left open is
infinite; binaries are integer columns in [0, 1]; a fixed Pyomo variable is a column of its rows
whose two bounds are its value (as a PuLP variable with equal bounds).  A constant objective term is the model's
``offset``; a maximised objective is minimised as its negation (objective and offset negated).

``decode`` receives ``{variable name: value}`` for a solution and returns the grid; a name the
model lacks raises :class:`UnknownVariable` (a KeyError) naming it.  What the arrays cannot say is
refused with a ValueError naming the constraint or variable: a nonlinear or quadratic term, PuLP's
SOS sets, more than one active Pyomo objective, a semi-continuous column.  In a run, either is that
run's ``skipped`` record with the one line in its message (:mod:`puzzlebench.run.runner`), never the
job's end.  A layer that is not installed is one line naming the extra that installs it
(:func:`layer`).
"""

from __future__ import annotations

import importlib
import re
import string
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..errors import PuzzleError
from ..registry import formulation
from .arrays import INF, Model


class UnknownVariable(KeyError):
    """A name ``decode`` asked for that the model has no variable of (a KeyError of one plain line)."""

    def __str__(self) -> str:
        return self.args[0]


class _Values(dict):
    """{variable name: value} of a solution; a name the model lacks is an :class:`UnknownVariable`
    naming it and the model's first variable (the pattern its names follow)."""

    def __missing__(self, name):
        first = next(iter(self), None)
        raise UnknownVariable(f"the model has no variable {name!r} (it has {len(self)}, the first named {first!r})")


def _named_decoder(names: list[str], decode: Callable[[Mapping[str, float]], np.ndarray]):
    """``decode`` of a name -> value mapping as a Model's decode of a solution vector."""
    def decode_vector(x: np.ndarray) -> np.ndarray:
        return decode(_Values(zip(names, np.asarray(x).tolist())))
    return decode_vector


def _model(name: str, col_names: list[str], lower, upper, integer, rows, objective, offset: float,
           maximise: bool, decode, start: float) -> Model:
    """The Model of columns (bounds, integrality) and ``rows``: (row name, column indices,
    coefficients, lower, upper) each; ``objective`` a dense vector; its ``conversion_time`` the
    seconds since ``start`` (``time.perf_counter()`` when the conversion began)."""
    indptr = np.cumsum([0] + [len(cols) for _, cols, _, _, _ in rows])
    indices = np.fromiter((j for _, cols, _, _, _ in rows for j in cols), dtype=np.int64, count=indptr[-1])
    data = np.fromiter((a for _, _, coefs, _, _ in rows for a in coefs), dtype=float, count=indptr[-1])
    A = sp.csr_matrix((data, indices, indptr), shape=(len(rows), len(col_names)))
    sign = -1.0 if maximise else 1.0
    return Model(A, np.array([r[3] for r in rows], dtype=float), np.array([r[4] for r in rows], dtype=float),
                 np.asarray(lower, dtype=float), np.asarray(upper, dtype=float), np.asarray(integer, dtype=bool),
                 sign * np.asarray(objective, dtype=float), _named_decoder(col_names, decode),
                 offset=sign * float(offset), name=name, col_names=list(col_names),
                 row_names=[r[0] for r in rows], conversion_time=time.perf_counter() - start)


def _bound(value, infinite: float) -> float:
    return infinite if value is None else float(value)


EXTRAS = {"pyomo": "pyomo", "gurobipy": "commercial"}
"""The optional modelling layers: top-level package -> the extra of ``pyproject.toml`` that installs it."""


def layer(module: str):
    """The modelling layer's module ``module`` (``"pyomo.environ"``), imported; if its package is not
    installed, a PuzzleError of one line naming the extra to install (:data:`EXTRAS`)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        package = module.partition(".")[0]
        if exc.name is None or exc.name.partition(".")[0] != package:
            raise  # the layer is installed; something it imports is not
        extra = EXTRAS.get(package)
        hint = f": pip install -e '.[{extra}]'" if extra else ""
        raise PuzzleError(f"the modelling layer {package} is not installed{hint}") from None


def from_pulp(problem, decode: Callable[[Mapping[str, float]], np.ndarray]) -> Model:
    """The :class:`Model` of the PuLP ``LpProblem`` ``problem`` (see the module docstring)."""
    import pulp
    start = time.perf_counter()
    if sos := [*(getattr(problem, "sos1", None) or {}), *(getattr(problem, "sos2", None) or {})]:
        raise ValueError(f"PuLP problem {problem.name}: SOS constraint(s) {', '.join(map(str, sos))} "
                         f"have no array form here")
    variables = problem.variables()
    column = {var.name: j for j, var in enumerate(variables)}
    lower = [_bound(var.lowBound, -INF) for var in variables]
    upper = [_bound(var.upBound, INF) for var in variables]
    integer = [var.cat == pulp.LpInteger for var in variables]
    rows = []
    for name, constraint in _pulp_constraints(problem):
        cols = [column[var.name] for var in constraint]
        coefs = [float(a) for a in constraint.values()]
        rhs = -float(constraint.constant)  # a x + constant (sense) 0
        sense = constraint.sense
        low = rhs if sense in (pulp.LpConstraintEQ, pulp.LpConstraintGE) else -INF
        high = rhs if sense in (pulp.LpConstraintEQ, pulp.LpConstraintLE) else INF
        rows.append((name, cols, coefs, low, high))
    objective = np.zeros(len(variables))
    offset = 0.0
    if problem.objective is not None:
        for var, a in problem.objective.items():
            objective[column[var.name]] += float(a)
        offset = float(problem.objective.constant)
    return _model(problem.name, [var.name for var in variables], lower, upper, integer, rows, objective, offset,
                  problem.sense == pulp.LpMaximize, decode, start)


def _pulp_constraints(problem) -> list[tuple[str, object]]:
    """(name, constraint) of each of the problem's constraints, in order: PuLP 3 calls
    ``constraints()`` (a list, PuLP 4's only form), PuLP 2 holds them in the ``constraints`` dict."""
    if callable(problem.constraints):
        return [(constraint.name, constraint) for constraint in problem.constraints()]
    return list(problem.constraints.items())


def from_pyomo(model, decode: Callable[[Mapping[str, float]], np.ndarray]) -> Model:
    """The :class:`Model` of the Pyomo ``ConcreteModel`` ``model`` (see the module docstring)."""
    core, repn = layer("pyomo.core"), layer("pyomo.repn")
    Constraint, Objective, Var, maximize, value = core.Constraint, core.Objective, core.Var, core.maximize, core.value
    generate_standard_repn = repn.generate_standard_repn
    start = time.perf_counter()

    variables = list(model.component_data_objects(Var, descend_into=True))
    column = {id(var): j for j, var in enumerate(variables)}
    lower, upper, integer = [], [], []
    for var in variables:
        if var.fixed:
            lower.append(float(var.value))
            upper.append(float(var.value))
        else:
            lower.append(_bound(var.lb, -INF))
            upper.append(_bound(var.ub, INF))
        integer.append(var.is_integer() or var.is_binary())

    def linear(expr, kind: str, name: str):
        repn = generate_standard_repn(expr, compute_values=True, quadratic=False)
        if repn.nonlinear_expr is not None or repn.quadratic_vars:
            raise ValueError(f"Pyomo model {model.name}: {kind} {name} is not linear")
        cols = [column[id(var)] for var in repn.linear_vars]
        return cols, [float(a) for a in repn.linear_coefs], float(value(repn.constant))

    # a fixed variable stays a column of its rows, with both bounds its value (Pyomo's standard form would
    # fold it into the constants): unfixed while the rows are read, fixed again after
    fixed = [var for var in variables if var.fixed]
    for var in fixed:
        var.unfix()
    try:
        rows = []
        for constraint in model.component_data_objects(Constraint, active=True, descend_into=True):
            name = constraint.name
            cols, coefs, constant = linear(constraint.body, "constraint", name)
            row_lower, row_upper = constraint.lower, constraint.upper
            low = -INF if row_lower is None else float(value(row_lower)) - constant
            high = INF if row_upper is None else float(value(row_upper)) - constant
            rows.append((name, cols, coefs, low, high))
        objectives = list(model.component_data_objects(Objective, active=True, descend_into=True))
        if len(objectives) > 1:
            raise ValueError(f"Pyomo model {model.name}: {len(objectives)} active objectives "
                             f"({', '.join(o.name for o in objectives[:3])}); a model has one")
        objective = np.zeros(len(variables))
        offset, maximise = 0.0, False
        if objectives:
            cols, coefs, offset = linear(objectives[0].expr, "objective", objectives[0].name)
            np.add.at(objective, cols, coefs)
            maximise = objectives[0].sense == maximize
    finally:
        for var in fixed:
            var.fix()
    return _model(model.name, [var.name for var in variables], lower, upper, integer, rows, objective, offset,
                  maximise, decode, start)


def from_mps(path, decode: Callable[[Mapping[str, float]], np.ndarray]) -> Model:
    """The :class:`Model` of the model file ``path`` as HiGHS reads it (MPS, free or fixed, or CPLEX
    LP, by its suffix; see the module docstring).  A file HiGHS cannot read is a ValueError with
    HiGHS's error line."""
    import highspy

    from ..system.capture import captured_output
    start = time.perf_counter()
    with captured_output() as log:  # HiGHS prints its banner and errors on the C-level stdout
        highs = highspy.Highs()
        status = highs.readModel(str(path))
    if status == highspy.HighsStatus.kError:
        errors = [line for line in log.text.splitlines() if line.startswith("ERROR")]
        raise ValueError(f"{path}: HiGHS cannot read it: {(errors or ['no reason given'])[-1]}")
    lp = highs.getLp()
    matrix = lp.a_matrix_
    kind = sp.csc_matrix if matrix.format_ == highspy.MatrixFormat.kColwise else sp.csr_matrix
    A = kind((np.asarray(matrix.value_, dtype=float), np.asarray(matrix.index_), np.asarray(matrix.start_)),
             shape=(lp.num_row_, lp.num_col_))
    types = np.fromiter(map(int, lp.integrality_), dtype=np.int64, count=len(lp.integrality_))
    col_names = list(lp.col_names_)
    if (semi := np.flatnonzero(types >= int(highspy.HighsVarType.kSemiContinuous))).size:
        raise ValueError(f"{path}: column {col_names[semi[0]]} is semi-continuous or semi-integer: "
                         f"no array form here")
    integer = types == int(highspy.HighsVarType.kInteger) if types.size else np.zeros(lp.num_col_, bool)
    sign = -1.0 if lp.sense_ == highspy.ObjSense.kMaximize else 1.0
    return Model(A, np.asarray(lp.row_lower_, dtype=float), np.asarray(lp.row_upper_, dtype=float),
                 np.asarray(lp.col_lower_, dtype=float), np.asarray(lp.col_upper_, dtype=float), integer,
                 sign * np.asarray(lp.col_cost_, dtype=float), _named_decoder(col_names, decode),
                 offset=sign * float(lp.offset_), name=lp.model_name_ or Path(path).stem, col_names=col_names,
                 row_names=list(lp.row_names_), conversion_time=time.perf_counter() - start)


def _column_pattern(columns: str) -> re.Pattern:
    """The regular expression of the column-name pattern ``columns``: ``{r}``, ``{c}`` and ``{k}``
    once each, each a run of digits (a named group), the rest literal."""
    parts, named = [], []
    for literal, name, spec, conversion in string.Formatter().parse(columns):
        parts.append(re.escape(literal))
        if name is not None:
            if name not in ("r", "c", "k") or spec or conversion or name in named:
                raise ValueError(f"column pattern {columns!r}: {{{name}}} is not one of {{r}}, {{c}}, {{k}}")
            named.append(name)
            parts.append(f"(?P<{name}>[0-9]+)")
    if len(named) != 3:
        raise ValueError(f"column pattern {columns!r} must name {{r}}, {{c}} and {{k}} once each")
    return re.compile("".join(parts))


def _cell_grid(shape: tuple[int, int], cells: list[tuple[str, int, int, int]], values: Mapping[str, float]):
    """The grid of a solution: each cell (r, c) the k of its column (name, r, c, k) at 1, else 0."""
    grid = np.zeros(shape, dtype=np.int64)
    for name, r, c, k in cells:
        if values[name] > 0.5:
            grid[r, c] = k
    return grid


def model_files(puzzle: str, name: str, folder, columns: str = "x_{r}_{c}_{k}", suffix: str = ".mps",
                description: str = "") -> Callable:
    """Register formulation ``name`` of the puzzle kind ``puzzle`` whose model of a puzzle is the
    file ``<folder>/<puzzle name><suffix>`` (the name ``puzzle.name``), read by :func:`from_mps`;
    return its build.

    The grid is read from the column names: ``columns`` names the binary column of cell (r, c) and
    digit k -- r and c 0-based, k the value the grid holds (1-based: 1..n for a Sudoku), as
    ``x_{r}_{c}_{k}`` does -- and a cell takes the k of its column at 1 (0 when none is).  Other
    columns (auxiliary variables) are read and ignored.  A puzzle with no file is a
    FileNotFoundError naming the file (in a run, its ``skipped`` record); a file with no column of
    the pattern, or one outside the grid, a ValueError.  The file is the puzzle's by its name only:
    the independent checker judges the grid, so a file of another puzzle gives a ``wrong`` run.
    """
    pattern = _column_pattern(columns)
    folder = Path(folder)

    def build(instance):
        path = folder / f"{instance.name}{suffix}"
        if not path.is_file():
            raise FileNotFoundError(f"no model file {path} for puzzle {instance.name!r}")
        cells: list[tuple[str, int, int, int]] = []
        model = from_mps(path, lambda values: _cell_grid(instance.shape, cells, values))
        cells += [(col, int(m["r"]), int(m["c"]), int(m["k"]))
                  for col in model.col_names if (m := pattern.fullmatch(col))]
        if not cells:
            raise ValueError(f"{path}: no column is named like {columns!r} "
                             f"(the first is {(model.col_names or ['none'])[0]!r})")
        rows, cols = instance.shape
        if outside := next((col for col, r, c, _ in cells if r >= rows or c >= cols), None):
            raise ValueError(f"{path}: column {outside} is outside the {rows} x {cols} grid")
        return model

    formulation(puzzle, name, description=description or (
        f"The model of each puzzle read from {folder}/<puzzle name>{suffix} by HiGHS's reader "
        f"(from_mps); the grid from the columns {columns}."),
        constraints=f"The model written in {folder}/<puzzle name>{suffix}, as the file states it.")(build)
    return build
