"""Two runs' claims side by side: which hold in both, which changed verdict, which flipped.

Reads the ``findings.json`` of two results folders (:mod:`~puzzlebench.analysis.claims`) and matches
their claims by ``id`` (which names what a claim compares, not who won, so a "fastest formulation"
claim matches even when the fastest one changed).  A claim of a difference (verdict faster or
slower) *holds* in the other run when the other run has the claim with the same verdict; it
*flipped* when the other run has the opposite one; it *changed* when the other's verdict is
another (tied, identical, preprocessing) or the claim is missing there.

The two runs replicate when no claim flipped, at least ``min_share`` (0.8) of each run's claims of a
difference hold in the other, and every puzzle required (default: each puzzle with a claim of a
difference in either run) keeps at least one claim of a difference that holds in both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from puzzlebench.errors import PuzzleError

DIRECTIONAL = ("faster", "slower")
OPPOSITE = {"faster": "slower", "slower": "faster"}
MIN_SHARE = 0.8
FINDINGS = "findings.json"


def read_findings(path) -> dict:
    """The findings.json of a results folder (or the file itself); PuzzleError naming what is wrong."""
    path = Path(path)
    if path.is_dir():
        path = path / FINDINGS
    if not path.is_file():
        raise PuzzleError(f"no {FINDINGS} (run the workflow or `puzzlebench analyze` first)", path=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise PuzzleError(f"not a findings file: {err}", path=str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list) or any(
            not isinstance(c, dict) or "id" not in c or "verdict" not in c for c in data["claims"]):
        raise PuzzleError("not a findings file: no list of claims with id and verdict", path=str(path))
    data["path"] = str(path)
    return data


@dataclass
class Comparison:
    """The outcome of :func:`compare`."""

    a: dict
    b: dict
    held: list[tuple[dict, dict]] = field(default_factory=list)
    flipped: list[tuple[dict, dict]] = field(default_factory=list)
    changed: list[tuple[dict, dict | None, str]] = field(default_factory=list)   # (claim, other, which run's)
    share_a: float | None = None
    share_b: float | None = None
    puzzles: dict[str, bool] = field(default_factory=dict)
    min_share: float = MIN_SHARE

    @property
    def replicates(self) -> bool:
        return (not self.flipped and all(s is None or s >= self.min_share for s in (self.share_a, self.share_b))
                and all(self.puzzles.values()))


def compare(a: dict, b: dict, min_share: float = MIN_SHARE, puzzles=None) -> Comparison:
    """Match the claims of findings ``a`` and ``b`` (see the module doc); ``puzzles``: those that must
    keep a claim of a difference in both runs (None: every puzzle with one in either)."""
    by_id = [{c["id"]: c for c in side["claims"]} for side in (a, b)]
    result = Comparison(a, b, min_share=min_share)
    for mine, other, tag in ((by_id[0], by_id[1], "a"), (by_id[1], by_id[0], "b")):
        for cid, claim in mine.items():
            if claim["verdict"] not in DIRECTIONAL:
                continue
            twin = other.get(cid)
            if twin is not None and twin["verdict"] == claim["verdict"]:
                if tag == "a":
                    result.held.append((claim, twin))
            elif twin is not None and twin["verdict"] == OPPOSITE[claim["verdict"]]:
                if tag == "a":
                    result.flipped.append((claim, twin))
            else:
                result.changed.append((claim, twin, tag))
    for tag, mine in (("a", by_id[0]), ("b", by_id[1])):
        directional = [c for c in mine.values() if c["verdict"] in DIRECTIONAL]
        held = len(result.held)
        share = held / len(directional) if directional else None
        setattr(result, f"share_{tag}", share)
    wanted = puzzles if puzzles is not None else sorted(
        {c["puzzle"] for side in by_id for c in side.values() if c["verdict"] in DIRECTIONAL})
    kept = {claim["puzzle"] for claim, _ in result.held}
    result.puzzles = {p: p in kept for p in wanted}
    return result


def _values(values) -> str:
    if values is None:
        return "--"
    if isinstance(values, dict) and set(values) >= {"min", "median", "max"}:
        return f"{values['median']:.3g} ({values['min']:.3g}-{values['max']:.3g})"
    if isinstance(values, dict):
        return "; ".join(f"{k} {_values(v)}" for k, v in values.items())
    if isinstance(values, list):
        return ", ".join(map(_values, values)) or "--"
    if isinstance(values, float):
        return f"{values:.3g}"
    return str(values)


SETUP_ROWS = (("machine", ("machine", "cpu_model")), ("CPUs", ("machine", "cpu_count")), ("host", ("machine", "hostname")),
              ("puzzlebench", ("versions", "puzzlebench")), ("commit", ("versions", "git_commit")),
              ("Python", ("versions", "python")), ("solvers", ("versions", "solvers")), ("runs", ("grid", "runs")),
              ("sets", ("grid", "instance_sets")), ("seeds", ("grid", "seeds")), ("repeats", ("grid", "repeats")),
              ("time limit", ("grid", "time_limit")), ("dates", ("dates",)),
              ("load average", ("load", "load_average")), ("CPU pressure", ("load", "cpu_pressure")),
              ("noise source", ("noise", "source")), ("noise of a run", ("noise", "configurations")),
              ("reference noise", ("noise", "reference")))


def _lookup(data: dict, keys):
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _claim(claim: dict | None) -> str:
    if claim is None:
        return "absent"
    ratio = claim.get("ratio")
    ci = claim.get("ci")
    numbers = "" if ratio is None else f" ratio {ratio:.3g}" + (f" [{ci[0]:.3g}, {ci[1]:.3g}]" if ci else "")
    who = "" if claim.get("solver") else f" ({claim['a']}/{claim.get('a_solver')} vs {claim['b']}/{claim.get('b_solver')})"
    return f"{claim['verdict']}{numbers}{who}"


def report(result: Comparison) -> str:
    """The comparison as text: setups side by side, then the claims, then the replication figures."""
    a, b = result.a, result.b
    width = max(len(label) for label, _ in SETUP_ROWS)
    lines = ["Setups", f"  {'':{width}}  A: {a['path']}", f"  {'':{width}}  B: {b['path']}"]
    for label, keys in SETUP_ROWS:
        va, vb = _values(_lookup(a.get("setup", {}), keys)), _values(_lookup(b.get("setup", {}), keys))
        lines.append(f"  {label:{width}}  A: {va}")
        if vb != va:
            lines.append(f"  {'':{width}}  B: {vb}")
        else:
            lines.append(f"  {'':{width}}  B: (the same)")
    for tag, side in (("A", a), ("B", b)):
        split = side.get("split_half") or {}
        if split.get("share") is not None:
            lines.append(f"  split halves {tag}: {split['hold']} of {split['claims']} claims of a difference hold in "
                         f"both halves ({split['share']:.0%}, by {split['basis']})")
    lines += ["", f"Claims of a difference that hold in both runs: {len(result.held)}"]
    lines += [f"  {ca['id']}: {_claim(ca)} | {_claim(cb)}" for ca, cb in result.held]
    lines += ["", f"Flipped direction: {len(result.flipped)}"]
    lines += [f"  {ca['id']}: A {_claim(ca)} | B {_claim(cb)}" for ca, cb in result.flipped]
    lines += ["", f"Changed verdict: {len(result.changed)}"]
    for claim, other, tag in result.changed:
        first, second = (claim, other) if tag == "a" else (other, claim)
        lines.append(f"  {claim['id']}: A {_claim(first)} | B {_claim(second)}")
    count_a = sum(c["verdict"] in DIRECTIONAL for c in a["claims"])
    count_b = sum(c["verdict"] in DIRECTIONAL for c in b["claims"])
    share = lambda s: "--" if s is None else f"{s:.0%}"  # noqa: E731
    lines += ["", "Replication",
              f"  A's claims of a difference holding in B: {len(result.held)} of {count_a} ({share(result.share_a)})",
              f"  B's claims of a difference holding in A: {len(result.held)} of {count_b} ({share(result.share_b)})",
              f"  flipped: {len(result.flipped)}",
              "  puzzles keeping a claim of a difference in both runs: "
              + (", ".join(f"{p} {'yes' if kept else 'NO'}" for p, kept in result.puzzles.items()) or "--"),
              f"  replicates (no flip, each share >= {result.min_share:.0%}, every puzzle kept): "
              f"{'yes' if result.replicates else 'NO'}"]
    return "\n".join(lines) + "\n"


def as_json(result: Comparison) -> dict:
    return {"a": result.a["path"], "b": result.b["path"], "replicates": result.replicates,
            "share_a": result.share_a, "share_b": result.share_b, "flipped": [ca["id"] for ca, _ in result.flipped],
            "held": [ca["id"] for ca, _ in result.held],
            "changed": [{"id": c["id"], "run": tag, "verdict": c["verdict"],
                         "other": None if o is None else o["verdict"]} for c, o, tag in result.changed],
            "puzzles": result.puzzles, "min_share": result.min_share}
