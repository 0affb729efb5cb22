"""``puzzlebench generate``: write a folder of new puzzles, each certified to have one solution.

One run makes ``--count`` puzzles of every ``--size``, each written in the
native format as ``DIR/<label>-<i>.txt`` with its solution in
``<label>-<i>.solution.txt`` as soon as it is made, and after each puzzle
``set.yaml`` and a ``SOURCE.md`` (so an interrupted run leaves a valid set of the
puzzles made so far), the latter holding the full command that regenerates the folder (every option spelled out) and the
procedure (see :mod:`puzzlebench.generators`).  The difficulty knobs take one
value, or one per size.
"""

from __future__ import annotations

import re
import shlex
import sys


def generating_kinds() -> tuple[str, ...]:
    """The kinds that have a generator (the PUZZLE choices)."""
    from ..kinds import kinds
    return tuple(k.name for k in kinds() if k.generates)


def knobs() -> dict[str, tuple[str, ...]]:
    """Each difficulty or rule option (argparse dest) -> the kinds it applies to: every option some
    kind names in its ``knobs`` (the shared ones below, and those a kind adds with its
    ``generate_options``); an option is refused for a kind that does not name it."""
    from ..kinds import kinds
    every = dict.fromkeys(knob for k in kinds() for knob in k.knobs)
    return {knob: tuple(k.name for k in kinds() if knob in k.knobs) for knob in every}


MAX_PUZZLES = 100_000  # per size: more than any shipped collection (magictour1465), far less than a disk


HELP = "generate puzzles with exactly one solution, certified by a MIP solver"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ..kinds.kakuro.puzzle import DEFAULT_DENSITY
    from ._common import count, fraction, non_negative, number_in, rng_seed, seconds
    taking = knobs()

    def takes(knob: str) -> str:  # the PUZZLEs a knob applies to, as the kinds say (their knobs)
        return "/".join(taking.get(knob, ()))
    p = sub.add_parser(
        "generate", help=HELP,
        description="Generate --count puzzles of each --size into DIR: DIR/<label>-<i>.txt in the native format, "
                    "its solution in <label>-<i>.solution.txt, plus set.yaml and SOURCE.md (the command that "
                    "regenerates the folder, and how the puzzles are made). The same seed gives the same files. "
                    "Difficulty knobs take one value or one per size.")
    puzzles = generating_kinds()
    p.add_argument("puzzle", choices=puzzles, metavar="PUZZLE", help=f"one of {', '.join(puzzles)}")
    p.add_argument("--size", nargs="+", required=True, metavar="SIZE",
                   help="grid sizes: N (an N x N grid) or RxC (Kakuro and Takuzu)")
    p.add_argument("--count", type=number_in(int, 1, MAX_PUZZLES), required=True, metavar="N",
                   help=f"puzzles per size, 1..{MAX_PUZZLES}")
    p.add_argument("--seed", type=rng_seed, required=True, metavar="S", help="random seed (>= 0); fixes every puzzle")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (created if missing)")
    p.add_argument("--box", nargs="+", metavar="RxC",
                   help=f"{takes('box')}: box shape, R rows x C columns (default: the squarest)")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--clues", nargs="+", type=non_negative, metavar="K", help=f"{takes('clues')}: givens to leave")
    target.add_argument("--blank-fraction", nargs="+", type=fraction, metavar="F",
                        help=f"{takes('blank_fraction')}: share of cells to blank, in (0, 1]; 1 digs to a minimal puzzle "
                             "(default 0.6 Sudoku, 1 Takuzu)")
    p.add_argument("--difficulty", choices=("logic", "unique"),
                   help=f"{takes('difficulty')}: 'logic' keeps every puzzle solvable by propagation alone (singles; "
                        "Takuzu's pair, sandwich and balance rules), 'unique' (default) digs on, past what "
                        "propagation solves, while the puzzle stays unique")
    p.add_argument("--max-cage", nargs="+", type=count, metavar="K",
                   help=f"{takes('max_cage')}: largest cage, at most N (default: the smaller of N and the "
                        "kind's default, spelled out in the command SOURCE.md records)")
    p.add_argument("--diagonal", action="store_true", help=f"{takes('diagonal')}: both diagonals hold 1..N too (Killer-X)")
    p.add_argument("--density", nargs="+", type=number_in(float, 0, 1), metavar="D",
                   help=f"{takes('density')}: share of black cells outside the clue row and column (default {DEFAULT_DENSITY})")
    p.add_argument("--distinct", action="store_true", help=f"{takes('distinct')}: no two equal rows or columns")
    from ..kinds import kinds
    for kind in kinds():  # the options only one kind has: the kind adds them
        if kind.generates:
            kind.generate_options(p)
    p.add_argument("--solver", default="highs", help="MIP solver of the uniqueness certificate (default highs)")
    p.add_argument("--search-solver", default="cpsat",
                   help="solver of the many uniqueness searches while generating (default cpsat)")
    p.add_argument("--time-limit", type=seconds, default=120.0, metavar="SEC",
                   help="seconds allowed per solve; running out is an error (default 120)")
    p.set_defaults(func=run)


