"""The solver adapters on small hand-built models with known answers.

Tests run over the registry, so a newly registered adapter is covered without edits.
"""

from __future__ import annotations

import dataclasses
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from puzzlebench import registry
from puzzlebench.errors import PuzzleError
from puzzlebench.model import INF, Model, rows_from_triplets
from puzzlebench.solvers import cbc, cpsat, highs
from puzzlebench.solvers._common import captured_solve
from puzzlebench.solvers.base import Adapter, Reading
from puzzlebench.solvers.logs import LogTable, Rule, Section
from puzzlebench.solvers.mps_check import read_mps_status
from puzzlebench.solvers.contract import SolveOptions, SolverResult

NAMES = [info.name for info in registry.solvers()]
MPS_NAMES = [info.name for info in registry.solvers() if info.mps is not None]  # with an MPS reader


def solve(name: str, model: Model, **options) -> SolverResult:
    return registry.get_solver(name).solve(model, SolveOptions(**options))


def integer_model(rows, cols, vals, nrows, lower, upper, *, col_lower, col_upper, objective=None,
                  offset=0.0) -> Model:
    """An all-integer model from COO triplets; ``decode`` returns x itself."""
    ncols = len(col_lower)
    block = rows_from_triplets(np.asarray(rows), np.asarray(cols), vals, nrows, ncols, lower, upper)
    return Model.from_rows([block], col_lower=np.asarray(col_lower, float),
                           col_upper=np.asarray(col_upper, float), integrality=np.ones(ncols, bool),
                           objective=None if objective is None else np.asarray(objective, float),
                           decode=lambda x: x, offset=offset)


def knapsack(offset: float = 0.0) -> Model:
    """max 5a + 4b + 3c + 8d s.t. 2a + 3b + c + 4d <= 6, binary: unique optimum a = d = 1, value 13."""
    return integer_model([0] * 4, range(4), [2, 3, 1, 4], 1, -INF, 6, col_lower=[0] * 4,
                         col_upper=[1] * 4, objective=[-5, -4, -3, -8], offset=offset)


def assignment() -> Model:
    """3 x 3 assignment; the unique optimum assigns 0->1, 1->0, 2->2 at cost 5."""
    cost = np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    worker, job = np.divmod(np.arange(9), 3)
    return integer_model(np.concatenate([worker, 3 + job]), np.tile(np.arange(9), 2), 1.0, 6, 1, 1,
                         col_lower=[0] * 9, col_upper=[1] * 9, objective=cost.ravel())


def infeasible_rows() -> Model:
    """x0 + x1 = 2 and x0 + x1 <= 1."""
    return integer_model([0, 0, 1, 1], [0, 1, 0, 1], 1.0, 2, [2, -INF], [2, 1],
                         col_lower=[0, 0], col_upper=[1, 1])


def infeasible_parity() -> Model:
    """2 x0 + 2 x1 + 2 x2 = 3 with binaries: the LP is feasible, no integer point is."""
    return integer_model([0, 0, 0], [0, 1, 2], 2.0, 1, 3, 3, col_lower=[0] * 3, col_upper=[1] * 3)


def latin_square(n: int = 4) -> Model:
    """Empty n x n Latin square, x[r, c, d] binary: many solutions, objective 0."""
    r, c, d = (a.ravel() for a in np.meshgrid(*[np.arange(n)] * 3, indexing="ij"))
    col = (r * n + c) * n + d
    rows = np.concatenate([r * n + c, n * n + r * n + d, 2 * n * n + c * n + d])
    return integer_model(rows, np.tile(col, 3), 1.0, 3 * n * n, 1, 1,
                         col_lower=[0] * n**3, col_upper=[1] * n**3)


def ranged(sign: float) -> Model:
    """2 <= x0 + x1 + x2 + x3 <= 3 over binaries, minimizing sign * sum."""
    return integer_model([0] * 4, range(4), 1.0, 1, 2, 3, col_lower=[0] * 4, col_upper=[1] * 4,
                         objective=[sign] * 4)


def bounded_integers(offset: float = 0.0) -> Model:
    """y, z in 1..9: min z - y s.t. 2y <= 13, 3z >= 10, 7 <= y + z <= 9: unique optimum (5, 4), -1."""
    return integer_model([0, 1, 2, 2], [0, 1, 0, 1], [2, 3, 1, 1], 3, [-INF, 10, 7], [13, INF, 9],
                         col_lower=[1, 1], col_upper=[9, 9], objective=[-1, 1], offset=offset)


