"""Solver configurations: a name for an adapter run with given solver options.

A configuration is an entry of the experiment grid, like a plain adapter: the
record's ``solver`` column is its name.  Plain adapter names are configurations
with no options.  The project ships :data:`SHIPPED`; a study declares more in
its config::

    solver_configs:
      highs-ipm: {solver: highs, options: {mip_lp_solver: ipm}}
      scip-nolp: {solver: scip, options: {lp/solvefreq: -1}}

and the CLI takes ``--solver-option KEY=VALUE`` (the value read as a YAML
scalar: ``-1`` is an integer, ``true`` a boolean, ``ipm`` a string, as in
the config).  The options go to the solver's own option interface; each
adapter checks them on a fresh solver object (:func:`ensure_runnable`), so a bad name or
value is refused before any job starts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..errors import PuzzleError
from ..registry import SolverInfo, get_solver, solvers

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")  # a path component and a shell word


@dataclass(frozen=True)
class SolverConfig:
    """Adapter ``adapter`` with solver ``options``, called ``name`` in the records."""

    name: str
    adapter: str
    options: dict = field(default_factory=dict)
    description: str = ""

    @property
    def info(self) -> SolverInfo:
        return get_solver(self.adapter)

    @property
    def kind(self) -> str:
        return self.info.kind

    @property
    def options_json(self) -> str:
        return options_json(self.options)

    def with_options(self, extra: dict) -> "SolverConfig":
        """This configuration with ``extra`` options added (they win over its own)."""
        return SolverConfig(self.name, self.adapter, {**self.options, **extra}, self.description)


SHIPPED = {config.name: config for config in (
    SolverConfig("scip-cp", "scip", {"emphasis": "cpsolver", "heuristics": "off"},
                 "SCIP with its CP-solver emphasis (no LP relaxation, depth-first search, conflict "
                 "analysis with restarts) and primal heuristics off"),
    SolverConfig("scip-cp-norestart", "scip", {
        "emphasis": "cpsolver", "heuristics": "off", "presolving/maxrestarts": 0,
        "propagating/vbounds/freq": -1, "propagating/pseudoobj/freq": -1, "propagating/redcost/freq": -1,
        "propagating/rootredcost/freq": -1, "propagating/dualfix/freq": -1, "misc/usesymmetry": 0},
        "scip-cp without restarts (a SCIP restart presolves again and turns the conflicts learnt so far "
        "into model rows, which slows every later node) and without the propagators that find nothing "
        "on set-partitioning models with a constant objective (variable bounds, objective, reduced "
        "cost, dual fixing, symmetry): one depth-first search with conflict analysis"),
    SolverConfig("highs-ipm", "highs", {"mip_lp_solver": "ipm"},
                 "HiGHS with the interior-point method for its MIP's LP relaxations"),
)}


def options_json(options: dict) -> str:
    """Solver options as the records store them: JSON with sorted keys."""
    return json.dumps(options, sort_keys=True)


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` as (key, value), the value read as a YAML scalar."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise PuzzleError(f"--solver-option {text!r}: expected KEY=VALUE")
    import yaml  # here: a solve without --solver-option does not pay PyYAML's import
    try:
        parsed = yaml.safe_load(value) if value.strip() else ""
    except yaml.YAMLError:
        parsed = value
    if isinstance(parsed, (dict, list)) or parsed is None:
        parsed = value
    return key.strip(), parsed


def parse_options(texts) -> dict:
    return dict(parse_option(text) for text in texts or ())


def _check_name(name, where: str) -> None:
    if not isinstance(name, str) or not _NAME.match(name):
        raise PuzzleError(f"{where}: configuration name {name!r} must be letters, digits and . _ + -, "
                          f"starting with a letter or digit")


def check_label(name: str, adapter: str, options: dict, where: str) -> None:
    """Refuse a name that would record one solver as another: an adapter's name run by another
    adapter, or a shipped configuration's name run by another adapter or without its options (the
    ``solver`` column is what every table groups by), or a name that is not a path component."""
    _check_name(name, where)
    names = {info.name for info in solvers()}
    if name in names and name != adapter:
        raise PuzzleError(f"{where}: {name!r} is the name of the {name} adapter; adapter {adapter} cannot be "
                          f"recorded under it (give the configuration a name of its own)")
    shipped = SHIPPED.get(name)
    if shipped is not None and (shipped.adapter != adapter
                                or any(options.get(k, object()) != v for k, v in shipped.options.items())):
        raise PuzzleError(f"{where}: {name!r} is the shipped configuration {shipped.adapter} with "
                          f"{options_json(shipped.options)}; adapter {adapter} with {options_json(options)} "
                          f"cannot be recorded under it (give the configuration a name of its own)")


def declared(mapping, where: str = "config solver_configs") -> dict[str, SolverConfig]:
    """The configurations a study's ``solver_configs`` declares (checked, see :func:`ensure_runnable`)."""
    if mapping in (None, {}):
        return {}
    if not isinstance(mapping, dict):
        raise PuzzleError(f"{where} must be a mapping name -> {{solver: ADAPTER, options: {{...}}}}")
    configs = {}
    taken = {info.name for info in solvers()} | set(SHIPPED)
    for name, entry in mapping.items():
        _check_name(name, where)
        if name in taken:
            raise PuzzleError(f"{where}.{name}: {name!r} is the name of an adapter or a shipped configuration; "
                              f"a declared configuration needs a name of its own")
        if not isinstance(entry, dict) or set(entry) - {"solver", "options", "description"} \
                or "solver" not in entry:
            raise PuzzleError(f"{where}.{name} must be {{solver: ADAPTER, options: {{KEY: VALUE}}}}")
        options = entry.get("options") or {}
        if not isinstance(options, dict):
            raise PuzzleError(f"{where}.{name}.options must be a mapping KEY: VALUE")
        adapter = entry["solver"]
        if adapter in SHIPPED:  # a configuration built on a shipped one adds to its options
            config = SHIPPED[adapter].with_options(options)
            config = SolverConfig(name, config.adapter, config.options, str(entry.get("description", "")))
        else:
            try:
                get_solver(adapter)
            except PuzzleError as err:
                raise PuzzleError(f"{where}.{name}: {err}") from None
            config = SolverConfig(name, adapter, dict(options), str(entry.get("description", "")))
        configs[name] = config
    return configs


