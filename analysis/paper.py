"""The generated paper section: ``paper/findings.tex`` (the headline table, the performance profile
figure and the findings, ready for ``\\input``), ``paper/paper.pdf`` (compiled standalone, when
pdflatex is installed) and the same findings in Markdown for summary.md.

Findings per puzzle: the fastest formulation (its best solver's SGM) and its speed-up over the seed
model (the seed formulation's best SGM / the fastest one's), with

* the paired evidence on the fastest formulation's solver: the geometric mean of the per-instance
  time ratios seed / fastest with its 95% bootstrap interval (scipy.stats.bootstrap, BCa), and the
  Holm-adjusted Wilcoxon p-value of that pair (tables/wilcoxon);
* the machine's noise: the geometric standard deviation g = exp(sd(log t)) of the repeated
  reference solve (noise.csv); a speed-up r with max(r, 1/r) < g is reported "within noise",
  not as a ranking.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import seaborn as sns
from scipy.stats import bootstrap

from .figures import RC, TWO_COLUMN, figure, plot_profiles, save_figure, styles_for
from .latex import escape, significant, typeset
from .outcomes import INSTANCE
from .setup import noise_of
from .tables import SEED_FORMULATION

SIGNIFICANCE = 0.05
CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000


@dataclass(frozen=True)
class Finding:
    """The headline finding of one puzzle (see the module doc); NaN where a number does not exist."""

    puzzle: str
    formulation: str
    solver: str
    sgm: float
    speedup: float
    paired_ratio: float
    ratio_low: float
    ratio_high: float
    instances: int
    p_holm: float
    within_noise: bool

    @property
    def significant(self) -> bool:
        return bool(self.p_holm < SIGNIFICANCE)


def noise_factor(noise: pd.DataFrame | None, measure: str = "time") -> float:
    """The geometric standard deviation exp(sd(log t)) of the reference solve's time (NaN without two;
    :func:`~puzzlebench.analysis.setup.noise_of`)."""
    measured = noise_of(noise, measure)
    return measured.factor if measured is not None else float("nan")


def paired_ratio(instance_times: pd.DataFrame, puzzle: str, solver: str, slow: str, fast: str):
    """(geometric mean of t_slow / t_fast over the instances both ran on ``solver``, CI low, CI high, n)."""
    part = instance_times[(instance_times["puzzle"] == puzzle) & (instance_times["solver"] == solver)]
    times = part.set_index([*INSTANCE, "formulation"])["time"].unstack("formulation")
    if slow not in times or fast not in times:
        return np.nan, np.nan, np.nan, 0
    logs = np.log(times[[slow, fast]].dropna().to_numpy(float)) @ np.array([1.0, -1.0])
    if not len(logs):
        return np.nan, np.nan, np.nan, 0
    mean = float(np.exp(logs.mean()))
    if len(logs) < 3 or np.ptp(logs) == 0:
        return mean, np.nan, np.nan, len(logs)
    interval = bootstrap((logs,), np.mean, confidence_level=CONFIDENCE, n_resamples=BOOTSTRAP_RESAMPLES,
                         method="BCa", random_state=0).confidence_interval
    return mean, float(np.exp(interval.low)), float(np.exp(interval.high)), len(logs)


def findings(headline: pd.DataFrame, instance_times: pd.DataFrame, tests: pd.DataFrame, noise: float,
             sgm: str) -> list[Finding]:
    """One :class:`Finding` per puzzle of the headline table (its first row per puzzle is the fastest)."""
    result = []
    for puzzle, part in headline.groupby("puzzle", sort=True):
        top = part.iloc[0]
        pair = tests[(tests["puzzle"] == puzzle) & (tests["solver"] == top["solver"])
                     & (tests[["formulation_a", "formulation_b"]].isin([top["formulation"], SEED_FORMULATION])
                        .all(axis=1))]
        p_holm = float(pair["p_holm"].iloc[0]) if len(pair) and top["formulation"] != SEED_FORMULATION else np.nan
        ratio, low, high, count = paired_ratio(instance_times, puzzle, top["solver"], SEED_FORMULATION,
                                               top["formulation"])
        speedup = float(top["speedup"])
        within = bool(np.isfinite(noise) and np.isfinite(speedup) and max(speedup, 1 / speedup) < noise)
        result.append(Finding(puzzle, top["formulation"], top["solver"], float(top[sgm]), speedup, ratio, low,
                              high, count, p_holm, within))
    return result


# Below: the findings as text, LaTeX and figures; mutation testing (README) checks the rules above only.
# pragma: no mutate block
def _number(value: float) -> str:
    return significant(value).replace("{,}", ",") if np.isfinite(value) else "--"


def sentence(finding: Finding, noise: float) -> str:
    """The finding as one plain-text sentence (Markdown; :func:`latex_sentence` escapes it for LaTeX)."""
    head = (f"{finding.puzzle}: the fastest formulation is {finding.formulation} (on {finding.solver}, "
            f"SGM {_number(finding.sgm * 1000)} ms)")
    if finding.formulation == SEED_FORMULATION:
        return head + ", the seed model itself."
    if not np.isfinite(finding.speedup):
        return head + "; the seed model did not run, so there is no speed-up to give."
    if finding.within_noise:
        verdict = (f"its speed-up over the seed model {SEED_FORMULATION}, {_number(finding.speedup)}x, is "
                   f"within the machine's noise (factor {_number(noise)}): no ranking")
    else:
        verdict = f"{_number(finding.speedup)}x faster than the seed model {SEED_FORMULATION}"
    paired = ""
    if np.isfinite(finding.paired_ratio):
        interval = (f", 95% bootstrap interval {_number(finding.ratio_low)}-{_number(finding.ratio_high)}"
                    if np.isfinite(finding.ratio_low) else "")
        paired = (f"; per instance on {finding.solver} the seed model takes {_number(finding.paired_ratio)}x "
                  f"as long (geometric mean over {finding.instances} instances{interval})")
    if np.isfinite(finding.p_holm):
        paired += (f", {'significant' if finding.significant else 'not significant'} after the Holm adjustment "
                   f"(Wilcoxon, p = {significant(finding.p_holm, 2)})")
    return f"{head}, {verdict}{paired}."


def latex_sentence(finding: Finding, noise: float) -> str:
    return typeset(escape(sentence(finding, noise)))


def noise_sentence(noise: float) -> str:
    if not np.isfinite(noise):
        return "No reference solves were recorded, so no ratio can be compared with the machine's noise."
    return (f"The machine's noise, the geometric standard deviation of a repeated reference solve, is a factor "
            f"{_number(noise)}; speed-ups below it are reported as within noise.")


def findings_markdown(items: list[Finding], noise: float) -> str:
    """The findings section of summary.md."""
    lines = ["## Findings", "", noise_sentence(noise), ""]
    lines += [f"- {sentence(f, noise)}" for f in items] or ["No runs."]
    return "\n".join(lines)


def findings_tex(items: list[Finding], noise: float, headline_tex: str, figure_name: str | None) -> str:
    """``findings.tex``: a subsection with the findings, the headline table and the profile figure."""
    figure_block = [] if figure_name is None else [
        r"\begin{figure*}[tbp]", r"\centering",
        rf"\includegraphics[width=\textwidth]{{\puzzlebenchpaper/{figure_name}}}",
        r"\caption{Performance profiles per puzzle: for each formulation its best solver (colour and marker: "
        r"formulation; line style: solver), and the virtual best (wide grey band: the fastest configuration per "
        r"instance). $\tau$: time ratio to the fastest in the panel.}",
        r"\label{fig:profiles}", r"\end{figure*}"]
    return "\n".join([
        "% Generated by puzzlebench (analysis/paper.py); \\input{} it after \\usepackage{booktabs,graphicx}.",
        "% Figures are read from \\puzzlebenchpaper (default: this folder, results/paper, relative to the",
        "% main document); \\newcommand{\\puzzlebenchpaper}{path} before \\input{} to change it.",
        r"\providecommand{\puzzlebenchpaper}{results/paper}",
        r"\subsection*{Formulation matters}",
        typeset(escape(noise_sentence(noise))) + " Table~\\ref{tab:headline} gives every formulation's best solver"
        + ("" if figure_name is None else " and Figure~\\ref{fig:profiles} the performance profiles") + ".",
        *([r"\begin{itemize}", *[rf"\item {latex_sentence(f, noise)}" for f in items], r"\end{itemize}"]
          if items else ["No runs."]),
        headline_tex, *figure_block, ""])


STANDALONE = r"""\documentclass[10pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{booktabs,longtable,graphicx}
\newcommand{\puzzlebenchpaper}{.}
\begin{document}
\section*{puzzlebench results}
\subsection*{Setup}
\input{setup.tex}
\input{findings.tex}
\end{document}
"""
"""``paper.tex``: the paper section compiled on its own (Latin Modern in T1 encoding: Type 1 fonts only)."""

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
    without pdflatex.  A LaTeX error raises RuntimeError naming the log."""
    if not shutil.which("pdflatex"):
        return None
    for _ in range(2):
        result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                                cwd=folder, capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise RuntimeError(f"pdflatex failed on {folder / f'{name}.tex'}: see {folder / f'{name}.log'}")
    return folder / f"{name}.pdf"


def write_paper(out_dir, items: list[Finding], noise: float, headline_tex: str, runs: pd.DataFrame,
                instance_times: pd.DataFrame, configurations: pd.DataFrame, sgm: str, setup_tex: str = "",
                supplement=()) -> list[Path]:
    """``paper/`` in ``out_dir``: findings.tex, setup.tex (``setup_tex``, the run's setup paragraph),
    profiles.pdf/.png, paper.tex and (with pdflatex) paper.pdf; with ``supplement`` (the paths of the
    supplementary tables) also supplement.tex and supplement.pdf, which ``\\input`` them."""
    folder = Path(out_dir) / "paper"
    folder.mkdir(parents=True, exist_ok=True)
    paths = profile_figure(runs, instance_times, configurations, sgm, folder)
    (folder / "findings.tex").write_text(findings_tex(items, noise, headline_tex, "profiles.pdf" if paths else None))
    (folder / "setup.tex").write_text(setup_tex + "\n")
    (folder / "paper.tex").write_text(STANDALONE)
    paths += [folder / "findings.tex", folder / "setup.tex", folder / "paper.tex"]
    documents = ["paper"]
    for old in folder.glob("supplement.*"):
        old.unlink()
    if supplement:
        inputs = "\n".join(rf"\input{{{Path(os.path.relpath(path, folder)).as_posix()}}}" for path in supplement)
        (folder / "supplement.tex").write_text(SUPPLEMENT_DOCUMENT % inputs)
        paths.append(folder / "supplement.tex")
        documents.append("supplement")
    return paths + [pdf for pdf in (compile_pdf(folder, name) for name in documents) if pdf]
