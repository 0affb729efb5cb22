"""``puzzlebench permute``: write symmetry-transformed copies of a puzzle.

Each copy is an equivalent instance (see :mod:`puzzlebench.transforms` for the
symmetries of each puzzle), written in the native format as
``DIR/<name>~p<id>.txt`` with ids 1..N; the same seed gives the same copies.
When a reference solution is known (in the puzzle file, or ``--solution``) it
is checked, mapped to every copy and written beside it as
``DIR/<name>~p<id>.solution.txt``.  Each copy is written as soon as it is made.  ``<name>`` is the puzzle file's stem, with
``-<puzzle name>`` appended when the file holds several puzzles.
"""

from __future__ import annotations


HELP = "write symmetry-transformed copies of a puzzle (and its solution)"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    from ..transforms import MAX_COPIES, SYMMETRIES
    from ._common import add_input_arguments, number_in, rng_seed
    p = sub.add_parser("permute", help=HELP,
                       description="Write N equivalent copies of the puzzle of PATH in the native format "
                                   "as DIR/<name>~p<id>.txt (ids 1..N, fixed by the seed), and the mapped "
                                   "reference solution, when known, as DIR/<name>~p<id>.solution.txt. "
                                   "<name> is the file's stem (plus -<puzzle name> if the file holds several).")
    add_input_arguments(p)
    p.add_argument("--count", type=number_in(int, 1, MAX_COPIES), required=True, metavar="N",
                   help=f"number of copies, 1..{MAX_COPIES} (at most the puzzle's distinct symmetries)")
    p.add_argument("--seed", type=rng_seed, required=True, metavar="S", help="random seed; fixes the copies")
    p.add_argument("--kinds", nargs="+", choices=SYMMETRIES, default=list(SYMMETRIES), metavar="KIND",
                   help=f"symmetries to draw from: {', '.join(SYMMETRIES)} (default: all the puzzle admits)")
    p.add_argument("--solution", metavar="FILE", help="reference solution file (default: the one in PATH, if any)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory (created if missing)")
    p.set_defaults(func=run)


def copy_stem(path, entry, entries_in_file: int) -> str:
    """The ``<name>`` of the copies' file names."""
    from pathlib import Path
    stem = Path(path).stem
    return stem if entries_in_file == 1 else f"{stem}-{entry.name}"


def run(args) -> int:
    import dataclasses
    from pathlib import Path

    from ..checker import check
    from ..errors import PuzzleError
    from ..io import format_puzzle, format_solution, read_puzzles, read_solution
    from ..system.atomic import write_whole
    from ..transforms import check_copies, iter_permuted_copies
    from ._common import layout_of

    entries = read_puzzles(args.path, format=args.format, puzzle=args.puzzle, layout=layout_of(args))
    if not 0 <= args.index < len(entries):
        raise PuzzleError(f"--index {args.index} is out of range: the file holds {len(entries)} puzzle(s)",
                          path=args.path)
    entry = entries[args.index]
    puzzle = dataclasses.replace(entry.puzzle, name=copy_stem(args.path, entry, len(entries)))
    solution = read_solution(args.solution, entry.puzzle) if args.solution else entry.solution
    if solution is not None and (violations := check(entry.puzzle, solution)):
        raise PuzzleError(f"the reference solution is wrong: {violations[0]}"
                          + (f" (and {len(violations) - 1} more problems)" if len(violations) > 1 else ""),
                          path=args.solution or args.path)
    check_copies(puzzle, args.count, args.kinds)  # before the folder is made
    out = Path(args.output)
    _refuse_overwrites(out, puzzle.name, args.count)
    out.mkdir(parents=True, exist_ok=True)
    for _, transform, copy in iter_permuted_copies(puzzle, args.count, args.seed, args.kinds):  # each written as made
        write_whole(out / f"{copy.name}.txt", format_puzzle(copy))
        if solution is not None:
            write_whole(out / f"{copy.name}.solution.txt", 
                format_solution(copy, transform.map_solution(solution)))
    extra = " with their solutions" if solution is not None else ""
    print(f"wrote {args.count} copies of {puzzle.name}{extra} to {out}/{puzzle.name}~p1..{args.count}.txt")
    return 0


def _refuse_overwrites(out: Path, stem: str, count: int) -> None:
    """PuzzleError when ``out`` is not a folder or already holds a file this run would write (as
    generate and import refuse a folder holding files they would not write)."""
    import os

    from ..errors import PuzzleError
    if out.exists() and not out.is_dir():
        raise PuzzleError("exists and is not a folder", path=str(out))
    if out.is_dir():
        names = {f"{stem}~p{i}{suffix}" for i in range(1, count + 1) for suffix in (".txt", ".solution.txt")}
        clash = sorted(name for name in os.listdir(out) if name in names)
        if clash:
            raise PuzzleError(f"exists: permute does not overwrite (remove it or choose another folder; "
                              f"{len(clash)} file(s) of this run are there)", path=str(out / clash[0]))
