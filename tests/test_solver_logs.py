"""The adapters' log tables on real logs (tests/data/logs, see its README), and the table mechanics."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.solvers import cbc, copt, cplex, cpsat, gurobi, highs, xpress
from puzzlebench.solvers.logs import LogTable, Rule, Section, number

LOGS = Path(__file__).resolve().parent / "data" / "logs"
TABLES = {"highs": highs.LOG, "cbc": cbc.LOG, "cpsat": cpsat.LOG, "gurobi": gurobi.LOG, "xpress": xpress.LOG,
          "cplex": cplex.LOG, "copt": copt.LOG}

# the figures read off each log by hand (line numbers of the log in the comments)
EXPECTED = {
    ("highs", "hardest-binary"): {"presolved_rows": 143, "presolved_cols": 148},  # 15; no tree line has LpIters
    ("highs", "killer-seed-binary"): {"presolved_rows": 385, "presolved_cols": 570, "root_lp_time": 0.3},  # 11, 29
    ("highs", "infeasible-sudoku-binary"): {},  # 10: "Presolve: Infeasible"
    ("highs", "frisch25-binary"): {"presolved_rows": 942, "presolved_cols": 1515, "root_lp_time": 0.3},  # 14, 32
    ("cbc", "hardest-binary"): {"presolved_rows": 173, "presolved_cols": 169, "root_lp_time": 0.015,  # 48, 40
                                "lower_bound": 0, "nodes": 7, "lp_iterations": 3576, "solver_time": 2.36992},
    ("cbc", "killer-seed-binary"): {"presolved_rows": 400, "presolved_cols": 614, "root_lp_time": 0.177,
                                    "lower_bound": 0, "nodes": 0, "lp_iterations": 0, "solver_time": 0.628753},
    ("cbc", "infeasible-sudoku-binary"): {"solver_time": 0.00167608},  # 28: bound tightening proved it
    ("cbc", "frisch25-binary"): {"presolved_rows": 1068, "presolved_cols": 1583, "root_lp_time": 0.115,
                                 "lower_bound": 0, "nodes": 260, "lp_iterations": 90468, "solver_time": 20.0409},
    ("cpsat", "hardest-binary"): {"presolved_rows": 172, "presolved_cols": 165},  # 111-114: one #kExactlyOne
    ("cpsat", "killer-seed-binary"): {"presolved_rows": 44 + 314 + 25, "presolved_cols": 560},  # 134-139
    ("cpsat", "infeasible-sudoku-binary"): {"presolved_rows": 0, "presolved_cols": 0},  # 22: closed by presolve
    ("gurobi", "hardest-binary"): {"presolved_rows": 164, "presolved_cols": 160},  # 28
    ("gurobi", "killer-seed-binary"): {"presolved_rows": 0, "presolved_cols": 0},  # 27: all removed
    ("gurobi", "infeasible-sudoku-binary"): {},
    ("gurobi", "janko16-binary"): {},
    ("xpress", "hardest-binary"): {"presolved_rows": 108, "presolved_cols": 136},  # 22-23
    ("xpress", "killer-seed-binary"): {"presolved_rows": 338, "presolved_cols": 587},
    ("xpress", "infeasible-sudoku-binary"): {},
    ("xpress", "janko16-binary"): {},
    ("cplex", "hardest-binary"): {"presolved_rows": 189, "presolved_cols": 185},  # 10
    ("cplex", "killer-seed-binary"): {"presolved_rows": 383, "presolved_cols": 605},  # 10, not the 18 after it
    ("cplex", "infeasible-sudoku-binary"): {},
    ("cplex", "janko16-binary"): {},
    ("copt", "hardest-binary"): {"presolved_rows": 160, "presolved_cols": 155},  # 36-37
    ("copt", "killer-seed-binary"): {"presolved_rows": 0, "presolved_cols": 0},  # 23: solved during presolve
    ("copt", "infeasible-sudoku-binary"): {"presolved_rows": 0, "presolved_cols": 0},
    ("copt", "janko16-binary"): {},
}


def read_log(solver: str, name: str) -> str:
    with open(LOGS / solver / f"{name}.log", encoding="utf-8", newline="") as handle:
        return handle.read()


def test_every_recorded_log_has_its_expected_figures():
    recorded = {(path.parent.name, path.stem) for path in LOGS.glob("*/*.log")}
    assert recorded == set(EXPECTED)


@pytest.mark.parametrize("solver, name", sorted(EXPECTED))
def test_log_table_reads_the_figures_of_a_real_log(solver, name):
    figures = TABLES[solver].parse(read_log(solver, name))
    assert figures == pytest.approx(EXPECTED[solver, name])
    assert all(isinstance(figures[k], int) for k in figures if k in ("presolved_rows", "presolved_cols", "nodes"))


def test_copt_names_its_size_limit_in_its_own_log_words():
    message = copt.CoptAdapter().licence_message("COPT error (LICENSE)", read_log("copt", "janko16-binary"))
    assert message == ("COPT licence size limit: No license found. The size is limited to 2000 variables and "
                       "2000 constraints; The problem has 4096 variables, exceeding the size limit of 2000")


def test_the_earliest_match_in_a_section_wins_and_fixed_values_compete():
    table = LogTable((Section("presolve", (Rule(r"size (?P<rows>\d+) (?P<cols>\d+)"),
                                           Rule(r"all removed", values={"rows": 0, "cols": 0}))),))
    assert table.parse("size 5 6\nall removed\nsize 3 4\n") == {"rows": 5, "cols": 6}
    assert table.parse("all removed\nsize 3 4\n") == {"rows": 0, "cols": 0}
    assert table.parse("nothing\n") == {}
    assert table.figures == {"rows", "cols"}


def test_a_section_spans_from_its_start_to_its_end_and_totals_add_up():
    section = Section("presolved", (Rule(r"^#k\w+: (?P<rows>[\d']+)", total=True),), start=r"^Presolved", end=r"^\[")
    log = "#kLinear: 100\nPresolved model\n#kOne: 1'000\n#kTwo: 2\n[Symmetry]\n#kThree: 7\n"
    assert section.parse(log) == {"rows": 1002}
    assert section.parse("Presolved model\n[x]\n") == {"rows": 0}  # the section is there, with no constraint
    assert section.parse("#kOne: 3\n") == {}  # no section


def test_an_earlier_section_wins_a_figure_two_sections_name():
    table = LogTable((Section("root", (Rule(r"root (?P<t>[\d.]+)"),)), Section("tree", (Rule(r"tree (?P<t>[\d.]+)"),))))
    assert table.parse("tree 2.5\nroot 1.5\n") == {"t": 1.5}
    assert table.parse("tree 2.5\n") == {"t": 2.5}


@pytest.mark.parametrize("text, value", [("12", 12), ("2'657", 2657), ("-3", -3), ("0.115", 0.115), ("1e-3", 0.001)])
def test_numbers_are_ints_when_integral(text, value):
    assert number(text) == value and type(number(text)) is type(value)
