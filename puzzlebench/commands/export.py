"""``puzzlebench export``: write a formulation's model as MPS, or the puzzle in another file format.

``--to`` picks what is written: ``mps`` (the model of ``--formulation``) or a
puzzle format (``dzn`` for MiniZinc, ``native``, ``lines``, ``grid``,
``sudoku-csv``, ``killer-json``, ...).  Without it the suffix of ``-o``
decides (``.dzn`` -> dzn, ``.sdk`` -> grid, anything else -> mps).
``--format`` stays the format of the input file, as for every verb, and
``--dzn-convention`` is the Kakuro convention of the dzn written (the input's
is detected).
"""

from __future__ import annotations

from pathlib import PurePath

SUFFIX_FORMATS = {".dzn": "dzn", ".sdk": "grid", ".mps": "mps"}


HELP = "write the model of a puzzle as MPS, or the puzzle as MiniZinc data (dzn)"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ..io import FORMATS
    from ._common import add_input_arguments
    p = sub.add_parser("export", help=HELP,
                       description="Write the MPS model of a formulation, or the puzzle itself in another "
                                   "format (--to dzn writes a MiniZinc data file). --format is the input format.")
    add_input_arguments(p, convention_help="--to dzn: write Kakuro clue rows from the run's first white cell "
                                           "(first-cell, the default) or from the clue cell (clue-cell, as "
                                           "the MiniZinc benchmarks' kakuro.mzn reads)")
    p.add_argument("--formulation", default="binary", help="formulation name, for --to mps (default binary)")
    p.add_argument("--to", choices=("mps", *FORMATS), metavar="FORMAT",
                   help=f"what to write: mps or a puzzle format ({', '.join(FORMATS)}); "
                        "default from the -o suffix: .dzn -> dzn, .sdk -> grid, else mps")
    p.add_argument("-o", "--output", required=True, help="output file (.mps, .dzn, ...)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ._common import read_entries
    entry = read_entries(args, convention=False)[0]
    target = args.to or SUFFIX_FORMATS.get(PurePath(args.output).suffix.lower(), "mps")
    if target != "mps":
        from ..io import format_puzzle
        text = format_puzzle(entry.puzzle, target,
                             {"dzn": {"convention": args.dzn_convention}} if args.dzn_convention else None)
        from ..system.atomic import write_whole
        write_whole(args.output, text)
        print(f"wrote {args.output}: {entry.puzzle.puzzle} {'x'.join(map(str, entry.puzzle.shape))} as {target}")
        return 0
    from ..run.runner import build
    model = build(entry.puzzle, args.formulation).model
    model.to_mps(args.output)
    s = model.stats()
    print(f"wrote {args.output}: {s.rows} rows, {s.cols} columns ({s.binaries} binary, "
          f"{s.integers} integer), {s.nonzeros} nonzeros")
    return 0
