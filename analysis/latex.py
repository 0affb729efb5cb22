"""Tables a paper can ``\\input``: human headers with units, caption, label, significant digits, the
best entry per puzzle in bold, rows grouped by puzzle, wide tables split into parts.

A :class:`TableSpec` says how one result table reads in a paper; :data:`SPECS` holds one per table
of :mod:`~puzzlebench.analysis.pipeline` (the CSV keeps every column at full precision).  Narrow
tables are a ``table`` float; long ones a ``longtable`` (package ``longtable``), which breaks across
pages.  Every table needs ``booktabs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from .tables import VIRTUAL_BEST

DIGITS = 3
"""Significant digits of measured numbers."""
SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
           "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(SPECIAL.get(c, c) for c in str(text))


def significant(value: float, digits: int = DIGITS) -> str:
    """``value`` rounded to ``digits`` significant digits, in plain notation ({,} between thousands)."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else escape(str(value))
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    return f"{rounded:,.{max(0, places)}f}".replace(",", "{,}")


@dataclass(frozen=True)
class Column:
    """One column of a LaTeX table: the source column ``key``, its ``header`` (``\\\\`` breaks the line),
    ``kind`` "text", "count" (whole numbers), "number" (``scale`` x value, significant digits), "p"
    (a p-value: two significant digits, "<0.001" below) or
    "config" ("formulation/solver", set on two lines); ``best`` marks the smallest entry per puzzle bold."""

    key: str
    header: str
    kind: str = "number"
    scale: float = 1.0
    best: bool = False

    def cell(self, value) -> str:
        if pd.isna(value):
            return "--"
        if self.kind == "count":
            return f"{int(round(float(value))):,}".replace(",", "{,}")
        if self.kind == "number":
            return significant(float(value) * self.scale)
        if self.kind == "p":
            return "$<$0.001" if value < 0.001 else significant(float(value), 2)
        if self.kind == "config" and "/" in str(value):
            formulation, solver = str(value).split("/", 1)
            return stacked([escape(formulation), escape(solver)], "l")
        return escape(value)


@dataclass(frozen=True)
class TableSpec:
    """How one result table reads in a paper: ``parts`` (each a list of columns, one table each, so a
    wide table becomes several narrow ones), ``caption``, ``label``, rows grouped by ``group``."""

    caption: str
    label: str
    parts: tuple[tuple[Column, ...], ...]
    group: str | tuple[str, ...] | None = "puzzle"
    long: bool = True
    part_captions: tuple[str, ...] = field(default=())


def stacked(lines: list[str], align: str) -> str:
    """Lines of a cell one above the other (a nested tabular, no package needed)."""
    return lines[0] if len(lines) == 1 else (
        rf"\begin{{tabular}}[t]{{@{{}}{align}@{{}}}}" + r"\\{}".join(lines) + r"\end{tabular}")


def _header(columns) -> str:
    cells = [stacked([escape(line) if "$" not in line else line for line in c.header.split("\\\\")],
                     "l" if c.kind in ("text", "config") else "r").replace(r"\begin{tabular}[t]",
                                                                          r"\begin{tabular}[b]")
             for c in columns]
    return " & ".join(cells) + r" \\"


def _bold(table: pd.DataFrame, column: Column, group: str | None) -> pd.Series:
    values = pd.to_numeric(table[column.key], errors="coerce")
    if "formulation" in table:  # the virtual best is a bound, not a contender
        values = values.where(table["formulation"] != VIRTUAL_BEST)
    best = values.groupby(table[group]).transform("min") if group else values.min()
    return values.eq(best) & values.notna()


