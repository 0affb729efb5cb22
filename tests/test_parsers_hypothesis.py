"""Property tests: no input, however mangled, makes a reader fail with anything but PuzzleError."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.errors import PuzzleError
from puzzlebench.io import FORMATS, Entry, read_puzzles, read_solutions

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
SAMPLES = {  # a valid file of every format and puzzle, and the format it is in
    "sudoku.txt": (ROOT / "instances/sudoku/seed/matlab_cleve.txt", "native"),
    "killer.txt": (ROOT / "instances/killer/seed/fjmc_blog2026.txt", "native"),
    "kakuro.txt": (ROOT / "instances/kakuro/seed/fjmc_blog2026.txt", "native"),
    "takuzu.txt": (ROOT / "instances/takuzu/seed/fjmc_blog2026.txt", "native"),
    "lines17.txt": (DATA / "lines/royle17_head3.txt", "lines"),
    "exchange.txt": (DATA / "lines/exchange_by_rating_head3.txt", "lines"),
    "jkiller.txt": (DATA / "janko/killer_1_4x4.txt", "janko"),
    "jkakuro.txt": (DATA / "janko/kakuro_1_10x12.txt", "janko"),
    "jbinairo.txt": (DATA / "janko/binairo_20x20_1.txt", "janko"),
    "jkiller.json": (DATA / "janko/KillerSudoku_sample.json", "janko"),
    "solo.txt": (DATA / "tatham/solo.txt", "tatham"),
    "tkiller.txt": (DATA / "tatham/killer.txt", "tatham"),
    "unruly.txt": (DATA / "tatham/unruly.txt", "tatham"),
}
TEXTS = {name: path.read_text() for name, (path, _) in SAMPLES.items()}
PUZZLES = [read_puzzles(SAMPLES[name][0])[0].puzzle for name in ("sudoku.txt", "killer.txt", "kakuro.txt",
                                                                  "takuzu.txt")]
SYMBOLS = " \n\r\t.#\\,-_:{}[]\"0123456789xkuzZaAbBgGdiagonaldistinctgivenssudokukillerkakurotakuzu\xe9\u2028"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hypothesis") / "input.txt"


def _read_all_ways(path: Path) -> None:
    """Every reader on ``path``: each must return entries or raise PuzzleError."""
    for fmt in (None, *FORMATS):
        try:
            entries = read_puzzles(path, format=fmt)
        except PuzzleError as err:
            assert str(err).startswith(str(path)) and "\n" not in str(err)
        else:
            assert entries and all(isinstance(e, Entry) for e in entries)


@st.composite
def mutated(draw):
    """A sample file with a few random edits: deletions, insertions, replacements, line shuffles."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    text = TEXTS[name]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "drop line", "repeat line", "truncate"]))
        pos = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 20)):]
        elif kind == "insert":
            text = text[:pos] + draw(st.text(SYMBOLS, min_size=1, max_size=6)) + text[pos:]
        elif kind == "replace":
            text = text[:pos] + draw(st.sampled_from(SYMBOLS)) + text[pos + 1:]
        elif kind == "truncate":
            text = text[:pos]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i:i + 1] = [] if kind == "drop line" else [lines[i], lines[i]]
            text = "\n".join(lines)
    return text


@SETTINGS
@given(st.text(SYMBOLS, max_size=200))
def test_random_text_gives_only_puzzle_errors(scratch, text):
    scratch.write_text(text)
    _read_all_ways(scratch)


@SETTINGS
@given(st.binary(max_size=100))
def test_random_bytes_give_only_puzzle_errors(scratch, data):
    scratch.write_bytes(data)
    _read_all_ways(scratch)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_give_only_puzzle_errors(scratch, text):
    scratch.write_text(text)
    _read_all_ways(scratch)


@SETTINGS
@given(st.sampled_from(PUZZLES), st.one_of(mutated(), st.text(SYMBOLS, max_size=120)))
def test_solution_readers_give_only_puzzle_errors(scratch, puzzle, text):
    scratch.write_text(text)
    for fmt in (None, *FORMATS):
        try:
            grids = read_solutions(scratch, puzzle, format=fmt)
        except PuzzleError as err:
            assert str(err).startswith(str(scratch)) and "\n" not in str(err)
        else:
            assert grids and all(isinstance(g, np.ndarray) and g.shape == puzzle.shape for g in grids)
