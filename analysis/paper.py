"""The generated paper section: ``paper/findings.tex`` (the findings, the headline table and the
performance profile figure, ready for ``\\input``) and ``paper/paper.pdf`` (compiled standalone,
when pdflatex is installed).

The findings are rendered from the run's claims (:mod:`~puzzlebench.analysis.claims`, the
data of ``findings.json``) as tables: per puzzle and scope the fastest formulation against the
seed model and the best MIP against the best CP configuration, each with its ratio, interval, n and
verdict (:func:`claims_table`), and the count of the pairwise verdicts per puzzle
(:func:`pairwise_counts`); then the identity groups and what propagation solved before any solver
ran, and the share of the faster/slower claims that hold across the two halves of the repetitions.
The per-claim sentences are in summary.md and findings.json.  The reference
puzzle's noise (the geometric standard deviation of its repeated solve, noise.csv) is reported
as the machine's health check.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import seaborn as sns

from puzzlebench.system.atomic import write_whole

from .claims import Findings, overview, replication_sentence, rule_sentence, sides
from .figures import RC, TWO_COLUMN, figure, plot_profiles, save_figure, styles_for
from .latex import (
    BODY,
    Column,
    TableSpec,
    escape,
    latex_document_table,
    latex_part,
    plain_significant,
    significant,
    typeset,
)
from .run_setup import noise_of


def noise_factor(noise: pd.DataFrame | None, measure: str = "time") -> float:
    """The geometric standard deviation exp(sd(log t)) of the reference solve's time (NaN without two;
    :func:`~puzzlebench.analysis.run_setup.noise_of`)."""
    measured = noise_of(noise, measure)
    return measured.factor if measured is not None else float("nan")


# Below: the findings as text, LaTeX and figures; mutation testing (README) checks the rules above only.
# pragma: no mutate block
def _number(value: float) -> str:
    return significant(value).replace("{,}", ",") if np.isfinite(value) else "--"


def noise_sentence(noise: float) -> str:
    if not np.isfinite(noise):
        return "No reference solves were recorded (the machine's health check)."
    return (f"The reference puzzle's repeated solve (the machine's health check) has a geometric standard "
            f"deviation of {_number(noise)}.")


def findings_markdown(items: Findings, noise: float) -> str:
    """The claims section of summary.md: one line per claim, from the claims' data."""
    lines = ["## Claims", "", "From `findings.json` (every comparison with its numbers and verdict). "
             + rule_sentence(items) + " " + replication_sentence(items) + " " + noise_sentence(noise), ""]
    sections = overview(items)
    for puzzle, puzzle_lines in sections:
        lines += [f"**{puzzle}**", "", *[f"- {line}" for line in puzzle_lines], ""]
    if not sections:
        lines.append("No runs.")
    return "\n".join(lines).rstrip() + "\n"


HEADLINE_KINDS = {"best_vs_seed": "vs seed", "mip_vs_cp": "MIP vs CP"}
VERDICT_WORDS = {"faster": "a faster", "slower": "b faster", "equivalent": "no difference",
                 "inconclusive": "not enough evidence", "identical": "identical models",
                 "preprocessing": "preprocessing"}
"""A verdict as the paper's claims table words it (the sides are its columns a and b)."""
CLAIMS_CAPTION = (
    "The claims per puzzle and instance set (all sets: over every set of the puzzle): the fastest formulation "
    "against the seed model \\texttt{binary} (vs seed) and the best MIP against the best CP configuration "
    "(MIP vs CP); a and b are the two sides, each a formulation with its solver. $t_b/t_a$: the geometric mean "
    "ratio of per-instance times (above 1: a takes less time) with its 95\\% bootstrap interval; $n$: "
    "instances compared; Needed: for a claim without enough evidence, the instances that would decide it at "
    "the observed mean and spread.")
CLAIMS_COLUMNS = (Column("comparison", "Claim", "text"), Column("a", "a", "text"), Column("b", "b", "text"),
                  Column("ratio", "$t_b/t_a$"), Column("interval", "95% interval", "text"),
                  Column("n", "$n$", "count"), Column("verdict", "Verdict", "text"), Column("needed", "Needed", "count"))
"""One line per claim (a table* across both columns), grouped by puzzle and set in the claims' order."""
COUNTS_TABLE = TableSpec(
    "The pairwise claims per puzzle (every two formulations on one instance set and solver) by verdict.",
    "tab:pairwise-counts", ((Column("puzzle", "Puzzle", "text"), Column("differ", "Differ", "count"),
                             Column("equivalent", "No\\\\difference", "count"),
                             Column("inconclusive", "Not enough\\\\evidence", "count"),
                             Column("identical", "Identical", "count"),
                             Column("preprocessing", "Pre-\\\\processing", "count")),),
    group=None, placement=BODY)


