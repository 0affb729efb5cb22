"""``puzzlebench solve``: solve puzzles with one formulation on one solver."""

from __future__ import annotations

import itertools
import json
import sys


HELP = "solve puzzle(s) with a formulation and a solver"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ._common import add_input_arguments, count, gap, seconds, seed, threads
    p = sub.add_parser("solve", help=HELP,
                       description="Solve the puzzle(s) of PATH; print the grid and key figures, "
                                   "or one JSON record per puzzle with --json.")
    add_input_arguments(p, multi=True)
    p.add_argument("--formulation", default="binary", help="formulation name (default binary)")
    p.add_argument("--solver", default="highs",
                   help="solver adapter or configuration, e.g. highs, scip-cp (default highs)")
    p.add_argument("--solver-option", action="append", default=[], metavar="KEY=VALUE",
                   help="a solver option for the solver's own interface (repeatable), e.g. mip_lp_solver=ipm")
    p.add_argument("--solver-name", metavar="NAME",
                   help="the configuration name recorded in 'solver' (default: the --solver name)")
    p.add_argument("--seed", type=seed, default=0, help="random seed, 0..2147483646 (default 0)")
    p.add_argument("--time-limit", type=seconds, default=60.0, help="seconds per solve (default 60)")
    p.add_argument("--threads", type=threads, default=1, help="solver threads, 1..CPUs (default 1)")
    p.add_argument("--gap", type=gap, default=0.0, help="relative MIP gap, 0..1 (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON RunRecord per puzzle per line")
    p.add_argument("--count-solutions", type=count, metavar="K",
                   help="count solutions up to K with no-good cuts (K=2 certifies uniqueness), printing "
                        "each as it is found")
    p.add_argument("--count-time-limit", type=seconds, default=600.0, metavar="SEC",
                   help="with --count-solutions: seconds for the whole count of one puzzle; a count "
                        "cut short is reported as partial (default 600)")
    p.add_argument("--verbose", action="store_true", help="show the solver log")
    p.set_defaults(func=run)


def _options(args):
    from ..solvers.contract import SolveOptions
    return SolveOptions(threads=args.threads, seed=args.seed, time_limit=args.time_limit,
                        mip_gap=args.gap, verbose=args.verbose)


def run(args) -> int:
    from ..registry import get_formulation
    from ..run.worker import SolverProcess
    from ._common import read_entries, solver_config

    entries = read_entries(args)
    options = _options(args)
    args.solver = solver_config(args)
    for entry in entries:
        get_formulation(entry.puzzle.puzzle, args.formulation)
    with SolverProcess() as process:
        if args.count_solutions:
            _count(entries, args, options, process)
            return 0
        return _solve(entries, args, options, process)


def _progress(items, args, total: int):
    """``items`` with a progress bar on a terminal when there are several (tqdm imported only then)."""
    if total < 2 or not sys.stderr.isatty():
        return items
    from tqdm import tqdm
    return tqdm(items, total=total, desc=f"{args.formulation}/{args.solver.name}", unit="puzzle", file=sys.stderr)


def _count(entries, args, options, process) -> None:
    """Each solution as it is found (a grid, or a JSON line with --json), then the count of each
    puzzle: proven ("N solution(s)"), capped ("at least K"), or partial (the budget or a solve ran out)."""
    from ..io import format_solution
    from ..run.runner import count_solutions
    for entry in _progress(entries, args, len(entries)):
        def show(grid, entry=entry, numbers=itertools.count(1)):
            number = next(numbers)
            if args.json:
                print(json.dumps({"instance": entry.name, "solution": number, "grid": grid.tolist()}),
                      flush=True)
            else:
                print(f"# {entry.name}: solution {number}\n{format_solution(entry.puzzle, grid)}",
                      end="", flush=True)

        count, _, status = count_solutions(entry.puzzle, args.formulation, args.solver, args.count_solutions,
                                           options, process, budget=args.count_time_limit, on_solution=show)
        partial = status != "optimal"
        if args.json:
            print(json.dumps({"instance": entry.name, "solutions": count,
                              "complete": not partial and count < args.count_solutions,
                              "partial": partial, "status": status}), flush=True)
        elif partial:
            print(f"{entry.name}: partial count: {count} solution(s) found, then the search stopped "
                  f"({status}; budget {args.count_time_limit:g} s, {args.time_limit:g} s per solve)", flush=True)
        else:
            bound = "at least " if count == args.count_solutions else ""
            print(f"{entry.name}: {bound}{count} solution(s)", flush=True)


def _solve(entries, args, options, process) -> int:
    from ..io import format_solution
    from ..run.runner import FOUND, run_many

    bad = skipped = 0
    records = run_many(((entry.puzzle, entry.name) for entry in entries), args.formulation, args.solver,
                       options, process)
    for entry, record in zip(entries, _progress(records, args, len(entries)), strict=True):
        # a wrong grid, or a solver claiming a solution without one (the store's no_grid): exit 1
        bad += record.verified is False or (record.status in FOUND and record.solution is None)
        skipped += record.status == "skipped"
        if args.json:
            print(json.dumps(record.to_dict()), flush=True)
            continue
        if record.status == "skipped":
            print(f"# {record.instance}: skipped: {record.message}")
            continue
        print(f"# {record.instance}: {record.status} by {record.solver} ({record.solver_version}), "
              f"formulation {record.formulation}")
        print(f"# solver {record.solver_time or 0:.4f} s, wall {record.wall_time:.4f} s, "
              f"build {record.build_time:.4f} s, nodes {record.nodes}, "
              f"LP iterations {record.lp_iterations}, model {record.rows} x {record.cols}")
        if record.solution is not None:
            print(format_solution(entry.puzzle, record.solution), end="")
            print(f"# verified: {'yes' if record.verified else 'NO: ' + '; '.join(record.violations)}")
        elif record.status in FOUND:
            print(f"# no grid: the solver reports {record.status} without a solution ({record.message})")
        elif record.message:
            print(f"# {record.message}")
    if skipped:
        print(f"puzzlebench: {skipped} puzzle(s) skipped: formulation {args.formulation} does not apply or "
              f"could not be built (see the '# ... skipped' lines)", file=sys.stderr)
        return 2
    return 1 if bad else 0
