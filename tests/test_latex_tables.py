"""Every LaTeX table the analysis writes compiles with pdflatex in a minimal document, without an
error and without an overfull box (a line wider than the text): the body tables (``tables/*.tex``,
floats) in a two-column and a one-column article, the supplementary ones (``tables/supplement/``,
longtables) in a one-column article; empty tables are not written, and the summary says why.  The
paper uses Type 1 fonts only and states the run's setup."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from puzzlebench import registry
from puzzlebench.analysis import run_analysis
from puzzlebench.analysis.latex import significant, typeset

from test_analysis import analyse, run_row, synthetic_runs, write_store

PREAMBLE = r"""\documentclass[10pt{options}]{{article}}
\usepackage[T1]{{fontenc}}
\usepackage{{lmodern}}
\usepackage{{booktabs,longtable,graphicx}}
\begin{{document}}
"""
LONG_NAMES = {"binary": "binary-symbreak", "integer": "integer-encoding"}
DEFAULT_SOLVERS = ("cbc", "highs", "scip", "scip-cp", "cpsat")
DEFAULT_SETS = {"sudoku": ("sudoku/seed", "sudoku/top95"), "killer": ("killer/seed", "killer/janko", "killer/janko-x"),
                "kakuro": ("kakuro/seed", "kakuro/janko"), "takuzu": ("takuzu/seed", "takuzu/janko"),
                "kenken": ("kenken/generated",)}


def compile_errors(tex_file, two_column: bool) -> list[str]:
    """pdflatex's errors, overfull boxes and too-large floats for ``tex_file`` \\input into a minimal article."""
    folder = tex_file.parent / ".compiled"  # beside the tables, not among them
    folder.mkdir(exist_ok=True)
    main = folder / f"{tex_file.stem}-{'two' if two_column else 'one'}-column.tex"
    main.write_text(PREAMBLE.format(options=",twocolumn" if two_column else "")
                    + rf"\input{{{tex_file.resolve().as_posix()}}}" + "\n\\end{document}\n")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name], cwd=folder,
                            capture_output=True, text=True, timeout=120)
    log = (folder / f"{main.stem}.log").read_text(errors="replace")
    problems = re.findall(r"^(?:! .*|Overfull \\[hv]box.*|.*Float too large.*)$", log, flags=re.MULTILINE)
    return problems + ([f"pdflatex exit {result.returncode}"] if result.returncode else [])


def analysed(folder, runs):
    if not shutil.which("pdflatex"):
        pytest.fail("pdflatex is not installed (.ci/run installs texlive-latex-base and texlive-latex-recommended)")
    analyse(folder, runs, ladders={"sudoku/ladder", "takuzu/ladder"})
    return folder


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """The synthetic store (two seeds and permutations, size ladders: every table has rows), long names."""
    runs = synthetic_runs()
    for index, row in enumerate(runs):
        row["formulation"] = LONG_NAMES.get(row["formulation"], row["formulation"])
        row["solver"] = "scip-cp" if row["solver"] == "highs" else row["solver"]
        if index % 2 == 0:
            row["instance_set"] = row["puzzle"] + "/exchange-by-rating"
    return analysed(tmp_path_factory.mktemp("latex"), runs)


def default_grid_runs() -> list[dict]:
    """The default run's grid (every shipped formulation x cbc, highs, scip, scip-cp, cpsat on the default
    sets, one seed), 6 puzzles a set, with times from 1 ms to the limit and node counts into the millions."""
    rng = np.random.default_rng(23)
    rows = []
    for info in registry.formulations():
        for solver in DEFAULT_SOLVERS:
            for name in DEFAULT_SETS[info.puzzle]:
                for index in range(6):
                    time = float(np.exp(rng.uniform(np.log(0.001), np.log(8.0))))
                    solved = time < 5.0
                    rows.append(run_row(
                        puzzle=info.puzzle, formulation=info.name, solver=solver, instance_set=name,
                        instance=f"puzzle-{index:02d}.txt", solver_kind="cp" if solver == "cpsat" else "mip",
                        time_limit=5.0, status="optimal" if solved else "time_limit", solver_time=min(time, 5.0),
                        build_time=0.0005, wall_time=min(time, 5.0) + 0.001, nodes=int(rng.integers(0, 2_000_000)),
                        lp_iterations=int(rng.integers(0, 9_000_000)), verified=True if solved else None,
                        solution=[[1]] if solved else None, root_lp_time=0.0004 if solver != "cpsat" else None,
                        rows=120_000, cols=46_656, nonzeros=1_500_000))
    return rows


@pytest.fixture(scope="module")
def default_grid(tmp_path_factory):
    return analysed(tmp_path_factory.mktemp("default-grid"), default_grid_runs())


def body_tables(folder):
    return sorted((folder / "tables").glob("*.tex"))


def supplement_tables(folder):
    return sorted((folder / "tables" / "supplement").glob("*.tex"))