def claims_table(items: Findings) -> pd.DataFrame:
    """One row per headline claim (best_vs_seed, mip_vs_cp), by puzzle, with its numbers and verdict."""
    rows = []
    for claim in items.claims:
        if claim.kind not in HEADLINE_KINDS:
            continue
        a, b = sides(claim)
        interval = "--" if not claim.ci else f"{plain_significant(claim.ci[0])}--{plain_significant(claim.ci[1])}"
        rows.append({"puzzle": claim.puzzle, "scope": f"{claim.puzzle}, {claim.instance_set or 'all sets'}",
                     "comparison": HEADLINE_KINDS[claim.kind], "a": a, "b": b,
                     "ratio": np.nan if claim.ratio is None else claim.ratio, "interval": interval, "n": claim.n,
                     "verdict": VERDICT_WORDS.get(claim.verdict, claim.verdict),
                     "needed": np.nan if claim.instances_needed is None else claim.instances_needed})
    return pd.DataFrame(rows, columns=["puzzle", "scope", "comparison", "a", "b", "ratio", "interval", "n", "verdict",
                                       "needed"])


def pairwise_counts(items: Findings) -> pd.DataFrame:
    """Per puzzle, its pairwise claims by verdict (faster and slower together as "differ")."""
    columns = ["differ", "equivalent", "inconclusive", "identical", "preprocessing"]
    rows = []
    for puzzle in sorted({c.puzzle for c in items.of_kind("pairwise")}):
        verdicts = [c.verdict for c in items.of_kind("pairwise") if c.puzzle == puzzle]
        counts = {v: verdicts.count(v) for v in columns}
        counts["differ"] = verdicts.count("faster") + verdicts.count("slower")
        rows.append({"puzzle": puzzle, **counts})
    return pd.DataFrame(rows, columns=["puzzle", *columns])


def findings_tex(items: Findings, noise: float, headline_tex: str, figure_name: str | None) -> str:
    """``findings.tex``: a subsection with the claims, the headline table and the profile figure."""
    figure_block = [] if figure_name is None else [
        r"\begin{figure*}[tbp]", r"\centering",
        rf"\includegraphics[width=\textwidth]{{\puzzlebenchpaper/{figure_name}}}",
        r"\caption{Performance profiles per puzzle: for each formulation its best solver (colour and marker: "
        r"formulation; line style: solver), and the virtual best (wide grey band: the fastest configuration per "
        r"instance). $\tau$: time ratio to the fastest in the panel.}",
        r"\label{fig:profiles}", r"\end{figure*}"]
    claims, counts = claims_table(items), pairwise_counts(items)
    body = []
    if len(claims):
        body.append(latex_part(claims, CLAIMS_COLUMNS, CLAIMS_CAPTION, "tab:claims", "scope", BODY))
    if len(counts):
        body.append(latex_document_table(counts, COUNTS_TABLE))
    notes = [(g["puzzle"], g["text"]) for g in items.identity] + [(p["puzzle"], p["text"]) for p in items.preprocessing]
    if notes:
        body += [r"\begin{itemize}", *[rf"\item {escape(puzzle)}: {typeset(escape(text))}" for puzzle, text in notes],
                 r"\end{itemize}"]
    said = ([r"Table~\ref{tab:claims} states the claims (each claim's sentence is in summary.md and findings.json)"]
            if len(claims) else []) + ([r"Table~\ref{tab:pairwise-counts} counts the pairwise verdicts"] if len(counts) else [])
    tables = f" {', '.join(said)}." if said else ""
    return "\n".join([
        "% Generated by puzzlebench (analysis/paper.py) from findings.json; \\input{} it after "
        "\\usepackage{booktabs,graphicx}.",
        "% Figures are read from \\puzzlebenchpaper (default: this folder, results/paper, relative to the",
        "% main document); \\newcommand{\\puzzlebenchpaper}{path} before \\input{} to change it.",
        r"\providecommand{\puzzlebenchpaper}{results/paper}",
        r"\subsection*{Formulation matters}",
        typeset(escape(rule_sentence(items) + " " + replication_sentence(items) + " " + noise_sentence(noise)))
        + tables + " Table~\\ref{tab:headline} gives every formulation's best solver"
        + ("" if figure_name is None else " and Figure~\\ref{fig:profiles} the performance profiles") + ".",
        *(body or ["No runs."]),
        headline_tex, *figure_block, ""])


