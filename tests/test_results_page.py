"""results/index.html, opened in headless Chromium (Debian's ``chromium``, driven by Playwright): it loads
from file:// with no console error and no network request, its table lists every configuration of the
run per instance set and filters by puzzle, every plot has drawn its marks, hovering names the
configuration, the instance and the time, a legend click hides a series, the instance menu switches the
per-instance view, and the claims of findings.json are shown with their verdicts."""

from __future__ import annotations

import re

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from puzzlebench.analysis.outcomes import instance_times, load_runs, prepare_runs
from puzzlebench.analysis.page import PAGE, claim_row, read_claims, write_page
from puzzlebench.analysis.pipeline import read_noise
from puzzlebench.analysis.run_setup import run_setup
from puzzlebench.analysis.tables import configuration_table, instance_spreads, set_configuration_table

from test_analysis import analyse, timed

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
FINDINGS = Path(__file__).parent / "data" / "findings" / "findings.json"
INSTANCES = {"sudoku": [("sudoku/seed", "matlab_cleve.txt#1"), ("sudoku/seed", "fjmc_blog2025.txt#1"),
                        ("sudoku/elsewhere", "not-shipped.txt#1")],
             "kakuro": [("kakuro/seed", "fjmc_blog2026.txt#1"), ("kakuro/elsewhere", "not-shipped.txt#1"),
                        ("kakuro/elsewhere", "not-shipped.txt#2")]}
FORMULATIONS = {"sudoku": ("binary", "binary-reduced", "integer"), "kakuro": ("binary", "combinations")}
SOLVERS = ("highs", "scip", "cpsat")


def page_runs() -> list[dict]:
    """2 puzzles (shipped seed instances and two not shipped) x 2-3 formulations x 3 solvers x 2 seeds."""
    rng = np.random.default_rng(23)
    rows = []
    for puzzle, instances in INSTANCES.items():
        for formulation in FORMULATIONS[puzzle]:
            for solver in SOLVERS:
                for set_name, instance in instances:
                    for seed in (0, 1):
                        time = float(rng.lognormal(np.log(0.05), 1.0))
                        solved = time < 2.0 and formulation != "integer" or solver == "cpsat"
                        rows.append(timed(min(time, 2.5), puzzle=puzzle, formulation=formulation, solver=solver,
                                          seed=seed, instance_set=set_name, instance=instance, time_limit=2.0,
                                          solver_kind="cp" if solver == "cpsat" else "mip", solution=None,
                                          status="optimal" if solved else "time_limit",
                                          verified=True if solved else None))
    return rows


def open_browser():
    if not CHROMIUM.exists():
        pytest.fail("chromium is not installed (.ci/run installs Debian's chromium and chromium-driver)")
    from playwright.sync_api import sync_playwright
    playwright = sync_playwright().start()
    return playwright, playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_FLAGS)


@pytest.fixture(scope="module")
def browser():
    playwright, chromium = open_browser()
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    analyse(folder, page_runs(), (0.010, 0.012, 0.009, 0.011))
    return folder


class Loaded:
    """A page opened in the browser, with what it printed to the console and what it requested."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.console, self.requests = [], []
        self.page.on("console", lambda message: self.console.append((message.type, message.text)))
        self.page.on("pageerror", lambda error: self.console.append(("pageerror", str(error))))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_selector("#configurations-table.dataTable tbody tr", state="attached", timeout=60000)
        self.page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')].every("
                                    "p => p._fullLayout)", timeout=60000)

    def rows(self) -> list[list[str]]:
        return self.page.eval_on_selector_all(
            "#configurations-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def loaded(browser, results):
    page = Loaded(browser, results / PAGE)
    page.page.screenshot(path=str(results / "screenshot.png"))
    yield page
    page.close()


def test_the_analysis_writes_the_page_and_it_loads_offline_without_console_errors(results, loaded):
    assert (results / PAGE).stat().st_size > 1_000_000           # plotly.js and DataTables inlined
    assert [m for m in loaded.console if m[0] in ("error", "pageerror")] == []
    outside = [url for url in loaded.requests if not url.startswith(("file:", "blob:", "data:"))]
    assert outside == []
    assert (results / "screenshot.png").stat().st_size > 10_000


def test_the_setup_names_the_repeats_and_the_noise_the_claims_use(loaded):
    """The page said only the reference solve's noise, "ratios within it are within noise", after the
    claims had moved to each configuration's own noise."""
    text = loaded.page.inner_text("#setup + ul")
    assert "repeats of each seed 1" in text and "within noise" not in text
    assert re.search(r"run-to-run noise of the configurations \(from their seeds\): geometric standard deviation "
                     r"of one run [0-9.]+ \(median; [0-9.]+-[0-9.]+\) over \d+ configuration x set pairs", text)
    assert "machine health check: geometric standard deviation" in text


