"""Arguments shared by the verbs: puzzle-file input, and numbers checked at the door.

Every number option is parsed by one of the types below: finite, and in the range
every solver accepts, else argparse prints one line naming the option and the
range, exit 2.  Seeds are 32-bit signed in HiGHS, SCIP and CP-SAT, and CBC
receives seed + 1 (it reads 0 as "seed from the clock"): hence 0..2**31 - 2.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Sequence
from functools import cached_property

MAX_SEED = 2**31 - 2
MAX_SECONDS = 1e6    # about 11.6 days: every solver's limit option takes it
MAX_THREADS = os.cpu_count() or 1
ROOT_HELP = "instance folder (default: $PUZZLEBENCH_INSTANCES, else the bundled instances/)"  # the --root of sets, validate


def number_in(kind: type, low, high, *, open_low: bool = False, what: str = ""):
    """An argparse type: a finite ``kind`` (int or float) in ``[low, high]`` (``(low, high]``)."""
    name = "an integer" if kind is int else "a finite number"
    bounds = f"{'>' if open_low else '>='} {low:g}" if high is None else \
        f"in {'(' if open_low else '['}{low:.15g}, {high:.15g}]" if kind is float else f"{low}..{high}"
    rule = f"{name}{' ' + what if what else ''} {bounds}"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text!r}") from None
        if (kind is float and not math.isfinite(value)) or value < low or (open_low and value == low) \
                or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text!r}")
        return value

    parse.__name__ = f"{kind.__name__} {bounds}"  # what argparse calls the type in its messages
    return parse


seconds = number_in(float, 0, MAX_SECONDS, open_low=True, what="of seconds")
seed = number_in(int, 0, MAX_SEED)
rng_seed = number_in(int, 0, 2**63 - 1)     # a seed numpy alone reads (generate, permute)
threads = number_in(int, 1, MAX_THREADS, what="of threads (this machine's CPUs)")
gap = number_in(float, 0, 1, what="(relative gap)")
index = number_in(int, 0, None)
count = number_in(int, 1, 10**9)
repeats = number_in(int, 1, 1000)   # the workflow's cap (config key repeats)
fraction = number_in(float, 0, 1, open_low=True)
non_negative = number_in(int, 0, None)


class Choices(Sequence):
    """An option's choices, computed when argparse first asks for them (to check a value, to write
    ``--help``): naming the formats or the puzzle kinds loads the kinds, which another verb's
    ``--help`` or an argument error needs not.  The option gives a ``metavar`` (argparse writes
    the choices in the usage line otherwise) and lists them in its help with ``%(choices)s``."""

    def __init__(self, compute: Callable[[], Sequence[str]]):
        self._compute = compute

    @cached_property
    def _values(self) -> tuple[str, ...]:
        return tuple(self._compute())

    def __getitem__(self, k):
        return self._values[k]

    def __len__(self) -> int:
        return len(self._values)


def _formats() -> tuple[str, ...]:
    from ..io import formats
    return formats()


def _puzzle_names() -> list[str]:
    from ..kinds import names
    return names()


FORMATS = Choices(_formats)
"""The ``--format`` choices: every format's name (:func:`puzzlebench.io.formats`)."""
PUZZLES = Choices(_puzzle_names)
"""The ``--puzzle`` choices: every puzzle kind's name (:func:`puzzlebench.kinds.names`)."""


def add_input_arguments(p, *, multi: bool = False, convention_help: str | None = None) -> None:
    """PATH plus --index/--format/--puzzle (and --all when ``multi``)."""
    p.add_argument("path", metavar="PATH", help="puzzle file")
    if multi:
        which = p.add_mutually_exclusive_group()
        which.add_argument("--index", type=index, default=0, help="0-based puzzle index in the file (default 0)")
        which.add_argument("--all", action="store_true", help="every puzzle of the file, in one process")
    else:
        p.add_argument("--index", type=index, default=0, help="0-based puzzle index in the file (default 0)")
    p.add_argument("--format", choices=FORMATS, metavar="FORMAT",
                   help="file format, one of %(choices)s (default: detected)")
    p.add_argument("--puzzle", choices=PUZZLES, metavar="PUZZLE",
                   help="puzzle type, one of %(choices)s, when the file does not say")
    add_layout_arguments(p, convention_help=convention_help)


def add_layout_arguments(p, *, convention_help: str | None = None) -> None:
    """How to read what a file does not say: --dzn-map, --dzn-convention, --csv-columns, --symbols, --size."""
    p.add_argument("--dzn-map", metavar="ROLE=NAME,...",
                   help="MiniZinc data: the variable of each role when the file's names differ (e.g. puzzle=x,n=size)")
    p.add_argument("--dzn-convention", choices=("first-cell", "clue-cell"),
                   help=convention_help or "MiniZinc Kakuro: clue rows give the run's first white cell or the clue "
                                           "cell (default: the one every row fits)")
    p.add_argument("--csv-columns", metavar="ROLE=COLUMN,...",
                   help="killer-csv / sudoku-csv: the column (header name or 1-based number) of cages, sums, "
                        "puzzle, solution")
    p.add_argument("--symbols", metavar="SPEC[/BLANKS]",
                   help="the grid's value symbols in order, e.g. 1-9A-G, 0-9A-F, A-P, 1-16 (numbers), "
                        "optionally /BLANKS (1-9/*); default: inferred from the whole file")
    p.add_argument("--size", metavar="N|RxC",
                   help="the grid's size when the file does not say it or reads as grids of several sizes")


def layout_of(args, *, convention: bool = True) -> dict:
    """The reader settings of the arguments of :func:`add_layout_arguments` (``convention`` False
    leaves --dzn-convention out, for a verb that uses it for its output)."""
    from ..io import parse_layout
    return parse_layout(args.dzn_map, args.csv_columns, args.symbols, args.size,
                        args.dzn_convention if convention else None)


def read_entries(args, *, convention: bool = True):
    """The entries the arguments select: all of them with --all, else the one at --index
    (``convention`` as for :func:`layout_of`)."""
    from ..errors import PuzzleError
    from ..io import read_puzzles
    entries = read_puzzles(args.path, format=args.format, puzzle=args.puzzle,
                           layout=layout_of(args, convention=convention))
    if getattr(args, "all", False):
        return entries
    if not 0 <= args.index < len(entries):
        raise PuzzleError(f"--index {args.index} is out of range: the file holds {len(entries)} "
                          f"puzzle(s)", path=args.path)
    return [entries[args.index]]


def solver_config(args):
    """The solver configuration of --solver, --solver-option and --solver-name, its options checked
    on the solver (a bad one is a PuzzleError: one line, exit 2)."""
    from ..solvers.configs import (
        SolverConfig,
        check_label,
        ensure_runnable,
        parse_options,
        resolve,
    )
    config = resolve(args.solver).with_options(parse_options(args.solver_option))
    if args.solver_name:
        config = SolverConfig(args.solver_name, config.adapter, config.options, config.description)
        check_label(config.name, config.adapter, config.options, "--solver-name")
    ensure_runnable(config)
    return config
