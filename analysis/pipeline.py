"""run_analysis: every table, figure and the summary from one results store."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pandas as pd

from puzzlebench.io.sets import ladder_set_names
from puzzlebench.system.atomic import replacing, write_whole

from .claims import findings, findings_document, pairwise_markdown, wilcoxon_table
from .compare import ANALYSIS_MARKER
from .figures import write_figures
from .formatting import markdown_table, write_table
from .identity_groups import Identities, identity_groups
from .latex import SUPPLEMENT, specs
from .outcomes import instance_times, load_runs, prepare_runs, skipped_runs
from .page import write_page
from .paper import findings_markdown, noise_factor, write_paper
from .reference import reference_solvers
from .report import absent_reason, files_section, summary_markdown
from .run_setup import run_setup, setup_paragraph
from .tables import (
    best_vs_reference_by_set,
    best_vs_reference_hardest,
    best_vs_reference_table,
    configuration_table,
    headline_table,
    instance_spreads,
    ratio_table,
    scaling_omissions,
    scaling_runs,
    scaling_table,
    set_configuration_table,
    sgm_column,
    variability_table,
)


def read_noise(path) -> pd.DataFrame | None:
    """The reference solves in noise.csv, or None when there is no file or it holds no rows."""
    if path is None or not Path(path).is_file():
        return None
    try:
        noise = pd.read_csv(path)
    except pd.errors.EmptyDataError:
        return None
    return noise if len(noise) else None


def run_analysis(runs_path, out_dir, noise_path=None, shifts=(0.01, 1, 10),
                 time_measure: str = "time", ladders=None) -> list[Path]:
    """Write tables/, figures/ and summary.md for the results store ``runs_path`` into ``out_dir``.

    ``runs_path``: a store (Parquet or CSV) or JSON-lines files (a list).  ``shifts``: the SGM time shifts in seconds, the first being the headline one
    (duplicates dropped).  ``noise_path``: the reference solves (noise.csv), or
    None.  ``time_measure``: "time" (solver + build) or "wall" (wall + build).  ``ladders``: the
    names of the sets that are size ladders (default: those whose set.yaml under the instance
    root declares it, :func:`~puzzlebench.io.sets.ladder_set_names`).
    Returns the paths written.
    """
    out_dir = Path(out_dir)
    marker = out_dir / ANALYSIS_MARKER
    marker.unlink(missing_ok=True)  # until this analysis has written everything, the folder says it is unfinished
    analysis_id = uuid.uuid4().hex
    shifts = tuple(dict.fromkeys(float(s) for s in shifts))
    store = load_runs(runs_path)
    runs = prepare_runs(store, time_measure)
    skipped = skipped_runs(store)
    noise = read_noise(noise_path)
    headline = sgm_column(time_measure, shifts[0])
    noise_level = noise_factor(noise, time_measure)

    per_instance = instance_times(runs)
    items = findings(runs, per_instance, time_measure, shifts[0], noise_level)
    configurations = configuration_table(runs, shifts, time_measure, skipped)
    ladders = ladder_set_names() if ladders is None else frozenset(ladders)
    reference = reference_solvers(runs)
    scaled = scaling_runs(runs, ladders)
    scaling = scaling_table(runs, ladders)
    spreads = instance_spreads(runs)
    identities = Identities(identity_groups(runs))
    best = best_vs_reference_table(configurations, per_instance, headline, reference, identities)
    best_by_set = best_vs_reference_by_set(runs, per_instance, shifts, time_measure, headline, reference, identities)
    by_set = set_configuration_table(runs, shifts[0], time_measure)
    hardest = best_vs_reference_hardest(runs, per_instance, shifts, time_measure, headline, reference,
                                        identities=identities)
    tests = wilcoxon_table(items.claims, items.data)
    configuration_noise = items.noise.table()

    headline_rows = headline_table(configurations, per_instance, headline, identities)
    tables_dir = out_dir / "tables"
    layouts = specs(shifts, time_measure)
    tables = {"headline": headline_rows, "configurations": configurations, "scaling_exponents": scaling,
              "variability": variability_table(spreads), "wilcoxon": tests, "best_vs_cpsat": best,
              "best_vs_cpsat_by_set": best_by_set, "configurations_by_set": by_set,
              "best_vs_cpsat_hardest": hardest, "ratios": ratio_table(runs, configurations, shifts, time_measure)}
    written = {name: write_table(table, tables_dir, name, layouts[name], ".2f" if name == "ratios" else ".4g")
               for name, table in tables.items()}
    for name, table in (("instance_times", per_instance), ("instance_spreads", spreads),
                        ("noise", configuration_noise)):
        (tables_dir / f"{name}.csv").unlink(missing_ok=True)
        if len(table):
            written[name] = [tables_dir / f"{name}.csv"]
            with replacing(written[name][0], newline="") as fh:
                table.to_csv(fh, index=False)
    for name in ("noise.md", "pairwise.md"):
        (tables_dir / name).unlink(missing_ok=True)
    if len(configuration_noise):
        written["noise"].append(tables_dir / "noise.md")
        write_whole(written["noise"][-1], markdown_table(configuration_noise) + "\n")
    written["pairwise"] = []
    if any(claim.kind == "pairwise" for claim in items.claims):
        written["pairwise"].append(tables_dir / "pairwise.md")
        write_whole(written["pairwise"][0], pairwise_markdown(items))
    absent = {name: absent_reason(name) for name, files in written.items() if not files}
    written = {name: files for name, files in written.items() if files}
    paths = [path for files in written.values() for path in files]
    paths.append(out_dir / "findings.json")
    write_whole(paths[-1], json.dumps({**findings_document(items, runs, noise_level), "analysis": analysis_id},
                                      indent=1) + "\n")
    paths += write_figures(runs, per_instance, configurations, scaled, scaling, spreads, out_dir, headline)
    setup = run_setup(runs, noise, time_measure)
    headline_tex = tables_dir / "headline.tex"
    paths += write_paper(out_dir, items, noise_level, headline_tex.read_text() if headline_tex.is_file() else "",
                         runs, per_instance, configurations, headline, setup_paragraph(setup),
                         [path for files in written.values() for path in files if path.parent.name == SUPPLEMENT],
                         analysis_id)
    summary = out_dir / "summary.md"
    write_whole(summary, summary_markdown(runs, noise, configurations, best, shifts[0], time_measure,
                                        best_by_set, findings_markdown(items, noise_level),
                                        scaling_omissions(runs, ladders), skipped=len(skipped), by_set=by_set,
                                        hardest=hardest, configuration_noise=configuration_noise, setup=setup,
                                        files=files_section(written, absent), analysis=analysis_id))
    page = write_page(out_dir, runs, per_instance, configurations, by_set, spreads, setup, headline,
                      configuration_noise=configuration_noise, analysis=analysis_id)
    outputs = [*paths, summary, page]
    write_whole(marker, json.dumps({"analysis": analysis_id, "store": str(runs_path) if not isinstance(
        runs_path, (list, tuple)) else [str(p) for p in runs_path], "files": sorted(
        os.path.relpath(p, out_dir) for p in outputs)}, indent=1) + "\n")   # last: the folder's outputs are one analysis
    return [*outputs, marker]
