"""Named solver configurations: options to each solver's own interface, checked before any job starts,
recorded with every run, and the reference side of the analysis chosen by solver kind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io import read_puzzle
from puzzlebench.run.jobs import Job
from puzzlebench.run.runner import run
from puzzlebench.solvers.configs import SHIPPED, SolverConfig, ensure_runnable, parse_option, resolve
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.workflow.planner import plan

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "instances/sudoku/seed/matlab_cleve.txt"
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]


def seed_puzzle():
    return read_puzzle(SEED).puzzle


@pytest.mark.parametrize("adapter, options", [
    ("highs", {"mip_lp_solver": "ipm", "presolve": "off"}), ("scip", {"lp/solvefreq": -1}),
    ("scip", {"emphasis": "cpsolver", "heuristics": "off"}), ("cbc", {"cuts": "off"}),
    ("cpsat", {"search_branching": "FIXED_SEARCH"}), ("gurobi", {"MIPFocus": 1}),
    ("xpress", {"presolve": 0}), ("cplex", {"mip.strategy.search": 1}), ("copt", {"HeurLevel": 0})])
def test_good_options_are_accepted_and_recorded(adapter, options):
    config = SolverConfig(f"{adapter}-custom", adapter, options)
    ensure_runnable(config)
    record = run(seed_puzzle(), "binary", config, SolveOptions(time_limit=30))
    assert record.status == "optimal" and record.verified is True, record.message
    assert (record.solver, record.solver_adapter) == (f"{adapter}-custom", adapter)
    assert json.loads(record.solver_options) == options
    assert record.solver_kind == ("cp" if adapter == "cpsat" else "mip")


@pytest.mark.parametrize("adapter, options, reason", [
    ("highs", {"mip_lp_solver": "bogus"}, "not one of"), ("highs", {"nosuch_option": 1}, "unknown"),
    ("scip", {"lp/nosuch": 1}, "no parameter"), ("scip", {"lp/solvefreq": -5}, "invalid"),
    ("scip", {"emphasis": "nosuch"}, "not one of"), ("cbc", {"cuts": "bogus"}, "Illegal"),
    ("cbc", {"nosuch": 3}, "Unrecognized"), ("cpsat", {"nosuch": 1}, "no parameter"),
    ("cpsat", {"linearization_level": "many"}, "linearization_level"), ("gurobi", {"MIPFocus": 7}, "maximum"),
    ("gurobi", {"NoSuch": 1}, "Unknown parameter"), ("xpress", {"nosuch": 1}, "control"),
    ("cplex", {"mip.tolerances.mipgap": 5.0}, "too big"), ("cplex", {"mip.nosuch": 1}, "no parameter"),
    ("copt", {"NoSuch": 1}, "Invalid parameter")])
def test_bad_option_is_refused_with_the_solvers_reason(adapter, options, reason):
    with pytest.raises(PuzzleError, match=reason) as refused:
        ensure_runnable(SolverConfig("bad", adapter, options))
    assert "\n" not in str(refused.value)


def test_scip_cp_is_the_shipped_configuration_with_scips_own_cp_settings():
    import pyscipopt
    assert SHIPPED["scip-cp"] == resolve("scip-cp")
    assert (resolve("scip-cp").adapter, resolve("scip-cp").options) == \
        ("scip", {"emphasis": "cpsolver", "heuristics": "off"})
    from puzzlebench.solvers.scip import (
        check_scip_options,  # the settings the adapter applies
    )
    by_hand = pyscipopt.Model()
    by_hand.setEmphasis(pyscipopt.SCIP_PARAMEMPHASIS.CPSOLVER)
    by_hand.setHeuristics(pyscipopt.SCIP_PARAMSETTING.OFF)
    configured = pyscipopt.Model()
    from puzzlebench.solvers import scip
    scip._apply_meta(configured, resolve("scip-cp").options)
    assert configured.getParams() == by_hand.getParams()
    check_scip_options(resolve("scip-cp").options)
    record = run(seed_puzzle(), "binary", "scip-cp", SolveOptions(time_limit=30))
    assert record.solver == "scip-cp" and record.solver_adapter == "scip" and record.status == "optimal"


def _shipped_cases():
    from puzzlebench.puzzles import PUZZLE_NAMES
    from puzzlebench.registry import formulations
    return [(config, puzzle, f.name) for config in sorted(SHIPPED) for puzzle in PUZZLE_NAMES
            for f in formulations(puzzle)]


@pytest.mark.slow
@pytest.mark.parametrize("config, puzzle, formulation", _shipped_cases())
def test_every_shipped_configuration_solves_every_formulation_of_a_small_puzzle(config, puzzle, formulation):
    from puzzlebench.io.sets import get_set
    small = {"kenken": "kenken/generated"}.get(puzzle, f"{puzzle}/seed")  # KenKen has no seed post's set
    entry = get_set(small).entries()[0]
    record = run(entry.puzzle, formulation, config, SolveOptions(time_limit=60), instance=entry.name)
    if record.status == "skipped":  # the formulation does not apply to this puzzle (its message says why)
        assert record.message
        return
    assert record.solver == config and record.status == "optimal", record.message
    assert record.verified, record.violations


def test_cli_values_read_as_yaml_scalars_and_the_configuration_round_trips_through_the_job():
    assert parse_option("lp/solvefreq=-1") == ("lp/solvefreq", -1)
    assert parse_option("mip_lp_solver=ipm") == ("mip_lp_solver", "ipm")
    assert parse_option("presolve=false") == ("presolve", False)
    config = SolverConfig("x", "scip", {"lp/solvefreq": -1, "name": "1"})
    job = Job("sudoku/seed", ("binary",), config.name, adapter=config.adapter, solver_options=config.options)
    again = Job.from_json(job.to_json())
    assert again == job and again.solver_config == config  # a string "1" stays a string
    assert Job("sudoku/seed", ("binary",), "scip-cp").solver_config == SHIPPED["scip-cp"]


def test_the_planned_job_carries_its_configuration_to_batch(tmp_path):
    """The job JSON alone (as the Snakefile passes it) runs the configuration's adapter and options."""
    [job] = plan({"instance_sets": ["sudoku/seed"], "formulations": ["binary"], "solvers": ["scip-nolp"],
                  "max_instances": 1,
                  "solver_configs": {"scip-nolp": {"solver": "scip", "options": {"lp/solvefreq": -1}}}})
    assert (job.solver, job.adapter, job.solver_options) == ("scip-nolp", "scip", {"lp/solvefreq": -1})
    out = tmp_path / "chunk.jsonl"
    assert main(["batch", "--job", job.to_json(), "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    [row] = [r for r in rows if r.get("role") == "run"]
    assert (row["solver"], row["solver_adapter"], row["verified"]) == ("scip-nolp", "scip", True)
    assert json.loads(row["solver_options"]) == {"lp/solvefreq": -1}
    bad = Job("sudoku/seed", ("binary",), "x", adapter="highs", solver_options={"nosuch": 1}).to_json()
    assert main(["batch", "--job", bad, "-o", str(tmp_path / "bad.jsonl")]) == 2
    assert not (tmp_path / "bad.jsonl").exists()


def test_cli_solver_option_and_name_reach_the_record(capsys):
    code = main(["solve", str(SEED), "--solver", "highs", "--solver-option", "mip_lp_solver=ipm",
                 "--solver-name", "highs-ipm-cli", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0 and record["solver"] == "highs-ipm-cli" and record["solver_adapter"] == "highs"
    assert json.loads(record["solver_options"]) == {"mip_lp_solver": "ipm"}
    assert record["verified"] is True


@pytest.mark.parametrize("option", ["mip_lp_solver=bogus", "nosuch=1", "novalue"])
def test_cli_bad_solver_option_is_one_line_and_exit_2(option, capsys):
    assert main(["solve", str(SEED), "--solver", "highs", "--solver-option", option]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "error" in err


def test_config_declares_configurations_and_refuses_bad_ones():
    base = {"instance_sets": ["sudoku/seed"], "formulations": ["binary"]}
    jobs = plan({**base, "solvers": ["highs", "highs-ipm", "scip-nolp"],
                 "solver_configs": {"scip-nolp": {"solver": "scip", "options": {"lp/solvefreq": -1}}}})
    assert {job.solver for job in jobs} == {"highs", "highs-ipm", "scip-nolp"}
    for bad, reason in [({"x": {"solver": "highs", "options": {"nosuch": 1}}}, "solver x"),
                        ({"x": {"solver": "nosuchsolver"}}, "unknown solver"),
                        ({"x": {"options": {}}}, "solver_configs.x"),
                        ({"a b": {"solver": "highs"}}, "configuration name"),
                        ({"x": {"solver": "highs", "options": {"a": [1]}}}, "solver_configs.x.options.a"),
                        ({"x": {"solver": "highs", "opts": {}}}, "solver_configs.x")]:
        with pytest.raises(PuzzleError, match=reason):
            plan({**base, "solvers": list(bad), "solver_configs": bad})


def test_bad_config_option_stops_snakemake_before_any_job(tmp_path):
    config = tmp_path / "study.yaml"
    config.write_text(json.dumps({"instance_sets": ["sudoku/seed"], "formulations": ["binary"],
                                  "solvers": ["x"], "results": str(tmp_path / "results"),
                                  "solver_configs": {"x": {"solver": "highs", "options": {"nosuch": 1}}}}))
    done = subprocess.run([*SNAKEMAKE, "--cores", "1", "--configfile", str(config), "-d", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "nosuch" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_study_with_configurations_runs_through_the_workflow(tmp_path):
    """The issue's example: solvers [highs, gurobi, highs-ipm] plus a declared configuration."""
    config = tmp_path / "study.yaml"
    config.write_text(json.dumps({
        "instance_sets": ["sudoku/seed"], "formulations": ["binary"], "time_limit": 20,
        "solvers": ["highs", "gurobi", "highs-ipm", "cpsat", "cpsat-fixed"], "results": str(tmp_path / "results"),
        "solver_configs": {"cpsat-fixed": {"solver": "cpsat", "options": {"search_branching": "FIXED_SEARCH"}}}}))
    done = subprocess.run([*SNAKEMAKE, "--cores", "2", "--configfile", str(config), "-d", str(tmp_path)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    runs = pd.read_parquet(tmp_path / "results/runs.parquet")
    names = {"highs", "gurobi", "highs-ipm", "cpsat", "cpsat-fixed"}
    assert set(runs["solver"]) == names and runs["verified"].all()
    by_name = runs.groupby("solver").first()
    assert by_name.loc["highs-ipm", "solver_adapter"] == "highs"
    assert json.loads(by_name.loc["highs-ipm", "solver_options"]) == {"mip_lp_solver": "ipm"}
    assert by_name.loc["cpsat-fixed", "solver_kind"] == "cp" and by_name.loc["gurobi", "solver_kind"] == "mip"
    configurations = pd.read_csv(tmp_path / "results/tables/configurations.csv")
    assert names <= set(configurations["solver"])
    summary = (tmp_path / "results/summary.md").read_text()
    assert "highs-ipm: highs, mip, options {\"mip_lp_solver\": \"ipm\"}" in summary
    best = pd.read_csv(tmp_path / "results/tables/best_vs_cpsat.csv")
    assert best["cpsat_best"].str.split("/").str[1].isin(["cpsat", "cpsat-fixed"]).all()  # chosen by kind
    assert not best["mip_best"].str.contains("cpsat").any()
    figures = list((tmp_path / "results/figures").rglob("*.png"))
    assert figures


def test_solvers_verb_lists_every_shipped_configuration_in_aligned_columns(capsys):
    assert main(["solvers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines]
    assert set(SHIPPED) <= set(names)
    width = max(map(len, names))
    assert all(line[width] == " " and line[width + 1] != " " for line in lines)  # kind starts in one column
