"""Claims as data: every comparison the summary, the paper section and the README state.

Each claim compares two sides, a and b, on one measure over the instances both ran; its ratio,
interval, test, Holm family and verdict (``faster``, ``slower``, ``equivalent``, ``inconclusive``,
``identical``, ``preprocessing``) are :mod:`~puzzlebench.analysis.verdicts`' rule, stated there
once.  This module says which claims a run makes and how they read.

Kinds (the Holm families: :func:`~puzzlebench.analysis.verdicts.family_of`):

* ``pairwise``: every two formulations a < b (by name) on one instance set and solver (a family
  per puzzle, set and solver);
* ``best_vs_seed``: the fastest formulation (with its best solver) against the seed model
  ``binary`` (with its best solver), on each set and, when the puzzle has several sets in the
  run, over all of them (``instance_set`` null); ``solver`` null, the sides' solvers in
  ``a_solver``, ``b_solver``;
* ``mip_vs_cp``: the best MIP configuration against the best constraint-programming one, per set
  and over all sets (this kind and ``best_vs_seed``: a family per kind and puzzle).

"Best" is the smallest shifted geometric mean (the headline shift) of the per-instance times that
reached a solver, among configurations for which most instances in scope did
(:data:`MAX_PREPROCESSED`).  A claim's ``id``
names what it claims, not who won (``best_vs_seed/sudoku/sudoku-top95/time``), so two runs can
be matched claim by claim (``puzzlebench compare``).

Split halves: the runs are split in two by the parity of ``repeat`` (or of the seed's rank, with
one repeat), every claim is decided again on each half with the full run's noise estimates, and
``holds_in_halves`` says whether both halves give the claim's verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from .noise import Noise
from .outcomes import INSTANCE, instance_times
from .identity_groups import Identities, identity_groups, in_registration_order
from .significance import paired_test
from .tables import SEED_FORMULATION
from .verdicts import (ALPHA, CONFIDENCE, DIRECTIONAL, FIXED, MIN_EFFECT, VERDICTS, Claim, Data, Spec, _label, adjust,
                       family_comparisons, holds_in_halves, instances_to_decide, measure_claim, split_share)

FIELDS = ("puzzle", "instance_set", "solver", "a", "b", "measure", "ratio", "ci", "p_adjusted", "n", "verdict")
"""The fields issue 20 names (the results page reads these); :class:`Claim` adds more."""


# --- which claims ---------------------------------------------------------------------------------

def _scopes(data: Data, puzzle: str) -> list[str | None]:
    sets = data.sets(puzzle)
    return [*sets, *([None] if len(sets) > 1 else [])]


def _scope_id(instance_set: str | None) -> str:
    return "*" if instance_set is None else instance_set.replace("/", "-")


def specs(data: Data, identities: Identities, measure: str, shift: float) -> list[Spec]:
    """Every claim the run makes (see the module doc), in a stable order."""
    out: list[Spec] = []
    for puzzle in data.wide:
        configs = data.configs(puzzle)
        for name in data.sets(puzzle):
            for solver in sorted({s for _, s in configs}):
                names = sorted(f for f, s in configs if s == solver and data.ran(puzzle, name, (f, s)))
                for a, b in combinations(names, 2):
                    spec = Spec(f"pairwise/{puzzle}/{_scope_id(name)}/{solver}/{a}/{b}/{measure}", "pairwise",
                                puzzle, name, solver, (a, solver), (b, solver))
                    if identities.same(name, solver, a, b):
                        spec.verdict, spec.note = "identical", "the same model on every instance"
                        spec.n = len(data.pair(puzzle, name, spec.a, spec.b)[0])
                    out.append(spec)
        for scope in _scopes(data, puzzle):
            out += _best_specs(data, identities, puzzle, scope, configs, measure, shift)
    return out


def _same_model(data: Data, identities: Identities, puzzle: str, scope, a: tuple, b: tuple) -> bool:
    sets = [scope] if scope is not None else data.sets(puzzle)
    return identities.same_everywhere((name, a[1], b[1], a[0], b[0]) for name in sets)


def representatives(data: Data, identities: Identities, puzzle: str, scope, configs) -> list[tuple[str, str]]:
    """``configs`` with each identity group (one model on every set of the scope, with one solver) kept
    as its first registered member only: a "best" is chosen among models, not among the noisy
    copies of one model, and is named as its group is."""
    order = {name: i for i, name in enumerate(in_registration_order(puzzle, {f for f, _ in configs}))}
    kept: list[tuple[str, str]] = []
    for config in sorted(configs, key=lambda c: (order[c[0]], c[1])):
        if not any(k[1] == config[1] and _same_model(data, identities, puzzle, scope, k, config) for k in kept):
            kept.append(config)
    return [c for c in configs if c in kept]


def _best_specs(data: Data, identities: Identities, puzzle: str, scope, configs, measure: str,
                shift: float) -> list[Spec]:
    out = []
    scope_id = _scope_id(scope)
    models = representatives(data, identities, puzzle, scope, configs)
    seed_configs = [c for c in configs if c[0] == SEED_FORMULATION]
    seed = data.best(puzzle, scope, seed_configs, shift)
    others = [c for c in configs if c[0] != SEED_FORMULATION]
    if seed is not None and others:
        distinct = [c for c in models if c[0] != SEED_FORMULATION
                    and not _same_model(data, identities, puzzle, scope, c, (SEED_FORMULATION, c[1]))]
        best = data.best(puzzle, scope, distinct, shift)
        spec_id = f"best_vs_seed/{puzzle}/{scope_id}/{measure}"
        if best is not None:
            out.append(Spec(spec_id, "best_vs_seed", puzzle, scope, None, best, seed))
        elif not distinct:
            twin = min(others)
            out.append(Spec(spec_id, "best_vs_seed", puzzle, scope, None, twin, (SEED_FORMULATION, twin[1]),
                            verdict="identical", note="every formulation gives the seed model's model"))
        else:
            out.append(Spec(spec_id, "best_vs_seed", puzzle, scope, None, min(distinct), seed,
                            verdict="preprocessing",
                            note="propagation solved most instances of every other formulation before any "
                                 "solver ran"))
    mip = data.best(puzzle, scope, [c for c in models if data.kinds.get(c[1]) != "cp"], shift)
    cp = data.best(puzzle, scope, [c for c in models if data.kinds.get(c[1]) == "cp"], shift)
    if mip is not None and cp is not None:
        out.append(Spec(f"mip_vs_cp/{puzzle}/{scope_id}/{measure}", "mip_vs_cp", puzzle, scope, None, mip, cp))
    return out


# --- the text of a claim --------------------------------------------------------------------------

def _num(value: float | None, digits: int = 3) -> str:
    if value is None or not math.isfinite(value):
        return "--"
    return f"{value:.{digits}g}"


def _p(value: float | None) -> str:
    if value is None:
        return "= --"
    return "< 0.001" if value < 0.001 else f"= {value:.2g}"


def scope_text(claim: Claim) -> str:
    where = claim.instance_set or f"all {claim.puzzle} sets"
    return f"{where}, {claim.solver}" if claim.solver else where


def sides(claim: Claim) -> tuple[str, str]:
    if claim.solver is not None:
        return claim.a, claim.b
    return _label(claim.a, claim.a_solver), _label(claim.b, claim.b_solver)


def evidence(claim: Claim, flip: bool = False) -> str:
    """The numbers behind a verdict; ``flip`` gives the ratio the other way round (t_a / t_b), as a
    sentence naming b first reads it."""
    a, b = sides(claim)
    ratio, ci = claim.ratio, claim.ci
    if flip and ratio is not None:
        ratio, ci = 1 / ratio, None if ci is None else [1 / ci[1], 1 / ci[0]]
    slow, fast = (a, b) if flip else (b, a)
    interval = f", 95% CI {_num(ci[0])}-{_num(ci[1])}" if ci else ""
    return (f"time ratio {slow} / {fast} {_num(ratio)}{interval}; Holm p {_p(claim.p_adjusted)} "
            f"(of {claim.family_size}), n = {claim.n}; noise factor {_num(claim.noise)}"
            + (f"; {claim.preprocessed} instance(s) solved in preprocessing left out" if claim.preprocessed else ""))


def sentence(claim: Claim) -> str:
    """The claim as one line of plain text; "faster" appears only for a faster or slower verdict."""
    a, b = sides(claim)
    head = {"pairwise": "", "best_vs_seed": "fastest formulation against the seed model: ",
            "mip_vs_cp": "best MIP against best CP configuration: "}[claim.kind]
    where = scope_text(claim)
    if claim.verdict == "identical":
        return f"{where}: {head}{a} = {b}: identical models, not compared."
    if claim.verdict == "preprocessing":
        return (f"{where}: {head}{a} against {b}: not compared, propagation solved the instances before any "
                "solver ran.")
    if claim.verdict == "faster":
        return f"{where}: {head}{a} is {_num(claim.ratio)}x faster than {b} ({evidence(claim)})."
    if claim.verdict == "slower":
        return f"{where}: {head}{b} is {_num(1 / claim.ratio)}x faster than {a} ({evidence(claim, flip=True)})."
    why = f"; {claim.note}" if claim.note else ""
    if claim.verdict == "equivalent":
        return f"{where}: {head}{a} against {b}: no difference beyond the noise ({evidence(claim)}{why})."
    return f"{where}: {head}{a} against {b}: {not_enough(claim)} ({evidence(claim)}{why})."


def not_enough(claim: Claim) -> str:
    """"not enough evidence (n = 2; about 14 puzzles needed)": an inconclusive claim's words."""
    needed = "" if claim.instances_needed is None else f"; about {claim.instances_needed} puzzles needed"
    return f"not enough evidence (n = {claim.n}{needed})"


