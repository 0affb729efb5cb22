"""``puzzlebench solvers``: list the solver adapters and their versions."""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("solvers", help="list solvers")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=run)


def _version(info) -> str:
    try:
        return info.version()
    except Exception as exc:  # a solver whose library is missing is still listed
        return f"unavailable ({type(exc).__name__}: {exc})"


def run(args) -> int:
    from ..registry import solvers
    items = [{"name": s.name, "kind": s.kind, "version": _version(s), "description": s.description}
             for s in solvers()]
    if args.json:
        print(json.dumps(items, indent=1))
        return 0
    for s in items:
        print(f"{s['name']:8} {s['kind']:4} {s['version']:28} {s['description']}")
    return 0
