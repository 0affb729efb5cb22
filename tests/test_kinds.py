"""The puzzle-kind registry: no code outside the kinds' folders branches on a puzzle class, an unknown
kind is an error everywhere, the package imports without a cycle, and a kind from another package
(through the ``puzzlebench.kinds`` entry point) goes through solve, validate, draw and generate."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.draw import draw
from puzzlebench.errors import PuzzleError
from puzzlebench.io import format_puzzle, format_solution
from puzzlebench.kinds import BUILTIN, UnknownKind, get_kind, kind_key, kind_of, names
from puzzlebench.puzzles import KillerSudoku, Sudoku
from puzzlebench.transforms import supported_kinds

ROOT = Path(__file__).resolve().parents[1]
KIND_CLASSES = re.compile(r"isinstance\([^)]*\b(Sudoku|KillerSudoku|Kakuro|Takuzu)\b")
MAX_GENERIC_CHECKS = 3


def test_no_isinstance_on_a_kind_class_outside_the_kinds_folders():
    found = []
    for folder in ("puzzlebench", "formulations", "analysis"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if (ROOT / "puzzlebench" / "kinds") in path.parents:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if KIND_CLASSES.search(line):
                    found.append((path.relative_to(ROOT), number, line))
    assert len(found) <= MAX_GENERIC_CHECKS, found
    uncommented = [f for f in found if "#" not in f[2]]  # each says why it is generic
    assert not uncommented, uncommented


def test_the_built_in_kinds_in_order_and_a_killer_is_a_killer():
    assert names()[:len(BUILTIN)] == BUILTIN
    killer = KillerSudoku(np.zeros((4, 4), int), 2, 2, cages=[([(r, c)], 1 + (r + 2 * c) % 4)
                                                               for r in range(4) for c in range(4)])
    assert kind_of(killer).name == "killer" and kind_of(Sudoku(np.zeros((4, 4), int))).name == "sudoku"
    assert [get_kind(name).type.puzzle for name in BUILTIN] == list(BUILTIN)


class Nonogram:
    """A puzzle of no registered kind."""

    shape = (2, 2)
    name = "n"
    puzzle = "nonogram"


@pytest.mark.parametrize("use", [
    lambda p: kind_key(p), lambda p: format_puzzle(p), lambda p: format_solution(p, np.ones((2, 2), int)),
    lambda p: check(p, np.ones((2, 2), int)), lambda p: draw(p), lambda p: supported_kinds(p),
    lambda p: format_puzzle(p, "lines"), lambda p: format_puzzle(p, "janko"), lambda p: format_puzzle(p, "dzn"),
], ids=["identity", "native", "native-solution", "check", "draw", "transforms", "lines", "janko", "dzn"])
def test_an_unknown_kind_is_an_error_not_another_kind(use):
    with pytest.raises(PuzzleError, match="Nonogram is no puzzle kind"):
        use(Nonogram())


def test_an_unknown_kind_name_is_an_error_naming_the_known():
    with pytest.raises(UnknownKind, match="unknown puzzle 'nonogram' .known: sudoku, killer, kakuro, takuzu"):
        get_kind("nonogram")


def module_imports() -> dict[str, set[str]]:
    """Each puzzlebench module -> the puzzlebench modules it imports at module level (``from . import x``
    of a submodule x is an import of x, not of the package)."""
    files = {}
    for path in sorted((ROOT / "puzzlebench").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        package = parts[-1] == "__init__"
        files[".".join(parts[:-1] if package else parts)] = (path, package)
    graph = {}
    for name, (path, package) in files.items():
        graph[name] = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = name.split(".") if package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    graph[name] |= {sub} if sub in files else ({target} if target in files else set())
    return graph


def test_no_module_level_import_cycle():
    graph = module_imports()
    assert {"puzzlebench.kinds", "puzzlebench.kinds.sudoku.kind", "puzzlebench.checker"} <= set(graph)
    done, path = set(), []

    def visit(module):  # depth first; a module met again on the current path closes a cycle
        if module in path:
            raise AssertionError(" -> ".join(path[path.index(module):] + [module]))
        if module in done:
            return
        path.append(module)
        for imported in sorted(graph[module]):
            visit(imported)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)


IMPORT_EACH_FIRST = '''
import importlib, json, os, pkgutil, sys, traceback
import numpy, scipy.sparse, scipy.optimize  # the heavy third-party imports, shared by every child
import puzzlebench as root
names = sorted(m.name for m in pkgutil.walk_packages(root.__path__, "puzzlebench.") if m.name != "puzzlebench.__main__")
for name in [n for n in sys.modules if n.startswith("puzzlebench")]:
    del sys.modules[name]
failures = {}
for name in names:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child with no puzzlebench module loaded imports this one first
        os.close(read)
        try:
            importlib.import_module(name)
            code = 0
        except BaseException:
            os.write(write, traceback.format_exc().encode()[-2000:])
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        message = pipe.read()
    if os.waitpid(pid, 0)[1]:
        failures[name] = message
print(json.dumps({"modules": len(names), "failures": failures}))
'''


@pytest.mark.skipif(not hasattr(os, "fork"), reason="imports each module in a forked child")
def test_every_module_imports_first_without_a_cycle():
    done = subprocess.run([sys.executable, "-c", IMPORT_EACH_FIRST], capture_output=True, text=True, check=False,
                          timeout=600, cwd=ROOT, env={**os.environ, "MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["modules"] > 100 and report["failures"] == {}, report["failures"]


SCRATCH_KIND = '''
"""Line: a 1 x N row that holds each digit 1..N once (a scratch kind for the entry-point test)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from puzzlebench.toolkit.drawing import GIVEN_COLOUR, SOLUTION_COLOUR, grid_lines, numbers
from puzzlebench.errors import PuzzleError
from puzzlebench.toolkit.generation import Generated
from puzzlebench.toolkit.text import grid_text
from puzzlebench.toolkit.text import build_located, parse_row
from puzzlebench.kinds import PuzzleKind
from puzzlebench.toolkit.symmetry import Transform, reversal

