"""``puzzlebench calibrate``: time every puzzle of a set on the reference configuration.

Writes ``<set folder>/calibration.csv`` (:mod:`puzzlebench.workflow.sampling`), the file the config key
``sample`` draws a study's puzzles from by difficulty.
"""

from __future__ import annotations

import sys


HELP = "time every puzzle of instance sets on a reference configuration"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ..workflow.sampling import REFERENCE
    from ._common import repeats, seconds, seed
    p = sub.add_parser(
        "calibrate", help=HELP,
        description="Solve every puzzle of each SET with one configuration (default: the seed model "
                    f"{REFERENCE['formulation']} on {REFERENCE['solver']}, one thread, seed {REFERENCE['seed']}, "
                    f"{REFERENCE['time_limit']:g} s) after an unrecorded warm-up, and write "
                    "<set folder>/calibration.csv: one row per puzzle (time = solver time + build time, the "
                    "time limit when unsolved; with --repeats the median), with the command, date, machine, "
                    "load and versions in '#' lines. The config key sample picks a study's puzzles from it.")
    p.add_argument("sets", nargs="+", metavar="SET", help="instance set names, e.g. kakuro/janko")
    p.add_argument("--formulation", default=REFERENCE["formulation"])
    p.add_argument("--solver", default=REFERENCE["solver"])
    p.add_argument("--time-limit", type=seconds, default=REFERENCE["time_limit"])
    p.add_argument("--seed", type=seed, default=REFERENCE["seed"])
    p.add_argument("--repeats", type=repeats, default=1,
                   help="solves per puzzle, 1 to 1000; the median time is kept")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..io.sets import get_set
    isets = [get_set(name) for name in args.sets]  # every name checked before anything runs
    for iset in isets:
        path = calibrate(iset, args)
        print(f"wrote {path}")
    return 0


def _median(values):
    import statistics
    return statistics.median(values) if values else None


def calibrate(iset, args):
    """Solve every puzzle of ``iset`` ``args.repeats`` times and write its calibration file."""
    import csv
    import datetime
    import shlex

    from ..registry import get_formulation
    from ..run.batch import warm_up
    from ..run.runner import configured, run_sequence, solver_version
    from ..run.worker import SolverProcess
    from ..store.provenance import cpu_pressure_total, load_average, machine
    from ..solvers.contract import SolveOptions
    from ..errors import PuzzleError
    from ..system.atomic import check_writable, replacing
    from ..workflow.sampling import CALIBRATION_COLUMNS, calibration_path
    path = calibration_path(iset)
    check_writable(path)  # said before any puzzle is solved, not after
    config, options = configured(args.solver, SolveOptions(threads=1, seed=args.seed, time_limit=args.time_limit))
    entries = iset.entries()
    if not entries:
        raise PuzzleError(f"instance set {iset.name} has no puzzles: nothing to calibrate", path=str(iset.path))
    get_formulation(iset.puzzle, args.formulation)
    facts = machine()
    load, pressure, started = load_average(), cpu_pressure_total(), datetime.datetime.now(datetime.timezone.utc)
    items = [(entry.puzzle, entry.name, args.formulation) for entry in entries for _ in range(args.repeats)]
    with SolverProcess() as process:
        warm_up([args.formulation], entries, config, options, process)
        runs = run_sequence(items, config, options, process)
        if sys.stderr.isatty():
            from tqdm import tqdm
            runs = tqdm(runs, total=len(items), desc=f"calibrate {iset.name}", unit="run", file=sys.stderr)
        records = list(runs)
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    after = cpu_pressure_total()
    share = None if pressure is None or after is None or elapsed <= 0 else (after - pressure) / elapsed
    command = shlex.join(["puzzlebench", "calibrate", iset.name, "--formulation", args.formulation, "--solver",
                          args.solver, "--time-limit", f"{args.time_limit:g}", "--seed", str(args.seed),
                          "--repeats", str(args.repeats)])
    with replacing(path, newline="") as fh:
        fh.write(f"# puzzlebench calibration of {iset.name}: every puzzle timed on one reference configuration\n"
                 f"# command: {command}\n"
                 f"# date: {started.isoformat(timespec='seconds')} ({elapsed:.0f} s)\n"
                 f"# machine: {facts['cpu_model']}; {facts['cpu_count']} CPUs; host {facts['hostname']}; "
                 f"{facts['platform']}\n"
                 f"# load: load average {load if load is not None else '--'} at the start; CPU pressure "
                 f"{'--' if share is None else f'{100 * share:.0f}%'} during the calibration\n"
                 f"# versions: puzzlebench {facts['puzzlebench_version']} (commit {facts['git_commit']}); "
                 f"Python {facts['python_version']}; {config.name} {solver_version(config.adapter)}\n"
                 "# time: solver_time + build_time in seconds (the analysis' time), the time limit when "
                 "unsolved; the median over the repeats\n")
        writer = csv.writer(fh)
        writer.writerow(CALIBRATION_COLUMNS)
        for number, entry in enumerate(entries):
            mine = records[number * args.repeats:(number + 1) * args.repeats]
            solved = [r for r in mine if r.status in ("optimal", "feasible") and r.verified]
            times = sorted((r.solver_time if r.solver_time is not None else r.wall_time or 0.0) + (r.build_time or 0.0)
                           for r in solved) if len(solved) == len(mine) else []
            first = mine[0]
            if not times:
                print(f"{iset.name}/{entry.name}: {first.status}"
                      + (f" ({first.message})" if getattr(first, "message", None) else "")
                      + f": recorded at the time limit {args.time_limit:g} s", file=sys.stderr)
            rows, cols = entry.puzzle.shape
            writer.writerow([entry.name, f"{rows}x{cols}", entry.puzzle.num_givens, args.formulation, config.name,
                             args.seed, f"{args.time_limit:g}", first.status if times or not solved else "mixed",
                             f"{_median(times) if times else args.time_limit:.6g}",
                             _fmt(_median([r.solver_time for r in mine if r.solver_time is not None])),
                             _fmt(_median([r.build_time for r in mine if r.build_time is not None])),
                             _fmt(_median([r.wall_time for r in mine if r.wall_time is not None])),
                             "" if first.nodes is None else first.nodes,
                             "" if first.preprocessing_solved is None else first.preprocessing_solved])
    return path


def _fmt(value) -> str:
    return "" if value is None else f"{value:.6g}"