# --- the whole run --------------------------------------------------------------------------------

@dataclass
class Findings:
    """The claims of a run with what they rest on (see :func:`findings`)."""

    claims: list[Claim]
    identity: list
    preprocessing: list[dict]
    split_half: dict
    noise: Noise
    measure: str
    data: Data | None = None

    def of_kind(self, kind: str) -> list[Claim]:
        return [c for c in self.claims if c.kind == kind]


def decide_claims(per_instance: pd.DataFrame, identities: Identities, noise: Noise, measure: str,
                  shift: float) -> list[Claim]:
    """Every claim of the per-instance times, measured, Holm-adjusted and decided."""
    data = Data.of(per_instance)
    claims = [measure_claim(s, data, noise, measure) for s in specs(data, identities, measure, shift)]
    adjust(claims)
    return claims


def halves(runs: pd.DataFrame) -> tuple[str, pd.Series] | None:
    """(basis, half 0/1 of each run): by repeat parity with repeats, else by the seed's rank; None
    with one repeat and one seed."""
    if "repeat" in runs and runs["repeat"].max() >= 1:
        return "the parity of the repeat", runs["repeat"] % 2
    seeds = sorted(runs["seed"].dropna().unique())
    if len(seeds) >= 2:
        rank = {s: i for i, s in enumerate(seeds)}
        return "the parity of the seed's rank", runs["seed"].map(rank) % 2
    return None


