"""results/index.html shows every value from the run as text, never as markup.

A set folder, an instance file, a formulation, a solver, a description or a field of findings.json named
with HTML (``<img src=x onerror=...>``, ``</script><script>...``, ``"'><svg onload=...>``) must reach the
page escaped: in HTML text and attributes, in the JSON of the tables' and plots' scripts, in the labels
plotly draws and in the ids and links.  Behind that, the page's Content-Security-Policy lets only its own
inline scripts run (by hash), so an injected script or ``on*=`` handler could not run either.

(a) each section builder, fed hostile strings in every string field; (b) a whole results folder with a
hostile instance set, instance, formulation, solver and claims, written and opened in Chromium: no dialog,
``window.__xss`` never set, the names shown literally, no console error.
"""

from __future__ import annotations

import html
import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest
from plotly.offline import get_plotlyjs

from puzzlebench.analysis.outcomes import instance_times, load_runs, prepare_runs
from puzzlebench.analysis.page import (PAGE, Looks, claim_row, claims_section, datatable, datatables_bundle,
                                       ecdf_figure, instance_figure, links_section, plot_html, profile_figure,
                                       results_page, setup_html, write_page)
from puzzlebench.analysis.pipeline import read_noise
from puzzlebench.analysis.run_setup import run_setup
from puzzlebench.analysis.tables import configuration_table, instance_spreads, set_configuration_table

from test_analysis import analyse, timed, write_store
from test_results_page import Loaded, browser  # noqa: F401 -- browser: the module-scoped chromium fixture

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "</script><script>alert(1)</script>"
SVG = "\"'><svg onload=alert(1)>"
ENTITY = "&lt;b&gt;not bold&amp;"
HOSTILE = (IMG, SCRIPT, SVG, ENTITY)
SGM = "time_sgm_s0.01"

# the end-to-end names: their payloads set window.__xss (and alert) if they ever run
SET = "sudoku/<img src=x onerror=window.__xss=1;alert(1)>"
INSTANCE = "<img src=x onerror=window.__xss=2>.txt#1"
FORMULATION = "\"'><svg onload=window.__xss=3;alert(3)>"
SOLVER = "</script><script>window.__xss=4;alert(4)</script>"


def unsafe(page: str) -> list[str]:
    """The markup an injection would leave in the page's source."""
    return [found for found in ("<img", "<svg", "<script>alert", "<script>window")
            if found.lower() in page.lower()]


def hostile_claims() -> list[dict]:
    """One claim per hostile string, that string in every string field (the verdict too)."""
    return [{"puzzle": value, "instance_set": value, "solver": value, "a": value, "b": value + "-b",
             "measure": value, "ratio": 1.5, "ci": [1.1, 2.0], "p_adjusted": 0.01, "n": value, "verdict": value,
             "instances_needed": 40} for value in HOSTILE]


# --- (a) the builders ----------------------------------------------------------------------------------

def test_the_claims_table_escapes_every_field():
    page = claims_section(hostile_claims())
    assert unsafe(page) == []
    for value in HOSTILE:          # the literal value, escaped once: the reader sees exactly the name
        assert html.escape(value) in page.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    assert "&amp;lt;b&amp;gt;not bold&amp;amp;" in page.replace("\\u0026", "&")   # "&lt;" stays "&lt;" on screen
    for claim in hostile_claims():   # every cell text, but the badge's own span
        cells = {key: str(value) for key, value in claim_row(claim).items()}
        cells["verdict"] = cells["verdict"].removeprefix('<span class="verdict">').removesuffix("</span>")
        assert {key: value for key, value in cells.items() if "<" in value or ">" in value} == {}


def test_claims_with_garbage_numbers_do_not_break_the_table():
    claim = {**hostile_claims()[0], "ratio": IMG, "ci": IMG, "p_adjusted": SVG, "n": {"x": IMG}}
    row = claim_row(claim)
    assert row["ratio b/a"] == "--"
    assert row["95% interval"] == "--" and row["p (adjusted)"] == "--"
    assert unsafe(" ".join(map(str, row.values()))) == []


def test_the_verdict_badge_takes_its_class_from_a_fixed_set():
    """A known verdict keeps its badge colour (its class); any other verdict gets no class of its own,
    whatever it holds, and shows as escaped text."""
    for verdict in ("faster", "slower", "equivalent", "inconclusive", "tied", "identical", "preprocessing"):
        assert claim_row({"verdict": verdict, "a": "x", "b": "y"})["verdict"] == \
            f'<span class="verdict {verdict}">{verdict}</span>'
    for verdict in (IMG, SVG, "faster extra", "x\" onmouseover=\"alert(1)", "Faster"):
        badge = claim_row({"verdict": verdict, "a": "x", "b": "y"})["verdict"]
        assert badge == f'<span class="verdict">{html.escape(verdict)}</span>', badge


