"""``index.html``: the results of a run to browse, one self-contained page that works from
``file://`` with no network and no server.

The page holds

* the run's setup and the machine's noise (:mod:`~puzzlebench.analysis.run_setup`);
* the run's claims with their verdicts, read from ``findings.json`` beside the page (:func:`read_claims`;
  the records of :data:`CLAIM_FIELDS`), or a note that the folder has none;
* every configuration per instance set, a sortable table with a filter per column (itables, DataTables
  inlined): runs, solved, SGM, time limits, nodes, LP iterations, root LP time, and the noise of its
  repeats (median max/min over seeds and permutations, where there are several);
* per puzzle, interactive performance profiles and ECDFs (plotly): hovering a point shows the
  configuration, the instance and the time; clicking a legend entry hides or shows a series;
* per puzzle, every configuration's time and outcome on one instance, the instance chosen from a menu,
  with the puzzle drawn (:mod:`puzzlebench.draw`, with a verified solution when one exists);
* links to the figures, tables, paper and store files of the folder.

plotly.js and the DataTables bundle are embedded once each (about 6 MB together); nothing is fetched.

Every value that comes from the run (file, set, formulation, configuration and solver names, descriptions,
the fields of findings.json) reaches the page as text, never as markup: HTML is escaped (:func:`text`),
attributes are quoted and escaped, ids and anchors are built from a safe alphabet (:func:`anchor`), the
names shown by plotly are escaped for its text renderer (:func:`plot_text`), and JSON inside ``<script>``
has ``<``, ``>`` and ``&`` as ``\\u003c``, ``\\u003e``, ``\\u0026``.  A Content-Security-Policy (:func:`csp`)
lets only the page's own inline scripts run (their sha256 hashes, computed when the page is written), so
an injected ``<script>`` or ``on*=`` handler would not run even if it got through.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pandas as pd

from puzzlebench.system.atomic import write_whole

from .figures import LINESTYLES, MARKERS, aggregation_note, best_solver_per_formulation, solver_order, styles_for
from .latex import plain_significant
from .outcomes import CONFIG, INSTANCE, instance_times
from .run_setup import RunSetup, date_range, listed, spread
from .stats import performance_ratios

PAGE = "index.html"
FINDINGS = "findings.json"
CLAIM_FIELDS = ("puzzle", "instance_set", "solver", "a", "b", "measure", "ratio", "ci", "p_adjusted", "n", "verdict")
"""The fields of a claim in findings.json (instance_set null: all sets of the puzzle; solver null: each side
with its best solver; ratio: b's time over a's; ci: [low, high])."""
VERDICTS = {"faster": "{a} is faster than {b}", "slower": "{a} is slower than {b}",
            "equivalent": "{a} and {b}: no difference beyond the noise",
            "inconclusive": "{a} against {b}: not enough evidence{needed}",
            "tied": "{a} and {b}: not separated (an older findings file's verdict)",
            "identical": "{a} and {b} are the same model",
            "preprocessing": "{a}, {b}: solved by preprocessing, no solver ran"}
MAX_VIEW_INSTANCES = 300
"""Instances per puzzle in the per-instance view (the first, by set and name); the rest are in the tables."""
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "toImageButtonOptions": {"format": "svg"}}
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "5px,2px,1px,2px", "1px,2px", "8px,2px",
          "3px,1px,1px,1px")
"""Plotly line dashes, one per solver in the order of the static figures' line styles."""
SYMBOLS = ("circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "x", "star", "triangle-left",
           "triangle-right", "hexagon", "pentagon")
"""Plotly marker symbols, one per formulation in the order of the static figures' markers."""
VERDICT_CLASSES = frozenset(VERDICTS)
"""The verdicts with a badge colour of their own (a class of the badge); any other verdict gets none."""
OUTCOME_COLOURS = {"solved": "#0173b2", "infeasible_proved": "#56b4e9", "time_limit": "#de8f05", "error": "#d55e00",
                   "wrong": "#cc78bc", "false_infeasible": "#ca9161", "no_grid": "#949494", "mixed": "#ece133"}


# --- text, never markup ---------------------------------------------------------------------------

def text(value) -> str:
    """``value`` as HTML text (element content or a quoted attribute value): ``& < > " '`` escaped."""
    return html.escape(str(value), quote=True)


def plot_text(value) -> str:
    """``value`` as text for plotly, whose labels read a few tags (``<b>``, ``<a href>``, ``<br>``...) and
    the entities ``&lt; &gt; &amp;``: escaped, so a name is shown as written and never read as a tag."""
    return html.escape(str(value), quote=False)


def anchor(value) -> str:
    """An id/anchor for ``value`` from ``[A-Za-z0-9_-]`` only: ``value`` itself when it is made of those,
    else its safe characters and a short hash (distinct values keep distinct ids)."""
    value = str(value)
    if re.fullmatch(r"[A-Za-z0-9_-]+", value):
        return value
    return re.sub(r"[^A-Za-z0-9_-]", "_", value)[:40] + "-" + hashlib.sha256(value.encode()).hexdigest()[:10]