def mixed_columns() -> Model:
    """y in 1..9 first, then binary b: min -y - b s.t. y + 5b <= 9: optimum (9, 0), -9.

    SCIP sorts its variables binaries first, so this catches a solution read in the wrong order.
    """
    return integer_model([0, 0], [0, 1], [1, 5], 1, -INF, 9, col_lower=[1, 0], col_upper=[9, 1],
                         objective=[-1, -1])


def fractional_row() -> Model:
    """y, z in 1..9: max y + z s.t. 0.5 y + 0.25 z <= 3.3: unique optimum (2, 9), 11."""
    return integer_model([0, 0], [0, 1], [0.5, 0.25], 1, -INF, 3.3, col_lower=[1, 1], col_upper=[9, 9],
                         objective=[-1, -1])


def market_split(m: int = 4, n: int = 30, seed: int = 1) -> Model:
    """Cornuejols-Dawande market split: m random 0-1 equality knapsacks, hard for every solver."""
    a = np.random.default_rng(seed).integers(0, 100, size=(m, n)).astype(float)
    rhs = np.floor(a.sum(axis=1) / 2)
    r, c = np.nonzero(a)
    return integer_model(r, c, a[r, c], m, rhs, rhs, col_lower=[0] * n, col_upper=[1] * n)


def assert_optimal(result: SolverResult, model: Model, objective: float, x=None) -> None:
    assert result.status == "optimal", result.message
    assert result.x is not None and result.x.dtype == float and model.is_feasible(result.x)
    assert result.primal_bound == pytest.approx(objective)
    assert result.dual_bound == pytest.approx(objective)
    assert float(model.objective @ result.x + model.offset) == pytest.approx(objective)
    if x is not None:
        np.testing.assert_array_equal(result.x, x)


@pytest.mark.parametrize("name", NAMES)
def test_registered_with_version_and_kind(name):
    info = registry.get_solver(name)
    assert info.kind in ("mip", "cp")
    assert info.description
    assert any(ch.isdigit() for ch in info.version()) or "devel" in info.version()


@pytest.mark.parametrize("name", NAMES)
def test_knapsack_optimum(name):
    model = knapsack()
    result = solve(name, model)
    assert_optimal(result, model, -13, [1, 0, 0, 1])
    assert result.solver_time is not None and result.solver_time >= 0
    assert isinstance(result.nodes, int) and result.nodes >= 0
    assert isinstance(result.root_solved, bool)


@pytest.mark.parametrize("name", NAMES)
def test_assignment_optimum(name):
    model = assignment()
    expected = np.zeros(9)
    expected[[1, 3, 8]] = 1
    assert_optimal(solve(name, model), model, 5, expected)


@pytest.mark.parametrize("make", [infeasible_rows, infeasible_parity])
@pytest.mark.parametrize("name", NAMES)
def test_infeasible(name, make):
    result = solve(name, make())
    assert result.status == "infeasible", result.message
    assert result.x is None and result.primal_bound is None and result.dual_bound is None
    assert result.root_solved in (True, False)
    assert (result.presolved_rows, result.presolved_cols) != (0, 0)  # presolve proved it: no presolved model


@pytest.mark.parametrize("name", NAMES)
def test_feasibility_model_with_many_solutions_is_optimal(name):
    model = latin_square()
    assert_optimal(solve(name, model), model, 0)


@pytest.mark.parametrize("sign, objective", [(1.0, 2.0), (-1.0, -3.0)])
@pytest.mark.parametrize("name", NAMES)
def test_ranged_row_bounds_both_hold(name, sign, objective):
    model = ranged(sign)
    assert_optimal(solve(name, model), model, objective)


@pytest.mark.parametrize("name", NAMES)
def test_integer_columns_with_bounds_1_to_9(name):
    model = bounded_integers()
    assert_optimal(solve(name, model), model, -1, [5, 4])


@pytest.mark.parametrize("name", NAMES)
def test_solution_is_in_column_order_with_mixed_column_types(name):
    model = mixed_columns()
    assert_optimal(solve(name, model), model, -9, [9, 0])


@pytest.mark.parametrize("name", NAMES)
def test_objective_offset_is_in_both_bounds(name):
    model = bounded_integers(offset=10.5)
    assert_optimal(solve(name, model), model, 9.5, [5, 4])