def test_json_in_a_table_script_cannot_close_the_script():
    """Even a cell the caller forgot to escape (allow_html) cannot end the <script> holding the table's data."""
    table = pd.DataFrame({"name": [SCRIPT, IMG], "value": [1.0, np.nan]})
    for allow_html in (False, True):
        page = datatable(table, "t", allow_html=allow_html)
        scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.DOTALL)
        data = next(s for s in scripts if "dt_args" in s)
        assert "<" not in data.split("let dt_args = ", 1)[1].split("new ITable", 1)[0]
        assert "alert(1)" in data                                        # the data is there, as JSON text
        options = json.JSONDecoder().raw_decode(data.split("let dt_args = ", 1)[1])[0]
        assert "keys_to_be_evaluated" not in options and "function" not in json.dumps(options)  # no eval
        rows = json.loads(options["data_json"])
        assert rows[1][1] == ["--", None] and rows[0][1] == ["1", 1.0]     # missing: "--" shown, null sorted
        if not allow_html:
            assert rows[0][0] == html.escape(SCRIPT)


def test_the_links_escape_file_and_folder_names(tmp_path):
    for name in (IMG, SVG, "javascript:alert(1)"):
        (tmp_path / "figures" / name).mkdir(parents=True)
        (tmp_path / "figures" / name / f"{name}.png").write_bytes(b"png")
        (tmp_path / "tables").mkdir(exist_ok=True)
        (tmp_path / "tables" / f"{name}.csv").write_text("x")
        (tmp_path / name).mkdir(exist_ok=True)
        (tmp_path / name / PAGE).write_text("x")
    page = links_section(tmp_path)
    assert unsafe(page) == []
    assert html.escape(IMG) in page and html.escape(SVG) in page
    hrefs = re.findall(r"href='([^']*)'", page)
    assert hrefs and all(h.startswith("./") for h in hrefs), hrefs        # never a javascript: URL
    assert "'" not in "".join(hrefs) and '"' not in "".join(hrefs)


def hostile_runs(tmp_path) -> pd.DataFrame:
    rows = [timed(0.01 * (1 + seed + 3 * i), puzzle="sudoku", formulation=formulation, solver=solver, seed=seed,
                  instance_set=instance_set, instance=instance, solution=None)
            for i, (formulation, solver) in enumerate([("binary", "highs"), (FORMULATION, SOLVER), (IMG, SVG)])
            for instance_set, instance in [(SET, INSTANCE), ("sudoku/seed", "matlab_cleve.txt#1")]
            for seed in (0, 1)]
    write_store(rows, tmp_path / "runs.parquet")
    return prepare_runs(load_runs(tmp_path / "runs.parquet"))


def test_the_plots_show_hostile_names_as_text(tmp_path):
    """plotly reads a few tags in its labels: the names reach it escaped, so it draws them as written."""
    runs = hostile_runs(tmp_path)
    configurations = configuration_table(runs)
    looks = Looks(runs)
    figures = [profile_figure(instance_times(runs), configurations, SGM, looks),
               ecdf_figure(runs, configurations, SGM, looks),
               instance_figure(runs, configurations, SGM, {}, IMG)]
    names = {trace.name for figure in figures[:2] for trace in figure.data}
    assert html.escape(f"{FORMULATION}/{SOLVER}", quote=False) in names
    assert not any("<" in name for name in names)
    labels = [b.label for b in figures[2].layout.updatemenus[0].buttons]
    assert html.escape(f"{SET}: {INSTANCE}", quote=False) in labels and not any("<" in label for label in labels)
    assert not any("<" in str(y) for trace in figures[2].data for y in trace.y)
    assert "<img" not in figures[2].layout.title.text
    custom = [str(c) for figure in figures[:2] for trace in figure.data if trace.customdata is not None
              for row in trace.customdata for c in row]
    assert any(html.escape(INSTANCE, quote=False) in c for c in custom) and not any("<" in c for c in custom)
    for figure in figures:
        assert unsafe(plot_html(figure, "plot")) == []
    with pytest.raises(ValueError):
        plot_html(figures[0], 'x"><img src=x>')