def href(relative: str) -> str:
    """A relative link to a file of the results folder, as the (escaped) value of a quoted attribute: the
    path percent-encoded and prefixed with ``./``, so no part of a file name can make it a ``javascript:``
    (or any other scheme's) URL."""
    return text("./" + quote(relative, safe="/"))


def script_safe(json_text: str) -> str:
    """JSON text safe inside a ``<script>`` element: ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\u``
    escapes (in JSON they can only stand inside strings, where the escape means the same character), so no
    ``</script>`` or ``<!--`` can close or change the element."""
    return (json_text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# --- claims -------------------------------------------------------------------------------------

def read_claims(path) -> list[dict] | None:
    """The claims of ``findings.json``: a JSON list of records, or an object holding one under
    "claims" or "findings"; None when there is no such file."""
    path = Path(path)
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    if isinstance(data, dict):
        data = next((data[key] for key in ("claims", "findings") if isinstance(data.get(key), list)), [])
    return [record for record in data if isinstance(record, dict)]


def _number(value, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits; "--" when it is missing or not a number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "--"
    return plain_significant(number, digits) if np.isfinite(number) else "--"


def verdict_badge(verdict: str) -> str:
    """The verdict as a badge: a span of class ``verdict`` plus the verdict's own class when it is one of
    :data:`VERDICT_CLASSES` (no class from the data otherwise), the verdict's text escaped."""
    classes = f"verdict {verdict}" if verdict in VERDICT_CLASSES else "verdict"
    return f'<span class="{classes}">{text(verdict)}</span>'


def claim_row(claim: dict) -> dict:
    """One claim as the columns of the page's claims table: HTML, every value from the claim escaped (the
    table shows its cells as HTML for the verdict badge)."""
    a, b, verdict = str(claim.get("a", "")), str(claim.get("b", "")), str(claim.get("verdict", ""))
    if not claim.get("solver"):   # each side with its best solver: name it (combinations/highs vs combinations/cpsat)
        a, b = (f"{name}/{claim[key]}" if claim.get(key) else name for name, key in ((a, "a_solver"), (b, "b_solver")))
    ci = claim.get("ci")
    ci = ci if isinstance(ci, (list, tuple)) else [None, None]
    ratio = _number(claim.get("ratio"))
    n = claim.get("n")
    return {
        "verdict": verdict_badge(verdict),
        "puzzle": text(claim.get("puzzle") or ""),
        "instance set": text(claim.get("instance_set") or "all sets"),
        "solver": text(claim.get("solver") or "each side's best"),
        "claim": text(VERDICTS.get(verdict, "{a} against {b}").format(a=a, b=b, needed=_needed(claim))),
        "ratio b/a": f"{ratio}×" if ratio != "--" else "--",
        "95% interval": f"{_number(ci[0])}–{_number(ci[1])}" if len(ci) == 2 and None not in ci else "--",
        "p (adjusted)": _number(claim.get("p_adjusted"), 2),
        "n": n if isinstance(n, int) and not isinstance(n, bool) else "--" if n is None else text(n),
        "measure": text(claim.get("measure") or ""),
    }


def _needed(claim: dict) -> str:
    needed = claim.get("instances_needed")
    n = claim.get("n")
    if isinstance(needed, int) and not isinstance(needed, bool):
        return f" (n = {n}; about {needed} puzzles needed)"
    return f" (n = {n})" if isinstance(n, int) else ""


def claims_section(claims: list[dict] | None, own=lambda fragment: fragment) -> str:
    """The claims as a table (a note when there are none); ``own`` is given the table's own HTML and
    scripts (:func:`results_page` hashes them for its CSP) and returns what to put in the page."""
    if claims is None:
        return ("<p class='note'>This results folder has no <code>findings.json</code>, so there are no "
                "machine-readable claims to show: the analysis that wrote it did not compute them. The summary "
                "(<a href='summary.md'>summary.md</a>) and the tables below still hold every number.</p>")
    if not claims:
        return "<p class='note'><code>findings.json</code> lists no claims for this run.</p>"
    counts = pd.Series([str(c.get("verdict", "")) for c in claims]).value_counts()
    head = ", ".join(f"{count} {verdict}" for verdict, count in counts.items())
    table = pd.DataFrame([claim_row(c) for c in claims])
    return (f"<p>{len(claims)} claims from <a href='{href(FINDINGS)}'>{FINDINGS}</a>: {text(head)}. "
            "Ratio: b's time over a's.</p>" + own(datatable(table, "claims-table", allow_html=True)))


# --- the configuration table ----------------------------------------------------------------------

def rounded(values: pd.Series, digits: int = 3) -> pd.Series:
    """Numbers rounded to ``digits`` significant digits (kept numeric, so the table sorts them as numbers)."""
    numbers = pd.to_numeric(values, errors="coerce").astype(float)
    return numbers.map(lambda v: float(plain_significant(v, digits).replace(",", "")) if np.isfinite(v) else np.nan)


def configuration_frame(by_set: pd.DataFrame, spreads: pd.DataFrame, sgm: str) -> pd.DataFrame:
    """Every configuration per instance set as the page shows it (numbers rounded, times in ms)."""
    if not len(by_set):
        return pd.DataFrame()
    keys = ["puzzle", "instance_set", *CONFIG]
    noise = (spreads.groupby(keys)["max_min_ratio"].median().rename("noise") if len(spreads)
             else pd.Series(dtype=float, name="noise"))
    table = by_set.merge(noise.reset_index(), on=keys, how="left") if len(noise) else by_set.assign(noise=np.nan)
    return pd.DataFrame({
        "puzzle": table["puzzle"], "instance set": table["instance_set"], "formulation": table["formulation"],
        "solver": table["solver"], "runs": table["runs"], "solved": table["solved"],
        "SGM [ms]": rounded(table[sgm] * 1000), "time limits": table["time_limit"], "errors": table["error"],
        "nodes (SGM)": rounded(table["nodes_sgm_s100"]), "LP iterations (SGM)": rounded(table["lp_iterations_sgm_s100"]),
        "root LP [ms]": rounded(table["root_lp_time_median"] * 1000), "noise (max/min)": rounded(table["noise"]),
    })


DT_ARGS = re.compile(r"(let dt_args = )(\{.*?\})(;\s*new ITable\()", re.DOTALL)
"""itables' options of one table, JSON, in its initialisation script."""
NUMBER_RENDER = {"_": "1", "display": "0", "filter": "0"}
"""How a number column's cell, ``[shown, value]``, is read (DataTables data paths, no JavaScript): shown and
searched as the text, sorted (and its column typed) by the number, null when missing."""


def _cell(value, allow_html: bool):
    """A cell of a text column as the table's data: an integer as a number, anything else as escaped text
    (as given when ``allow_html``: the caller's own markup), "--" when missing."""
    if isinstance(value, (bool, np.bool_)):
        return text(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if value is None or isinstance(value, (float, np.floating)) and not np.isfinite(value):
        return "--"
    return str(value) if allow_html else text(value)


def _number_cell(value) -> list:
    """A cell of a number column: ``[shown, value]`` ("--" and null when missing)."""
    if value is None or not np.isfinite(value):
        return ["--", None]
    return [np.format_float_positional(float(value), trim="-"), float(value)]


def table_data(table: pd.DataFrame, allow_html: bool = False) -> tuple[list[list], list[int]]:
    """The rows of ``table`` as DataTables data (:func:`_cell`, :func:`_number_cell`) and the positions of
    its number columns."""
    numbers = [i for i, column in enumerate(table.columns) if table[column].dtype.kind == "f"]
    rows = [[_number_cell(value) if i in numbers else _cell(value, allow_html) for i, value in enumerate(row)]
            for row in table.itertuples(index=False, name=None)]
    return rows, numbers


def datatable(table: pd.DataFrame, table_id: str, allow_html: bool = False) -> str:
    """``table`` as an interactive DataTable (itables, offline): sortable, a search box, a filter per column,
    every row shown (scrolling).

    The table's data is written here, not by itables: text escaped (unless ``allow_html``: then the caller
    has escaped every value that is not its own markup), a number as its text and its value (missing: "--"
    and null, so the column still sorts as numbers; :data:`NUMBER_RENDER`), no JavaScript evaluated from a
    string (the page needs no 'unsafe-eval'), and the options' JSON with ``< > &`` as ``\\u`` escapes
    (:func:`script_safe`)."""
    from itables import to_html_datatable
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", table_id):
        raise ValueError(f"not a safe table id: {table_id!r}")
    page = to_html_datatable(
        table, table_id=table_id, connected=False, showIndex=False, column_filters="header", paging=False,
        scrollY="60vh", scrollX=True, scrollCollapse=True, classes="display compact nowrap", allow_html=allow_html,
        format_floats_in_python=False, display_logo_when_loading=False,
        layout={"topStart": "info", "topEnd": "search", "bottomStart": None, "bottomEnd": None},
        order=[], warn_on_undocumented_option=False)
    rows, numbers = table_data(table, allow_html)

    def options(match) -> str:
        args = json.loads(match.group(2))
        if "keys_to_be_evaluated" in args:
            raise RuntimeError("itables asked to evaluate JavaScript from a string; the page's CSP forbids it")
        args["data_json"] = json.dumps(rows, allow_nan=False)
        args["columnDefs"] = [{"targets": numbers, "render": NUMBER_RENDER}] if numbers else []
        return match.group(1) + script_safe(json.dumps(args, allow_nan=False)) + match.group(3)
    page, found = DT_ARGS.subn(options, page)
    if found != 1:
        raise RuntimeError(f"itables' table script is not the one expected ({found} option blocks)")
    return page


def datatables_bundle() -> str:
    """The DataTables library and its CSS, once per page (itables' offline bundle)."""
    import itables
    from itables.javascript import generate_init_offline_itables_html
    return generate_init_offline_itables_html(itables.options.dt_bundle)


# --- plots -------------------------------------------------------------------------------------------

def _rgb(colour) -> str:
    return "rgb({:.0f},{:.0f},{:.0f})".format(*(255 * c for c in colour[:3]))


class Looks:
    """The plotly look of each configuration: the static figures' colour per formulation, a marker symbol
    per formulation and a dash per solver (:func:`~puzzlebench.analysis.figures.styles_for`)."""

    def __init__(self, runs: pd.DataFrame):
        styles = styles_for(runs)
        symbol_of = dict(zip(MARKERS, SYMBOLS))
        dash_of = dict(zip(map(str, LINESTYLES), DASHES))
        self.colours = {f: _rgb(c) for f, c in styles.formulation_colors.items()}
        self.symbols = {f: symbol_of[m] for f, m in styles.formulation_markers.items()}
        self.dashes = {s: dash_of[str(d)] for s, d in styles.solver_dashes.items()}

    def line(self, formulation: str, solver: str) -> dict:
        return {"line": {"color": self.colours.get(formulation, "black"), "dash": self.dashes.get(solver, "solid"),
                         "width": 1.6, "shape": "hv"},
                "marker": {"symbol": self.symbols.get(formulation, "circle"), "size": 6}}


def _label(formulation: str, solver: str) -> str:
    """A configuration's name as plotly shows it (escaped: :func:`plot_text`)."""
    return plot_text(f"{formulation}/{solver}")


def _instance_label(frame: pd.DataFrame) -> pd.Series:
    label = frame["instance_set"].astype(str) + ": " + frame["instance"].astype(str)
    return label.where(frame["permutation"].eq(0), label + " (permutation " + frame["permutation"].astype(str) + ")")


def _layout(title: str, xaxis: dict, yaxis: dict, height: int = 460) -> dict:
    return {"title": {"text": title}, "xaxis": xaxis, "yaxis": yaxis, "height": height, "template": "plotly_white",
            "legend": {"title": {"text": "click to hide or show (dimmed: hidden)"}, "font": {"size": 10}},
            "margin": {"l": 60, "r": 10, "t": 50, "b": 50}, "hovermode": "closest"}


def profile_figure(times: pd.DataFrame, configurations: pd.DataFrame, sgm: str, looks: Looks):
    """Dolan-Moré performance profiles of one puzzle's configurations (ratios to the best configuration per
    instance); each formulation's best solver and the virtual best shown, the others one click away."""
    import plotly.graph_objects as go
    ratios = performance_ratios(times)
    shown = set(best_solver_per_formulation(configurations, sgm))
    indexed = times.assign(label=_instance_label(times)).set_index([*INSTANCE, *CONFIG])
    fig = go.Figure()
    count = max(len(ratios), 1)
    logs = np.log2(ratios.to_numpy(float))
    right = max(float(np.nanmax(np.where(np.isfinite(logs), logs, np.nan), initial=0.0)) * 1.05, 1.0)
    for formulation, solver in sorted(ratios.columns, key=lambda c: (solver_order([c[1]]), c)):
        column = np.log2(ratios[(formulation, solver)].to_numpy(float))
        order = np.argsort(column, kind="stable")
        finite = order[np.isfinite(column[order])]
        keys = [ratios.index[i] for i in finite]
        rows = indexed.loc[[(*key, formulation, solver) for key in keys]] if keys else indexed.iloc[:0]
        x = [0.0, *column[finite], right]
        y = [0.0, *(np.arange(1, len(finite) + 1) / count), len(finite) / count]
        custom = [["", np.nan], *zip(rows["label"].map(plot_text), rows["time"]), ["", np.nan]]
        fig.add_trace(go.Scatter(
            x=x, y=y, customdata=custom, name=_label(formulation, solver), mode="lines+markers",
            visible=True if (formulation, solver) in shown else "legendonly",
            hovertemplate="%{fullData.name}<br>%{customdata[0]}<br>time %{customdata[1]:.4g} s"
                          "<br>log2 ratio %{x:.3g}<extra></extra>", **looks.line(formulation, solver)))
    fig.update_layout(**_layout(f"performance profiles ({len(ratios)} instances)",
                                {"title": {"text": "log2 τ (time / best configuration)"}, "range": [0, right]},
                                {"title": {"text": "share of instances"}, "range": [-0.02, 1.02]}))
    return fig


def ecdf_figure(runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, looks: Looks):
    """Share of each configuration's runs solved within t seconds (log axis); the time limit dotted when
    some run did not solve."""
    import plotly.graph_objects as go
    shown = set(best_solver_per_formulation(configurations, sgm))
    fig = go.Figure()
    for (formulation, solver), group in sorted(runs.groupby(CONFIG), key=lambda g: (solver_order([g[0][1]]), g[0])):
        solved = group[group["solved"]].sort_values("time", kind="stable")
        labels = _instance_label(solved)
        if runs["seed"].nunique() > 1:
            labels = labels + ", seed " + solved["seed"].astype(str)
        labels = labels.map(plot_text)
        y = np.arange(1, len(solved) + 1) / max(len(group), 1)
        fig.add_trace(go.Scatter(
            x=solved["time"], y=y, customdata=np.column_stack([labels, solved["time"]]) if len(solved) else None,
            name=_label(formulation, solver), mode="lines+markers",
            visible=True if (formulation, solver) in shown else "legendonly",
            hovertemplate="%{fullData.name}<br>%{customdata[0]}<br>time %{x:.4g} s<br>share solved %{y:.3g}"
                          "<extra></extra>", **looks.line(formulation, solver)))
    limit = float(runs["time_limit"].max())
    if (~runs["solved"]).any():  # a trace, not a shape: it is named in the legend and log axes need no care
        fig.add_trace(go.Scatter(x=[limit, limit], y=[0, 1], mode="lines", name=f"time limit {limit:g} s",
                                 line={"dash": "dot", "color": "grey", "width": 1}, hoverinfo="skip"))
    fig.update_layout(**_layout("runs solved within the time", {"title": {"text": "time [s]"}, "type": "log"},
                                {"title": {"text": "share of runs solved"}, "range": [-0.02, 1.02]}))
    return fig


def instance_figure(runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, drawings: dict, puzzle: str):
    """Every configuration's time and outcome on one instance, the instance picked from a menu, the puzzle
    drawn beside the points (``drawings``: instance label -> image data URI).  The time is the one every
    figure and claim uses (:func:`~.outcomes.instance_times`: median over repeats, geometric mean over
    seeds); the outcome is the runs' common one, else ``mixed``."""
    import plotly.graph_objects as go
    order = [_label(f, s) for f, s in configurations.sort_values([sgm, *CONFIG])[CONFIG].itertuples(index=False)]

    def keyed(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.assign(label=_instance_label(frame),
                            configuration=(frame["formulation"] + "/" + frame["solver"]).map(plot_text))

    times = keyed(instance_times(runs))[["label", "configuration", "time", "seeds", "runs"]]
    outcomes = keyed(runs).groupby(["label", "configuration"], sort=True)["outcome"].agg(
        lambda o: o.iloc[0] if o.nunique() == 1 else "mixed").reset_index()
    per = times.merge(outcomes, on=["label", "configuration"], how="left", validate="one_to_one")
    note = aggregation_note(per).removeprefix(", time ")
    instances = sorted(per["label"].unique())[:MAX_VIEW_INSTANCES]
    fig = go.Figure()
    traces, legend_shown = [], set()
    for index, instance in enumerate(instances):
        part = per[per["label"] == instance]
        for outcome, points in part.groupby("outcome", sort=True):
            fig.add_trace(go.Scatter(
                x=points["time"], y=points["configuration"], mode="markers", name=plot_text(outcome),
                legendgroup=plot_text(outcome),
                showlegend=outcome not in legend_shown, visible=index == 0,
                marker={"color": OUTCOME_COLOURS.get(outcome, "black"), "size": 9},
                customdata=points[["outcome", "seeds", "runs"]].assign(outcome=points["outcome"].map(plot_text)),
                hovertemplate="%{y}<br>time %{x:.4g} s<br>outcome %{customdata[0]}<br>seeds %{customdata[1]}, "
                              "runs %{customdata[2]}<extra></extra>"))
            legend_shown.add(outcome)
            traces.append(index)

    def picture(instance) -> dict:
        source = drawings.get(instance)
        if source is None:
            return {"images": [], "annotations": [{"text": "no drawing: the puzzle's file is not under the "
                                                           "instance root", "xref": "paper", "yref": "paper",
                                                   "x": 0.85, "y": 0.6, "showarrow": False}]}
        return {"annotations": [], "images": [{"source": source, "xref": "paper", "yref": "paper", "x": 0.70,
                                               "y": 1.0, "sizex": 0.30, "sizey": 0.45, "xanchor": "left",
                                               "yanchor": "top", "layer": "above"}]}
    buttons = [{"label": plot_text(instance), "method": "update",
                "args": [{"visible": [t == index for t in traces]}, picture(instance)]}
               for index, instance in enumerate(instances)]
    height = max(380, 16 * len(order) + 150)
    fig.update_layout(**_layout(f"{plot_text(puzzle)}: every configuration on the instance chosen",
                                {"title": {"text": f"time [s] ({note + '; ' if note else ''}unsolved at the limit)"},
                                 "type": "log",
                                 "domain": [0, 0.66]},
                                {"categoryorder": "array", "categoryarray": order[::-1], "automargin": True},
                                height), **(picture(instances[0]) if instances else {}),
                      updatemenus=[{"buttons": buttons, "direction": "down", "x": 1.0, "xanchor": "right", "y": 1.0,
                                    "yanchor": "bottom", "showactive": True}] if buttons else [])
    fig.update_layout(margin={"t": 70}, legend={"title": {"text": "outcome"}, "x": 0.70, "y": 0, "xanchor": "left",
                                                "yanchor": "bottom"})
    return fig


def puzzle_drawings(runs: pd.DataFrame, root=None) -> dict[str, str]:
    """Per instance label, the puzzle drawn as an SVG data URI, with a verified solution of the run (else the
    set's reference solution, if any); instances whose file is not under the instance root are left out."""
    from matplotlib import rc_context

    from puzzlebench.draw import draw
    from puzzlebench.errors import PuzzleError
    from puzzlebench.io.sets import get_set
    originals = runs[runs["permutation"].eq(0)].assign(label=lambda f: _instance_label(f))
    drawings, files = {}, {}
    for (set_name, instance), part in list(originals.groupby(["instance_set", "instance"], sort=True))[:MAX_VIEW_INSTANCES]:
        file_name = str(instance).split("#", 1)[0]
        try:
            if (set_name, file_name) not in files:
                found = get_set(set_name, root)
                files[(set_name, file_name)] = {e.name: e for e in found.read_file(found.path / file_name)}
            entry = files[(set_name, file_name)].get(instance)
        except (PuzzleError, OSError, ValueError):
            files[(set_name, file_name)] = {}
            continue
        if entry is None:
            continue
        grids = [np.asarray(json.loads(text)) for text in part.loc[part["outcome"].eq("solved"), "solution"].dropna()]
        fitting = [grid for grid in grids if grid.shape == entry.puzzle.shape]
        solution = fitting[0] if fitting else entry.solution  # a verified grid of the run, else the reference
        with rc_context({"svg.fonttype": "none"}):
            buffer = io.BytesIO()
            draw(entry.puzzle, solution).savefig(buffer, format="svg")
        drawings[part["label"].iloc[0]] = "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode()
    return drawings


def plot_html(fig, div_id: str) -> str:
    """The figure's div and its script (plotly writes its JSON with ``< > &`` as ``\\u`` escapes; the id is
    put in unescaped, so it must be an :func:`anchor`)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", div_id):
        raise ValueError(f"not a safe plot id: {div_id!r}")
    return fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id, config=PLOT_CONFIG)


# --- the page ----------------------------------------------------------------------------------------

LINK_GROUPS = (
    ("Summary and store", ("summary.md", FINDINGS, "runs.csv", "runs.parquet", "noise.csv", "anomalies.csv",
                           "study.yaml")),
    ("Paper", ("paper/paper.pdf", "paper/supplement.pdf", "paper/findings.tex", "paper/setup.tex",
               "paper/profiles.pdf")),
)


def links_section(out_dir: Path) -> str:
    """Links to the files of the results folder that exist: store, paper, tables, figures, other studies."""
    def link(path: Path) -> str:
        relative = path.relative_to(out_dir).as_posix()
        return f"<a href='{href(relative)}'>{text(relative)}</a>"
    parts = []
    for title, names in LINK_GROUPS:
        found = [out_dir / name for name in names if (out_dir / name).is_file()]
        if found:
            parts.append(f"<h3>{text(title)}</h3><p>" + " · ".join(link(p) for p in found) + "</p>")
    tables = sorted((out_dir / "tables").glob("*.*")) + sorted((out_dir / "tables" / "supplement").glob("*.tex"))
    if tables:
        names = sorted({p.name.split(".")[0] for p in tables})
        rows = [f"<li>{text(name)}: " + " ".join(link(p) for p in tables if p.name.split('.')[0] == name)
                + "</li>" for name in names]
        parts.append("<h3>Tables</h3><ul>" + "".join(rows) + "</ul>")
    figures = sorted((out_dir / "figures").glob("*/*.png"))
    if figures:
        kinds = sorted({p.parent.name for p in figures})
        rows = [f"<li>{text(kind)}: " + " ".join(
            f"<a href='{href(p.relative_to(out_dir).as_posix())}'>{text(p.stem)}</a>"
            f" (<a href='{href(p.with_suffix('.pdf').relative_to(out_dir).as_posix())}'>pdf</a>)"
            for p in figures if p.parent.name == kind) + "</li>" for kind in kinds]
        parts.append("<h3>Figures</h3><ul>" + "".join(rows) + "</ul>")
    studies = sorted(p for p in out_dir.glob(f"*/{PAGE}"))
    if studies:
        parts.append("<h3>Other studies in this folder</h3><p>" + " · ".join(link(p) for p in studies) + "</p>")
    return "".join(parts) or "<p>No files.</p>"


def setup_html(setup: RunSetup, configuration_noise: pd.DataFrame | None = None) -> str:
    """The setup as a list; ``configuration_noise`` the configurations' noise table
    (:meth:`~puzzlebench.analysis.noise.Noise.table`), which the claims' noise factors come from."""
    noise = setup.noise
    items = [
        f"{setup.runs:,} runs of {setup.formulations} formulations x {setup.solvers} solver configurations on "
        f"{setup.puzzles} puzzle types; {date_range(setup)}",
        f"machine: {listed(setup.cpu_models)}, {listed(setup.cpu_counts)} CPUs, host {listed(setup.hosts)}, "
        f"{listed(setup.platforms)}",
        f"puzzlebench {listed(setup.puzzlebench_versions)} (commit {listed([c[:12] for c in setup.commits])}), "
        f"Python {listed(setup.python_versions)}",
        "solvers: " + "; ".join(f"{c.name} ({c.versions}{'' if c.options == 'none' else ', options ' + c.options})"
                                for c in setup.configurations),
        f"time limit {listed(setup.time_limits)} s, threads {listed(setup.threads)}, seeds {listed(setup.seeds)}, "
        f"repeats of each seed {setup.repeats}, permutations {setup.permutations}",
        "instance sets (puzzles run): " + ", ".join(f"{name} ({count})" for name, count in setup.sets.items()),
        *([] if configuration_noise is None or not len(configuration_noise) else [
            f"run-to-run noise of the configurations (from their {configuration_noise['source'].iloc[0]}): "
            f"geometric standard deviation of one run {spread(configuration_noise['geometric_sd'])} over "
            f"{len(configuration_noise)} configuration x set pairs; each claim's noise factor comes from these"]),
        "machine health check: " + ("no reference solves recorded" if noise is None else
                                    f"geometric standard deviation {_number(noise.factor)} of {noise.solves} "
                                    f"reference solves (median {_number(noise.median)} s)"),
    ]
    return "<ul>" + "".join(f"<li>{text(item)}</li>" for item in items) + "</ul>"


STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1400px; padding: 0 1.5em 3em; color: #222; }
nav { position: sticky; top: 0; background: #fff; padding: .5em 0; border-bottom: 1px solid #ddd; z-index: 10; }
nav a { margin-right: 1em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #eee; }
.note { color: #555; font-style: italic; }
.verdict { padding: 0 .4em; border-radius: .3em; color: #fff; background: #777; }
.verdict.faster, .verdict.slower { background: #0173b2; }
.verdict.equivalent { background: #949494; }
.verdict.inconclusive, .verdict.tied { background: #e8e8e8; color: #222; border: 1px solid #949494; }
.verdict.identical { background: #029e73; }
.verdict.preprocessing { background: #de8f05; }
.dt-container thead input { width: 7em; box-sizing: border-box; }
.plots { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
@media (max-width: 1000px) { .plots { grid-template-columns: 1fr; } }
"""


SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
FALLBACK = re.compile(r"<div id=\"[A-Za-z0-9_-]+_fallback\">.*?</table></div>", re.DOTALL)
"""itables' static copy of a table's cells (shown without JavaScript): data, so never a source of hashes."""


def script_hashes(fragment: str) -> list[str]:
    """The CSP sources (``'sha256-...'``) of the inline scripts of ``fragment``, an HTML fragment the page
    generates itself (plotly.js, the DataTables bundle, a table's or a plot's initialisation), never one
    that holds text from the data outside a script."""
    return [f"'sha256-{base64.b64encode(hashlib.sha256(body.encode('utf-8')).digest()).decode()}'"
            for body in SCRIPT.findall(FALLBACK.sub("", fragment))]


def csp(script_sources) -> str:
    """The page's Content-Security-Policy: scripts only the page's own inline ones (by hash; inline event
    handlers and any other inline script are refused) and the DataTables module the bundle imports from a
    blob: URL; styles inline (plotly and DataTables set them); images and fonts from data: and blob: URLs;
    nothing fetched, framed, submitted or embedded."""
    return "; ".join([
        "default-src 'none'", "script-src " + " ".join([*dict.fromkeys(script_sources), "blob:"]),
        "style-src 'unsafe-inline'", "img-src data: blob:", "font-src data:", "connect-src 'none'",
        "object-src 'none'", "base-uri 'none'", "form-action 'none'"])


def _lines(fragment: str) -> str:
    """Line ends as the browser reads them (CRLF and CR as LF), so a script's hash is the one it checks."""
    return fragment.replace("\r\n", "\n").replace("\r", "\n")


def results_page(out_dir, runs: pd.DataFrame, per_instance: pd.DataFrame, configurations: pd.DataFrame,
                 by_set: pd.DataFrame, spreads: pd.DataFrame, setup: RunSetup, sgm: str, root=None,
                 configuration_noise: pd.DataFrame | None = None, analysis: str | None = None) -> str:
    """The whole page (see the module doc) for the prepared ``runs`` of the results folder ``out_dir``;
    ``root`` the instance root the puzzles are drawn from (default: puzzlebench's); ``analysis`` the id of
    the analysis it belongs to (``analysis.json``), shown under Files and in a ``<meta>``."""
    from plotly.offline import get_plotlyjs
    out_dir = Path(out_dir)
    looks = Looks(runs) if len(runs) else None
    puzzles = sorted(runs["puzzle"].dropna().unique()) if len(runs) else []
    scripts = []                                 # the CSP hashes of the page's own inline scripts

    def own(fragment: str) -> str:
        fragment = _lines(fragment)
        scripts.extend(script_hashes(fragment))
        return fragment

    sections = []
    for puzzle in puzzles:
        part, times = runs[runs["puzzle"] == puzzle], per_instance[per_instance["puzzle"] == puzzle]
        configs = configurations[configurations["puzzle"] == puzzle]
        drawings = puzzle_drawings(part, root)
        name = anchor(puzzle)
        sections.append(
            f"<h2 id='puzzle-{name}'>{text(puzzle)}</h2><div class='plots'>"
            + own(plot_html(profile_figure(times, configs, sgm, looks), f"profile-{name}"))
            + own(plot_html(ecdf_figure(part, configs, sgm, looks), f"ecdf-{name}")) + "</div>"
            + "<h3>One instance at a time</h3><p>Pick an instance from the menu: every configuration's time "
            "and outcome on it, with the puzzle.</p>"
            + own(plot_html(instance_figure(part, configs, sgm, drawings, puzzle), f"instances-{name}")))
    table = configuration_frame(by_set, spreads, sgm)
    nav = " ".join(f"<a href='#{target}'>{text(title)}</a>" for target, title in (
        ("setup", "Setup"), ("claims", "Claims"), ("every-configuration", "Configurations"),
        *((f"puzzle-{anchor(p)}", p) for p in puzzles), ("files", "Files")))
    configurations_html = (own(datatable(table, "configurations-table")) if len(table) else "<p>No runs.</p>")
    claims_html = claims_section(read_claims(out_dir / FINDINGS), own)
    libraries = own(f"<script type='text/javascript'>{get_plotlyjs()}</script>\n{datatables_bundle()}")
    return "\n".join([
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<meta http-equiv='Content-Security-Policy' content=\"{text(csp(scripts))}\">",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        *([f"<meta name='puzzlebench-analysis' content='{text(analysis)}'>"] if analysis else []),
        f"<title>puzzlebench results: {text(out_dir.resolve().name)}</title>",
        f"<style>{STYLE}</style>", libraries, "</head><body>",
        f"<h1>puzzlebench results: {text(out_dir.resolve().name)}</h1>", f"<nav>{nav}</nav>",
        "<h2 id='setup'>Setup</h2>", setup_html(setup, configuration_noise),
        "<h2 id='claims'>Claims</h2>", claims_html,
        "<h2 id='every-configuration'>Every configuration per instance set</h2>",
        "<p>Type into a column's header to filter it, click a header to sort. SGM: shifted geometric mean of the "
        "time (solver + build; unsolved runs at the time limit); nodes and LP iterations: SGM with shift 100; "
        "root LP: median time to the first LP relaxation (empty: no LP); noise: median over instances of the "
        "max/min time over the configuration's repeats (seeds, permutations; empty with one run per instance).</p>",
        configurations_html, *sections,
        "<h2 id='files'>Files</h2>", links_section(out_dir),
        *([f"<p>Analysis <code>{text(analysis)}</code>: the id that findings.json, summary.md, paper.pdf and "
           "analysis.json of one analysis share (analysis.json is written last: a folder without it, or with "
           "another id, holds an analysis that did not finish).</p>"] if analysis else []),
        "</body></html>", ""])


def write_page(out_dir, runs: pd.DataFrame, per_instance: pd.DataFrame, configurations: pd.DataFrame,
               by_set: pd.DataFrame, spreads: pd.DataFrame, setup: RunSetup, sgm: str, root=None,
               configuration_noise: pd.DataFrame | None = None, analysis: str | None = None) -> Path:
    """``out_dir``/index.html (:func:`results_page`); written last, after every file it links."""
    path = Path(out_dir) / PAGE
    write_whole(path, results_page(out_dir, runs, per_instance, configurations, by_set, spreads, setup, sgm, root,
                                   configuration_noise, analysis))
    return path