def resolve(name: str | SolverConfig, configs: dict[str, SolverConfig] | None = None) -> SolverConfig:
    """The configuration called ``name``: declared, shipped, or a plain adapter."""
    if isinstance(name, SolverConfig):
        return name
    for table in (configs or {}, SHIPPED):
        if name in table:
            return table[name]
    try:
        get_solver(name)
    except PuzzleError:
        known = sorted({*(configs or {}), *SHIPPED})
        raise PuzzleError(f"unknown solver {name!r} (adapters: "
                          f"{', '.join(s.name for s in solvers())}; configurations: "
                          f"{', '.join(known)})") from None
    return SolverConfig(name, name)


def ensure_runnable(config: SolverConfig) -> None:
    """Refuse (PuzzleError) an adapter whose library does not load, and options its solver does
    not take; loads the library."""
    info = config.info
    missing = info.installed()
    if missing:
        raise PuzzleError(f"solver {config.name}: adapter {config.adapter} is not installed ({missing}); "
                          f"the commercial solvers come with pip install -e '.[commercial]'")
    if not config.options:
        return
    if info.check_options is None:
        raise PuzzleError(f"solver {config.name}: adapter {config.adapter} takes no solver options")
    try:
        info.check_options(dict(config.options))
    except ValueError as err:
        raise PuzzleError(f"solver {config.name}: {err}") from None
    except ImportError as err:
        raise PuzzleError(f"solver {config.name}: adapter {config.adapter} is not installed ({err})") from None
