"""``puzzlebench solvers``: list the solver adapters (installed or not, with versions) and the
shipped solver configurations."""

from __future__ import annotations

import json


HELP = "list solvers and solver configurations"
"""The verb's line in ``puzzlebench --help``."""


def register(sub) -> None:
    p = sub.add_parser("solvers", help=HELP)
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=run)


def _status(info) -> tuple[bool, str]:
    """Whether the adapter's library loads, and its version or why not."""
    try:
        return True, info.version()
    except Exception as exc:  # a solver whose library is missing is still listed
        return False, f"not installed ({type(exc).__name__}: {exc})"


def run(args) -> int:
    from ..registry import solvers
    from ..solvers.configs import SHIPPED
    items = []
    for s in solvers():
        installed, version = _status(s)
        items.append({"name": s.name, "kind": s.kind, "version": version, "description": s.description,
                      "installed": installed, "adapter": s.name, "options": {}})
    kinds = {item["name"]: item for item in items}
    for config in SHIPPED.values():
        base = kinds.get(config.adapter, {})
        items.append({"name": config.name, "kind": base.get("kind", ""), "version": base.get("version", ""),
                      "description": config.description, "installed": base.get("installed", False),
                      "adapter": config.adapter, "options": config.options})
    if args.json:
        print(json.dumps(items, indent=1))
        return 0
    width = max(len(s["name"]) for s in items)
    for s in items:
        what = s["description"] if s["adapter"] == s["name"] else \
            f"= {s['adapter']} {json.dumps(s['options'], sort_keys=True)}: {s['description']}"
        version = s["version"] if s["installed"] else "NOT INSTALLED"
        print(f"{s['name']:{width}} {s['kind']:4} {version:32} {what}")
    return 0