def preprocessing_lines(per_instance: pd.DataFrame) -> list[dict]:
    """Per set and formulation with instances solved in preprocessing: how many, of how many."""
    lines = []
    keys = ["puzzle", "instance_set", "formulation"]
    per = per_instance.groupby([*keys, *INSTANCE[1:]], sort=True)["preprocessing_solved"].all().reset_index()
    for (puzzle, name, formulation), part in per.groupby(keys, sort=True):
        solved = int(part["preprocessing_solved"].sum())
        if solved:
            lines.append({"puzzle": puzzle, "instance_set": name, "formulation": formulation, "solved": solved,
                          "instances": len(part),
                          "text": f"{name}: propagation ({formulation}) solved {solved} of {len(part)} puzzles "
                                  "before any solver ran; those runs are in no timing claim."})
    return lines


def findings(runs: pd.DataFrame, per_instance: pd.DataFrame, measure: str, shift: float,
             reference_noise: float = float("nan"), group_identical: bool = True) -> Findings:
    """The claims of prepared ``runs`` (and their per-instance times), with the split-half replication;
    ``group_identical=False`` compares identical models too (a check of the verdict rule)."""
    identities = Identities(identity_groups(runs) if group_identical else [])
    noise = Noise(runs, reference_noise)
    claims = decide_claims(per_instance, identities, noise, measure, shift) if len(per_instance) else []
    split = {"basis": None, "claims": 0, "hold": 0, "share": None}
    cut = halves(runs) if len(runs) else None
    if cut is not None:
        basis, half = cut
        decided = [{c.id: c for c in decide_claims(instance_times(runs[half == h]), identities, noise, measure, shift)}
                   for h in (0, 1)]
        for claim in claims:
            claim.holds_in_halves = holds_in_halves(claim.verdict, [d[claim.id].verdict if claim.id in d else None
                                                                    for d in decided])
        count, hold, share = split_share(claims)
        split = {"basis": basis, "claims": count, "hold": hold, "share": share}
    for claim in claims:
        claim.text = sentence(claim)
    identity = [{"puzzle": p, "instance_set": s, "formulations": list(f), "solvers": list(solvers), "exact": exact,
                 "text": f"{' = '.join(f)} on {s} ({', '.join(solvers)}): "
                         f"{'identical models' if exact else 'the same model up to the order of rows and columns'}"}
                for p, s, f, solvers, exact in identities.by_set()]
    return Findings(claims, identity, preprocessing_lines(per_instance), split, noise, measure,
                    Data.of(per_instance) if len(per_instance) else None)


