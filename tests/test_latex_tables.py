"""Every LaTeX table the analysis writes compiles with pdflatex in a minimal document, without an
error and without an overfull box (a line wider than the text); the headline table fits one column."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from puzzlebench.analysis import run_analysis
from puzzlebench.analysis.latex import significant

from test_analysis import synthetic_runs, write_store

PREAMBLE = r"""\documentclass[10pt{options}]{{article}}
\usepackage[T1]{{fontenc}}
\usepackage{{booktabs,longtable,graphicx}}
\begin{{document}}
"""
LONG_NAMES = {"binary": "binary-symbreak", "integer": "integer-encoding"}


def compile_errors(tex_file, two_column: bool) -> list[str]:
    """pdflatex's errors and overfull boxes for ``tex_file`` \\input into a minimal article."""
    folder = tex_file.parent
    main = folder / f"main-{tex_file.stem}.tex"
    main.write_text(PREAMBLE.format(options=",twocolumn" if two_column else "")
                    + rf"\input{{{tex_file.name}}}" + "\n\\end{document}\n")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name], cwd=folder,
                            capture_output=True, text=True, timeout=120)
    log = (folder / f"{main.stem}.log").read_text(errors="replace")
    problems = re.findall(r"^(?:! .*|Overfull \\hbox.*)$", log, flags=re.MULTILINE)
    return problems + ([f"pdflatex exit {result.returncode}"] if result.returncode else [])


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    if not shutil.which("pdflatex"):
        pytest.fail("pdflatex is not installed (.ci/run installs texlive-latex-base and texlive-latex-recommended)")
    folder = tmp_path_factory.mktemp("latex")
    runs = synthetic_runs()
    for index, row in enumerate(runs):
        row["formulation"] = LONG_NAMES.get(row["formulation"], row["formulation"])
        row["solver"] = "scip-cp" if row["solver"] == "highs" else row["solver"]
        if index % 2 == 0:
            row["instance_set"] = row["puzzle"] + "/exchange-by-rating"
    write_store(runs, folder / "runs.parquet")
    run_analysis(folder / "runs.parquet", folder, ladders={"sudoku/ladder", "takuzu/ladder"})
    return sorted((folder / "tables").glob("*.tex"))


def test_every_table_compiles_without_overfull_boxes(tables):
    assert {t.stem for t in tables} >= {"headline", "configurations", "ratios", "scaling_exponents",
                                        "variability", "wilcoxon", "best_vs_cpsat", "best_vs_cpsat_by_set"}
    for table in tables:
        assert compile_errors(table, two_column=False) == [], table.name


def test_headline_table_fits_one_column(tables):
    headline = next(t for t in tables if t.stem == "headline")
    assert compile_errors(headline, two_column=True) == []


def test_tables_have_captions_labels_units_and_bold_best(tables):
    for table in tables:
        text = table.read_text()
        assert text.count(r"\caption{") == text.count(r"\label{tab:") >= 1, table.name
        assert "_sgm_" not in text and "lp\\_iterations" not in text, table.name   # human headers
    headline = next(t for t in tables if t.stem == "headline").read_text()
    assert "SGM\\\\{}[ms]" in headline and headline.count(r"\textbf{") >= 2   # one bold per puzzle


def test_a_wide_table_fails_the_compile_check(tmp_path):
    wide = tmp_path / "wide.tex"
    wide.write_text(r"\begin{tabular}{" + "r" * 30 + "}\n" + " & ".join(["123456"] * 30) + r" \\" + "\n\\end{tabular}\n")
    assert any("Overfull" in problem for problem in compile_errors(wide, two_column=False))


def test_significant_digits():
    assert [significant(v) for v in (0.0123456, 1.23456, 123.456, 123456.0, 0.0)] == [
        "0.0123", "1.23", "123", "123{,}000", "0"]


def test_paper_section_and_pdf(tables):
    paper = tables[0].parent.parent / "paper"
    findings = (paper / "findings.tex").read_text()
    assert r"\label{tab:headline}" in findings and r"\includegraphics" in findings and r"\item" in findings
    assert (paper / "paper.pdf").stat().st_size > 10000 and (paper / "profiles.pdf").exists()
    summary = (paper.parent / "summary.md").read_text()
    assert "## Findings" in summary and "the fastest formulation is" in summary


def test_speedups_within_the_noise_are_not_a_ranking():
    from puzzlebench.analysis.paper import Finding, sentence
    close = Finding("sudoku", "propagated", "highs", 0.004, 1.2, 1.3, 1.1, 1.5, 20, 0.01, True)
    far = Finding("kakuro", "combinations", "highs", 0.003, 7.0, 12.0, 9.0, 15.0, 20, 0.0002, False)
    assert "within the machine's noise (factor 1.50): no ranking" in sentence(close, 1.5)
    assert "7.00x faster than the seed model" in sentence(far, 1.5)
    assert "significant after the Holm adjustment" in sentence(far, 1.5)
