"""What a command imports (issue 38): ``--help``, an argument error and a one-puzzle ``solve`` load
no generator, drawing, analysis, plotting, pandas or Snakemake module (nor numpy's f2py and testing,
which scipy's import would load: :mod:`puzzlebench.system.lazy_numpy`); ``--help`` and an argument
error no numerical library either, and a solve one kind's formulations and one solver adapter.  A fresh interpreter runs
the command line and reports ``sys.modules``; no timing is asserted (benchmarks/overhead.py
prints the figures)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import contextlib, io, json, sys
from puzzlebench.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""
UNUSED = re.compile(r"""
    puzzlebench\.generators(\..*)?$          # the generators and their uniqueness search
  | puzzlebench\.kinds\.[^.]+\.(generator|draw)$   # a kind's generator or drawing
  | puzzlebench\.draw$
  | (puzzlebench\.)?analysis(\..*)?$         # the analysis stage
  | (matplotlib|seaborn|plotly|pandas|snakemake|pyarrow)(\..*)?$
  | scipy\.ndimage(\..*)?$
  | numpy\.(f2py|testing)\..*$               # numpy's own tools, loaded by scipy unless deferred
""", re.VERBOSE)
NUMERICAL = re.compile(r"(numpy|scipy|highspy|yaml)(\..*)?$")
SUDOKU = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"


def imported(*args: str) -> tuple[int, list[str]]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    code, modules = json.loads(proc.stdout.splitlines()[-1])
    return code, modules


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"], ["solve", "--formulation"]],
                         ids=["help", "solve-help", "argument-error"])
def test_help_and_argument_errors_import_nothing_they_do_not_use(args):
    code, modules = imported(*args)
    assert code in (0, 2)
    assert [m for m in modules if UNUSED.match(m)] == []


@pytest.mark.parametrize("args", [["--help"], ["solve", "--formulation"], ["solve", "x.txt", "--seed", "-1"],
                                  ["check", "a", "b", "--index", "x"], ["bogus"]],
                         ids=["help", "missing-value", "out-of-range", "bad-number", "unknown-verb"])
def test_help_and_argument_errors_import_no_numerical_library(args):
    """The top-level ``--help`` lists each verb by its ``HELP`` line, and a verb's argument error is
    found before its ``--format``/``--puzzle`` choices are asked for: neither loads the kinds."""
    code, modules = imported(*args)
    assert code in (0, 2)
    assert [m for m in modules if NUMERICAL.match(m)] == []
    assert "puzzlebench.kinds.sudoku.kind" not in modules


def test_a_one_puzzle_solve_imports_only_what_it_runs(tmp_path):
    puzzle = tmp_path / "one.txt"
    puzzle.write_text(SUDOKU)
    code, modules = imported("solve", str(puzzle), "--formulation", "binary", "--solver", "highs")
    assert code == 0
    assert [m for m in modules if UNUSED.match(m)] == []
    assert "highspy" in modules and "puzzlebench.kinds.sudoku.kind" in modules  # the probe saw the solve
    assert "yaml" not in modules  # PyYAML loads where a YAML file or a --solver-option is read
    # one kind's formulations and one adapter: the registries look in the folder module named for them first
    shared = ("puzzlebench.solvers.base", "puzzlebench.solvers.contract", "puzzlebench.solvers.logs",
              "puzzlebench.solvers.configs")  # the adapters' contract, and the solver name resolved
    assert [m for m in modules if m.startswith("puzzlebench.solvers.") and not m.split(".")[-1].startswith("_")
            and m not in shared] == ["puzzlebench.solvers.highs"]
    assert [m for m in modules if re.fullmatch(r"puzzlebench\.formulations\.[a-z]\w*", m)] \
        == ["puzzlebench.formulations.sudoku"]


def test_a_kinds_heavy_parts_load_when_its_methods_are_called():
    """A kind's generator is imported by the methods that use it, not with the kind."""
    code = ("import sys; from puzzlebench.kinds import get_kind; kind = get_kind('kakuro'); "
            "before = 'puzzlebench.kinds.kakuro.generator' in sys.modules; spec = kind.spec_type(); "
            "print(before, spec.__name__, 'puzzlebench.kinds.kakuro.generator' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "KakuroSpec", "True"]


def test_numpy_submodules_deferred_until_scipy_load_whole_when_used():
    """After the deferral, importing scipy.sparse runs none of numpy's deferred submodules, and each of
    them is the whole module at its first use (a function called, a submodule imported from it)."""
    code = """
import sys
from puzzlebench.system.lazy_numpy import SUBMODULES, defer_submodules
first, second = defer_submodules(), defer_submodules()  # the second finds them all in place
assert first and not second, (first, second)
import scipy.sparse
ran = sorted(m for m in sys.modules if m.split('.')[:2] in [['numpy', s] for s in SUBMODULES] and m.count('.') > 1)
import numpy
from numpy.testing import assert_array_equal
assert_array_equal(numpy.arange(3), [0, 1, 2])
from numpy.f2py import crackfortran
print(ran, len(crackfortran.__name__) > 0, numpy.random.default_rng(1).integers(10, size=3).tolist()
      == numpy.random.Generator(numpy.random.PCG64(1)).integers(10, size=3).tolist(),
      type(numpy.ma.masked_array([1]).sum()).__name__, numpy.polynomial.Polynomial([1, 2])(1))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[]", "True", "True", "int64", "3.0"]