@pytest.mark.parametrize("name", NAMES)
def test_fractional_coefficients(name):
    model = fractional_row()
    assert_optimal(solve(name, model), model, -11, [2, 9])


@pytest.mark.parametrize("make", [bounded_integers, lambda: knapsack(offset=-2.25), latin_square,
                                  infeasible_parity, fractional_row, mixed_columns])
@pytest.mark.parametrize("name", MPS_NAMES)
def test_mps_read_back_matches_arrays(name, make, tmp_path):
    model = make()
    path = tmp_path / "model.mps"
    model.to_mps(path)
    from_arrays = solve(name, model)
    from_mps = read_mps_status(path, name, SolveOptions())
    assert from_mps.status == from_arrays.status, from_mps.message
    if from_arrays.primal_bound is None:
        assert from_mps.primal_bound is None
    else:
        assert from_mps.primal_bound == pytest.approx(from_arrays.primal_bound)
        assert model.is_feasible(from_mps.x)


def test_mps_reader_for_unknown_solver_is_refused(tmp_path):
    with pytest.raises(PuzzleError, match="no native MPS reader"):
        read_mps_status(tmp_path / "model.mps", "nosuchsolver", SolveOptions())


@pytest.mark.parametrize("name", NAMES)
def test_log_is_captured_and_nothing_printed(name, capfd):
    result = solve(name, knapsack(), verbose=False)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert result.log.strip()


@pytest.mark.parametrize("name", NAMES)
def test_verbose_prints_the_captured_log(name, capfd):
    result = solve(name, knapsack(), verbose=True)
    out, _ = capfd.readouterr()
    assert result.log.strip() and result.log in out


@pytest.mark.parametrize("name", NAMES)
def test_seed_changes_nothing_about_validity(name):
    for seed in (1, 7, 12345):
        model = latin_square()
        assert_optimal(solve(name, model, seed=seed), model, 0)
        model = knapsack()
        assert_optimal(solve(name, model, seed=seed), model, -13, [1, 0, 0, 1])


@pytest.mark.parametrize("name", NAMES)
def test_thread_count_can_change_between_solves(name):
    for threads in (2, 1):
        model = assignment()
        assert_optimal(solve(name, model, threads=threads), model, 5)


def test_highs_runs_the_requested_thread_count():
    for threads in (2, 1, 2):
        result = solve("highs", assignment(), threads=threads)
        assert result.status == "optimal"
        assert f"across {threads} threads" in result.log


@pytest.mark.parametrize("name", NAMES)
def test_tiny_time_limit_stops_cleanly(name):
    model = market_split()
    result = solve(name, model, time_limit=0.2)
    assert result.status == "time_limit", result.message
    assert result.x is None or model.is_feasible(result.x)
    assert result.root_solved is False


def test_exception_becomes_error_result_with_log(capfd):
    def failing_solve():
        os.write(1, b"solver says hello\n")
        raise RuntimeError("boom")
    result = captured_solve(failing_solve, SolveOptions())
    assert result.status == "error" and "boom" in result.message
    assert "solver says hello" in result.log
    assert capfd.readouterr() == ("", "")


def test_cpsat_refuses_continuous_columns():
    model = bounded_integers()
    model.integrality[:] = False
    result = solve("cpsat", model)
    assert result.status == "error" and "integer" in result.message


def test_cpsat_refuses_coefficients_without_small_denominator():
    model = integer_model([0, 0], [0, 1], [math.pi, 1.0], 1, -INF, 10, col_lower=[0, 0], col_upper=[9, 9])
    result = solve("cpsat", model)
    assert result.status == "error" and "row 0" in result.message


def test_cpsat_scales_fractional_rows_to_integers():
    coefficients, lower, upper = cpsat.integral_rows(fractional_row())
    np.testing.assert_array_equal(coefficients, [2, 1])
    assert (lower[0], upper[0]) == (-INF, 13)


def test_highs_presolve_line_is_parsed():
    log = ("Presolve reductions: rows 192(-132); columns 252(-477); nonzeros 1011(-1905)\n"
           "Presolve reductions: rows 10(-182); columns 12(-240); nonzeros 40(-971)\n")
    assert highs.presolved_size(log) == (192, 252)
    empty = "Presolve reductions: rows 0(-324); columns 0(-729); nonzeros 0(-2916) - Reduced to empty\n"
    assert highs.presolved_size(empty) == (0, 0)
    assert highs.presolved_size("Presolve: Infeasible\n") == (None, None)