def test_the_table_lists_every_configuration_of_the_run_per_set(results, loaded):
    runs = pd.read_parquet(results / "runs.parquet")
    expected = set(runs[["puzzle", "instance_set", "formulation", "solver"]].itertuples(index=False, name=None))
    shown = {tuple(row[:4]) for row in loaded.rows()}
    assert shown == expected and len(loaded.rows()) == len(expected)
    sgm = {tuple(row[:4]): row[6] for row in loaded.rows()}
    by_set = pd.read_csv(results / "tables" / "configurations_by_set.csv")
    first = by_set.iloc[0]
    assert float(sgm[(first.puzzle, first.instance_set, first.formulation, first.solver)]) == pytest.approx(
        first["time_sgm_s0.01"] * 1000, rel=0.01)
    assert {row[11] for row in loaded.rows()} == {"--"}      # no root LP time recorded: "--", never "NaN"
    assert not any("NaN" in cell for row in loaded.rows() for cell in row)


def test_filtering_by_a_puzzle_leaves_only_its_rows(loaded):
    total = len(loaded.rows())
    box = loaded.page.locator("#configurations-table_wrapper .dt-scroll-head thead input").first  # the puzzle column
    assert box.get_attribute("placeholder") == "puzzle"
    box.press_sequentially("kakuro")                                   # typed, as a reader does
    loaded.page.wait_for_function("() => document.querySelectorAll('#configurations-table tbody tr').length < "
                                  f"{total}")
    rows = loaded.rows()
    assert rows and {row[0] for row in rows} == {"kakuro"}
    assert len(rows) == len(FORMULATIONS["kakuro"]) * len(SOLVERS) * 2   # 2 kakuro sets
    box.fill("")
    box.press("Backspace")
    loaded.page.wait_for_function(f"() => document.querySelectorAll('#configurations-table tbody tr').length == {total}")


def test_every_plot_has_drawn_its_marks(loaded):
    plots = loaded.page.eval_on_selector_all(".js-plotly-plot", """plots => plots.map(p => [p.id,
        p.querySelectorAll('.scatterlayer .trace path.js-line').length,
        p.querySelectorAll('.scatterlayer .trace path.point').length])""")
    assert {plot[0] for plot in plots} == {f"{kind}-{puzzle}" for kind in ("profile", "ecdf", "instances")
                                          for puzzle in INSTANCES}
    for name, lines, points in plots:
        assert points > 0, name
        assert name.startswith("instances") or lines > 0, name


def hover_text(loaded, plot: str, curve: int, point: int) -> str:
    return loaded.page.evaluate(f"""() => {{ const gd = document.getElementById('{plot}');
        Plotly.Fx.hover(gd, [{{curveNumber: {curve}, pointNumber: {point}}}]);
        return [...gd.querySelectorAll('.hoverlayer .hovertext')].map(e => e.textContent).join(' '); }}""")


def test_hover_shows_configuration_instance_and_time(loaded):
    for plot in ("profile-sudoku", "ecdf-sudoku"):
        curve = loaded.page.evaluate(f"() => document.getElementById('{plot}').data.findIndex(t => t.visible === true)")
        name = loaded.page.evaluate(f"() => document.getElementById('{plot}').data[{curve}].name")
        text = hover_text(loaded, plot, curve, 1)
        assert name in text and "sudoku/" in text and "time" in text and " s" in text, (plot, text)