def parse_size(text: str, square: bool) -> tuple[int, int]:
    """``"9"`` -> (9, 9); ``"6x8"`` -> (6, 8) (refused for square puzzles unless R = C)."""
    from ..errors import PuzzleError
    match = re.fullmatch(r"([0-9]{1,3})(?:x([0-9]{1,3}))?", text)
    if not match:
        raise PuzzleError(f"--size {text!r} is not N or RxC")
    rows = int(match[1])
    cols = int(match[2]) if match[2] else rows
    if square and rows != cols:
        raise PuzzleError(f"--size {text}: this puzzle is square; give N")
    return rows, cols


def check_applicable(args) -> None:
    """Refuse a knob the puzzle has no use for: silently ignoring it would mislabel the set."""
    from ..errors import PuzzleError
    for knob, puzzles in knobs().items():
        value = getattr(args, knob)
        if value not in (None, False) and args.puzzle not in puzzles:
            raise PuzzleError(f"--{knob.replace('_', '-')} does not apply to {args.puzzle} "
                              f"(only to {', '.join(puzzles)})")


def build_specs(args) -> list:
    """The spec of every size, in the order given (the kind's ``specs``)."""
    from ..errors import PuzzleError
    from ..kinds import get_kind

    kind = get_kind(args.puzzle)
    check_applicable(args)
    sizes = [parse_size(s, kind.square) for s in args.size]
    if len(set(sizes)) != len(sizes):
        raise PuzzleError("--size lists a size twice")
    return kind.specs(args, sizes)


def canonical_command(args, specs) -> str:
    """The command line that regenerates the set, every option that applies spelled out."""
    from ..kinds import get_kind
    words = ["puzzlebench", "generate", args.puzzle, "--size", *args.size, "--count", str(args.count),
             "--seed", str(args.seed), *get_kind(args.puzzle).command(args, specs),
             "--solver", args.solver, "--search-solver", args.search_solver,
             "--time-limit", f"{args.time_limit:g}", "-o", args.output]
    return shlex.join(words)


def run(args) -> int:
    import time
    from pathlib import Path

    from ..errors import PuzzleError
    from ..generators import UniquenessOracle, generate_puzzle, procedure, puzzle_kind
    from ..generators.output import (
        SetEntry,
        describe,
        puzzle_stem,
        set_files,
        write_puzzle,
        write_set_files,
    )

    specs = build_specs(args)
    stems = [[puzzle_stem(spec.label, i, args.count) for i in range(args.count)] for spec in specs]
    folder = Path(args.output)
    if folder.exists():
        if not folder.is_dir():
            raise PuzzleError(f"{folder} exists and is not a folder")
        foreign = sorted(p.name for p in folder.iterdir()
                         if not p.name.startswith(".") and p.name not in set_files([s for row in stems for s in row]))
        if foreign:
            raise PuzzleError(f"{folder} holds {foreign[0]}, which this run would not write: "
                              f"choose an empty folder or the one an identical run wrote")
    entries = []
    command = canonical_command(args, specs)

    def write_set() -> None:  # set.yaml and SOURCE.md for the puzzles written so far: a valid set
        write_set_files(folder, puzzle_kind(specs[0]), command, procedure(specs[0]), args.seed, entries)

    with UniquenessOracle(certify_solver=args.solver, search_solver=args.search_solver,
                          time_limit=args.time_limit) as oracle:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            for spec, spec_stems in zip(specs, stems):
                for index, stem in enumerate(spec_stems):
                    start = time.perf_counter()
                    generated = generate_puzzle(spec, args.seed, index, oracle)
                    write_puzzle(folder, stem, generated)
                    entries.append(SetEntry(stem, spec.parameters, generated))
                    write_set()
                    notes = "".join(f"; {note}" for note in generated.notes)
                    print(f"{folder / stem}.txt: {describe(generated.puzzle)}{notes} "
                          f"[{time.perf_counter() - start:.1f} s]", flush=True)
        except KeyboardInterrupt:
            if entries:
                write_set()
                print(f"interrupted: {folder} holds the {len(entries)} puzzles made so far, a valid set; "
                      f"rerunning the same command makes the whole set", file=sys.stderr)
            raise
    print(f"wrote {len(entries)} puzzles, each certified unique by {entries[0].generated.certificate.solver_version}, "
          f"with set.yaml and SOURCE.md to {folder}")
    return 0