@pytest.mark.parametrize("store", ["synthetic", "default_grid"])
def test_body_tables_are_floats_that_fit_two_and_one_columns(store, request):
    folder = request.getfixturevalue(store)
    tables = body_tables(folder)
    assert {t.stem for t in tables} >= {"headline", "best_vs_cpsat", "best_vs_cpsat_by_set"}
    for table in tables:
        text = table.read_text()
        assert "longtable" not in text and re.search(r"\\begin\{table\*?\}", text), table.name
        assert compile_errors(table, two_column=True) == [], table.name
        assert compile_errors(table, two_column=False) == [], table.name


@pytest.mark.parametrize("store", ["synthetic", "default_grid"])
def test_supplement_tables_are_longtables_that_fit_one_column(store, request):
    folder = request.getfixturevalue(store)
    tables = supplement_tables(folder)
    assert {t.stem for t in tables} >= {"configurations", "ratios", "wilcoxon", "configurations_by_set"}
    for table in tables:
        assert r"\begin{longtable}" in table.read_text(), table.name
        assert compile_errors(table, two_column=False) == [], table.name


def test_every_table_of_a_study_with_repeats_and_ladders_is_written(synthetic):
    names = {t.stem for t in [*body_tables(synthetic), *supplement_tables(synthetic)]}
    assert names == {"headline", "configurations", "ratios", "scaling_exponents", "variability", "wilcoxon",
                     "best_vs_cpsat", "best_vs_cpsat_by_set", "configurations_by_set", "best_vs_cpsat_hardest"}


def test_empty_tables_are_not_written_and_the_summary_says_why(default_grid, synthetic):
    """One seed, no ladder: no variability or scaling table (they were written saying "no rows")."""
    tables = default_grid / "tables"
    for name in ("variability", "scaling_exponents", "instance_spreads"):
        assert not list(tables.rglob(f"{name}.*")), name
    summary = (default_grid / "summary.md").read_text()
    assert "- variability: not written: every configuration ran each instance once" in summary
    assert "- scaling_exponents: not written: no instance set of this run is a size ladder" in summary
    assert "- configurations: every configuration" in summary and "`tables/supplement/configurations.tex`" in summary
    assert "not written" not in (synthetic / "summary.md").read_text()


def test_an_empty_table_removes_the_files_of_an_earlier_analysis(tmp_path, synthetic):
    shutil.copytree(synthetic / "tables", tmp_path / "tables")
    assert (tmp_path / "tables" / "supplement" / "variability.tex").exists()
    write_store([run_row(), run_row(solver="cpsat", solver_kind="cp")], tmp_path / "runs.parquet")
    run_analysis(tmp_path / "runs.parquet", tmp_path)
    assert not list((tmp_path / "tables").rglob("variability.*"))
    assert not list((tmp_path / "tables").rglob("scaling_exponents.*"))


def test_headline_table_fits_one_column(synthetic):
    headline = synthetic / "tables" / "headline.tex"
    assert r"\begin{table}[tbp]" in headline.read_text()
    assert compile_errors(headline, two_column=True) == []


def test_tables_have_captions_labels_units_and_bold_best(synthetic):
    for table in [*body_tables(synthetic), *supplement_tables(synthetic)]:
        text = table.read_text()
        assert text.count(r"\caption{") == text.count(r"\label{tab:") >= 1, table.name
        assert "_sgm_" not in text and "lp\\_iterations" not in text, table.name   # human headers
    headline = (synthetic / "tables" / "headline.tex").read_text()
    assert "SGM\\\\{}[ms]" in headline and headline.count(r"\textbf{") >= 2   # one bold per puzzle


def test_a_wide_table_fails_the_compile_check(tmp_path):
    wide = tmp_path / "wide.tex"
    wide.write_text(r"\begin{tabular}{" + "r" * 30 + "}\n" + " & ".join(["123456"] * 30) + r" \\" + "\n\\end{tabular}\n")
    assert any("Overfull" in problem for problem in compile_errors(wide, two_column=False))


def test_significant_digits():
    assert [significant(v) for v in (0.0123456, 1.23456, 123.456, 123456.0, 0.0)] == [
        "0.0123", "1.23", "123", "123{,}000", "0"]


def test_paper_section_and_pdf(synthetic):
    paper = synthetic / "paper"
    findings = (paper / "findings.tex").read_text()
    assert r"\label{tab:headline}" in findings and r"\includegraphics" in findings
    assert r"\label{tab:claims}" in findings and r"\label{tab:pairwise-counts}" in findings
    assert (paper / "paper.pdf").stat().st_size > 10000 and (paper / "profiles.pdf").exists()
    assert "Overfull" not in (paper / "paper.log").read_text(errors="replace")
    summary = (paper.parent / "summary.md").read_text()
    assert "## Claims" in summary and "best MIP against best CP configuration" in summary