def test_a_legend_click_hides_a_series(loaded):
    plot = "profile-kakuro"
    visible = f"() => document.getElementById('{plot}').data.map(t => t.visible)"
    before = loaded.page.evaluate(visible)
    first = before.index(True)
    loaded.page.locator(f"#{plot} .legend .traces").nth(first).click()
    loaded.page.wait_for_function(f"() => document.getElementById('{plot}').data[{first}].visible === 'legendonly'")
    loaded.page.locator(f"#{plot} .legend .traces").nth(first).click()
    loaded.page.wait_for_function(f"() => document.getElementById('{plot}').data[{first}].visible === true")


def test_the_instance_menu_switches_the_view_and_draws_the_puzzle(loaded):
    """The menu lists the puzzle's instances; the first (a file not shipped) says it has no drawing, the
    next (a shipped seed puzzle) shows its SVG drawing and its own points."""
    plot = "instances-sudoku"
    state = f"""() => {{ const gd = document.getElementById('{plot}');
        return [gd.data.map(t => t.visible === true), (gd.layout.images || []).map(i => i.source.slice(0, 26)),
                (gd.layout.annotations || []).map(a => a.text).join(' '),
                gd.querySelectorAll('.layer-above image, image').length]; }}"""
    menu = loaded.page.evaluate(f"() => document.getElementById('{plot}').layout.updatemenus[0].buttons.map(b => b.label)")
    assert menu == sorted(f"{s}: {i}" for s, i in INSTANCES["sudoku"])
    visible, images, notes, drawn = loaded.page.evaluate(state)
    assert menu[0].startswith("sudoku/elsewhere") and images == [] and "no drawing" in notes and any(visible)
    loaded.page.locator(f"#{plot} .updatemenu-header-group").click()
    loaded.page.locator(f"#{plot} .updatemenu-dropdown-button").nth(1).click()
    loaded.page.wait_for_function(f"() => (document.getElementById('{plot}').layout.images || []).length == 1")
    after, images, notes, drawn = loaded.page.evaluate(state)
    assert images == ["data:image/svg+xml;base64,"] and notes == "" and drawn >= 1
    assert any(after) and after != visible


def test_without_findings_the_page_says_there_are_no_claims(results, loaded):
    if (results / "findings.json").exists():   # written by an analysis that computes claims
        rows = loaded.page.eval_on_selector_all("#claims-table tbody tr", "rows => rows.length")
        assert rows == len(read_claims(results / "findings.json"))
    else:
        assert "has no findings.json" in loaded.page.inner_text("#claims + p, #claims ~ p")