STANDALONE = r"""\documentclass[10pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{booktabs,longtable,graphicx}
\pdfinfo{/Subject (puzzlebench analysis ANALYSIS)}
\newcommand{\puzzlebenchpaper}{.}
\begin{document}
\section*{puzzlebench results}
\subsection*{Setup}
\input{setup.tex}
\input{findings.tex}
\end{document}
"""
"""``paper.tex``: the paper section compiled on its own (Latin Modern in T1 encoding: Type 1 fonts only); its
PDF's Subject names the analysis (ANALYSIS: the id of ``analysis.json``)."""

SUPPLEMENT_DOCUMENT = r"""\documentclass[10pt]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{booktabs,longtable}
\begin{document}
\section*{puzzlebench results: supplementary tables}
%s
\end{document}
"""
"""``supplement.tex``: every supplementary table (``tables/supplement/``), one column."""


def profile_figure(runs: pd.DataFrame, instance_times: pd.DataFrame, configurations: pd.DataFrame,
                   sgm: str, path_dir: Path) -> list[Path]:
    """``profiles.pdf``/``.png``: the best-per-formulation profile of every puzzle side by side (two columns)."""
    puzzles = sorted(configurations["puzzle"].dropna().unique())
    if not puzzles:
        return []
    styles = styles_for(runs)
    columns = min(len(puzzles), 2)
    rows = -(-len(puzzles) // columns)
    with mpl.rc_context(RC), sns.axes_style("whitegrid"):
        fig = figure(TWO_COLUMN, 3.4 * rows)
        for sub, puzzle in zip(np.ravel(fig.subfigures(rows, columns, squeeze=False)), puzzles):
            plot_profiles(sub, instance_times[instance_times["puzzle"] == puzzle],
                          configurations[configurations["puzzle"] == puzzle], sgm, styles, puzzle, facets=False)
        fig.draw_without_rendering()
        return save_figure(fig, path_dir, "profiles")


def compile_pdf(folder: Path, name: str = "paper") -> Path | None:
    """``<name>.pdf`` from ``<name>.tex`` in ``folder`` with pdflatex (twice, for the references); None
    without pdflatex.  pdflatex writes ``<name>.building.*``, renamed to ``<name>.*`` when it succeeded, so
    that ``<name>.pdf`` is the old PDF or the new one, never one cut short.  A LaTeX error raises
    RuntimeError naming the log."""
    if not shutil.which("pdflatex"):
        return None
    building = f"{name}.building"
    for _ in range(2):
        result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"-jobname={building}",
                                 f"{name}.tex"], cwd=folder, capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise RuntimeError(f"pdflatex failed on {folder / f'{name}.tex'}: see {folder / f'{building}.log'}")
    for suffix in (".aux", ".log", ".pdf"):   # the PDF last
        os.replace(folder / f"{building}{suffix}", folder / f"{name}{suffix}")
    return folder / f"{name}.pdf"


def write_paper(out_dir, items: Findings, noise: float, headline_tex: str, runs: pd.DataFrame,
                instance_times: pd.DataFrame, configurations: pd.DataFrame, sgm: str, setup_tex: str = "",
                supplement=(), analysis: str = "") -> list[Path]:
    """``paper/`` in ``out_dir``: findings.tex, setup.tex (``setup_tex``, the run's setup paragraph),
    profiles.pdf/.png, paper.tex and (with pdflatex) paper.pdf; with ``supplement`` (the paths of the
    supplementary tables) also supplement.tex and supplement.pdf, which ``\\input`` them; ``analysis``
    (an id of hexadecimal digits) is the PDF's Subject and the first line of findings.tex."""
    folder = Path(out_dir) / "paper"
    folder.mkdir(parents=True, exist_ok=True)
    paths = profile_figure(runs, instance_times, configurations, sgm, folder)
    write_whole(folder / "findings.tex", (f"% puzzlebench analysis {analysis}\n" if analysis else "")
                + findings_tex(items, noise, headline_tex, "profiles.pdf" if paths else None))
    write_whole(folder / "setup.tex", setup_tex + "\n")
    write_whole(folder / "paper.tex", STANDALONE.replace("ANALYSIS", analysis if analysis.isalnum() else "-"))
    paths += [folder / "findings.tex", folder / "setup.tex", folder / "paper.tex"]
    documents = ["paper"]
    if not supplement:   # an earlier run's supplement is not this run's
        for old in folder.glob("supplement.*"):
            old.unlink()
    else:
        inputs = "\n".join(rf"\input{{{Path(os.path.relpath(path, folder)).as_posix()}}}" for path in supplement)
        write_whole(folder / "supplement.tex", SUPPLEMENT_DOCUMENT % inputs)
        paths.append(folder / "supplement.tex")
        documents.append("supplement")
    return paths + [pdf for pdf in (compile_pdf(folder, name) for name in documents) if pdf]