FORMAT = 2
"""The version of findings.json's layout (1: verdict ``tied`` where 2 says ``equivalent`` or
``inconclusive``; 2 adds each claim's ``family``, ``sd_log_ratio``, ``instances_needed`` and the
document's ``families``)."""


def _stats(values: pd.Series) -> dict | None:
    values = pd.to_numeric(values, errors="coerce").dropna()
    if not len(values):
        return None
    return {"min": float(values.min()), "median": float(values.median()), "max": float(values.max())}


def _distinct(values: pd.Series) -> list:
    return [v.item() if hasattr(v, "item") else v for v in sorted(values.dropna().unique())]


def setup(runs: pd.DataFrame, reference_noise: float, noise: Noise) -> dict:
    """What a reader of findings.json needs to judge it: machine, versions, grid, load and noise."""
    if not len(runs):
        return {}
    versions = runs.groupby("solver")["solver_version"].agg(lambda v: ", ".join(sorted(set(map(str, v)))))
    table = noise.table()
    dates = pd.to_datetime(runs["date"], errors="coerce", utc=True).dropna()
    return {
        "machine": {"cpu_model": _distinct(runs["cpu_model"]), "cpu_count": _distinct(runs["cpu_count"]),
                    "hostname": _distinct(runs["hostname"]), "platform": _distinct(runs["platform"])},
        "versions": {"puzzlebench": _distinct(runs["puzzlebench_version"]), "git_commit": _distinct(runs["git_commit"]),
                     "python": _distinct(runs["python_version"]), "solvers": versions.to_dict()},
        "grid": {"runs": int(len(runs)), "instance_sets": runs.groupby("instance_set")["instance"].nunique().to_dict(),
                 "formulations": int(runs["formulation"].nunique()), "solvers": _distinct(runs["solver"]),
                 "seeds": _distinct(runs["seed"]),
                 "repeats": int(runs["repeat"].max()) + 1 if "repeat" in runs and len(runs) else 1,
                 "time_limit": _distinct(runs["time_limit"]), "threads": _distinct(runs["threads"])},
        "dates": [f"{dates.min():%Y-%m-%d %H:%M}", f"{dates.max():%Y-%m-%d %H:%M}"] if len(dates) else None,
        "load": {"load_average": _stats(runs.get("load_average", pd.Series(dtype=float))),
                 "cpu_pressure": _stats(runs.get("cpu_pressure", pd.Series(dtype=float)))},
        "noise": {"reference": None if not math.isfinite(reference_noise) else float(reference_noise),
                  "source": noise.source, "configurations": _stats(table["geometric_sd"]) if len(table) else None},
    }


def findings_document(items: Findings, runs: pd.DataFrame, reference_noise: float) -> dict:
    """The content of findings.json (see the README's "How findings are decided")."""
    return {"format": FORMAT, "measure": items.measure, "alpha": ALPHA, "confidence": CONFIDENCE,
            "rule": RULE, "setup": setup(runs, reference_noise, items.noise), "split_half": items.split_half,
            "identity_groups": items.identity, "preprocessing": items.preprocessing,
            "families": families(items.claims), "claims": [c.to_dict() for c in items.claims]}