def test_highs_reused_object_keeps_no_option_between_solves():
    limited = solve("highs", knapsack(), time_limit=0.0)
    assert limited.status == "time_limit"
    assert solve("highs", knapsack()).status == "optimal"  # no limit left over from the first solve


def test_highs_reused_object_sets_options_once_and_never_keeps_others():
    # issue 38: a solve takes a free Highs object of the process that holds its options already (a batch sets
    # them once on each); any other options reset the object
    from puzzlebench.solvers.highs import HighsAdapter
    adapter = HighsAdapter()
    off = SolveOptions(solver_options={"presolve": "off"})
    for _ in range(2):
        assert "Presolving model" not in solve("highs", knapsack(), solver_options={"presolve": "off"}).log
    session = adapter.start(off)
    assert session.options_held and session.highs.getOptionValue("presolve")[1] == "off"
    adapter.close(session)
    assert "Presolving model" in solve("highs", knapsack()).log
    assert "Presolving model" not in solve("highs", knapsack(), solver_options={"presolve": "off"}).log
    assert "Presolving model" in solve("highs", knapsack()).log
    adapter.check_options({"presolve": "off"})  # sets an option on a free object
    with pytest.raises(ValueError):
        adapter.check_options({"presolve": "sideways"})  # refused on a free object
    for _ in range(3):
        assert "Presolving model" in solve("highs", knapsack()).log
    # no free object claims to hold options that check_options changed: each holds the defaults once started
    sessions = [adapter.start(SolveOptions()) for _ in range(3)]
    assert len({id(s.highs) for s in sessions}) == 3 and any(s.options_held for s in sessions)
    assert [s.highs.getOptionValue("presolve")[1] for s in sessions] == ["choose"] * 3
    for session in sessions:
        adapter.close(session)


def tiny_entry() -> Model:
    """The knapsack with a fifth column, coefficient 1e-11: below HiGHS's ``small_matrix_value`` (1e-9 unless
    set), so HiGHS drops it as it takes the model in, with a warning ("... ignored")."""
    return integer_model([0] * 5, range(5), [2, 3, 1, 4, 1e-11], 1, -INF, 6, col_lower=[0] * 5,
                         col_upper=[1] * 5, objective=[-5, -4, -3, -8, -1])


KEEPS = {"small_matrix_value": 1e-12}  # HiGHS keeps the 1e-11 coefficient
TAKEN_WHOLE = "[1e-11, 4e+00]"  # the coefficient ranges HiGHS logs (its "MIP has" line is empty once COPT is loaded)


def test_highs_options_that_bear_on_taking_the_model_in_apply_to_every_solve():
    # issue 38 (review): the options are set before the model goes in, on a fresh Highs object as on one that
    # holds them already (the first solve with these options dropped the coefficient, the next kept it)
    for _ in range(3):
        kept = solve("highs", tiny_entry(), solver_options=KEEPS)
        assert kept.status == "optimal" and TAKEN_WHOLE in kept.log and "ignored" not in kept.log
        dropped = solve("highs", tiny_entry())
        assert dropped.status == "optimal" and "ignored" in dropped.log and TAKEN_WHOLE not in dropped.log


