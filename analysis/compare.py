"""Two runs' claims side by side: which hold in both, which changed verdict, which flipped.

Reads the ``findings.json`` of two results folders (:mod:`~puzzlebench.analysis.claims`) and matches
their claims by ``id`` (which names what a claim compares, not who won, so a "fastest formulation"
claim matches even when the fastest one changed).  A claim of a difference (verdict faster or
slower) *holds* in the other run when the other run has the claim with the same verdict; it
*flipped* when the other run has the opposite one; it *changed* when the other's verdict is
another (tied, equivalent, inconclusive, identical, preprocessing) or the claim is missing there.

The two runs replicate when no claim flipped, at least ``min_share`` (0.8) of each run's claims of a
difference hold in the other, every puzzle required (default: each puzzle with a claim of a
difference in either run) keeps at least one claim of a difference that holds in both, and at
least one claim of a difference holds in both.  There is *nothing to compare* (neither a yes nor a
no) when either run has no claim of a difference or the two runs have no claim id in common.

Both layouts of findings.json are read (:data:`FORMATS`: format 1 says ``tied`` where format 2
says ``equivalent`` or ``inconclusive``); :func:`read_findings` checks every field compare and its
report read, so a file of any other shape is one :class:`~puzzlebench.errors.PuzzleError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from puzzlebench.errors import PuzzleError

FORMATS = {1: ("faster", "slower", "tied", "identical", "preprocessing"),
           2: ("faster", "slower", "equivalent", "inconclusive", "identical", "preprocessing")}
"""The verdicts of each layout of findings.json (its ``format``)."""
DIRECTIONAL = ("faster", "slower")
OPPOSITE = {"faster": "slower", "slower": "faster"}
MIN_SHARE = 0.8
FINDINGS = "findings.json"
ANALYSIS_MARKER = "analysis.json"
"""Written last by an analysis (its id and files), removed first: a folder without it, or whose id
differs from findings.json's, holds an analysis that did not finish."""


def _text(value) -> bool:
    return isinstance(value, str)


def _number(value) -> bool:
    """A finite int or float (not a bool, not an int too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _flag(value) -> bool:
    return isinstance(value, bool)


def _interval(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(map(_number, value))


def _or_null(test):
    """``test`` that also takes null."""
    return lambda value: value is None or test(value)


REQUIRED = ("id", "puzzle", "kind", "a", "b", "verdict")
"""The fields every claim has, each a string."""
OPTIONAL = {name: (test, what, nullable) for names, test, what, nullable in (
    (("instance_set", "solver", "a_solver", "b_solver"), _text, "a string", True),
    (("ratio", "p_adjusted", "p_value", "noise", "sd_log_ratio"), _number, "a finite number", True),
    (("ci",), _interval, "a list of two finite numbers", True),
    (("n", "instances_needed", "family_size", "preprocessed"), _integer, "an integer", True),
    (("holds_in_halves",), _flag, "true, false", True),
    (("measure", "family", "note", "text"), _text, "a string", False),
) for name in names}
"""The fields a claim may have: name -> (test of its value, what the test wants, whether null is taken)."""
SPLIT_HALF = {"basis": (_text, "a string", True), "claims": (_integer, "an integer", True),
              "hold": (_integer, "an integer", True), "share": (_number, "a finite number", True)}
"""The fields of ``split_half`` the report reads, as :data:`OPTIONAL`."""


def _wrong(fields: dict, rules: dict) -> tuple[str, str] | None:
    """(field, what it must be) of the first of ``fields`` that breaks its rule, or None."""
    for key, (test, what, nullable) in rules.items():
        if key in fields and not (_or_null(test) if nullable else test)(fields[key]):
            return key, what + " or null" * nullable
    return None


def _shown(value) -> str:
    """A value as an error message quotes it: a scalar's JSON cut to 40 characters, else its type."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _load(path: Path):
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError is a ValueError, as is an int of too many digits
        raise PuzzleError(f"not a findings file: {err}".splitlines()[0], path=str(path)) from None
    except RecursionError:
        raise PuzzleError("not a findings file: nested too deeply", path=str(path)) from None
    except OSError as err:
        raise PuzzleError(f"cannot read it: {err.strerror or err}", path=str(path)) from None


