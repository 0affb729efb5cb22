"""``puzzlebench validate``: check instance sets before benchmarking them.

For each set: parse every file (a bad file is reported as ``file:line: problem``
and the next file is read), compare the parsed count with ``set.yaml``'s
``count``, check every reference solution with :func:`puzzlebench.checker.check`
(a puzzle whose set lists several distinct valid solutions is reported as
"N listed solutions: not unique", a failure under ``--unique``) and, with
``--unique``, certify that each puzzle has exactly one solution by counting
solutions up to 2 with no-good cuts.  Problems go to stdout, one per
line; a summary line per set follows.  Exit 2 when a file or set definition is
bad, else 1 when a solution or uniqueness check failed, else 0.  The checks
themselves are :mod:`puzzlebench.run.validation`'s (``import`` runs them too).
"""

from __future__ import annotations

import sys

from ._common import ROOT_HELP, seconds


HELP = "parse instance sets, check reference solutions and uniqueness"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("validate", help=HELP,
                       description="Parse every file of the sets (reporting each bad file as "
                                   "file:line: problem), compare the count with set.yaml, check every "
                                   "reference solution and, with --unique, certify that each puzzle has "
                                   "exactly one solution. Exit 2 when a file or set.yaml is bad, 1 when "
                                   "a solution or uniqueness check fails, else 0.")
    p.add_argument("sets", nargs="+", metavar="SET", help="set name, glob (sudoku/*) or tag:NAME")
    p.add_argument("--unique", action="store_true",
                   help="also certify that every puzzle has exactly one solution (solves each twice)")
    p.add_argument("--solver", default="highs", help="solver for --unique (default highs)")
    p.add_argument("--formulation", default="binary",
                   help="formulation for --unique, with binary variables only (default binary)")
    p.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds per solve for --unique (default 60)")
    p.add_argument("--root", metavar="DIR", help=ROOT_HELP)
    p.set_defaults(func=run)


def run(args) -> int:
    from tqdm import tqdm

    from ..io.sets import select_sets
    from ..run.validation import Uniqueness, validate_set
    from ..registry import get_formulation
    from ..solvers.configs import resolve

    sets = select_sets(args.sets, args.root)
    uniqueness = None
    if args.unique:
        resolve(args.solver)
        for instance_set in sets:
            get_formulation(instance_set.puzzle, args.formulation)
        uniqueness = Uniqueness(args.formulation, args.solver, args.time_limit)

    def say(line: str) -> None:
        tqdm.write(line, file=sys.stdout)

    worst = 0
    try:
        for instance_set in sets:
            report = validate_set(instance_set, say, uniqueness)
            print(report.summary(args.unique))
            worst = max(worst, report.exit_code)
    finally:
        if uniqueness is not None:
            uniqueness.close()
    return worst