def test_the_solver_process_loads_highs_models_ahead_each_with_its_options_and_log(monkeypatch):
    """Issue 38: the solver process passes the next model into a free Highs object as the request comes (its
    output off), only into one that holds that solve's options, and only when HiGHS takes the model in without
    a word: each solve is its model's with its own options, and what HiGHS says as it takes a model in is in
    that solve's log.  (One request at a time, so which are passed in ahead is certain; several in flight:
    ``test_the_solver_process_reads_highs_results_apart_each_log_its_own_solve``.)"""
    from puzzlebench.run.worker import SolverProcess
    from puzzlebench.solvers.highs import HighsAdapter
    resume = HighsAdapter.resume

    def marked(self, prepared, options):  # the solver process (forked) inherits it: its log says so
        os.write(1, b"(loaded ahead)\n")
        return resume(self, prepared, options)
    monkeypatch.setattr(HighsAdapter, "resume", marked)
    plain, keeping = [(knapsack(), {}), (tiny_entry(), {})] * 4, [(knapsack(), KEEPS), (tiny_entry(), KEEPS)] * 4
    requests = plain + keeping + plain
    with SolverProcess() as process:
        results = [process.solve("highs", model, SolveOptions(solver_options=solver_options))
                   for model, solver_options in requests]
    for (model, solver_options), result in zip(requests, results, strict=True):
        alone = solve("highs", model, solver_options=solver_options)
        assert result.status == alone.status == "optimal" and np.array_equal(result.x, alone.x)
        warned = model.num_cols == 5 and not solver_options
        assert ("ignored" in result.log) == warned and (TAKEN_WHOLE in result.log) == (model.num_cols == 5 and not warned)
        assert result.log.count("Solving report") == 1
    # passed in ahead: when the object the solve before used holds the options, unless HiGHS warns taking it in
    expected = [k > 0 and requests[k - 1][1] == options and not (model.num_cols == 5 and not options)
                for k, (model, options) in enumerate(requests)]
    assert ["(loaded ahead)" in result.log for result in results] == expected and sum(expected) == 13


def test_highs_solver_time_is_per_solve_in_a_reused_object():
    from puzzlebench.io import read_puzzles
    from puzzlebench.run.runner import build
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hard = read_puzzles(os.path.join(root, "instances/sudoku/frisch25/frisch25_minimal.txt"))[0].puzzle
    long = registry.get_solver("highs").solve(build(hard, "binary").model, SolveOptions(time_limit=0.5))
    assert long.status == "time_limit" and long.solver_time >= 0.4
    short = solve("highs", knapsack())
    assert short.status == "optimal" and short.solver_time < 0.2  # not counting the solve before


def test_cbc_log_figures_are_parsed():
    assert cbc.presolved_size("  Processed model: 904 rows, 2657 cols, 10628 NZ\n") == (904, 2657)
    assert cbc.presolved_size("Cgl0004I processed model has 213 rows, 265 columns (265 integer")\
        == (213, 265)
    assert cbc.presolved_size("Bound tightening: infeasibility proved\n") == (None, None)
    assert cbc.logged_time("Total time (Wallclock seconds): 3.53004   (CPU seconds): 3.2\n") == 3.53004


@pytest.mark.parametrize("header,expected", [
    ("Optimal - objective value 405.00000000", ("optimal", True)),
    ("Infeasible - objective value 0.00000000", ("infeasible", False)),
    ("Integer infeasible - objective value 10.00000000", ("infeasible", False)),
    ("Stopped on time - objective value 3.00000000", ("time_limit", True)),
    ("Stopped on time (no integer solution - continuous used) - objective value 0", ("time_limit", False)),
    ("Stopped on nodes - objective value 7.00000000", ("feasible", True)),
    ("Unbounded - objective value 0", ("error", False)),
])
def test_cbc_solution_file_header_gives_status(header, expected):
    assert cbc.solution_status(header) == expected


def test_cbc_solution_file_is_read_by_column_index(tmp_path):
    path = tmp_path / "sol.txt"
    path.write_text("Optimal - objective value 2\n      1 x1   1   0\n**    3 C3  0.5  0\n")
    header, x = cbc.read_solution(str(path), 5)
    assert header.startswith("Optimal")
    assert x.tolist() == [0, 1, 0, 0.5, 0]


def _fake_cbc(monkeypatch, tmp_path, script: str) -> None:
    """Replace the cbc program by a shell script."""
    program = tmp_path / "cbc"
    program.write_text("#!/bin/sh\n" + script + "\n")
    program.chmod(0o755)
    monkeypatch.setattr(cbc, "cbc_executable", lambda: str(program))


def test_cbc_crash_becomes_an_error_record(monkeypatch, tmp_path):
    _fake_cbc(monkeypatch, tmp_path, "echo starting; kill -SEGV $$")
    result = cbc.solve_cbc(knapsack(), SolveOptions(time_limit=10))
    assert result.status == "error" and "signal 11" in result.message
    assert "starting" in result.log


def test_cbc_thread_pools_follow_the_threads_option(monkeypatch, tmp_path):
    _fake_cbc(monkeypatch, tmp_path, 'echo "blas=$OPENBLAS_NUM_THREADS omp=$OMP_NUM_THREADS"')
    assert "blas=1 omp=1" in cbc.solve_cbc(knapsack(), SolveOptions(time_limit=10)).log
    assert "blas=2 omp=2" in cbc.solve_cbc(knapsack(), SolveOptions(time_limit=10, threads=2)).log


