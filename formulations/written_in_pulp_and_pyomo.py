"""The seed Sudoku and Killer Sudoku models as users write them: in PuLP and in Pyomo.

Each builds its model the way the seed posts and PuLP's documentation do -- a binary variable
``x_r_c_k`` per cell (r, c) and digit k, the givens as lower bounds, a zero objective -- and hands
it to the harness through :func:`puzzlebench.model.layers.from_pulp` or
:func:`~puzzlebench.model.layers.from_pyomo`.  They state the constraints of ``binary``, so the
harness finds the same model (the same fingerprint) and reports them in one identity group with it:
what a comparison of them measures is the modelling layer, not the model.  ``build_time`` includes
the layer's own construction and the conversion.
"""

from __future__ import annotations

import numpy as np

from puzzlebench.model.layers import from_pulp, from_pyomo, layer
from puzzlebench.puzzles import KillerSudoku, Sudoku
from puzzlebench.registry import formulation


def _units(puzzle: Sudoku) -> list[list[tuple[int, int]]]:
    """The rows, columns and boxes (and a Killer-X's diagonals) as lists of (r, c)."""
    n, br, bc = puzzle.n, puzzle.box_rows, puzzle.box_cols
    units = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    units += [[(r, c) for r in range(r0, r0 + br) for c in range(c0, c0 + bc)]
              for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    if getattr(puzzle, "diagonal", False):
        units += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    return units


def _grid(n: int, value) -> np.ndarray:
    """The grid of a solution ``value(r, c, k)`` -> x[r,c,k]: the digit of largest value per cell."""
    return np.array([[max(range(1, n + 1), key=lambda k: value(r, c, k)) for c in range(n)] for r in range(n)])


def _pulp_model(puzzle: Sudoku):
    import pulp
    n = puzzle.n
    digits, cells = range(1, n + 1), range(n)
    problem = pulp.LpProblem(puzzle.name or "sudoku", pulp.LpMinimize)
    x = pulp.LpVariable.dicts("x", (cells, cells, digits), cat="Binary")
    problem += pulp.lpSum([])  # zero objective
    for r in cells:
        for c in cells:
            problem += pulp.lpSum(x[r][c][k] for k in digits) == 1, f"cell_{r}_{c}"
            if puzzle.givens[r, c]:
                x[r][c][int(puzzle.givens[r, c])].lowBound = 1
    for u, unit in enumerate(_units(puzzle)):
        for k in digits:
            problem += pulp.lpSum(x[r][c][k] for r, c in unit) == 1, f"unit_{u}_{k}"
    for g, cage in enumerate(getattr(puzzle, "cages", ())):
        problem += pulp.lpSum(k * x[r][c][k] for r, c in cage.cells for k in digits) == cage.total, f"cage_{g}"
        for k in digits:
            problem += pulp.lpSum(x[r][c][k] for r, c in cage.cells) <= 1, f"cage_{g}_{k}"
    return from_pulp(problem, lambda values: _grid(n, lambda r, c, k: values[f"x_{r}_{c}_{k}"]))


def _pyomo_model(puzzle: Sudoku):
    pyo = layer("pyomo.environ")
    n = puzzle.n
    m = pyo.ConcreteModel(name=puzzle.name or "sudoku")
    m.x = pyo.Var(range(n), range(n), range(1, n + 1), domain=pyo.Binary)
    m.objective = pyo.Objective(expr=0, sense=pyo.minimize)
    m.cell = pyo.Constraint(range(n), range(n), rule=lambda m, r, c: sum(m.x[r, c, k] for k in range(1, n + 1)) == 1)
    units = _units(puzzle)
    m.unit = pyo.Constraint(range(len(units)), range(1, n + 1),
                            rule=lambda m, u, k: sum(m.x[r, c, k] for r, c in units[u]) == 1)
    cages = getattr(puzzle, "cages", ())
    m.cage = pyo.Constraint(range(len(cages)), rule=lambda m, g: sum(
        k * m.x[r, c, k] for r, c in cages[g].cells for k in range(1, n + 1)) == cages[g].total)
    m.cage_digit = pyo.Constraint(range(len(cages)), range(1, n + 1),
                                  rule=lambda m, g, k: sum(m.x[r, c, k] for r, c in cages[g].cells) <= 1)
    for r, c in zip(*np.nonzero(puzzle.givens)):
        m.x[int(r), int(c), int(puzzle.givens[r, c])].setlb(1)
    return from_pyomo(m, lambda values: _grid(n, lambda r, c, k: values[f"x[{r},{c},{k}]"]))


@formulation("sudoku", "binary-pulp", description="""
    The binary assignment model written in PuLP as its documentation writes it (x_r_c_k per
    cell and digit, givens as lower bounds, zero objective), converted by from_pulp: the
    model of `binary`, its build time the layer's.""",
              constraints="""The constraints of ``binary`` (sum_k x[r,c,k] = 1 per cell, sum_{(r,c) in u} x[r,c,k] = 1
    per unit and digit, x[r,c,g] >= 1 for a given g), built in PuLP.""")
def sudoku_pulp(puzzle: Sudoku):
    return _pulp_model(puzzle)


@formulation("sudoku", "binary-pyomo", description="""
    The binary assignment model written in Pyomo (x[r,c,k] per cell and digit, givens as
    lower bounds, zero objective), converted by from_pyomo: the model of `binary`.""",
              constraints="""The constraints of ``binary``, built in Pyomo.""")
def sudoku_pyomo(puzzle: Sudoku):
    return _pyomo_model(puzzle)


@formulation("killer", "binary-pulp", description="""
    The seed Killer model written in PuLP (the Sudoku assignment model plus, per cage, the sum
    row and at most once per digit), converted by from_pulp: the model of `binary`.""",
              constraints="""The constraints of the Killer ``binary`` (the Sudoku rows, sum_{c in C} sum_k k x[c,k] = V_C
    and sum_{c in C} x[c,k] <= 1 per cage C and digit k), built in PuLP.""")
def killer_pulp(puzzle: KillerSudoku):
    return _pulp_model(puzzle)


@formulation("killer", "binary-pyomo", description="""
    The seed Killer model written in Pyomo, converted by from_pyomo: the model of `binary`.""",
              constraints="""The constraints of the Killer ``binary``, built in Pyomo.""")
def killer_pyomo(puzzle: KillerSudoku):
    return _pyomo_model(puzzle)