PROCEDURE = "Generator: a random permutation of 1..N, every cell but one given."


@dataclass(frozen=True, eq=False)
class Line:
    givens: np.ndarray
    name: str = ""
    puzzle: ClassVar[str] = "line"

    def __post_init__(self):
        g = np.asarray(self.givens, dtype=np.int64).reshape(1, -1)
        if ((g < 0) | (g > g.shape[1])).any():
            raise PuzzleError("a given is outside 1..N")
        object.__setattr__(self, "givens", g)

    @property
    def shape(self):
        return self.givens.shape

    @property
    def num_givens(self):
        return int((self.givens > 0).sum())


def cell_of(n):
    return lambda t: 0 if t == "." else (int(t) if t.isdigit() and 1 <= int(t) <= n else None)


def check(p, grid):
    n = p.shape[1]
    out = [f"cell {c + 1} holds {v}" for c, v in enumerate(grid[0].tolist()) if not 1 <= v <= n]
    out += [f"cell {c + 1} is given as {g}" for c, g in enumerate(p.givens[0].tolist()) if g and grid[0, c] != g]
    return out + (["a digit repeats"] if len(set(grid[0].tolist())) < n else [])


def read_native(cursor, header, rules, name, where):
    if header.rows != 1:
        raise PuzzleError("a line has 1 row", line=header.line)
    rows = cursor.take_rows(1, where)
    givens = np.array([parse_row(rows[0], header.cols, cell_of(header.cols), "a digit or '.'")])
    return build_located(lambda: Line(givens, name), [rows[0].number], header.line)


def tokens(grid):
    return [[str(v) if v else "." for v in row] for row in grid.tolist()]