def test_cbc_that_overruns_its_limit_is_killed(monkeypatch, tmp_path):
    _fake_cbc(monkeypatch, tmp_path, "exec sleep 60")
    monkeypatch.setattr(cbc, "_OVERRUN", 0.2)
    result = cbc.solve_cbc(knapsack(), SolveOptions(time_limit=0.1))
    assert result.status == "time_limit" and "killed" in result.message


def test_cbc_without_solution_file_is_an_error(monkeypatch, tmp_path):
    _fake_cbc(monkeypatch, tmp_path, "echo nothing to see")
    result = cbc.solve_cbc(knapsack(), SolveOptions(time_limit=10))
    assert result.status == "error" and "no solution file" in result.message


def test_cpsat_presolved_model_is_parsed():
    log = ("Presolved satisfaction model '': (model_fingerprint: 0x35)\n"
           "#Variables: 2'657 (1'921 primary variables)\n"
           "  - 2'657 Booleans in [0,1]\n"
           "#kExactlyOne: 904 (#literals: 10'628)\n"
           "#kLinear2: 1'002\n"
           "[Symmetry] Graph for symmetry has 3'561 nodes\n"
           "#kLinearN: 7\n")
    assert cpsat.presolved_size(log) == (1906, 2657)
    assert cpsat.presolved_size("Problem closed by presolve.\n") == (0, 0)


def test_listing_solvers_loads_no_solver_library():
    code = ("import sys; from puzzlebench import registry; registry.solvers(); "
            "print(sorted(m for m in ('highspy', 'pyscipopt', 'ortools', 'cbcbox', 'gurobipy', 'xpress', 'cplex', 'coptpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_cbc_runs_after_cpsat_in_one_process():
    code = ("from puzzlebench import registry; from puzzlebench.solvers.contract import SolveOptions; "
            "from tests.test_solvers import knapsack; "
            "print([registry.get_solver(n).solve(knapsack(), SolveOptions()).status "
            "for n in ('cpsat', 'cbc')])")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root).stdout
    assert out.strip() == "['optimal', 'optimal']"


def empty_model() -> Model:
    """No rows and no columns (a puzzle with nothing left to decide): solved by the empty point."""
    return integer_model([], [], [], 0, [], [], col_lower=[], col_upper=[])


@pytest.mark.parametrize("make", [empty_model, knapsack, infeasible_rows])
@pytest.mark.parametrize("name", NAMES)
def test_counts_are_never_sentinels(name, make):
    """nodes and lp_iterations are counts or None: a solver's -1 ("not run") never reaches an average."""
    result = solve(name, make(), time_limit=30)
    for count in (result.nodes, result.lp_iterations):
        assert count is None or (isinstance(count, int) and count >= 0), (result.nodes, result.lp_iterations)
    if make is empty_model and result.status != "error":  # solved by the empty point, never optimal without it
        assert result.status == "optimal" and result.x is not None and len(result.x) == 0, result


ADAPTERS = [info.name for info in registry.solvers() if isinstance(info.adapter, Adapter)]


@pytest.mark.parametrize("name", ADAPTERS)
def test_adapter_registers_what_it_declares(name):
    """The registry's record of an Adapter is the adapter's own: name, kind, reader, checks."""
    info = registry.get_solver(name)
    adapter = info.adapter
    assert (adapter.name, adapter.kind, adapter.all_different) == (info.name, info.kind, info.all_different)
    assert adapter.label and adapter.description
    assert (info.mps is not None) == adapter.reads_mps
    assert info.version() == adapter.version()


@pytest.mark.parametrize("name", ADAPTERS)
def test_adapter_refuses_options_that_set_the_harness_settings(name):
    adapter = registry.get_solver(name).adapter
    for option, setting in adapter.harness_options.items():
        with pytest.raises(ValueError, match=f"harness's {setting}"):
            registry.get_solver(name).check_options({option: 1})


@pytest.mark.parametrize("name", ADAPTERS)
def test_adapter_log_figures_are_result_fields(name):
    """A log table names result fields (or figures its adapter reads itself, such as CBC's lower bound)."""
    adapter = registry.get_solver(name).adapter
    own = {"lower_bound"} if name == "cbc" else set()
    assert adapter.log_table.figures <= {f.name for f in dataclasses.fields(SolverResult)} | own


