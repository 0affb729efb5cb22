"""``puzzlebench formulations``: list the registered formulations."""

from __future__ import annotations

import json


HELP = "list formulations"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("formulations", help=HELP)
    p.add_argument("--puzzle", help="only this puzzle's formulations")
    p.add_argument("--json", action="store_true", help="JSON output, constraints included")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..registry import formulations
    items = formulations(args.puzzle)
    if args.json:
        print(json.dumps([{"puzzle": f.puzzle, "name": f.name, "description": f.description,
                           "constraints": f.constraints} for f in items], indent=1))
        return 0
    for f in items:
        print(f"{f.puzzle:8} {f.name:18} {f.description}")
    return 0