def draw(ax, p, solution, size):
    grid_lines(ax, 1, p.shape[1], size)
    numbers(ax, p.givens, p.givens > 0, size * 0.6, GIVEN_COLOUR, True)
    if solution is not None:
        numbers(ax, solution, (p.givens == 0) & (solution > 0), size * 0.6, SOLUTION_COLOUR, False)


@dataclass(frozen=True)
class LineSpec:
    n: int
    blank_at: int | None = None

    key = property(lambda self: (self.n,))
    label = property(lambda self: f"line-1x{self.n:02d}")
    parameters = property(lambda self: {"size": f"1x{self.n}"})


def generate(spec, rng, oracle):
    solution = (rng.permutation(spec.n) + 1).reshape(1, -1)
    givens = solution.copy()
    givens[0, rng.integers(spec.n) if spec.blank_at is None else spec.blank_at - 1] = 0
    return Generated(Line(givens), solution)


def specs(args, sizes):
    if any(rows != 1 for rows, _ in sizes):
        raise PuzzleError("a line is 1 x N")
    return [LineSpec(cols, args.blank_at) for _, cols in sizes]


def generate_options(parser):  # an option of the kind's own, added to `generate` by the kind
    parser.add_argument("--blank-at", type=int, metavar="K", help="line: the blank cell, 1..N (default: random)")


class LineKind(PuzzleKind):
    name, type, description = "line", Line, "a row of distinct digits"
    native_usage = "line 1 N"
    knobs = ("blank_at",)
    certifying_formulation = "binary"

    check = staticmethod(check)
    read_native = staticmethod(read_native)
    draw = staticmethod(draw)
    generate = staticmethod(generate)
    specs = staticmethod(specs)
    generate_options = staticmethod(generate_options)

    def key(self, p):
        return (p.shape, p.givens.tobytes())

    def format_native(self, p):
        return f"line 1 {p.shape[1]}\\n" + grid_text(tokens(p.givens))

    def solution_cell(self, p):
        return cell_of(p.shape[1]), f"a digit 1..{p.shape[1]}"

    def format_solution(self, p, grid):
        return grid_text(tokens(grid))

    def symmetries(self, p):
        return ("cols",)

    def random_transform(self, p, rng, use, transpose):
        return Transform(np.arange(1), reversal(rng, p.shape[1], True))

    def transform_count(self, p, use):
        return 2

    def apply_transform(self, t, p, name):
        return dataclasses.replace(p, givens=t.map_solution(p.givens), name=name)

    def describe(self, p):
        return f"1x{p.shape[1]}, {p.num_givens} givens"

    def spec_type(self):
        return LineSpec

    def command(self, args, specs):
        return [] if args.blank_at is None else ["--blank-at", str(args.blank_at)]

    def procedure(self):
        return PROCEDURE

    def solution_columns(self, p, s, cells):
        return p.shape[1] * cells + s.ravel()[cells] - 1, np.ones(len(cells), np.int64)


KIND = LineKind()
'''

SCRATCH_FORMULATION = '''
import numpy as np

from puzzlebench.model import Model, rows_from_triplets
from puzzlebench.registry import formulation


@formulation("line", "binary", description="x[c,k]: one digit per cell, each digit once.",
             constraints="""minimize 0  s.t.  sum_k x[c,k] = 1 for every cell c,  sum_c x[c,k] = 1 for every
             digit k,  x[c,g_c] >= 1 for every given cell c,  x[c,k] in {0,1}""")
def binary(puzzle):
    n = puzzle.shape[1]
    c, k = np.divmod(np.arange(n * n), n)
    rows = [rows_from_triplets(c, np.arange(n * n), 1.0, n, n * n, 1, 1),
            rows_from_triplets(k, np.arange(n * n), 1.0, n, n * n, 1, 1)]
    lower = np.zeros(n * n)
    given = np.flatnonzero(puzzle.givens[0])
    lower[n * given + puzzle.givens[0, given] - 1] = 1
    return Model.from_rows(rows, col_lower=lower, col_upper=np.ones(n * n), integrality=np.ones(n * n, bool),
                           decode=lambda x: np.asarray(x[: n * n]).reshape(n, n).argmax(axis=1)[None] + 1,
                           name=f"line-{n}")