def _check_claim(index: int, claim, verdicts: tuple[str, ...]) -> str | None:
    """What is wrong with claim ``index`` (0-based), or None."""
    if not isinstance(claim, dict):
        return f"claim {index} is not an object but {_shown(claim)}"
    name = f"claim {index} ({_shown(claim['id']) if _text(claim.get('id')) else 'no id'})"
    for key in REQUIRED:
        if key not in claim:
            return f"{name} has no {key!r}"
        if not _text(claim[key]):
            return f"{name}: {key!r} must be a string, not {_shown(claim[key])}"
    if claim["verdict"] not in verdicts:
        return f"{name}: verdict {_shown(claim['verdict'])} is none of this format's ({', '.join(verdicts)})"
    if (wrong := _wrong(claim, OPTIONAL)) is not None:
        key, what = wrong
        return f"{name}: {key!r} must be {what}, not {_shown(claim[key])}"
    return None


def _problem(data) -> str | None:
    """What is wrong with a findings document, or None."""
    if not isinstance(data, dict):
        return f"not a findings file: an object with format and claims expected, not {_shown(data)}"
    version = data.get("format")
    if not _integer(version) or version not in FORMATS:
        return (f"format {_shown(version)} is not one this version reads "
                f"({', '.join(map(str, FORMATS))})" if "format" in data else "not a findings file: no format")
    claims = data.get("claims")
    if not isinstance(claims, list):
        return f"'claims' must be a list, not {_shown(claims)}"
    for key in ("setup", "split_half"):
        if key in data and not isinstance(data[key], dict):
            return f"{key!r} must be an object, not {_shown(data[key])}"
    split = data.get("split_half", {})
    if (wrong := _wrong(split, SPLIT_HALF)) is not None:
        key, what = wrong
        return f"split_half's {key!r} must be {what}, not {_shown(split[key])}"
    seen = set()
    for index, claim in enumerate(claims):
        if (wrong := _check_claim(index, claim, FORMATS[version])) is not None:
            return wrong
        if claim["id"] in seen:
            return f"claim {index} ({_shown(claim['id'])}): the id of an earlier claim"
        seen.add(claim["id"])
    return None


def read_findings(path) -> dict:
    """The findings.json of a results folder (or the file itself), checked: a PuzzleError (one line,
    naming the file and, for a claim, its index and id) when any field compare reads is missing or
    of the wrong type, or a verdict is not one of the file's format (:data:`FORMATS`)."""
    path = Path(path)
    folder_given = path.is_dir()
    if folder_given:
        path = path / FINDINGS
    if not path.is_file():
        raise PuzzleError(f"no {FINDINGS} (run the workflow or `puzzlebench analyze` first)", path=str(path))
    data = _load(path)
    if (problem := _problem(data)) is not None:
        raise PuzzleError(problem, path=str(path))
    if (problem := unfinished(data, path, folder_given)) is not None:
        raise PuzzleError(problem, path=str(path))
    data["path"] = str(path)
    return data