def test_the_whole_page_escapes_every_section(tmp_path):
    """The setup list, the navigation, the headings and ids of a puzzle named with HTML, the claims, the
    configuration table, the plots and the links; and the page carries its Content-Security-Policy."""
    runs = hostile_runs(tmp_path).assign(puzzle=IMG)
    (tmp_path / "findings.json").write_text(json.dumps(hostile_claims()))
    setup = run_setup(runs, None)
    setup_text = setup_html(setup)
    assert unsafe(setup_text) == [] and html.escape(SET) in setup_text
    page = results_page(tmp_path, runs, instance_times(runs), configuration_table(runs),
                        set_configuration_table(runs, 0.01), instance_spreads(runs), setup, SGM)
    body = page.split("</head>", 1)[1]
    libraries = (get_plotlyjs(), datatables_bundle())   # their own markup (the bundle's noscript logo is an <svg>)
    assert all(library in page for library in libraries)
    assert unsafe(page.replace(libraries[0], "").replace(libraries[1], "")) == []
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", i) for i in re.findall(r"""\bid=['"]([^'"]*)['"]""", body))
    assert all(re.fullmatch(r"#[A-Za-z0-9_-]+|\./[^'\"<>]*", h) for h in re.findall(r"href='([^']*)'", body))
    assert "<h2 id='puzzle-" in page and f">{html.escape(IMG)}</h2>" in page
    policy = re.search(r"<meta http-equiv='Content-Security-Policy' content=\"([^\"]*)\">", page).group(1)
    scripts = re.search(r"script-src ([^;]*)", html.unescape(policy)).group(1).split()
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts
    assert all(s.startswith("'sha256-") for s in scripts if s != "blob:")
    assert len(scripts) - 1 == len(set(re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.DOTALL)))


# --- (b) the page in a browser ------------------------------------------------------------------------

def xss_runs() -> list[dict]:
    """1 puzzle x 2 sets (one named with HTML, its instance too) x 2 formulations (one hostile) x 2 solvers
    (one hostile) x 2 seeds."""
    rng = np.random.default_rng(5)
    return [timed(float(rng.lognormal(np.log(0.05), 0.5)), puzzle="sudoku", formulation=formulation,
                  solver=solver, seed=seed, instance_set=instance_set, instance=instance, time_limit=2.0,
                  solution=None)
            for formulation in ("binary", FORMULATION) for solver in ("highs", SOLVER)
            for instance_set, instance in ((SET, INSTANCE), ("sudoku/seed", "matlab_cleve.txt#1"))
            for seed in (0, 1)]


def xss_claims() -> list[dict]:
    return [{"puzzle": "sudoku", "instance_set": SET, "solver": SOLVER, "a": f"{FORMULATION}/highs",
             "b": "binary/highs", "measure": "<img src=x onerror=window.__xss=5>", "ratio": 2.0, "ci": [1.5, 2.5],
             "p_adjusted": 0.001, "n": "<svg onload=window.__xss=6>", "verdict": "faster"},
            {"puzzle": "<img src=x onerror=window.__xss=7>", "instance_set": None, "solver": None, "a": "a",
             "b": "b", "measure": "time", "ratio": 1.0, "ci": None, "p_adjusted": 0.5, "n": 3,
             "verdict": "<img src=x onerror=window.__xss=8>"}]


class Watched(Loaded):
    """:class:`Loaded`, with every dialog (alert, confirm, prompt) recorded and dismissed from before the load;
    the claims table and the plots drawn."""

    def __init__(self, browser, path):
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.console, self.requests, self.dialogs = [], [], []
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.page.on("console", lambda message: self.console.append((message.type, message.text)))
        self.page.on("pageerror", lambda error: self.console.append(("pageerror", str(error))))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_selector("#configurations-table.dataTable tbody tr", state="attached", timeout=60000)
        self.page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')].every("
                                    "p => p._fullLayout)", timeout=60000)

    def ran(self) -> tuple[list[str], str]:
        """The dialogs shown and the type of window.__xss (set by every payload that runs)."""
        return self.dialogs, self.page.evaluate("() => typeof window.__xss")


@pytest.fixture(scope="module")
def hostile_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    analyse(folder, xss_runs(), (0.010, 0.012, 0.009, 0.011))
    (folder / "findings.json").write_text(json.dumps(xss_claims()))
    runs = prepare_runs(load_runs(folder / "runs.parquet"))
    write_page(folder, runs, instance_times(runs), configuration_table(runs), set_configuration_table(runs, 0.01),
               instance_spreads(runs), run_setup(runs, read_noise(folder / "noise.csv")), SGM)
    return folder


def test_hostile_names_run_no_script_in_the_browser_and_show_as_text(browser, hostile_folder):
    loaded = Watched(browser, hostile_folder / PAGE)
    try:
        assert loaded.ran() == ([], "undefined")
        loaded.page.wait_for_selector("#claims-table.dataTable tbody tr", state="attached", timeout=15000)
        # hover every plot's first visible trace and open the instance menu: text drawn on demand too
        for plot in loaded.page.eval_on_selector_all(".js-plotly-plot", "ps => ps.map(p => p.id)"):
            loaded.page.evaluate(f"""() => {{ const gd = document.getElementById('{plot}');
                const c = gd.data.findIndex(t => t.visible === true);
                if (c >= 0) Plotly.Fx.hover(gd, [{{curveNumber: c, pointNumber: 0}}]); }}""")
        loaded.page.locator("[id^='instances-'] .updatemenu-header-group").first.click()
        loaded.page.wait_for_timeout(500)

        assert loaded.ran() == ([], "undefined")
        assert loaded.page.evaluate("() => document.querySelectorAll('[onerror], [onload], img[src=x]').length") == 0
        assert [m for m in loaded.console if m[0] in ("error", "pageerror")] == []

        claims = loaded.page.eval_on_selector_all("#claims-table tbody tr",
                                                  "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
        first = next(row for row in claims if row[0] == "faster")
        assert first[2:4] == [SET, SOLVER] and first[4].startswith(f"{FORMULATION}/highs is faster")
        assert "<img src=x onerror=window.__xss=5>" in first and "<svg onload=window.__xss=6>" in first
        other = next(row for row in claims if row[0] != "faster")
        assert other[0] == "<img src=x onerror=window.__xss=8>" and other[1] == "<img src=x onerror=window.__xss=7>"
        assert loaded.page.locator("#claims-table .verdict.faster").count() == 1
        assert loaded.page.evaluate("""() => [...document.querySelectorAll('#claims-table .verdict')]
            .map(e => e.className)""") == ["verdict faster", "verdict"]

        rows = {tuple(row[:4]) for row in loaded.rows()}
        assert ("sudoku", SET, FORMULATION, SOLVER) in rows
        legend = loaded.page.evaluate("() => [...document.querySelectorAll('#profile-sudoku .legend .legendtext, "
                                      "#ecdf-sudoku .legend .legendtext')].map(e => e.textContent)")
        assert f"{FORMULATION}/{SOLVER}" in legend and f"binary/{SOLVER}" in legend, legend
        menu = loaded.page.evaluate("() => [...document.querySelectorAll('#instances-sudoku .updatemenu-item-text')]"
                                    ".map(e => e.textContent)")
        assert f"{SET}: {INSTANCE}" in menu, menu
        assert SET in loaded.page.inner_text("#setup + ul")
        hover = loaded.page.evaluate("""() => { const gd = document.getElementById('ecdf-sudoku');
            for (const [c, trace] of gd.data.entries())
                for (const [p, row] of (trace.customdata || []).entries())
                    if (trace.visible === true && String(row[0]).includes('&lt;img')) {
                        Plotly.Fx.hover(gd, [{curveNumber: c, pointNumber: p}]);
                        return [...gd.querySelectorAll('.hoverlayer .hovertext')].map(e => e.textContent).join(' ');
                    }
            return null; }""")
        assert hover is not None and f"{SET}: {INSTANCE}" in hover, hover
    finally:
        loaded.close()


def test_the_csp_stops_an_injected_script_and_handler(browser, hostile_folder, tmp_path):
    """The second wall: markup slipped into the written page (as a missed escape would leave it) does not
    run, while the page itself still draws its tables and plots."""
    page = (hostile_folder / PAGE).read_text(encoding="utf-8")
    injected = ("<p id='probe'>probe</p><script>window.__xss = 'script'; alert(1)</script>"
                "<img src='data:,x' onerror=\"window.__xss = 'handler'\">"
                "<svg onload=\"window.__xss = 'svg'\"></svg></body>")
    folder = tmp_path / "injected"
    shutil.copytree(hostile_folder, folder)
    (folder / PAGE).write_text(page.replace("</body>", injected, 1), encoding="utf-8")
    loaded = Watched(browser, folder / PAGE)
    try:
        assert loaded.page.inner_text("#probe") == "probe"
        assert loaded.ran() == ([], "undefined")
        refused = [m for m in loaded.console if m[0] == "error"]
        assert len(refused) == 3 and all("Content Security Policy" in m[1] for m in refused), loaded.console
        assert not [m for m in loaded.console if m[0] == "pageerror"]
    finally:
        loaded.close()


def test_a_claim_of_each_sides_best_solver_names_the_solvers():
    from puzzlebench.analysis.page import claim_row
    row = claim_row({"puzzle": "kakuro", "instance_set": "kakuro/janko", "solver": None, "a": "combinations",
                     "b": "combinations", "a_solver": "highs", "b_solver": "<b>cpsat", "verdict": "equivalent"})
    assert "combinations/highs and combinations/&lt;b&gt;cpsat: no difference beyond the noise" in row["claim"]
