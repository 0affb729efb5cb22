"""``puzzlebench import``: turn public puzzle files into a validated instance set.

Every SOURCE (a file, or a folder whose files are read in name order) is read
first, with its reference solutions (those in the file, or in a companion
``<stem>.solution<suffix>``); a bad file stops the import before anything is
written.  Then the set folder gets one native file per puzzle (``<stem>.txt``
and ``<stem>.solution.txt`` when there is a solution) or, with
``--keep-files``, the source files unchanged, with a ``set.yaml`` that says
how to read them; ``set.yaml`` carries the ``source`` and ``licence`` given
as options and ``SOURCE.md`` is a stub to complete.  Last, ``validate`` runs
on the new set (``--unique`` certifies uniqueness with a solver); its exit
code is the command's.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from fnmatch import fnmatchcase
from pathlib import Path

_STEM = re.compile(r"[^A-Za-z0-9_.-]+")


def register(sub) -> None:
    from ..io import FORMATS
    from ..puzzles import PUZZLE_NAMES
    from ._common import add_layout_arguments
    p = sub.add_parser("import", help="make a validated instance set from puzzle files in any layout",
                       description="Read SOURCE files (or folders of them) in any format puzzlebench reads, "
                                   "write them as an instance set in DIR (instances/<puzzle>/<set>) with "
                                   "their reference solutions, set.yaml and a SOURCE.md stub, then validate it.")
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="puzzle file or folder of puzzle files")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the set folder to create, instances/<puzzle>/<set> (must be new or empty)")
    p.add_argument("--puzzle", choices=PUZZLE_NAMES, help="puzzle type (default: the folder's group, or the files')")
    p.add_argument("--format", choices=FORMATS, help="format of the sources (default: detected per file)")
    add_layout_arguments(p)
    p.add_argument("--distinct", action="store_true", help="Takuzu: rows and columns must be distinct")
    p.add_argument("--diagonal", action="store_true", help="Killer-X: both diagonals hold 1..N")
    p.add_argument("--box", metavar="RxC", help="Sudoku/Killer box shape when it is not the squarest")
    p.add_argument("--source", required=True, help="set.yaml source: where the puzzles come from, one line")
    p.add_argument("--licence", required=True, help="set.yaml licence: the licence the puzzles are under")
    p.add_argument("--tags", nargs="+", default=[], metavar="TAG", help="set.yaml tags")
    p.add_argument("--keep-files", action="store_true",
                   help="copy the source files unchanged (one multi-puzzle file stays one file) "
                        "instead of writing one native file per puzzle")
    p.add_argument("--unique", action="store_true", help="validate: also certify each puzzle has one solution")
    p.add_argument("--solver", default="highs", help="solver for --unique (default highs)")
    p.add_argument("--formulation",
                   help="formulation for --unique (default binary; xor-distinct for Takuzu with --distinct)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve for --unique (default 60)")
    p.set_defaults(func=run)


def _source_files(sources: list[str]) -> list[Path]:
    """The files of the sources: each file, and each folder's puzzle files in name order."""
    from ..errors import PuzzleError
    from ..sets import SKIPPED_FILES
    files = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.is_file() and not any(fnmatchcase(p.name.lower(), s) for s in SKIPPED_FILES))
            if not found:
                raise PuzzleError(f"{source}: the folder holds no puzzle file")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise PuzzleError(f"{source}: no such file or folder")
    return files


def _options(args) -> dict:
    options = {}
    if args.distinct:
        options["distinct_lines"] = True
    if args.diagonal:
        options["diagonal"] = True
    if args.box:
        options["box"] = args.box
    return options


def read_sources(files: list[Path], puzzle, format, options: dict, layout: dict) -> list[tuple[Path, list]]:
    """Every source file's entries, reference solutions from companion files filled in."""
    from dataclasses import replace

    from ..io import read_puzzles, read_solution
    read = []
    for path in files:
        entries = read_puzzles(path, format=format, puzzle=puzzle, options=options, layout=layout)
        companion = path.with_name(f"{path.stem}.solution{path.suffix}")
        if companion.is_file():
            entries = [replace(e, solution=read_solution(companion, e.puzzle)) if e.solution is None else e
                       for e in entries]
        read.append((path, entries))
    return read


