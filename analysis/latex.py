"""Tables a paper can ``\\input``: human headers with units, caption, label, significant digits, the
best entry per puzzle in bold, rows grouped by puzzle, wide tables split into parts.

A :class:`TableSpec` says how one result table reads in a paper; :func:`specs` holds one per table
of :mod:`~puzzlebench.analysis.pipeline` (the CSV keeps every column at full precision).  Tables
for the body of a paper are ``table`` floats (``table*`` when wider than a column) with a booktabs
``tabular``, so they compile in a one- and a two-column document; they fit the narrowest usual
widths, a column of a two-column article (:data:`COLUMN_POINTS`) or the text of a one-column one
(:data:`PAGE_POINTS`).  A body table with more than :data:`BODY_ROWS` rows, and every table whose
rows grow with the run (every configuration, every test), is a ``longtable`` for a one-column
supplement (package ``longtable``), written to ``tables/supplement/``.  Every table needs
``booktabs``.  Numbers follow one rule everywhere, :func:`significant` (:data:`DIGITS` significant
digits); :func:`typeset` puts the multiplication sign and en-dashes into running text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pandas as pd

from .significance import MIN_NONZERO
from .tables import VIRTUAL_BEST

DIGITS = 3
"""Significant digits of measured numbers."""
SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
           "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
BODY, SUPPLEMENT = "body", "supplement"
"""Where a table goes: the body of a paper (a float) or the one-column supplement (a longtable)."""
COLUMN_POINTS = 229.5
"""The column width of ``\\documentclass[10pt,twocolumn]{article}``: a ``table`` must fit it."""
PAGE_POINTS = 345.0
"""The text width of a one-column ``article`` (10pt): a ``table*`` and a supplement table must fit it."""
BODY_ROWS = 40
"""A body table with more rows than this is set as a supplement longtable instead (a float must fit a page)."""
TABCOLSEP = 3.0
"""Points between a column and its neighbour (each side; the tables set ``\\tabcolsep`` to it)."""
CHAR_POINTS = {**dict.fromkeys("ijl.,;:'![]|", 2.4), **dict.fromkeys("frt-()", 3.3), **dict.fromkeys("mw", 6.6),
               **dict.fromkeys("MW", 8.3)}
"""Widths of the characters of Latin Modern (T1) at ``\\footnotesize`` in a 10pt document, in points
(measured with ``\\settowidth``; others: digits and lowercase :data:`CHAR_DEFAULT`, capitals :data:`CHAR_CAPITAL`)."""
CHAR_DEFAULT, CHAR_CAPITAL, BOLD_FACTOR = 4.4, 6.4, 1.15


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(SPECIAL.get(c, c) for c in str(text))


def typeset(latex: str) -> str:
    """Running LaTeX text with a ratio "2.5x" as "2.5$\\times$" and a numeric range "1.2-3.4" with an
    en-dash ("1.2--3.4"); ``latex`` is already escaped (:func:`escape`)."""
    latex = re.sub(r"(?<=\d)x(?=[\s,.;:)]|$)", r"$\\times$", latex)
    return re.sub(r"(?<=\d)-(?=\d)", "--", latex)


def significant(value: float, digits: int = DIGITS) -> str:
    """``value`` rounded to ``digits`` significant digits, in plain notation ({,} between thousands)."""
    return plain_significant(value, digits).replace(",", "{,}")


def plain_significant(value: float, digits: int = DIGITS) -> str:
    """:func:`significant` as plain text ("," between thousands): the one rule for numbers in text."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    return f"{rounded:,.{max(0, places)}f}"


def text_points(text: str, bold: bool = False) -> float:
    """The width of plain ``text`` at ``\\footnotesize`` in points (:data:`CHAR_POINTS`), an estimate
    within a few per cent for names and numbers."""
    width = sum(CHAR_POINTS.get(c, CHAR_CAPITAL if c.isupper() else CHAR_DEFAULT) for c in text)
    return width * (BOLD_FACTOR if bold else 1.0)


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

    def lines(self, value) -> list[str]:
        """The cell of ``value`` as plain text, one string per line."""
        if pd.isna(value):
            return ["--"]
        if self.kind == "count":
            return [f"{int(round(float(value))):,}"]
        if self.kind == "number":
            return [plain_significant(float(value) * self.scale)]
        if self.kind == "p":
            return ["<0.001" if value < 0.001 else plain_significant(float(value), 2)]
        if self.kind == "config" and "/" in str(value):
            return str(value).split("/", 1)
        return [str(value)]

    def cell(self, value) -> str:
        lines = self.lines(value)
        if self.kind in ("count", "number", "p"):
            return lines[0].replace(",", "{,}").replace("<", "$<$")
        return stacked([escape(line) for line in lines], "l")

    def header_lines(self) -> list[str]:
        """The header's lines as LaTeX (a line with ``$`` is math, kept as it is)."""
        return [escape(line) if "$" not in line else line for line in self.header.split("\\\\")]