def test_paper_and_supplement_use_no_type3_font(synthetic):
    """Latin Modern in T1: pdffonts lists Type 1 (and the figures' TrueType) fonts, never Type 3."""
    for name in ("paper", "supplement"):
        listing = subprocess.run(["pdffonts", str(synthetic / "paper" / f"{name}.pdf")], capture_output=True,
                                 text=True, check=True).stdout
        fonts = listing.splitlines()[2:]
        assert fonts and not [line for line in fonts if "Type 3" in line], listing
        assert any("LMRoman" in line and "Type 1" in line for line in fonts), listing


def test_paper_states_the_setup_of_the_run(synthetic):
    setup = (synthetic / "paper" / "setup.tex").read_text()
    for fact in ("Test CPU @ 3.0GHz", "8 CPUs", r"\texttt{scip-cp} (1.7.2)", r"\texttt{cpsat} (9.10",
                 "time limit of 10~s", "1 solver thread", "seeds 0, 1", "1 symmetry-permuted copy",
                 r"\texttt{sudoku/exchange-by-rating} (3)", "All 96 runs"):
        assert fact in setup, fact
    assert "No reference solves were recorded" in setup    # the synthetic store has no noise.csv
    assert r"\input{setup.tex}" in (synthetic / "paper" / "paper.tex").read_text()


def test_findings_typeset_ratios_with_times_and_ranges_with_en_dashes(default_grid):
    from test_claims import claims_table_rows
    tex = (default_grid / "paper" / "findings.tex").read_text()
    rows = claims_table_rows(tex)
    assert {cells[0] for _, cells in rows} == {"vs seed", "MIP vs CP"}
    intervals = [cells[4] for _, cells in rows]
    assert rows and any(re.fullmatch(r"[\d.]+--[\d.]+", i) for i in intervals)   # every interval a range
    assert all(re.fullmatch(r"[\d.]+--[\d.]+|--", i) for i in intervals), intervals
    items = re.findall(r"\\item (.*)", tex)
    assert not [item for item in items if re.search(r"\dx\b|\d-\d", item)], items
    assert typeset("1.37x faster, 95% interval 1.2-1.6 on 9x9") == r"1.37$\times$ faster, 95% interval 1.2--1.6 on 9x9"


def test_a_table_too_wide_for_the_page_is_split_into_parts_that_fit(tmp_path):
    """Long user names: each part keeps the name columns and fits a one-column page."""
    from puzzlebench.analysis.formatting import write_table
    from puzzlebench.analysis.latex import specs
    table = pd.DataFrame({"puzzle": ["sudoku"] * 2, "mip_best": ["a-very-long-user-formulation-name/scip-cp"] * 2,
                          "mip_sgm": [0.012345, 1.5], "cpsat_best": ["another-long-formulation-of-mine/cpsat"] * 2,
                          "cpsat_sgm": [0.02, 3.0], "ratio": [0.6, 0.5], "mip_solved": [12, 11],
                          "cpsat_solved": [12, 12], "mip_instances": [12, 12]})
    tex = write_table(table, tmp_path, "best_vs_cpsat", specs((0.01,))["best_vs_cpsat"])[2]
    text = tex.read_text()
    assert len(re.findall(r"\\begin\{table\*?\}", text)) >= 2 and "(continued)" in text
    assert r"\label{tab:best-vs-cp-2}" in text and text.count("a-very-long-user") >= 2  # the names in every part
    assert compile_errors(tex, two_column=False) == [] and compile_errors(tex, two_column=True) == []


def test_claim_sentences_name_the_faster_side_only_for_a_difference():
    from puzzlebench.analysis.claims import Claim, sentence
    tied = Claim("x", "best_vs_seed", "sudoku", "sudoku/s", None, "propagated", "binary", "time", 1.3, [1.1, 1.5],
                 0.01, 20, "equivalent", a_solver="highs", b_solver="highs", family_size=3, noise=1.6)
    open_ = Claim("z", "best_vs_seed", "sudoku", "sudoku/s", None, "propagated", "binary", "time", 1.3, [1.1, 1.9],
                  0.2, 20, "inconclusive", a_solver="highs", b_solver="highs", family_size=3, noise=1.6,
                  instances_needed=34)
    slower = Claim("y", "pairwise", "kakuro", "kakuro/s", "highs", "binary", "combinations", "time", 1 / 12,
                   [1 / 15, 1 / 9], 0.0002, 20, "slower", a_solver="highs", b_solver="highs", family_size=6,
                   noise=1.4)
    assert "no difference beyond the noise (" in sentence(tied) and "faster" not in sentence(tied)
    assert "not enough evidence (n = 20; about 34 puzzles needed)" in sentence(open_)
    assert "no difference" not in sentence(open_) and "faster" not in sentence(open_)
    assert "propagated/highs against binary/highs" in sentence(tied)
    assert sentence(slower).startswith("kakuro/s, highs: combinations is 12x faster than binary (time ratio "
                                       "binary / combinations 12, 95% CI 9-15; Holm p < 0.001 (of 6)")
