"""Models written in a modelling layer (PuLP, Pyomo) as :class:`~puzzlebench.model.Model` arrays.

A formulation a user has already written in PuLP or Pyomo runs here unchanged: it builds its model
as it always did and returns ``from_pulp(problem, decode)`` or ``from_pyomo(model, decode)``.  The
result is an ordinary ``Model``: every adapter, the checker, the identity code and the store take it
as they take a native one, so a PuLP model of the same constraints as a native formulation has the
same fingerprint (rows and columns in any order) and the harness says so.

Each layer is read through its public interface: PuLP's ``variables()``, ``constraints`` and
``objective``; Pyomo's active ``Var``, ``Constraint`` and ``Objective`` components, each body
through ``generate_standard_repn``.  The columns are the layer's variables in its own order, named
as it prints them (PuLP ``x_0_0_1``, Pyomo ``x[0,0,1]``: ``col_names``); the rows its constraints
(``row_names``).  A row ``lower <= a x <= upper`` takes ``==``, ``<=``, ``>=`` and ranged
constraints (a constant term in a body moves to the bounds); a bound the layer leaves open is
infinite; binaries are integer columns in [0, 1].  A constant objective term is the model's
``offset``; a maximised objective is minimised as its negation (objective and offset negated).

``decode`` receives ``{variable name: value}`` for a solution and returns the grid.  What the
arrays cannot say is refused with a ValueError naming the constraint or variable: a nonlinear or
quadratic term, PuLP's SOS sets, more than one active Pyomo objective.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import scipy.sparse as sp

from ..errors import PuzzleError
from .arrays import INF, Model


def _named_decoder(names: list[str], decode: Callable[[Mapping[str, float]], np.ndarray]):
    """``decode`` of a name -> value mapping as a Model's decode of a solution vector."""
    def decode_vector(x: np.ndarray) -> np.ndarray:
        return decode(dict(zip(names, np.asarray(x).tolist())))
    return decode_vector


def _model(name: str, col_names: list[str], lower, upper, integer, rows, objective, offset: float,
           maximise: bool, decode) -> Model:
    """The Model of columns (bounds, integrality) and ``rows``: (row name, column indices,
    coefficients, lower, upper) each; ``objective`` a dense vector."""
    indptr = np.cumsum([0] + [len(cols) for _, cols, _, _, _ in rows])
    indices = np.fromiter((j for _, cols, _, _, _ in rows for j in cols), dtype=np.int64, count=indptr[-1])
    data = np.fromiter((a for _, _, coefs, _, _ in rows for a in coefs), dtype=float, count=indptr[-1])
    A = sp.csr_matrix((data, indices, indptr), shape=(len(rows), len(col_names)))
    sign = -1.0 if maximise else 1.0
    return Model(A, np.array([r[3] for r in rows], dtype=float), np.array([r[4] for r in rows], dtype=float),
                 np.asarray(lower, dtype=float), np.asarray(upper, dtype=float), np.asarray(integer, dtype=bool),
                 sign * np.asarray(objective, dtype=float), _named_decoder(col_names, decode),
                 offset=sign * float(offset), name=name, col_names=list(col_names),
                 row_names=[r[0] for r in rows])


def _bound(value, infinite: float) -> float:
    return infinite if value is None else float(value)


def from_pulp(problem, decode: Callable[[Mapping[str, float]], np.ndarray]) -> Model:
    """The :class:`Model` of the PuLP ``LpProblem`` ``problem`` (see the module docstring)."""
    import pulp
    if getattr(problem, "sos1", None) or getattr(problem, "sos2", None):
        raise ValueError(f"PuLP problem {problem.name}: SOS constraints have no array form here")
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
                  problem.sense == pulp.LpMaximize, decode)


def _pulp_constraints(problem) -> list[tuple[str, object]]:
    """(name, constraint) of each of the problem's constraints, in order: PuLP 3 calls
    ``constraints()`` (a list, PuLP 4's only form), PuLP 2 holds them in the ``constraints`` dict."""
    if callable(problem.constraints):
        return [(constraint.name, constraint) for constraint in problem.constraints()]
    return list(problem.constraints.items())


def from_pyomo(model, decode: Callable[[Mapping[str, float]], np.ndarray]) -> Model:
    """The :class:`Model` of the Pyomo ``ConcreteModel`` ``model`` (see the module docstring)."""
    try:
        from pyomo.core import Constraint, Objective, Var, maximize, value
        from pyomo.repn import generate_standard_repn
    except ImportError:
        raise PuzzleError("Pyomo is not installed: pip install -e '.[pyomo]'") from None

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

    def linear(expr, what: str):
        repn = generate_standard_repn(expr, compute_values=True, quadratic=False)
        if repn.nonlinear_expr is not None or repn.quadratic_vars:
            raise ValueError(f"Pyomo model {model.name}: {what} is not linear")
        cols = [column[id(var)] for var in repn.linear_vars]
        return cols, [float(a) for a in repn.linear_coefs], float(value(repn.constant))

    rows = []
    for constraint in model.component_data_objects(Constraint, active=True, descend_into=True):
        cols, coefs, constant = linear(constraint.body, f"constraint {constraint.name}")
        low = -INF if constraint.lower is None else float(value(constraint.lower)) - constant
        high = INF if constraint.upper is None else float(value(constraint.upper)) - constant
        rows.append((constraint.name, cols, coefs, low, high))
    objectives = list(model.component_data_objects(Objective, active=True, descend_into=True))
    if len(objectives) > 1:
        raise ValueError(f"Pyomo model {model.name}: {len(objectives)} active objectives "
                         f"({', '.join(o.name for o in objectives[:3])}); a model has one")
    objective = np.zeros(len(variables))
    offset, maximise = 0.0, False
    if objectives:
        cols, coefs, offset = linear(objectives[0].expr, f"objective {objectives[0].name}")
        np.add.at(objective, cols, coefs)
        maximise = objectives[0].sense == maximize
    return _model(model.name, [var.name for var in variables], lower, upper, integer, rows, objective, offset,
                  maximise, decode)
