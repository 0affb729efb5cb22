"""``puzzlebench sets``: list the instance sets with their puzzles, counts and sizes."""

from __future__ import annotations

import json
import sys

from ._common import ROOT_HELP


HELP = "list the instance sets"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("sets", help=HELP,
                       description="List every instance set: puzzle, count, format, grid sizes, "
                                   "rule options and tags.")
    p.add_argument("--json", action="store_true", help="one JSON list, provenance included")
    p.add_argument("--root", metavar="DIR", help=ROOT_HELP)
    p.set_defaults(func=run)


def size_range(shapes) -> str:
    """``"9x9"`` for one size, else the smallest and largest by area: ``"10x10..14x14"``."""
    shapes = sorted(set(shapes), key=lambda s: (s[0] * s[1], s))
    if not shapes:
        return "-"
    labels = [f"{r}x{c}" for r, c in (shapes[0], shapes[-1])]
    return labels[0] if len(shapes) == 1 else "..".join(labels)


def describe(instance_set) -> dict:
    """What ``sets`` shows of one set; ``error`` holds the first problem when a file is bad."""
    from ..errors import PuzzleError
    row = {"name": instance_set.name, "puzzle": instance_set.puzzle, "count": None,
           "format": instance_set.format, "sizes": None, "options": instance_set.options,
           "tags": list(instance_set.tags), "files": len(instance_set.files),
           "source": instance_set.meta.get("source"), "licence": instance_set.meta.get("licence"),
           "path": str(instance_set.path), "error": None}
    try:
        entries = instance_set.entries()
    except PuzzleError as err:
        row["error"] = str(err)
        return row
    row["count"] = len(entries)
    row["sizes"] = size_range(tuple(e.puzzle.shape) for e in entries)
    return row


def _options_text(options: dict) -> str:
    return ",".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "-"


def run(args) -> int:
    from ..io.sets import discover_sets
    rows = [describe(s) for s in discover_sets(args.root)]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        width = max([len(r["name"]) for r in rows] + [3])
        print(f"{'set':{width}}  {'puzzle':7} {'count':>6}  {'format':7} {'sizes':14} {'options':22} tags")
        for r in rows:
            count = "?" if r["count"] is None else r["count"]
            sizes = "bad file" if r["error"] else r["sizes"]
            print(f"{r['name']:{width}}  {r['puzzle']:7} {count:>6}  {r['format'] or 'auto':7} "
                  f"{sizes:14} {_options_text(r['options']):22} {','.join(r['tags']) or '-'}")
    bad = [r for r in rows if r["error"]]
    for r in bad:
        print(f"puzzlebench: {r['name']}: {r['error']} (run 'puzzlebench validate {r['name']}')",
              file=sys.stderr)
    return 2 if bad else 0