def families(claims: list[Claim]) -> list[dict]:
    """Each Holm family: its comparisons (claims neither identical nor preprocessing), tested claims,
    the instances a claim of it needs before it can show a difference
    (:func:`~puzzlebench.analysis.verdicts.instances_to_decide` of its comparisons) and the most any
    of its claims has; ``decidable`` False when none has that many."""
    comparisons = family_comparisons(claims)
    by_family: dict[str, list[Claim]] = {}
    for claim in claims:
        by_family.setdefault(claim.family, []).append(claim)
    out = []
    for name in sorted(comparisons):
        members = by_family[name]
        needs = instances_to_decide(comparisons[name])
        largest = max((c.n for c in members if c.verdict not in FIXED), default=0)
        out.append({"family": name, "comparisons": comparisons[name],
                    "tested": sum(c.p_value is not None for c in members), "instances_to_decide": needs,
                    "largest_n": largest, "decidable": largest >= needs})
    return out


RULE = ("faster (a takes less time than b) or slower: the Holm-adjusted (within the claim's family: the pairwise "
        "claims of one puzzle, set and solver; the best_vs_seed or mip_vs_cp claims of one puzzle) two-sided "
        "Wilcoxon signed-rank p < 0.05 and the 95% bootstrap interval of the geometric mean per-instance ratio "
        "t_b / t_a beyond the pair's band g (its noise factor, at least 1.1: no smaller ratio counts) (above it, or "
        "below its inverse); equivalent: tested (at "
        "least 6 non-zero differences) and the interval inside [1/g, g]; inconclusive otherwise (untested, or an "
        "interval leaving the band without a significant test), with instances_needed, the instances that would "
        "decide it at the observed mean and spread; identical: the same model, not compared; preprocessing: "
        "solved before any solver ran, not compared. Times are aggregated per instance first (median over "
        "repeats, geometric mean over seeds).")


# --- what the summary and the paper state -------------------------------------------------------

def rule_sentence(items: Findings) -> str:
    return ("Each claim is decided from the per-instance times (the median over the repeats, the geometric mean "
            "over the seeds): a difference counts when the Holm-adjusted Wilcoxon signed-rank p is below "
            f"{ALPHA:g} and the {CONFIDENCE:.0%} bootstrap interval of the geometric mean ratio lies beyond the "
            f"pair's noise factor (estimated from the {items.noise.source}) and beyond {MIN_EFFECT:g}x, the smallest "
            "difference counted; \"no difference\" is said only when the pair was tested and the interval lies "
            "inside that band; every other claim is "
            "inconclusive (not enough evidence), with the instances that would decide it; identical models "
            "are not compared, nor are puzzles solved before any solver ran. " + families_sentence(items.claims))


def families_sentence(claims: list[Claim]) -> str:
    """The Holm families and how many instances each needs before a claim of it can show a difference,
    naming the families that cannot at this sample."""
    rows = families(claims)
    if not rows:
        return ""
    needs = sorted({r["instances_to_decide"] for r in rows if r["comparisons"]})
    span = "" if not needs else (f"{needs[0]}" if len(needs) == 1 else f"{needs[0]}-{needs[-1]}")
    short = [r for r in rows if r["comparisons"] and not r["decidable"]]
    text = ("Holm families: the pairwise claims of one set and solver, and each other kind's claims of one "
            f"puzzle; a claim needs {span} instances (by its family's size) before the test can show a "
            "difference.")
    if short:
        text += (f" {len(short)} of {len(rows)} families have no claim with that many, so none of their claims "
                 "can show a difference: " + ", ".join(f"{r['family']} (n <= {r['largest_n']}, needs "
                                                      f"{r['instances_to_decide']})" for r in short[:6])
                 + (f" and {len(short) - 6} more" if len(short) > 6 else "") + ".")
    return text


def replication_sentence(items: Findings) -> str:
    split = items.split_half
    if split.get("basis") is None:
        return "The run has one repeat and one seed, so no split-half replication was computed."
    if not split["claims"]:
        return f"No claim found a difference, so there is nothing to replicate across halves ({split['basis']})."
    return (f"Split-half replication (the runs split by {split['basis']}, each half decided on its own): "
            f"{split['hold']} of the {split['claims']} claims of a difference ({split['share']:.0%}) hold in both "
            "halves.")


