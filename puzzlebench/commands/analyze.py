"""``puzzlebench analyze``: tables, figures and summary.md from a results store."""

from __future__ import annotations

from pathlib import Path

from ..errors import PuzzleError
from ._common import MAX_SECONDS, number_in

DEFAULT_RUNS = "results/runs.parquet"


HELP = "tables, figures and summary.md from the results store"
"""The verb's line in ``puzzlebench --help``."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "analyze", help=HELP,
        description="Read RUNS_PARQUET (or a runs.csv, or the JSON-lines files that `batch` and "
                    "`solve --json` write) and write tables/ (CSV, Markdown, LaTeX), figures/ "
                    "(PNG, PDF), paper/, summary.md and index.html (the results page) into OUT_DIR.")
    p.add_argument("runs", nargs="*", default=[DEFAULT_RUNS], metavar="RUNS_PARQUET",
                   help=f"the results store (default {DEFAULT_RUNS}), or JSON-lines files")
    p.add_argument("-o", "--out-dir", metavar="OUT_DIR",
                   help="where to write (default: the folder of RUNS_PARQUET)")
    p.add_argument("--noise", metavar="NOISE_CSV",
                   help="the reference solves (default: noise.csv beside RUNS_PARQUET, if there)")
    p.add_argument("--shift", type=number_in(float, 0, MAX_SECONDS), default=0.01, metavar="S",
                   help="headline shift of the shifted geometric mean of time, seconds (default 0.01; "
                        "the shifts 1 and 10 are always added)")
    p.add_argument("--time-measure", choices=("time", "wall"), default="time",
                   help="time: solver_time + build_time (default); wall: wall_time + build_time")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..analysis import run_analysis  # matplotlib, seaborn and scipy: only when analysing
    sources = [Path(p) for p in args.runs]
    for path in sources:
        if not path.is_file():
            raise PuzzleError(f"no results store at {path} (run the workflow or `puzzlebench batch` first)")
    runs = sources[0]
    if args.shift < 0:
        raise PuzzleError(f"--shift must be >= 0, not {args.shift}")
    noise = Path(args.noise) if args.noise else runs.with_name("noise.csv")
    if args.noise and not noise.is_file():
        raise PuzzleError(f"no noise file at {noise}")
    paths = run_analysis(sources, Path(args.out_dir) if args.out_dir else runs.parent,
                         noise if noise.is_file() else None, (args.shift, 1, 10), args.time_measure)
    summary, page = (next(p for p in paths if p.name == name) for name in ("summary.md", "index.html"))
    print(f"wrote {len(paths)} files; summary: {summary}; results page: {page}")
    return 0