def test_a_reading_and_a_result_share_one_list_of_figures():
    # issue 24: solvers.base.Reading repeated SolverResult's eight figure fields
    from puzzlebench.solvers.base import Reading
    from puzzlebench.solvers.contract import FIGURE_TYPES, SolveFigures
    figures = {f.name for f in dataclasses.fields(SolveFigures)}
    assert figures == set(FIGURE_TYPES) and {"nodes", "root_lp_time", "presolved_rows"} <= figures
    for cls in (Reading, SolverResult):
        assert issubclass(cls, SolveFigures) and not figures & set(vars(cls).get("__annotations__", {})), cls
    assert FIGURE_TYPES["nodes"] is int and FIGURE_TYPES["solver_time"] is float


def test_the_built_in_adapters_are_all_adapter_classes():
    built_in = [info for info in registry.solvers() if info.solve.__module__.startswith("puzzlebench.solvers.")]
    assert built_in and all(isinstance(info.adapter, Adapter) for info in built_in), \
        [info.name for info in built_in if not isinstance(info.adapter, Adapter)]


SCRIPTED_HARNESS_OPTIONS = {"limit": "time limit"}


class ScriptedAdapter(Adapter):
    """An adapter without a solver: each step logs its name; ``reading`` is what read returns
    (optimal at the root by default), ``failing`` the step that raises."""

    name, label, description = "scripted", "Scripted", "steps only"
    harness_options = SCRIPTED_HARNESS_OPTIONS
    log_table = LogTable((Section("presolve", (Rule(r"presolved (?P<presolved_rows>\d+) (?P<presolved_cols>\d+)"),
                                               Rule(r"emptied", values={"presolved_rows": 0, "presolved_cols": 0}))),
                          Section("root", (Rule(r"root LP at (?P<root_lp_time>[\d.]+)"),))))

    def __init__(self, reading=None, failing=None, log=""):
        self.reading = reading or Reading("optimal", nodes=1)
        self.failing, self.log, self.closed = failing, log, 0

    def _step(self, step):
        os.write(1, f"{step}\n".encode())
        if step == self.failing:
            raise RuntimeError(f"{step} failed")

    def version(self):
        return "Scripted 1.0"

    def start(self, options):
        self._step("start")
        return []

    def load_arrays(self, session, model):
        self._step("load")
        return "loaded"

    def set_common(self, session, options):
        self._step(f"common threads={options.threads} seed={options.seed}")

    def set_option(self, session, name, value):
        if name == "refused":
            raise ValueError(f"Scripted option {name} refused")
        self._step(f"option {name}={value}")

    def optimize(self, session):
        self._step("optimize")
        os.write(1, self.log.encode())
        if self.failing == "licence":
            raise RuntimeError("over the size limit")

    def read(self, session, loaded):
        assert loaded == "loaded"
        self._step("read")
        return self.reading

    def close(self, session):
        self.closed += 1

    def licence_refusal(self, exc):
        return "at most 10 columns" if "size limit" in str(exc) else None


def test_base_solve_runs_the_steps_in_order_with_the_log_captured(capfd):
    adapter = ScriptedAdapter()
    result = adapter.solve(knapsack(), SolveOptions(threads=2, seed=7, solver_options={"gap": 0.5}))
    assert result.log.splitlines() == ["start", "load", "common threads=2 seed=7", "option gap=0.5", "optimize",
                                       "read"]
    assert capfd.readouterr() == ("", "")
    assert adapter.closed == 1 and result.status == "optimal" and result.root_solved is True


def test_base_solve_reads_the_log_table_over_the_reading():
    adapter = ScriptedAdapter(Reading("time_limit", nodes=4, presolved_rows=9, root_lp_time=None),
                              log="presolved 12 34\nroot LP at 2\n")
    result = adapter.solve(knapsack(), SolveOptions())
    assert (result.presolved_rows, result.presolved_cols, result.root_lp_time) == (12, 34, 2.0)
    assert type(result.root_lp_time) is float and result.root_solved is False
    kept = ScriptedAdapter(Reading("optimal", nodes=0, presolved_rows=9, presolved_cols=8)).solve(knapsack(),
                                                                                                  SolveOptions())
    assert (kept.presolved_rows, kept.presolved_cols, kept.root_lp_time) == (9, 8, None)  # the log has none