def _stems(read: list[tuple[Path, list]]) -> list[tuple[str, object]]:
    """A file stem for every puzzle: the source's stem, plus the puzzle's name when the file holds several."""
    seen: set[str] = set()
    named = []
    for path, entries in read:
        for entry in entries:
            stem = path.stem if len(entries) == 1 else f"{path.stem}-{entry.name}"
            stem = _STEM.sub("_", stem).strip("._") or "puzzle"
            unique, k = stem, 2
            while unique.lower() in seen:
                unique, k = f"{stem}-{k}", k + 1
            seen.add(unique.lower())
            named.append((unique, entry))
    return named


def set_yaml(meta: dict) -> str:
    import yaml
    return ("# Written by puzzlebench import; complete SOURCE.md.\n"
            + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=False))


def source_md(name: str, args, files: list[Path], count: int) -> str:
    command = shlex.join(["puzzlebench", "import", *sys.argv[2:]]) if sys.argv[1:2] == ["import"] else ""
    listing = "".join(f"- `{f}`\n" for f in files)
    return (f"# {name}\n\n"
            f"- Source: {args.source}\n- Licence: {args.licence}\n- Puzzles: {count}\n\n"
            f"Imported from\n\n{listing}\n"
            + (f"with\n\n    {command}\n\n" if command else "")
            + "TODO: the repository, commit and path of each file; what was taken, and the exact rule "
              "that drew a subset; the format's quirks.\n")


def run(args) -> int:
    from ..errors import PuzzleError
    from ..io import format_puzzle, format_solution, parse_layout
    from ..puzzles import PUZZLE_NAMES
    from ..registry import get_formulation, get_solver
    from ..sets import SET_FILE, load_set
    from .validate import Uniqueness, validate_set

    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PuzzleError(f"{out}: exists and is not an empty folder; import writes a new set")
    puzzle = args.puzzle or (out.parent.name if out.parent.name in PUZZLE_NAMES else None)
    layout = parse_layout(args.dzn_map, args.csv_columns)
    options = _options(args)
    if args.unique and args.time_limit <= 0:
        raise PuzzleError("--time-limit must be positive")
    files = _source_files(args.sources)
    read = read_sources(files, puzzle, args.format, options, layout)
    kinds = sorted({e.puzzle.puzzle for _, entries in read for e in entries})
    if len(kinds) > 1:
        raise PuzzleError(f"the sources hold {' and '.join(kinds)} puzzles; a set holds one puzzle type")
    puzzle = kinds[0]
    formulation = args.formulation or ("xor-distinct" if puzzle == "takuzu" and args.distinct else "binary")
    if args.unique:
        get_solver(args.solver)
        get_formulation(puzzle, formulation)
    count = sum(len(entries) for _, entries in read)

    names = [p.name.lower() for p in files]
    if args.keep_files and len(set(names)) != len(names):
        raise PuzzleError("--keep-files: two sources have the same file name")

    out.mkdir(parents=True, exist_ok=True)
    meta = {"puzzle": puzzle}
    if args.keep_files:
        for path in files:
            shutil.copyfile(path, out / path.name)
            companion = path.with_name(f"{path.stem}.solution{path.suffix}")
            if companion.is_file():
                shutil.copyfile(companion, out / companion.name)
        if args.format:
            meta["format"] = args.format
        meta.update(layout)
    else:
        for stem, entry in _stems(read):
            (out / f"{stem}.txt").write_text(format_puzzle(entry.puzzle, "native"), encoding="utf-8")
            if entry.solution is not None:
                (out / f"{stem}.solution.txt").write_text(format_solution(entry.puzzle, entry.solution, "native"),
                                                          encoding="utf-8")
    meta.update({"source": args.source, "licence": args.licence, "count": count})
    if options:
        meta["options"] = options
    if args.tags:
        meta["tags"] = list(args.tags)
    name = f"{out.parent.name}/{out.name}"
    (out / SET_FILE).write_text(set_yaml(meta), encoding="utf-8")
    (out / "SOURCE.md").write_text(source_md(name, args, files, count), encoding="utf-8")
    solved = sum(e.solution is not None for _, entries in read for e in entries)
    print(f"wrote {out}: {count} {puzzle} puzzle(s), {solved} reference solution(s)")

    uniqueness = Uniqueness(formulation, args.solver, args.time_limit) if args.unique else None
    try:
        report = validate_set(load_set(name, out), lambda line: print(line), uniqueness)
    finally:
        if uniqueness is not None:
            uniqueness.close()
    print(report.summary(args.unique))
    return report.exit_code