@dataclass(frozen=True)
class TableSpec:
    """How one result table reads in a paper: ``parts`` (each a list of columns, one table each, so a
    wide table becomes several narrow ones), ``caption``, ``label``, rows grouped by ``group``;
    ``placement`` :data:`BODY` (a float, see :func:`placement`) or :data:`SUPPLEMENT` (a longtable)."""

    caption: str
    label: str
    parts: tuple[tuple[Column, ...], ...]
    group: str | tuple[str, ...] | None = "puzzle"
    placement: str = SUPPLEMENT
    part_captions: tuple[str, ...] = field(default=())


def placement(table: pd.DataFrame, spec: TableSpec) -> str:
    """:data:`BODY` for a body table of at most :data:`BODY_ROWS` rows, else :data:`SUPPLEMENT`."""
    return BODY if spec.placement == BODY and len(table) <= BODY_ROWS else SUPPLEMENT


def stacked(lines: list[str], align: str) -> str:
    """Lines of a cell one above the other (a nested tabular, no package needed)."""
    return lines[0] if len(lines) == 1 else (
        rf"\begin{{tabular}}[t]{{@{{}}{align}@{{}}}}" + r"\\{}".join(lines) + r"\end{tabular}")


def _header(columns) -> str:
    cells = [stacked(c.header_lines(), "l" if c.kind in ("text", "config") else "r").replace(
        r"\begin{tabular}[t]", r"\begin{tabular}[b]") for c in columns]
    return " & ".join(cells) + r" \\"


def _bold(table: pd.DataFrame, column: Column, group: str | None) -> pd.Series:
    values = pd.to_numeric(table[column.key], errors="coerce")
    if "formulation" in table:  # the virtual best is a bound, not a contender
        values = values.where(table["formulation"] != VIRTUAL_BEST)
    best = values.groupby(table[group]).transform("min") if group else values.min()
    return values.eq(best) & values.notna()


def _bold_cells(table: pd.DataFrame, columns, group: str | None) -> dict[str, pd.Series]:
    return {c.key: _bold(table, c, group) for c in columns if c.best}


def _rows(table: pd.DataFrame, columns, group: str | None) -> list[str]:
    bold = _bold_cells(table, columns, group)
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


def part_points(table: pd.DataFrame, columns, group: str | None) -> float:
    """The estimated natural width of one part (:func:`text_points` of its widest entries), in points."""
    bold = _bold_cells(table, columns, group)
    widths = []
    for column in columns:
        header = [re.sub(r"\\[A-Za-z]+|[\\${}]", "", line) for line in column.header.split("\\\\")]
        width = max(text_points(line) for line in header)
        for index, value in table[column.key].items():
            strong = column.key in bold and bool(bold[column.key][index])
            width = max(width, *(text_points(line, strong) for line in column.lines(value)))
        widths.append(width)
    groups = [text_points(str(g)) for g in table[group].unique()] if group else []
    return max([sum(widths) + 2 * TABCOLSEP * (len(columns) - 1), *groups])


def _alignment(columns) -> str:
    return "@{}" + "".join("l" if c.kind in ("text", "config") else "r" for c in columns) + "@{}"


def latex_part(table: pd.DataFrame, columns, caption: str, label: str, group: str | None, where: str) -> str:
    """One part of a table: a ``longtable`` (``where`` :data:`SUPPLEMENT`) or a ``table`` float with a
    booktabs tabular (:data:`BODY`), ``table*`` when it is wider than a column (:data:`COLUMN_POINTS`)."""
    columns = [c for c in columns if c.key in table]
    header, body = _header(columns), _rows(table, columns, group)
    if where == SUPPLEMENT:
        return "\n".join([
            rf"{{\footnotesize\setlength{{\tabcolsep}}{{{TABCOLSEP:g}pt}}",
            rf"\begin{{longtable}}{{{_alignment(columns)}}}",
            rf"\caption{{{caption}}}\label{{{label}}} \\", r"\toprule", header, r"\midrule", r"\endfirsthead",
            r"\toprule", header, r"\midrule", r"\endhead", r"\bottomrule", r"\endlastfoot",
            *body, r"\end{longtable}}", ""])
    float_name = "table" if part_points(table, columns, group) <= COLUMN_POINTS else "table*"
    return "\n".join([
        rf"\begin{{{float_name}}}[tbp]", r"\centering", r"\footnotesize", rf"\setlength{{\tabcolsep}}{{{TABCOLSEP:g}pt}}",
        rf"\caption{{{caption}}}\label{{{label}}}", rf"\begin{{tabular}}{{{_alignment(columns)}}}", r"\toprule",
        header, r"\midrule", *body, r"\bottomrule", r"\end{tabular}", rf"\end{{{float_name}}}", ""])