def _rows(table: pd.DataFrame, columns, group: str | None) -> list[str]:
    bold = {c.key: _bold(table, c, group) for c in columns if c.best}
    lines, current = [], None
    for index, row in table.iterrows():
        if group and row[group] != current:
            if current is not None:
                lines.append(r"\addlinespace")
            current = row[group]
            lines.append(rf"\multicolumn{{{len(columns)}}}{{@{{}}l}}{{\textit{{{escape(current)}}}}} \\")
        cells = []
        for column in columns:
            text = column.cell(row[column.key])
            cells.append(rf"\textbf{{{text}}}" if column.key in bold and bold[column.key][index] else text)
        lines.append(" & ".join(cells) + r" \\")
    return lines


def _alignment(columns) -> str:
    return "@{}" + "".join("l" if c.kind in ("text", "config") else "r" for c in columns) + "@{}"


def latex_part(table: pd.DataFrame, columns, caption: str, label: str, group: str | None, long: bool) -> str:
    """One part of a table as a ``longtable`` (``long``) or a ``table`` float with a booktabs tabular."""
    columns = [c for c in columns if c.key in table]
    header, body = _header(columns), _rows(table, columns, group) or [
        rf"\multicolumn{{{len(columns)}}}{{@{{}}l}}{{no rows}} \\"]
    if long:
        return "\n".join([
            r"{\footnotesize\setlength{\tabcolsep}{3pt}",
            rf"\begin{{longtable}}{{{_alignment(columns)}}}",
            rf"\caption{{{caption}}}\label{{{label}}} \\", r"\toprule", header, r"\midrule", r"\endfirsthead",
            r"\toprule", header, r"\midrule", r"\endhead", r"\bottomrule", r"\endlastfoot",
            *body, r"\end{longtable}}", ""])
    return "\n".join([
        r"\begin{table}[tbp]", r"\centering", r"\footnotesize", r"\setlength{\tabcolsep}{3pt}",
        rf"\caption{{{caption}}}\label{{{label}}}", rf"\begin{{tabular}}{{{_alignment(columns)}}}", r"\toprule",
        header, r"\midrule", *body, r"\bottomrule", r"\end{tabular}", r"\end{table}", ""])


def latex_document_table(table: pd.DataFrame, spec: TableSpec) -> str:
    """Every part of ``table`` as LaTeX, one caption and label per part (``<label>`` then ``<label>-2``...)."""
    group = spec.group
    if isinstance(group, tuple):  # rows grouped by several columns: one label "a, b" per group
        group = "_group"
        labels = [", ".join(values) for values in table[list(spec.group)].astype(str).itertuples(index=False)]
        table = table.assign(_group=pd.Series(labels, index=table.index, dtype=object))
    if group and group in table:
        table = table.sort_values(group, kind="stable")
    parts = []
    for index, columns in enumerate(spec.parts):
        caption = spec.caption + (f" {spec.part_captions[index]}" if index < len(spec.part_captions) else "")
        label = spec.label if index == 0 else f"{spec.label}-{index + 1}"
        parts.append(latex_part(table.reset_index(drop=True), columns, caption, label, group, spec.long))
    return "\n".join(parts)


def _config(key: str, header: str) -> Column:
    return Column(key, header, "config")


def _text(key: str, header: str) -> Column:
    return Column(key, header, "text")


def _count(key: str, header: str) -> Column:
    return Column(key, header, "count")


MS = 1000.0
CONFIG_COLUMNS = (_text("formulation", "Formulation"), _text("solver", "Solver"))


def shift_text(seconds: float) -> str:
    """An SGM shift for a header: "10 ms" below a second, else "1 s"."""
    return f"{seconds * MS:g} ms" if seconds < 1 else f"{seconds:g} s"