'''


def scratch_package(tmp_path: Path) -> dict:
    """The scratch kind installed as Python installs a package: modules and a dist-info with entry points."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "scratch_line.py").write_text(SCRATCH_KIND)
    (site / "scratch_line_models.py").write_text(SCRATCH_FORMULATION)
    info = site / "scratch_line-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: scratch-line\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzlebench.kinds]\nline = scratch_line:KIND\n\n"
                                           "[puzzlebench.formulations]\nline = scratch_line_models\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]), "MPLBACKEND": "Agg"}


def cli(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlebench", *args], env=env, capture_output=True, text=True,
                          check=False, timeout=300)


def test_a_kind_from_another_package_generates_validates_solves_and_draws(tmp_path):
    env = scratch_package(tmp_path)
    folder = tmp_path / "instances" / "line" / "made"
    made = cli(env, "generate", "line", "--size", "1x5", "--count", "2", "--seed", "3", "-o", str(folder))
    assert made.returncode == 0, made.stderr
    assert (folder / "line-1x05-01.txt").read_text().startswith("line 1 5\n")
    assert "puzzle: line" in (folder / "set.yaml").read_text()

    valid = cli(env, "validate", "line/made", "--unique", "--root", str(tmp_path / "instances"))
    assert valid.returncode == 0, valid.stdout + valid.stderr

    solved = cli(env, "solve", str(folder / "line-1x05-02.txt"), "--solver", "highs", "--formulation", "binary",
                 "--json")
    assert solved.returncode == 0, solved.stderr
    record = json.loads(solved.stdout)
    assert (record["puzzle"], record["verified"]) == ("line", True)

    picture = tmp_path / "line.png"
    drawn = cli(env, "draw", str(folder / "line-1x05-01.txt"), str(folder / "line-1x05-01.solution.txt"),
                "-o", str(picture))
    assert drawn.returncode == 0, drawn.stderr
    assert picture.read_bytes()[:4] == b"\x89PNG"

    wrong = cli(env, "generate", "line", "--size", "2x5", "--count", "1", "--seed", "3", "-o", str(tmp_path / "x"))
    assert wrong.returncode == 2 and "a line is 1 x N" in wrong.stderr
    refused = cli(env, "generate", "line", "--size", "1x5", "--count", "1", "--seed", "3", "--distinct",
                  "-o", str(tmp_path / "y"))
    assert refused.returncode == 2 and "--distinct does not apply to line" in refused.stderr

    # an option of the kind's own: generate takes it for the kind, records it, refuses it for another kind
    blank = tmp_path / "instances" / "line" / "blank"
    made = cli(env, "generate", "line", "--size", "1x6", "--count", "1", "--seed", "3", "--blank-at", "4",
               "-o", str(blank))
    assert made.returncode == 0, made.stderr
    assert (blank / "line-1x06-01.txt").read_text().split("\n")[1].split().index(".") == 3
    assert "--blank-at 4" in (blank / "SOURCE.md").read_text()
    other = cli(env, "generate", "sudoku", "--size", "4", "--count", "1", "--seed", "3", "--blank-at", "2",
                "-o", str(tmp_path / "z"))
    assert other.returncode == 2 and "--blank-at does not apply to sudoku (only to line)" in other.stderr


def test_a_kind_entry_point_that_is_no_kind_is_one_line(tmp_path):
    env = scratch_package(tmp_path)
    (tmp_path / "site" / "scratch_line.py").write_text("KIND = 'line'\n")
    done = cli(env, "formulations")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "must be a PuzzleKind" in done.stderr

