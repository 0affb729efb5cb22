"""OR-Tools CP-SAT, the constraint-programming reference: the rows go in as integer linear constraints.

The CpModel protocol buffer is filled from the arrays directly, one variable
and one linear constraint per column and row (3 ms for a 9x9 Sudoku model,
half the cost of building ``LinearExpr`` objects).  CP-SAT needs integers
throughout: every column must be integer with finite bounds, and a row with
fractional coefficients is multiplied by the least common denominator of its
coefficients (denominators up to 10**6), otherwise the solve is an error.
Row bounds are rounded inwards, which is exact for integer rows.  A fractional
objective goes in as CP-SAT's floating-point objective.

Figures: ``nodes`` is ``num_branches`` (search decisions; 0 when presolve and
propagation solved the model), ``lp_iterations`` is None (CP-SAT's
``num_lp_iterations`` counts the iterations of the LP relaxations some of its
workers propagate with, not a figure comparable with a MIP solver's),
``solver_time`` is ``wall_time``, the dual bound is ``best_objective_bound``,
and the presolved size is parsed from the "Presolved ... model" section of the
log (0 rows, 0 columns when presolve solved the problem, None when it proved
it infeasible). ``root_solved`` means the solve completed with no branch.

``Model.all_different`` groups become AddAllDifferent constraints, and the rows
``Model.all_different_rows`` that encode the same groups for MIP solvers are
left out, with the columns that then appear nowhere (the order binaries of a
big-M encoding), so a formulation can give CP-SAT its natural model
(:func:`natural_model`).  Those columns are reported at their lower bound: the
solution satisfies every row CP-SAT was given, not the encoding rows it
replaced.  ``Model.products`` become AddMultiplicationEquality constraints (``int_prod``,
the target a constant) in the same way: the rows ``Model.product_rows`` are left out,
with the columns then unused (a tuple table's selection binaries).

Options: ``num_workers`` = ``options.threads`` (CP-SAT would otherwise use
every core), ``random_seed``, ``max_time_in_seconds``, ``relative_gap_limit``.
Solver options are fields of CP-SAT's ``SatParameters`` (an enum by its value
name, e.g. ``search_branching: FIXED_SEARCH``), set after those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..model import Model, Product
from ..registry import adapter
from .contract import SolveOptions
from ._common import refuse_harness_options, time_limit_or_none
from .base import Adapter, Reading
from .logs import LogTable, Rule, Section

_MAX_DENOMINATOR = 10**6
_TOLERANCE = 1e-9
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

LOG = LogTable((
    # the "Presolved ... model" header and the "#..." and indented lines after it ("'" separates thousands)
    Section("presolve", (Rule(r"^#Variables: (?P<presolved_cols>[\d']+)"),
                         Rule(r"^#k\w+: (?P<presolved_rows>[\d']+)", total=True)),
            start=r"^Presolved \w+ model", end=r"\n(?!#|  )"),
    Section("closed", (Rule(r"Problem closed by presolve", values={"presolved_rows": 0, "presolved_cols": 0}),)),
))
"""The figures of CP-SAT's log: the presolved model's size (:func:`presolved_size`)."""


def cpsat_version() -> str:
    import ortools
    return f"OR-Tools CP-SAT {ortools.__version__}"


def presolved_size(log: str) -> tuple[int | None, int | None]:
    """Constraints and variables of the presolved model, from CP-SAT's log.

    The model counts include every constraint type CP-SAT lists (``#kLinear2``,
    ``#kExactlyOne``, ...).  Presolve that closes the problem gives (0, 0).
    """
    figures = LOG.parse(log)
    return figures.get("presolved_rows"), figures.get("presolved_cols")


def integral_rows(model: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer coefficients and bounds of ``model``'s rows, scaled where needed.

    Returns the CSR data (int64, aligned with ``model.A.indices``) and the row
    lower and upper bounds (float, infinite where the row has no bound).
    Raises ValueError for a row whose coefficients have no small common denominator.
    """
    A = model.A
    data = A.data.copy()
    scale = np.ones(model.num_rows)
    fractional_rows = np.unique(np.repeat(np.arange(model.num_rows), np.diff(A.indptr))[
        np.abs(data - np.round(data)) > _TOLERANCE])
    for i in fractional_rows.tolist():
        entries = data[A.indptr[i]:A.indptr[i + 1]]
        denominators = [Fraction(v).limit_denominator(_MAX_DENOMINATOR).denominator for v in entries.tolist()]
        scale[i] = math.lcm(*denominators)
        scaled = entries * scale[i]
        if np.abs(scaled - np.round(scaled)).max() > _TOLERANCE * max(1.0, np.abs(entries).max()):
            raise ValueError(f"row {i} has coefficients CP-SAT cannot scale to integers")
        data[A.indptr[i]:A.indptr[i + 1]] = scaled
    lower = np.ceil(model.row_lower * scale - _TOLERANCE)
    upper = np.floor(model.row_upper * scale + _TOLERANCE)
    return np.round(data).astype(np.int64), lower, upper


def _int64_bounds(values: np.ndarray) -> list[int]:
    """Integral row bounds as int64; an infinite bound becomes CP-SAT's int64 extreme."""
    finite = np.clip(np.nan_to_num(values, posinf=0.0, neginf=0.0), -2.0**62, 2.0**62).astype(np.int64)
    return np.where(np.isposinf(values), _INT64_MAX,
                    np.where(np.isneginf(values), _INT64_MIN, finite)).tolist()


def _column_bounds(model: Model) -> tuple[list[int], list[int]]:
    if not model.integrality.all():
        raise ValueError("CP-SAT needs every column integer; the model has continuous columns")
    if not (np.isfinite(model.col_lower).all() and np.isfinite(model.col_upper).all()):
        raise ValueError("CP-SAT needs finite bounds on every column")
    lower = np.ceil(model.col_lower - _TOLERANCE).astype(np.int64)
    upper = np.floor(model.col_upper + _TOLERANCE).astype(np.int64)
    return lower.tolist(), upper.tolist()


def natural_model(model: Model) -> tuple[Model, np.ndarray]:
    """The model CP-SAT is given and the columns of ``model`` it keeps, in order.

    Without ``all_different`` groups or ``products`` that is ``model`` itself.  With them,
    the rows ``all_different_rows`` (``product_rows``) are left out, and so are the columns
    that then appear in no row, no declaration and not in the objective.
    """
    if not (model.all_different or model.products):
        return model, np.arange(model.num_cols)
    rows = np.ones(model.num_rows, bool)
    if model.all_different:
        rows[model.all_different_rows] = False
    if model.products:
        rows[model.product_rows] = False
    A = model.A[rows]
    used = np.zeros(model.num_cols, bool)
    used[A.indices] = True
    used[model.objective != 0] = True
    for declared in [*model.all_different, *(p.columns for p in model.products)]:
        used[np.asarray(declared)] = True
    cols = np.flatnonzero(used)
    index = np.full(model.num_cols, -1)
    index[cols] = np.arange(len(cols))
    natural = Model(A[:, cols], model.row_lower[rows], model.row_upper[rows], model.col_lower[cols],
                    model.col_upper[cols], model.integrality[cols], model.objective[cols], model.decode,
                    model.offset, all_different=[index[np.asarray(g)] for g in model.all_different],
                    products=[Product(index[p.columns], p.target) for p in model.products])
    return natural, cols


def build_cp_model(model: Model):
    """The CP-SAT CpModel of ``model`` (raises ValueError when it is not an integer model)."""
    from ortools.sat.python import cp_model

    col_lower, col_upper = _column_bounds(model)
    coefficients, row_lower, row_upper = integral_rows(model)
    cp = cp_model.CpModel()
    proto = cp.proto
    variables = proto.variables
    for lo, up in zip(col_lower, col_upper):
        variables.add().domain.extend([lo, up])
    starts, cols = model.A.indptr.tolist(), model.A.indices.tolist()
    values = coefficients.tolist()
    constraints = proto.constraints
    for i, (lo, up) in enumerate(zip(_int64_bounds(row_lower), _int64_bounds(row_upper))):
        linear = constraints.add().linear
        linear.vars.extend(cols[starts[i]:starts[i + 1]])
        linear.coeffs.extend(values[starts[i]:starts[i + 1]])
        linear.domain.extend([lo, up])
    for group in model.all_different:
        all_diff = constraints.add().all_diff
        for j in np.asarray(group).tolist():
            expression = all_diff.exprs.add()
            expression.vars.append(j)
            expression.coeffs.append(1)
    for product in model.products:
        int_prod = constraints.add().int_prod
        int_prod.target.offset = product.target
        for j in product.columns.tolist():
            expression = int_prod.exprs.add()
            expression.vars.append(j)
            expression.coeffs.append(1)
    _set_objective(proto, model)
    return cp


def _set_objective(proto, model: Model) -> None:
    used = np.flatnonzero(model.objective)
    if not len(used):
        return
    coefficients = model.objective[used]
    if np.all(coefficients == np.round(coefficients)):
        objective = proto.objective
        objective.coeffs.extend(coefficients.astype(np.int64).tolist())
    else:
        objective = proto.floating_point_objective
        objective.coeffs.extend(coefficients.tolist())
    objective.vars.extend(used.tolist())
    objective.offset = float(model.offset)


def _full_solution(model: Model, columns: np.ndarray, values) -> np.ndarray:
    """The solution over all columns of ``model``: CP-SAT's ``values`` for ``columns``, the lower
    bound elsewhere (see :func:`natural_model`)."""
    x = np.array(model.col_lower, dtype=float)
    x[columns] = values
    return x


def _set_parameter(parameters, name: str, value) -> None:
    """Set one ``SatParameters`` field; ValueError when CP-SAT has no such field or refuses the value."""
    field = parameters.DESCRIPTOR.fields_by_name.get(name)
    if field is None:
        raise ValueError(f"CP-SAT has no parameter {name!r}")
    if field.enum_type is not None and isinstance(value, str):
        number = field.enum_type.values_by_name.get(value.upper())
        if number is None:
            known = ", ".join(field.enum_type.values_by_name)
            raise ValueError(f"CP-SAT parameter {name}={value!r} is not one of {known}")
        value = number.number
    try:
        setattr(parameters, name, value)
    except (TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"CP-SAT parameter {name}={value!r}: {exc}") from None


def sat_parameters_text(settings: dict) -> str:
    """``settings`` set on a fresh ``SatParameters`` message, in protobuf text format; ValueError
    naming the first one refused."""
    from google.protobuf import text_format
    from ortools.sat import sat_parameters_pb2
    parameters = sat_parameters_pb2.SatParameters()
    for name, value in settings.items():
        _set_parameter(parameters, name, value)
    return text_format.MessageToString(parameters)


_HARNESS_OPTIONS = {"max_time_in_seconds": "time limit", "random_seed": "seed", "num_workers": "threads",
                    "num_search_workers": "threads"}


@dataclass
class _Session:
    solver: object  # cp_model.CpSolver
    model: object = None  # the CpModel loaded
    status: int | None = None


@adapter
class CpsatAdapter(Adapter):
    """CP-SAT (module docstring)."""

    name, label, kind = "cpsat", "CP-SAT", "cp"
    all_different = products = True
    description = "OR-Tools CP-SAT constraint solver on the integer linear rows (reference)."
    harness_options = _HARNESS_OPTIONS
    log_table = LOG
    root_nodes = 0

    def version(self) -> str:
        return cpsat_version()

    def start(self, options: SolveOptions) -> _Session:
        from ortools.sat.python import cp_model
        cp_solver = cp_model.CpSolver()
        cp_solver.parameters.log_search_progress = True
        cp_solver.parameters.log_to_stdout = True
        return _Session(cp_solver)

    def load_arrays(self, session: _Session, model: Model) -> tuple[Model, np.ndarray]:
        natural, columns = natural_model(model)
        session.model = build_cp_model(natural)
        return model, columns

    def set_common(self, session: _Session, options: SolveOptions) -> None:
        parameters = session.solver.parameters
        parameters.num_workers = int(options.threads)
        parameters.random_seed = int(options.seed)
        parameters.relative_gap_limit = float(options.mip_gap)
        limit = time_limit_or_none(options)
        if limit is not None:
            parameters.max_time_in_seconds = limit

    def set_option(self, session: _Session, name: str, value) -> None:
        session.solver.parameters.merge_text_format(sat_parameters_text({name: value}))

    def check_options(self, settings: dict) -> None:
        """ValueError for an option the harness sets, a name or type ``SatParameters`` does not take, or
        a value CP-SAT's own parameter check refuses (it solves an empty model with them: MODEL_INVALID
        names the parameter and its range)."""
        from ortools.sat.python import cp_model
        refuse_harness_options(settings, self.harness_options, self.label)
        text = sat_parameters_text(settings)
        cp_solver = cp_model.CpSolver()
        cp_solver.parameters.num_workers = 1
        cp_solver.parameters.merge_text_format(text)
        if cp_solver.solve(cp_model.CpModel()) == cp_model.MODEL_INVALID:
            raise ValueError(f"CP-SAT parameters {', '.join(f'{k}={v!r}' for k, v in settings.items())}: "
                             f"{cp_solver.response_proto.solution_info}")

    def optimize(self, session: _Session) -> None:
        session.status = session.solver.solve(session.model)

    def read(self, session: _Session, loaded: tuple[Model, np.ndarray]) -> Reading:
        from ortools.sat.python import cp_model
        model, columns = loaded
        cp_solver, cp_status = session.solver, session.status
        has_solution = cp_status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        status = {cp_model.OPTIMAL: "optimal", cp_model.INFEASIBLE: "infeasible",
                  cp_model.FEASIBLE: "time_limit", cp_model.UNKNOWN: "time_limit"}.get(cp_status, "error")
        has_objective = bool(np.any(model.objective))
        primal = cp_solver.objective_value if has_objective else float(model.offset)
        dual = cp_solver.best_objective_bound if has_objective else float(model.offset)
        return Reading(
            status=status,
            x=_full_solution(model, columns, cp_solver.response_proto.solution) if has_solution else None,
            integrality=model.integrality,
            message=cp_solver.status_name(cp_status) + (f": {session.model.validate()}" if status == "error" else ""),
            solver_time=float(cp_solver.wall_time),
            nodes=int(cp_solver.num_branches),
            primal_bound=float(primal) if has_solution else None,
            dual_bound=float(dual) if status != "infeasible" and math.isfinite(dual) else None,
        )


_ADAPTER = CpsatAdapter()
solve_cpsat = _ADAPTER.solve
check_cpsat_options = _ADAPTER.check_options