def specs(shifts, measure: str = "time") -> dict[str, TableSpec]:
    """The LaTeX layout of every result table; ``shifts`` are the SGM shifts in seconds (first: headline)."""
    what = {"time": "solver + build time", "wall": "wall + build time"}[measure]
    sgms = tuple(Column(f"{measure}_sgm_s{s:g}", f"SGM [ms]\\\\s = {shift_text(s)}", scale=MS,
                        best=index == 0) for index, s in enumerate(shifts))
    ratios = tuple(Column(f"{measure}_ratio_s{s:g}", f"Ratio\\\\s = {shift_text(s)}",
                          best=index == 0) for index, s in enumerate(shifts))
    headline_shift = shift_text(shifts[0])
    return {
        "headline": TableSpec(
            f"Best solver per formulation: shifted geometric mean (SGM, shift {headline_shift}) of the "
            f"{what} over all runs, unsolved runs at the time limit; instances solved by every seed; "
            "speed-up over the seed model (its best solver's SGM / this SGM). Bold: best per puzzle.",
            "tab:headline", ((_text("formulation", "Formulation"), _text("solver", "Solver"),
                              Column(sgms[0].key, "SGM\\\\[ms]", scale=MS, best=True),
                              _text("solved_text", "Solved"), Column("speedup", "Speed-up\\\\vs seed")),),
            long=False),
        "configurations": TableSpec(
            f"Every configuration: runs, solved runs, SGMs of the {what} (unsolved at the limit) for each "
            "shift s, of nodes and LP iterations (shift 100), share solved at the root. Bold: best per puzzle.",
            "tab:configurations",
            ((*CONFIG_COLUMNS, *sgms, Column("nodes_sgm_s100", "Nodes\\\\(SGM)"),
              Column("lp_iterations_sgm_s100", "LP iter.\\\\(SGM)"), Column("root_share", "Root\\\\share")),
             (*CONFIG_COLUMNS, _count("runs", "Runs"), _count("solved", "Solved"),
              _count("time_limit", "Time\\\\limit"), _count("error", "Errors"), _count("wrong", "Wrong"),
              _count("skipped", "Skipped")),
             (*CONFIG_COLUMNS, Column("rows", "Rows"), Column("cols", "Columns"), Column("nonzeros", "Non-\\\\zeros"),
              Column("presolved_rows", "Presolved\\\\rows"), Column("presolved_cols", "Presolved\\\\columns"))),
            part_captions=("", "(continued: outcomes, runs counted by status)",
                           "(continued: model size, means over runs)")),
        "ratios": TableSpec(
            "Shifted geometric means scaled by the puzzle's best configuration (best = 1), with the virtual "
            "best (the fastest configuration per instance and seed).", "tab:ratios",
            ((*CONFIG_COLUMNS, _count("runs", "Runs"), _count("solved", "Solved"), *ratios,
              Column("nodes_ratio_s100", "Nodes\\\\ratio"), Column("lp_iterations_ratio_s100", "LP iter.\\\\ratio")),)),
        "scaling_exponents": TableSpec(
            r"Growth exponents $k$ of $y = c\,n^k$ on the size ladders ($n$ grid rows; least squares of "
            r"$\log y$ on $\log n$ over all runs, unsolved runs at the time limit), with the 95\% confidence "
            "interval.",
            "tab:scaling", ((*CONFIG_COLUMNS, _text("quantity", "y"),
                             Column("exponent", "k"), Column("exponent_low", "k low\\\\(95%)"),
                             Column("exponent_high", "k high\\\\(95%)"), _count("sizes", "Sizes"),
                             _count("runs", "Runs"), _count("unsolved", "Unsolved")),), group="instance_set"),
        "variability": TableSpec(
            "Variability of the time over seeds and symmetry permutations: per configuration, over its "
            "instances, the median and 90th percentile of max/min, the median coefficient of variation and "
            "the share of instances with mixed outcomes.", "tab:variability",
            ((*CONFIG_COLUMNS, _count("instances", "Instances"), Column("runs_per_instance", "Runs per\\\\instance"),
              Column("median_max_min", "Median\\\\max/min"), Column("p90_max_min", "P90\\\\max/min"),
              Column("median_cv", "Median\\\\CV"), Column("mixed_share", "Mixed\\\\share")),)),
        "wilcoxon": TableSpec(
            "Paired Wilcoxon signed-rank tests between formulations A and B per solver (per-instance time "
            "ratios A/B), p-values Holm-adjusted over the table.", "tab:wilcoxon",
            ((_text("formulation_a", "A"), _text("formulation_b", "B"),
              _count("n", "n"), Column("median_ratio", "Median\\\\A/B"), _count("a_faster", "A\\\\faster"),
              _count("b_faster", "B\\\\faster"), Column("p_value", "p", "p"), Column("p_holm", "p\\\\(Holm)", "p")),),
            group=("puzzle", "solver")),
        "best_vs_cpsat": TableSpec(
            f"Best MIP configuration against the best constraint-programming (CP) configuration: SGM of the "
            f"{what} (shift {headline_shift}), ratio MIP/CP (> 1: CP faster), instances solved.",
            "tab:best-vs-cp",
            ((_text("puzzle", "Puzzle"), _config("mip_best", "MIP best"),
              Column("mip_sgm", "SGM\\\\[ms]", scale=MS), _config("cpsat_best", "CP best"),
              Column("cpsat_sgm", "SGM\\\\[ms]", scale=MS), Column("ratio", "Ratio\\\\MIP/CP"),
              _count("mip_solved", "MIP\\\\solved"), _count("cpsat_solved", "CP\\\\solved"),
              _count("mip_instances", "Inst-\\\\ances")),), group=None, long=False),
        "best_vs_cpsat_hardest": TableSpec(
            f"Best MIP against best CP configuration on each set's hardest tenth of instances (those on "
            f"which CP is slowest; SGM of the {what}, shift {headline_shift}).", "tab:best-vs-cp-hardest",
            ((_config("instance_set", "Set"), _count("instances_kept", "Inst-\\\\ances"),
              _config("mip_best", "MIP best"), Column("mip_sgm", "SGM\\\\[ms]", scale=MS),
              _config("cpsat_best", "CP best"), Column("cpsat_sgm", "SGM\\\\[ms]", scale=MS),
              Column("ratio", "Ratio\\\\MIP/CP")),), group=None, long=False),
        "configurations_by_set": TableSpec(
            f"Every configuration on each instance set: runs, solved, SGM of the {what} (shift "
            f"{headline_shift}, unsolved at the limit), nodes and LP iterations (SGM, shift 100), median "
            "root LP time (--: no LP). Bold: best per set.", "tab:configurations-by-set",
            ((*CONFIG_COLUMNS, _count("runs", "Runs"), _count("solved", "Solved"),
              Column(sgms[0].key, "SGM\\\\[ms]", scale=MS, best=True), _count("time_limit", "Time\\\\limit"),
              Column("nodes_sgm_s100", "Nodes\\\\(SGM)"), Column("lp_iterations_sgm_s100", "LP iter.\\\\(SGM)"),
              Column("root_lp_time_median", "Root LP\\\\[ms]", scale=MS)),), group="instance_set"),
        "best_vs_cpsat_by_set": TableSpec(
            f"Best MIP against best CP configuration per instance set (SGM of the {what}, shift "
            f"{headline_shift}).", "tab:best-vs-cp-by-set",
            ((_config("instance_set", "Set"), _config("mip_best", "MIP best"),
              Column("mip_sgm", "SGM\\\\[ms]", scale=MS), _config("cpsat_best", "CP best"),
              Column("cpsat_sgm", "SGM\\\\[ms]", scale=MS), Column("ratio", "Ratio\\\\MIP/CP")),
             (_config("instance_set", "Set"), _config("mip_best", "MIP best"), _count("mip_solved", "MIP\\\\solved"),
              _count("cpsat_solved", "CP\\\\solved"), Column("mip_nodes", "Nodes\\\\(SGM)"),
              Column("mip_lp_iterations", "LP iter.\\\\(SGM)"), Column("mip_root_share", "Root\\\\share"))),
            part_captions=("", "(continued: instances solved, and why the best MIP configuration is slow: "
                               "its nodes, LP iterations and share of runs solved at the root)")),
    }