def unfinished(data: dict, path: Path, folder_given: bool) -> str | None:
    """Why ``path``'s findings are not those of a finished analysis, or None: an analysis writes its
    :data:`ANALYSIS_MARKER` last, with the id its findings.json carries (``analysis``), and removes it
    first; a findings file of a results folder (or beside a marker) whose id the marker does not
    hold is of an analysis that did not finish, or of another one.  A findings file without an id
    (older, or copied out of its folder) is not checked."""
    analysis = data.get("analysis")
    marker = path.parent / ANALYSIS_MARKER
    if analysis is None or not (folder_given or marker.exists()):
        return None
    if not isinstance(analysis, str):
        return f"'analysis' must be a string, not {_shown(analysis)}"
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8")).get("analysis")
    except (OSError, ValueError, AttributeError):
        recorded = None
    if recorded != analysis:
        return (f"of an analysis that did not finish (its {ANALYSIS_MARKER} does not name it): the folder may mix "
                "two analyses; run `puzzlebench analyze` again")
    return None


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
    def nothing_to_compare(self) -> str | None:
        """Why the two runs give nothing to compare (a run without a claim of a difference, or no
        claim id in common), or None when they do."""
        for tag, side in (("A", self.a), ("B", self.b)):
            if not any(c["verdict"] in DIRECTIONAL for c in side["claims"]):
                return f"{tag} ({side.get('path')}) has no claim of a difference"
        if not {c["id"] for c in self.a["claims"]} & {c["id"] for c in self.b["claims"]}:
            return "the two runs have no claim id in common"
        return None

    @property
    def same_file(self) -> bool:
        """Whether A and B are one findings file (however spelled): a run compared with itself, which
        replicates trivially and shows nothing."""
        paths = [side.get("path") for side in (self.a, self.b)]
        return None not in paths and Path(paths[0]).resolve() == Path(paths[1]).resolve()

    @property
    def replicates(self) -> bool:
        """No flip, each share at least ``min_share``, every required puzzle kept, and at least one
        claim of a difference held in both (False when there is nothing to compare)."""
        return (self.nothing_to_compare is None and bool(self.held) and not self.flipped
                and all(s is None or s >= self.min_share for s in (self.share_a, self.share_b))
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
        share = len(result.held) / len(directional) if directional else None
        setattr(result, f"share_{tag}", share)
    wanted = puzzles if puzzles is not None else sorted(
        {c["puzzle"] for side in by_id for c in side.values() if c["verdict"] in DIRECTIONAL})
    kept = {claim["puzzle"] for claim, _ in result.held}
    result.puzzles = {p: p in kept for p in wanted}
    return result


def as_json(result: Comparison) -> dict:
    """The comparison as one JSON object (``nothing_to_compare``: the reason, or null)."""
    return {"a": result.a["path"], "b": result.b["path"], "replicates": result.replicates,
            "nothing_to_compare": result.nothing_to_compare, "same_file": result.same_file,
            "share_a": result.share_a, "share_b": result.share_b, "flipped": [ca["id"] for ca, _ in result.flipped],
            "held": [ca["id"] for ca, _ in result.held],
            "changed": [{"id": c["id"], "run": tag, "verdict": c["verdict"],
                         "other": None if o is None else o["verdict"]} for c, o, tag in result.changed],
            "puzzles": result.puzzles, "min_share": result.min_share}


# Below: the comparison as text; mutation testing (README) checks the rules above only.
# pragma: no mutate block
DEPTH = 4
"""How deep the report shows a setup value (a deeper one is "..."): no file can exhaust the stack."""


def _is_stats(values) -> bool:
    return isinstance(values, dict) and all(_number(values.get(k)) for k in ("min", "median", "max"))


def _values(values, depth: int = 0) -> str:
    if values is None:
        return "--"
    if depth > DEPTH and isinstance(values, (dict, list)):
        return "..."
    if _is_stats(values):
        return f"{values['median']:.3g} ({values['min']:.3g}-{values['max']:.3g})"
    if isinstance(values, dict):
        return "; ".join(f"{k} {_values(v, depth + 1)}" for k, v in values.items())
    if isinstance(values, list):
        return ", ".join(_values(v, depth + 1) for v in values) or "--"
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
            lines.append(f"  split halves {tag}: {split.get('hold')} of {split.get('claims')} claims of a difference "
                         f"hold in both halves ({split['share']:.0%}, by {split.get('basis')})")
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
              + (", ".join(f"{p} {'yes' if kept else 'NO'}" for p, kept in result.puzzles.items()) or "--")]
    if result.same_file:
        lines.append("  note: A and B are the same file, a run compared with itself (the same by construction; "
                     "compare two runs)")
    if result.nothing_to_compare is not None:
        lines.append(f"  nothing to compare: {result.nothing_to_compare}")
    else:
        lines.append(f"  replicates (no flip, each share >= {result.min_share:.0%}, every puzzle kept): "
                     f"{'yes' if result.replicates else 'NO'}")
    return "\n".join(lines) + "\n"