def test_base_solve_gives_an_infeasible_run_emptied_by_presolve_no_presolved_size():
    result = ScriptedAdapter(Reading("infeasible", nodes=0), log="emptied\n").solve(knapsack(), SolveOptions())
    assert (result.presolved_rows, result.presolved_cols) == (None, None) and result.root_solved is True
    solved = ScriptedAdapter(Reading("optimal", nodes=0), log="emptied\n").solve(knapsack(), SolveOptions())
    assert (solved.presolved_rows, solved.presolved_cols) == (0, 0)


def test_base_finish_rounds_the_integer_columns_of_the_point_it_is_given():
    # issue 38: the solver process sends the point as the solver gives it; finish (the asking process) rounds it
    point = [0.9999999, -1e-9, 2.5000001, -0.4]
    result = ScriptedAdapter(Reading("optimal", x=point, integrality=np.array([True, True, False, True]))).solve(
        knapsack(), SolveOptions())
    assert isinstance(result.x, np.ndarray) and result.x.dtype == float
    assert result.x.tolist() == [1.0, 0.0, 2.5000001, 0.0] and not np.signbit(result.x).any()
    assert not hasattr(result, "integrality")
    given = ScriptedAdapter(Reading("optimal", x=np.array([0.25, 1.0]))).solve(knapsack(), SolveOptions())
    assert given.x.tolist() == [0.25, 1.0]  # no mask: the adapter rounded the point itself


def test_highs_attempt_leaves_the_rounding_to_finish():
    from puzzlebench.solvers.highs import HighsAdapter
    attempt = HighsAdapter().attempt(knapsack(), SolveOptions())
    assert attempt.reading.integrality is not None and attempt.reading.x is not None
    result = HighsAdapter().finish(attempt)
    assert result.status == "optimal" and result.x.tolist() == list(np.round(attempt.reading.x) + 0.0)


@pytest.mark.parametrize("nodes, in_presolve, root_nodes, expected", [
    (1, False, 1, True), (2, False, 1, False), (1, False, 0, False), (5, True, 1, True), (None, False, 1, False)])
def test_base_solve_root_solved_counts_the_root_as_the_adapter_says(nodes, in_presolve, root_nodes, expected):
    adapter = ScriptedAdapter(Reading("optimal", nodes=nodes, solved_in_presolve=in_presolve))
    adapter.root_nodes = root_nodes
    assert adapter.solve(knapsack(), SolveOptions()).root_solved is expected


@pytest.mark.parametrize("step", ["start", "load", "optimize", "read"])
def test_base_solve_turns_a_failing_step_into_an_error_with_the_log(step):
    adapter = ScriptedAdapter(failing=step, log="presolved 1 2\n")
    result = adapter.solve(knapsack(), SolveOptions())
    assert result.status == "error" and result.message == f"RuntimeError: {step} failed"
    assert result.log.splitlines()[-1] in (step, "presolved 1 2")
    assert (result.presolved_rows, result.nodes, result.root_solved) == (None, None, None)  # no figures
    assert adapter.closed == (0 if step == "start" else 1)


def test_base_solve_turns_a_licence_refusal_into_a_skipped_run():
    result = ScriptedAdapter(failing="licence").solve(knapsack(), SolveOptions())
    assert result.status == "skipped" and result.message == "Scripted licence size limit: at most 10 columns"


def test_base_check_options_refuses_harness_settings_and_refused_options():
    adapter = ScriptedAdapter()
    with pytest.raises(ValueError, match="harness's time limit"):
        adapter.check_options({"LIMIT": 3})
    with pytest.raises(ValueError, match="refused"):
        adapter.check_options({"fine": 1, "refused": 2})
    adapter.check_options({"fine": 1})
    assert adapter.closed == 2 and not adapter.reads_mps


def test_registering_an_adapter_class_fills_the_solver_record(monkeypatch):
    monkeypatch.setattr(registry, "_SOLVERS", dict(registry._SOLVERS))
    registry.adapter(ScriptedAdapter)
    info = registry._SOLVERS["scripted"]
    assert isinstance(info.adapter, ScriptedAdapter) and info.mps is None and info.kind == "mip"
    assert info.solve(knapsack(), SolveOptions()).status == "optimal" and info.version() == "Scripted 1.0"