def counts_sentence(claims: list[Claim]) -> str:
    verdicts = pd.Series([c.verdict for c in claims], dtype=object).value_counts()
    counted = {"differ": int(verdicts.get("faster", 0) + verdicts.get("slower", 0)),
               **{v: int(verdicts.get(v, 0)) for v in VERDICTS if v not in DIRECTIONAL}}
    parts = [f"{count} {what}" for what, count in counted.items() if count]
    return f"{len(claims)} pairs of formulations per set and solver: {', '.join(parts) or 'none'}"


def overview(items: Findings) -> list[tuple[str, list[str]]]:
    """Per puzzle, the lines a summary states: the headline claims, identity groups, preprocessing
    and the count of the pairwise claims (listed whole in tables/pairwise.md)."""
    out = []
    for puzzle in sorted({c.puzzle for c in items.claims} | {g["puzzle"] for g in items.identity}):
        lines = [c.text for kind in ("best_vs_seed", "mip_vs_cp") for c in items.of_kind(kind) if c.puzzle == puzzle]
        lines += [g["text"] for g in items.identity if g["puzzle"] == puzzle]
        lines += [p["text"] for p in items.preprocessing if p["puzzle"] == puzzle]
        pairwise = [c for c in items.of_kind("pairwise") if c.puzzle == puzzle]
        if pairwise:
            lines.append(counts_sentence(pairwise) + " (each in tables/pairwise.md).")
        out.append((puzzle, lines))
    return out


def pairwise_markdown(items: Findings) -> str:
    """tables/pairwise.md: every pairwise claim, one line each, by puzzle, set and solver."""
    lines = ["# Every pair of formulations, per instance set and solver", "", rule_sentence(items), ""]
    current = None
    for claim in items.of_kind("pairwise"):
        if (claim.puzzle, claim.instance_set) != current:
            current = (claim.puzzle, claim.instance_set)
            lines += ["", f"## {claim.instance_set}", ""]
        lines.append(f"- {claim.text}")
    if current is None:
        lines.append("No pairs.")
    return "\n".join(lines) + "\n"


WILCOXON_COLUMNS = ["puzzle", "instance_set", "solver", "formulation_a", "formulation_b", "n", "n_nonzero", "a_less",
                    "b_less", "ratio", "ci_low", "ci_high", "noise", "statistic", "p_value", "p_holm", "verdict",
                    "note"]
"""The columns of :func:`wilcoxon_table` (``tables/wilcoxon``)."""


def wilcoxon_table(claims, data) -> pd.DataFrame:
    """The pairwise claims (:mod:`~puzzlebench.analysis.claims`, kind ``pairwise``) as a table.

    Per puzzle, instance set, solver and pair a < b: ``n`` instances paired (preprocessing-solved
    ones left out), ``n_nonzero`` of them with a difference, ``a_less``/``b_less`` those where a
    (b) took less time; ``ratio`` the geometric mean of t_b / t_a (> 1: a takes less time) with its
    95% interval ``ci_low``-``ci_high``; ``noise`` the pair's noise factor; ``statistic`` and
    ``p_value`` the two-sided Wilcoxon signed-rank test of log(t_b / t_a), ``p_holm`` its Holm
    adjustment over the pairwise claims; ``verdict`` the claim's."""
    rows = []
    for claim in claims:
        if claim.kind != "pairwise":
            continue
        a, b = (claim.a, claim.solver), (claim.b, claim.solver)
        d = data.pair(claim.puzzle, claim.instance_set, a, b)[0] if claim.ratio is not None else np.zeros(0)
        statistic = paired_test(d)[0] if len(d) else np.nan
        low, high = claim.ci or (np.nan, np.nan)
        rows.append((claim.puzzle, claim.instance_set, claim.solver, claim.a, claim.b, claim.n,
                     int(np.count_nonzero(d)), int((d > 0).sum()), int((d < 0).sum()),
                     np.nan if claim.ratio is None else claim.ratio, low, high,
                     np.nan if claim.noise is None else claim.noise, statistic,
                     np.nan if claim.p_value is None else claim.p_value,
                     np.nan if claim.p_adjusted is None else claim.p_adjusted, claim.verdict, claim.note))
    return pd.DataFrame(rows, columns=WILCOXON_COLUMNS)