def latex_document_table(table: pd.DataFrame, spec: TableSpec) -> str:
    """Every part of ``table`` as LaTeX, one caption and label per part (``<label>`` then ``<label>-2``...),
    laid out for its :func:`placement`."""
    where = placement(table, spec)
    group = spec.group
    if isinstance(group, tuple):  # rows grouped by several columns: one label "a, b" per group
        group = "_group"
        labels = [", ".join(values) for values in table[list(spec.group)].astype(str).itertuples(index=False)]
        table = table.assign(_group=pd.Series(labels, index=table.index, dtype=object))
    if group and group in table:
        table = table.sort_values(group, kind="stable")
    table = table.reset_index(drop=True)
    pieces = []  # (columns, caption suffix) of every part, the parts too wide for a page split
    for index, columns in enumerate(spec.parts):
        suffix = spec.part_captions[index] if index < len(spec.part_captions) else ""
        fitted = fitted_parts(table, [c for c in columns if c.key in table], group)
        pieces += [(part, suffix if not piece else "(continued)") for piece, part in enumerate(fitted)]
    parts = []
    for index, (columns, suffix) in enumerate(pieces):
        label = spec.label if index == 0 else f"{spec.label}-{index + 1}"
        parts.append(latex_part(table, columns, f"{spec.caption} {suffix}".strip(), label, group, where))
    return "\n".join(parts)


def fitted_parts(table: pd.DataFrame, columns: list[Column], group: str | None) -> list[list[Column]]:
    """``columns`` as one part, or split into parts that each fit :data:`PAGE_POINTS` (:func:`part_points`):
    every part keeps the leading name columns (text, config) and takes its share of the others."""
    keys = next((i for i, c in enumerate(columns) if c.kind not in ("text", "config")), len(columns))
    rest = columns[keys:]
    if len(rest) < 2 or part_points(table, columns, group) <= PAGE_POINTS:
        return [columns]
    half = -(-len(rest) // 2)
    return [*fitted_parts(table, columns[:keys] + rest[:half], group),
            *fitted_parts(table, columns[:keys] + rest[half:], group)]


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
            placement=BODY),
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
            "Every pair of formulations A and B per instance set and solver: instances paired, geometric "
            "mean of the per-instance time ratio B/A with its 95\\% bootstrap interval, the pair's noise "
            "factor, the Wilcoxon signed-rank p-value, Holm-adjusted over the pairs, and the verdict.",
            "tab:wilcoxon",
            ((_text("formulation_a", "A"), _text("formulation_b", "B"),
              _count("n", "n"), Column("ratio", "Ratio\\\\B/A"), Column("ci_low", "CI\\\\low"),
              Column("ci_high", "CI\\\\high"), Column("noise", "Noise"), Column("p_value", "p", "p"),
              Column("p_holm", "p\\\\(Holm)", "p"), _text("verdict", "Verdict")),),
            group=("instance_set", "solver")),
        "best_vs_cpsat": TableSpec(
            f"Best MIP configuration against the best constraint-programming (CP) configuration: SGM of the "
            f"{what} (shift {headline_shift}), ratio MIP/CP (> 1: the CP SGM is the smaller), instances solved.",
            "tab:best-vs-cp",
            ((_config("mip_best", "MIP best"),
              Column("mip_sgm", "SGM\\\\[ms]", scale=MS), _config("cpsat_best", "CP best"),
              Column("cpsat_sgm", "SGM\\\\[ms]", scale=MS), Column("ratio", "Ratio\\\\MIP/CP"),
              _count("mip_solved", "MIP\\\\solved"), _count("cpsat_solved", "CP\\\\solved"),
              _count("mip_instances", "Inst-\\\\ances")),), placement=BODY),
        "best_vs_cpsat_hardest": TableSpec(
            f"Best MIP against best CP configuration on each set's hardest tenth of instances (those on "
            f"which CP is slowest; SGM of the {what}, shift {headline_shift}). A row over fewer than "
            f"{MIN_NONZERO} instances that reached a solver is no claim (too few for a test).", "tab:best-vs-cp-hardest",
            ((_config("instance_set", "Set"), _count("instances_kept", "Inst-\\\\ances"),
              _config("mip_best", "MIP best"), Column("mip_sgm", "SGM\\\\[ms]", scale=MS),
              _config("cpsat_best", "CP best"), Column("cpsat_sgm", "SGM\\\\[ms]", scale=MS),
              Column("ratio", "Ratio\\\\MIP/CP")),), group=None, placement=BODY),
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
            placement=BODY,
            part_captions=("", "(continued: instances solved, and why the best MIP configuration is slow: "
                               "its nodes, LP iterations and share of runs solved at the root)")),
    }