def test_claims_of_findings_json_are_shown_with_their_verdicts(browser, results, tmp_path):
    folder = tmp_path / "with-claims"
    shutil.copytree(results, folder, ignore=shutil.ignore_patterns("index.html", "screenshot.png"))
    shutil.copy(FINDINGS, folder / "findings.json")
    runs = prepare_runs(load_runs(folder / "runs.parquet"))
    write_page(folder, runs, instance_times(runs), configuration_table(runs), set_configuration_table(runs, 0.01),
               instance_spreads(runs), run_setup(runs, read_noise(folder / "noise.csv")), "time_sgm_s0.01")
    page = Loaded(browser, folder / PAGE)
    try:
        rows = page.page.eval_on_selector_all("#claims-table tbody tr",
                                              "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
        claims = json.loads(FINDINGS.read_text())
        assert len(rows) == len(claims)
        assert [row[0] for row in rows] == [c["verdict"] for c in claims]
        kakuro = rows[0]
        assert kakuro[1:4] == ["kakuro", "all sets", "each side's best"]
        assert kakuro[4] == "combinations/highs is faster than binary/highs" and kakuro[5] == "6.65×"
        assert kakuro[6] == "9.60–15.3" and kakuro[7] == "0.00040"
        assert page.page.locator("#claims-table .verdict.identical").count() == 1
        assert [m for m in page.console if m[0] in ("error", "pageerror")] == []
    finally:
        page.close()


def test_claims_file_layouts():
    records = json.loads(FINDINGS.read_text())
    assert claim_row(records[2])["claim"] == "binary and xor-distinct are the same model"
    assert claim_row(records[4])["95% interval"] == "--" and claim_row(records[4])["ratio b/a"] == "--"


def test_claims_are_read_from_a_list_or_an_object(tmp_path):
    records = json.loads(FINDINGS.read_text())
    (tmp_path / "list.json").write_text(json.dumps(records))
    (tmp_path / "object.json").write_text(json.dumps({"claims": records, "noise": 1.3}))
    assert read_claims(tmp_path / "list.json") == read_claims(tmp_path / "object.json") == records
    assert read_claims(tmp_path / "missing.json") is None


def test_the_instance_view_shows_the_time_the_claims_use(tmp_path):
    """The instance menu's point is the median of the repeats (then the geometric mean over seeds), as
    in every figure and claim, not the plain mean a single disturbed repeat would drag (it showed 0.34 s)."""
    from puzzlebench.analysis.page import instance_figure
    from test_analysis import write_store
    rows = [timed(time, repeat=repeat, instance="p0") for repeat, time in enumerate((0.01, 0.012, 1.0))]
    write_store(rows, tmp_path / "runs.parquet")
    runs = prepare_runs(load_runs(tmp_path / "runs.parquet"))
    configurations = pd.DataFrame({"formulation": ["binary"], "solver": ["highs"], "sgm": [1.0]})
    figure = instance_figure(runs, configurations, "sgm", {}, "sudoku")
    (trace,) = figure.data
    assert trace.x[0] == pytest.approx(instance_times(runs)["time"].iloc[0]) == pytest.approx(0.012)
    assert "median of 3 repeats" in figure.layout.xaxis.title.text


def test_a_number_column_with_missing_values_sorts_as_numbers(browser, tmp_path):
    """A missing number shows as "--" and sorts first (ascending), the others as numbers (100 after 20), the
    column filter searching the shown text; without JavaScript evaluated from a string (the page's CSP)."""
    from puzzlebench.analysis.page import datatable, datatables_bundle
    table = pd.DataFrame({"name": list("abcde"), "value": [3.0, np.nan, 20.0, 100.0, 9.5], "count": [5, 40, 3, 100, 7]})
    (tmp_path / "table.html").write_text("<!DOCTYPE html><html><head><meta charset='utf-8'>" + datatables_bundle()
                                         + "</head><body>" + datatable(table, "numbers") + "</body></html>")
    page = browser.new_page()
    try:
        page.goto((tmp_path / "table.html").as_uri())
        page.wait_for_selector("#numbers.dataTable tbody tr", state="attached", timeout=60000)
        column = "rows => rows.map(r => r.cells[1].innerText)"
        order = page.locator("#numbers_wrapper .dt-scroll-head thead .dt-column-order")
        order.nth(1).click()
        page.wait_for_function("() => document.querySelector('#numbers tbody tr').cells[1].innerText === '--'")
        assert page.eval_on_selector_all("#numbers tbody tr", column) == ["--", "3", "9.5", "20", "100"]
        order.nth(1).click()
        page.wait_for_function("() => document.querySelector('#numbers tbody tr').cells[1].innerText === '100'")
        assert page.eval_on_selector_all("#numbers tbody tr", column) == ["100", "20", "9.5", "3", "--"]
        order.nth(2).click()
        page.wait_for_function("() => document.querySelector('#numbers tbody tr').cells[2].innerText === '3'")
        assert page.eval_on_selector_all("#numbers tbody tr", "rows => rows.map(r => r.cells[2].innerText)") == \
            ["3", "5", "7", "40", "100"]
        page.locator("#numbers_wrapper .dt-scroll-head thead input").nth(1).press_sequentially("9.5")
        page.wait_for_function("() => document.querySelectorAll('#numbers tbody tr').length === 1")
        assert page.eval_on_selector_all("#numbers tbody tr", column) == ["9.5"]
    finally:
        page.close()
