"""Result tables, one DataFrame each (written by :mod:`~puzzlebench.analysis.formatting`).

Every function takes prepared runs (:func:`~puzzlebench.analysis.outcomes.prepare_runs`)
or tables derived from them, and keeps every run as one observation unless it says otherwise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .outcomes import CONFIG, INSTANCE, REFERENCE_SOLVER
from .significance import MIN_NONZERO
from .stats import grouped_sgm, power_law_fit, spread, virtual_best
from .verdicts import MAX_PREPROCESSED

COUNT_SHIFT = 100
"""Shift of the shifted geometric means of nodes and LP iterations."""
VIRTUAL_BEST = "virtual best"
UNSOLVED_COUNTS = ("time_limit", "error", "wrong", "false_infeasible", "no_grid")
"""The outcomes the configurations table counts besides solved (and skipped)."""
SEED_FORMULATION = "binary"
"""The seed model every puzzle starts from (the blog posts' assignment model): speed-ups are against it."""
KEYS = ["puzzle", *CONFIG]


def sgm_column(quantity: str, shift: float) -> str:
    return f"{quantity}_sgm_s{shift:g}"


def ratio_column(quantity: str, shift: float) -> str:
    return f"{quantity}_ratio_s{shift:g}"


def configuration_table(runs: pd.DataFrame, shifts=(0.01, 1, 10), measure: str = "time",
                        skipped: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per puzzle x formulation x solver: counts, shifted geometric means, root share and model size.

    Counts: runs (made), solved (outcomes solved and infeasible_proved), then one
    column per other outcome: time_limit, error, wrong (grid rejected),
    false_infeasible, no_grid; and skipped, the runs of ``skipped`` (the store's
    runs not made, :func:`~puzzlebench.analysis.outcomes.skipped_runs`), which
    are in no other column nor statistic.
    ``{measure}_sgm_s{s}``: SGM_s of ``time`` over all runs (unsolved at the time
    limit), one column per shift s.  ``nodes_sgm_s100`` and
    ``lp_iterations_sgm_s100``: SGM with shift 100 over the runs reporting the
    figure (unsolved runs with the count at termination).  ``root_share``:
    share of runs solved at the root node.  ``rows``/``cols``/``nonzeros``
    (the built model) and ``presolved_rows``/``presolved_cols``: means over the
    runs reporting them.  ``root_lp_time_median``: the median of ``root_lp_time``
    (when the solver had its root LP solved) over the runs reporting it; missing
    for configurations that solve no LP.
    """
    by = [runs[k] for k in KEYS]
    counts = pd.DataFrame({"runs": 1, "solved": runs["solved"],
                           **{o: runs["outcome"].eq(o) for o in UNSOLVED_COUNTS}}).astype(int)
    parts = [counts.groupby(by, sort=True, dropna=False).sum()]
    if skipped is not None and len(skipped):
        parts.append(skipped.groupby(KEYS, sort=True, dropna=False).size().rename("skipped"))
    parts += [grouped_sgm(runs["time"], by, s).rename(sgm_column(measure, s)) for s in shifts]
    parts += [grouped_sgm(runs[q], by, COUNT_SHIFT).rename(sgm_column(q, COUNT_SHIFT))
              for q in ("nodes", "lp_iterations")]
    sizes = ["rows", "cols", "nonzeros", "presolved_rows", "presolved_cols"]
    parts.append(runs[sizes].astype(float).assign(root_share=runs["root_solved"].astype(float))
                 .groupby(by, sort=True, dropna=False).mean()[["root_share", *sizes]])
    parts.append(runs["root_lp_time"].astype(float).groupby(by, sort=True, dropna=False).median()
                 .rename("root_lp_time_median"))
    table = pd.concat(parts, axis=1).rename_axis(KEYS).reset_index()
    count_columns = ["runs", "solved", *UNSOLVED_COUNTS, "skipped"]
    table = table.assign(skipped=table.get("skipped", 0))
    table[count_columns] = table[count_columns].fillna(0).astype(int)
    return table[[*KEYS, *count_columns, *[c for c in table.columns if c not in (*KEYS, *count_columns)]]]


def ratio_table(runs: pd.DataFrame, configurations: pd.DataFrame, shifts=(0.01, 1, 10),
                measure: str = "time") -> pd.DataFrame:
    """Mittelmann-style scaled SGMs: each SGM column divided by the puzzle's best configuration's (best = 1).

    Per puzzle a last row "virtual best" (:func:`~puzzlebench.analysis.stats.virtual_best`)
    gives the SGMs of the per instance-and-seed fastest runs relative to the same best.
    A ratio is missing when the best SGM is 0 (e.g. every configuration needs 0 nodes).
    """
    quantities = [(measure, s) for s in shifts] + [(q, COUNT_SHIFT) for q in ("nodes", "lp_iterations")]
    sgms = [sgm_column(q, s) for q, s in quantities]
    vbs = virtual_best(runs)
    vbs_sgm = pd.concat([grouped_sgm(vbs["time"], vbs["puzzle"], s).rename(sgm_column(measure, s))
                         for s in shifts], axis=1)
    vbs_rows = vbs.groupby("puzzle", sort=True, dropna=False).agg(runs=("time", "size"), solved=("solved", "sum"))
    vbs_rows = pd.concat([vbs_rows, vbs_sgm], axis=1).reset_index().assign(formulation=VIRTUAL_BEST, solver="")
    table = pd.concat([configurations[[*KEYS, "runs", "solved", *sgms]],
                       vbs_rows[[*KEYS, "runs", "solved", *sgms[:len(shifts)]]]], ignore_index=True)
    best = configurations.groupby("puzzle", sort=True, dropna=False)[sgms].min()
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = table[sgms].to_numpy(float) / best.reindex(table["puzzle"]).to_numpy(float)
    scaled[~np.isfinite(scaled)] = np.nan
    ratios = pd.DataFrame(scaled, columns=[ratio_column(q, s) for q, s in quantities], index=table.index)
    order = table["formulation"].eq(VIRTUAL_BEST)
    return (pd.concat([table[[*KEYS, "runs", "solved"]], ratios], axis=1).assign(_vbs=order)
            .sort_values(["puzzle", "_vbs"], kind="stable").drop(columns="_vbs").reset_index(drop=True))


MIN_LADDER_SIZES = 3
"""A growth exponent needs a set with at least this many grid sizes (two sizes always fit exactly)."""


def scaling_runs(runs: pd.DataFrame, ladders) -> pd.DataFrame:
    """The runs the growth fits use: those of the sets in ``ladders`` (the sets declaring themselves
    a size ladder, :func:`~puzzlebench.io.sets.ladder_set_names`) with at least MIN_LADDER_SIZES sizes."""
    on_ladder = runs[runs["instance_set"].isin(list(ladders))]
    sizes = on_ladder.groupby("instance_set")["n"].transform("nunique")
    return on_ladder[sizes >= MIN_LADDER_SIZES]


def scaling_omissions(runs: pd.DataFrame, ladders) -> list[str]:
    """Why a puzzle has no growth exponents: one sentence per puzzle without a usable ladder."""
    usable = set(scaling_runs(runs, ladders)["puzzle"])
    reasons = []
    for puzzle, part in runs.groupby("puzzle", sort=True):
        if puzzle in usable:
            continue
        declared = part[part["instance_set"].isin(list(ladders))]
        if not len(declared):
            reasons.append(f"{puzzle}: no set of this run declares itself a size ladder (`tags: [ladder]` "
                           "in its set.yaml), and sizes across unrelated sets are not a growth curve")
        else:
            counts = declared.groupby("instance_set")["n"].nunique()
            reasons.append(f"{puzzle}: " + ", ".join(f"{name} has {count} grid size{'s' * (count != 1)}"
                                                    for name, count in counts.items())
                           + f" in this run (a fit needs {MIN_LADDER_SIZES})")
    return reasons


def scaling_table(runs: pd.DataFrame, ladders, level: float = 0.95) -> pd.DataFrame:
    """Growth exponents k of y ~ c n^k per ladder set and configuration, n = grid rows.

    Fitted per set of :func:`scaling_runs` (:func:`~puzzlebench.analysis.stats.power_law_fit`:
    least squares of log y on log n over all runs) for y = time (unsolved runs at the time limit,
    which flattens k; see ``unsolved``) and y = nodes + 1, with the ``level`` confidence
    interval [exponent_low, exponent_high].
    """
    rows = []
    for (puzzle, name, formulation, solver), group in scaling_runs(runs, ladders).groupby(
            ["puzzle", "instance_set", *CONFIG], sort=True, dropna=False):
        for quantity, y in (("time", group["time"]), ("nodes", group["nodes"] + 1)):
            fit = power_law_fit(group["n"], y, level)
            rows.append((puzzle, name, formulation, solver, quantity, fit.k, fit.k_low, fit.k_high, fit.c,
                         fit.sizes, group["n"].min(), group["n"].max(), len(group), int((~group["solved"]).sum())))
    return pd.DataFrame(rows, columns=["puzzle", "instance_set", *CONFIG, "quantity", "exponent", "exponent_low",
                                       "exponent_high", "coefficient", "sizes", "n_min", "n_max", "runs",
                                       "unsolved"])


def instance_spreads(runs: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle, configuration and original puzzle (instance_set, instance): the spread of
    ``time`` over its seeds x permutations (:func:`~puzzlebench.analysis.stats.spread`), kept when k >= 2.

    ``mixed`` is True when some of those runs solved it and some did not.
    """
    by = [runs[k] for k in [*KEYS, "instance_set", "instance"]]
    solved = runs["solved"].groupby(by, sort=True, dropna=False).agg(["any", "all"])
    spreads = spread(runs["time"], by).assign(mixed=solved["any"] & ~solved["all"])
    return spreads[spreads["k"] >= 2].reset_index()


def variability_table(spreads: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle and configuration, over :func:`instance_spreads`: instances, median and 90th
    percentile of max/min, median coefficient of variation, share of instances with mixed outcomes."""
    grouped = spreads.groupby(KEYS, sort=True, dropna=False)
    return grouped.agg(instances=("k", "size"), runs_per_instance=("k", "median"),
                       median_max_min=("max_min_ratio", "median"),
                       p90_max_min=("max_min_ratio", lambda r: r.quantile(0.9)),
                       median_cv=("cv", "median"), mixed_share=("mixed", "mean")).reset_index()


def best_vs_reference_table(configurations: pd.DataFrame, instance_times: pd.DataFrame,
                            sgm: str, reference, identities=None) -> pd.DataFrame:
    """Per puzzle: the best MIP configuration by the SGM column ``sgm`` against the best reference-side
    (CP, ``reference`` = :func:`~puzzlebench.analysis.reference.reference_solvers`) configuration.

    The reference side is every solver configuration of kind "cp" (``solver_kind``),
    the MIP side every other; the reference columns keep the prefix ``cpsat_``.  As in the claims, a
    configuration is a candidate only when at most :data:`~.verdicts.MAX_PREPROCESSED` of its
    instances were solved before any solver ran, and formulations that give one model
    (``identities``) are one candidate named ``a = b = ...`` (:func:`_merge_identical`).

    ``ratio`` = MIP SGM / CP-SAT SGM (> 1: CP-SAT faster).  ``*_solved`` count
    the instances solved by every seed, out of ``*_instances``; ``*_preprocessed``
    those of them the formulation's preprocessing alone solved (time counted, but
    not the solver's doing).  ``note`` says when a side reached a solver on fewer instances than
    the test needs (:data:`~.significance.MIN_NONZERO`): such a row is no claim.
    """
    per_instance = instance_times.groupby(KEYS, sort=True, dropna=False).agg(
        instances=("solved", "size"), instances_solved=("solved", "sum"),
        instances_preprocessed=("preprocessing_solved", "sum")).reset_index()
    table = configurations.merge(per_instance, on=KEYS, how="left")
    if identities is not None:
        table = _merge_identical(table, instance_times, identities)
    candidate = table[sgm].notna() & (table["instances_preprocessed"] <= MAX_PREPROCESSED * table["instances"])
    table = table[candidate].sort_values([*KEYS], kind="stable")
    is_reference = table["solver"].isin(list(reference))

    def best(part: pd.DataFrame, prefix: str) -> pd.DataFrame:
        top = part.loc[part.groupby("puzzle")[sgm].idxmin()]
        label = top["formulation"] + "/" + top["solver"]
        return pd.DataFrame({"puzzle": top["puzzle"].to_numpy(), f"{prefix}_best": label.to_numpy(),
                             f"{prefix}_sgm": top[sgm].to_numpy(),
                             f"{prefix}_solved": top["instances_solved"].to_numpy(),
                             f"{prefix}_preprocessed": top["instances_preprocessed"].to_numpy(),
                             f"{prefix}_instances": top["instances"].to_numpy()})

    puzzles = configurations[["puzzle"]].dropna().drop_duplicates().sort_values("puzzle")
    merged = puzzles.merge(best(table[~is_reference], "mip"), on="puzzle", how="left").merge(
        best(table[is_reference], REFERENCE_SOLVER), on="puzzle", how="left")
    merged["ratio"] = merged["mip_sgm"] / merged[f"{REFERENCE_SOLVER}_sgm"]
    reached = pd.concat([merged[f"{side}_instances"] - merged[f"{side}_preprocessed"]
                         for side in ("mip", REFERENCE_SOLVER)], axis=1).min(axis=1)
    merged["note"] = [f"{int(n)} instance{'s' * (n != 1)} reached a solver: fewer than the {MIN_NONZERO} a test "
                      "needs, no claim" if pd.notna(n) and n < MIN_NONZERO else "" for n in reached]
    return merged[["puzzle", "mip_best", "mip_sgm", f"{REFERENCE_SOLVER}_best", f"{REFERENCE_SOLVER}_sgm",
                   "ratio", "mip_solved", "mip_preprocessed", "mip_instances", f"{REFERENCE_SOLVER}_solved",
                   f"{REFERENCE_SOLVER}_preprocessed", f"{REFERENCE_SOLVER}_instances", "note"]]


def best_vs_reference_by_set(runs: pd.DataFrame, instance_times: pd.DataFrame, shifts, measure: str,
                             sgm: str, reference, identities=None) -> pd.DataFrame:
    """:func:`best_vs_reference_table` for each instance set on its own, with why the best MIP
    configuration is slow or fails: its ``mip_nodes`` and ``mip_lp_iterations`` (SGM, shift 100,
    the count at termination for unsolved runs) and ``mip_root_share`` (runs solved at the root).

    A set's best MIP configuration that solved nothing, with 0 nodes, stopped in its root node
    (typically the root LP relaxation not finished within the limit).
    """
    parts = []
    for name, part in runs.groupby("instance_set", sort=True):
        configurations = configuration_table(part, shifts, measure)
        times = instance_times[instance_times["instance_set"] == name]
        best = best_vs_reference_table(configurations, times, sgm, reference, identities)
        if identities is not None:
            configurations = _merge_identical(configurations, times, identities)
        label = configurations["formulation"] + "/" + configurations["solver"]
        why = configurations.assign(mip_best=label)[["puzzle", "mip_best", sgm_column("nodes", COUNT_SHIFT),
                                                     sgm_column("lp_iterations", COUNT_SHIFT), "root_share"]]
        why.columns = ["puzzle", "mip_best", "mip_nodes", "mip_lp_iterations", "mip_root_share"]
        parts.append(best.merge(why, on=["puzzle", "mip_best"], how="left").assign(instance_set=name))
    if not parts:
        return pd.DataFrame()
    table = pd.concat(parts, ignore_index=True)
    return table[["puzzle", "instance_set", *[c for c in table.columns if c not in ("puzzle", "instance_set")]]]


HARDEST_SHARE = 0.1
"""The share of each set's instances, the slowest for the reference, that the hardest-instances table keeps."""


def hardest_instances(instance_times: pd.DataFrame, reference, share: float = HARDEST_SHARE) -> pd.DataFrame:
    """Per instance set, the ``share`` of its instances (at least one) on which the reference side
    is slowest: hardness = the instance's smallest mean time over the reference configurations
    (solvers in ``reference``); ties broken by instance name.  The rows are INSTANCE keys."""
    ref = instance_times[instance_times["solver"].isin(list(reference))]
    if not len(ref):
        return pd.DataFrame(columns=INSTANCE)
    hardness = ref.groupby(INSTANCE, sort=True, dropna=False)["time"].min().rename("hardness").reset_index()
    hardness = hardness.sort_values(["instance_set", "hardness", "instance", "permutation"],
                                    ascending=[True, False, True, True], kind="stable")
    keep = hardness.groupby("instance_set", sort=True).cumcount() < np.ceil(
        share * hardness.groupby("instance_set")["instance"].transform("size"))
    return hardness[keep][INSTANCE].reset_index(drop=True)


def best_vs_reference_hardest(runs: pd.DataFrame, instance_times: pd.DataFrame, shifts, measure: str,
                              sgm: str, reference, share: float = HARDEST_SHARE, identities=None) -> pd.DataFrame:
    """:func:`best_vs_reference_by_set` over each set's hardest ``share`` of instances for the
    reference side (:func:`hardest_instances`), with ``instances_kept`` of ``instances_in_set``:
    whether a better model brings a MIP solver level with CP where CP itself works hardest."""
    hard = hardest_instances(instance_times, reference, share)
    if not len(hard):
        return pd.DataFrame()
    chosen = runs.merge(hard, on=INSTANCE, how="inner")
    table = best_vs_reference_by_set(chosen, instance_times.merge(hard, on=INSTANCE, how="inner"), shifts,
                                     measure, sgm, reference, identities)
    sizes = instance_times[INSTANCE].drop_duplicates().groupby("instance_set").size().rename("instances_in_set")
    kept = hard.groupby("instance_set").size().rename("instances_kept")
    return table.merge(kept, on="instance_set", how="left").merge(sizes, on="instance_set", how="left")


def _merge_identical(table: pd.DataFrame, instance_times: pd.DataFrame, identities) -> pd.DataFrame:
    """``table`` with each identity group's members but its representative dropped and the
    representative named ``a = b = ...`` (see :func:`headline_table`)."""
    drop, names = set(), {}
    for puzzle, part in instance_times.groupby("puzzle", sort=True):
        ran = {f: set(zip(cells["instance_set"], cells["solver"])) for f, cells in part.groupby("formulation")}
        for members in identities.merged(ran):
            keep = SEED_FORMULATION if SEED_FORMULATION in members else members[0]
            names[(puzzle, keep)] = " = ".join([keep, *[m for m in members if m != keep]])
            drop |= {(puzzle, m) for m in members if m != keep}
    if not names:
        return table
    keys = list(zip(table["puzzle"], table["formulation"]))
    kept = table[np.array([key not in drop for key in keys], dtype=bool)].copy()
    kept["formulation"] = [names.get(key, key[1]) for key in zip(kept["puzzle"], kept["formulation"])]
    return kept


SET_COLUMNS = ["time_limit", "error", sgm_column("nodes", COUNT_SHIFT),
               sgm_column("lp_iterations", COUNT_SHIFT), "root_lp_time_median"]
"""The columns of :func:`set_configuration_table` after the keys, counts and time SGM."""


def set_configuration_table(runs: pd.DataFrame, shift: float, measure: str = "time") -> pd.DataFrame:
    """Per instance set and configuration (formulation x solver): runs, solved, time limits and
    errors, the SGM of ``measure`` with ``shift`` (unsolved runs at the limit), nodes and LP
    iterations (SGM, shift 100) and the median root LP time, each as in
    :func:`configuration_table` but over the set's runs alone."""
    parts = [configuration_table(part, (shift,), measure).assign(instance_set=name)
             for name, part in runs.groupby("instance_set", sort=True)]
    if not parts:
        return pd.DataFrame()
    table = pd.concat(parts, ignore_index=True)
    return table[["puzzle", "instance_set", *CONFIG, "runs", "solved", sgm_column(measure, shift), *SET_COLUMNS]]


def headline_table(configurations: pd.DataFrame, instance_times: pd.DataFrame, sgm: str,
                   identities=None) -> pd.DataFrame:
    """Per puzzle and formulation: its best solver by the SGM column ``sgm``, that SGM, the instances that
    configuration solved in every run (``solved``, of ``instances``; ``solved_text`` "k/m") and
    ``speedup`` = the seed formulation's best SGM / this SGM (> 1: a smaller SGM than the seed model's).

    Formulations that give one model on every set and solver where both ran (``identities``,
    :class:`~puzzlebench.analysis.identity_groups.Identities`) are one row, named ``a = b = ...``, with the
    numbers of the seed model when it is among them, else of the first by name: the others' numbers
    differ from it only by noise."""
    counts = instance_times.groupby(KEYS, sort=True, dropna=False).agg(
        instances=("solved", "size"), instances_solved=("solved", "sum")).reset_index()
    table = configurations[configurations[sgm].notna()].merge(counts, on=KEYS, how="left")
    if identities is not None:
        table = _merge_identical(table, instance_times, identities)
    best = table.sort_values([sgm, *KEYS], kind="stable").drop_duplicates(["puzzle", "formulation"])
    seed = best[best["formulation"].str.split(" = ").str[0] == SEED_FORMULATION].set_index("puzzle")[sgm]
    with np.errstate(divide="ignore", invalid="ignore"):
        speedup = pd.to_numeric(best["puzzle"].map(seed), errors="coerce") / pd.to_numeric(best[sgm], errors="coerce")
    best = best.assign(solved=best["instances_solved"], speedup=speedup.where(np.isfinite(speedup)),
                       solved_text=best["instances_solved"].astype("Int64").astype(str) + "/"
                       + best["instances"].astype("Int64").astype(str))
    return best.sort_values(["puzzle", sgm, "formulation"], kind="stable")[
        ["puzzle", "formulation", "solver", sgm, "solved", "instances", "solved_text", "speedup"]].reset_index(drop=True)
