"""The ``check`` verb: valid and invalid grids, and one-line errors for malformed files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main

ROOT = Path(__file__).parent.parent
SEED = ROOT / "instances"
DATA = Path(__file__).parent / "data"

SUDOKU_4 = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def grid_text(grid) -> str:
    return "".join(" ".join(str(v) for v in row) + "\n" for row in grid)


def run_check(capsys, *args) -> tuple[int, list[str], str]:
    code = main(["check", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


# ---------------------------------------------------------------- valid grids

def test_valid_seed_solution(capsys):
    seed = SEED / "sudoku/seed"
    code, out, err = run_check(capsys, seed / "matlab_cleve.txt", seed / "matlab_cleve.solution.txt")
    assert (code, out, err) == (0, ["valid"], "")


def test_dataset_is_its_own_solution_file(capsys):
    path = DATA / "janko/KillerSudoku_sample.json"
    assert run_check(capsys, path, path, "--index", 2)[:2] == (0, ["valid"])
    path = DATA / "lines/exchange_with_solutions_head3.txt"
    assert run_check(capsys, path, path, "--index", 1)[:2] == (0, ["valid"])


def test_options_on_the_command_line(capsys):
    path = DATA / "janko/KillerSudoku_x_sample.json"
    assert run_check(capsys, path, path, "--diagonal")[:2] == (0, ["valid"])


# ---------------------------------------------------------------- one crafted invalid grid per rule

INVALID = {
    # name: (puzzle text, solution grid, expected violation)
    "row": ("sudoku 4\n" + ". . . .\n" * 4,
            [[3, 2, 3, 4], [1, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]], "row 1 has 3 twice"),
    "column": ("sudoku 4\n" + ". . . .\n" * 4,
               [[2, 1, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]], "column 1 has 2 twice"),
    "box": ("sudoku 4\n" + ". . . .\n" * 4,
            [[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]], "box 1 has 2 twice"),
    "givens": ("sudoku 4\n4 . . .\n" + ". . . .\n" * 3, SUDOKU_4, "cell (1, 1) is given as 4 but holds 1"),
    "cage sum": ("killer 4\nA A B C\nD E B C\nD E F F\nG G H H\nA 4\nB 4\nC 6\nD 5\nE 5\nF 7\nG 7\nH 3\n",
                 SUDOKU_4, "cage 1 sums to 3, not 4"),
    "cage repeat": ("killer 4\nA B C D\nE X X F\nG H X I\nJ K L M\n"
                    "A 1\nB 2\nC 3\nD 4\nE 3\nF 2\nG 2\nH 1\nI 3\nJ 4\nK 3\nL 2\nM 1\nX 9\n",
                    SUDOKU_4, "cage 6 has 4 twice"),
    "diagonal": ("killer 4 diagonal\nA A B C\nD E B C\nD E F F\nG G H H\n"
                 "A 3\nB 4\nC 6\nD 5\nE 5\nF 7\nG 7\nH 3\n", SUDOKU_4, "main diagonal has 1 twice"),
    "kakuro sum": ("kakuro 3 3\n# 4\\ 3\\\n\\3 . .\n\\4 . .\n", [[0, 0, 0], [0, 1, 2], [0, 3, 2]],
                   "across run at (3, 1) sums to 5, not 4"),
    "kakuro repeat": ("kakuro 3 3\n# 4\\ 3\\\n\\3 . .\n\\4 . .\n", [[0, 0, 0], [0, 2, 1], [0, 2, 2]],
                      "across run at (3, 1) has 2 twice"),
    "takuzu balance": ("takuzu 4 4\n" + ". . . .\n" * 4, [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 1, 0], [1, 0, 1, 0]],
                       "column 3 has 3 ones and 1 zeros, not 2 of each"),
    "takuzu triple": ("takuzu 6 2\n" + ". .\n" * 6, [[0, 1], [0, 1], [0, 1], [1, 0], [1, 0], [1, 0]],
                      "column 1 has three 0s in a row at positions 1-3"),
    "takuzu distinct": ("takuzu 4 4 distinct\n" + ". . . .\n" * 4,
                        [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]], "rows 1 and 3 are equal"),
}


@pytest.mark.parametrize("rule", INVALID)
def test_invalid_grid_is_rejected(rule, tmp_path, capsys):
    puzzle_text, grid, expected = INVALID[rule]
    puzzle = write(tmp_path, "p.txt", puzzle_text)
    solution = write(tmp_path, "s.txt", grid_text(grid))
    code, out, err = run_check(capsys, puzzle, solution)
    assert code == 1 and err == ""
    assert expected in out


def test_kakuro_solution_crafted_from_the_seed(tmp_path, capsys):
    rows = (SEED / "kakuro/seed/fjmc_blog2026.solution.txt").read_text().replace("# 8 3 2 1", "# 8 2 2 2")
    code, out, _ = run_check(capsys, SEED / "kakuro/seed/fjmc_blog2026.txt", write(tmp_path, "s.txt", rows))
    assert code == 1 and "across run at (4, 1) has 2 twice" in out and "down run at (1, 3) sums to 15, not 16" in out


# ---------------------------------------------------------------- malformed files: exit 2, one line

MALFORMED = {
    # name: (file name, text, expected "line: problem" fragment)
    "truncated": ("p.txt", "sudoku 4\n1 . . .\n. . . .\n", ":3: the file ends after 2 of the 4 rows"),
    "wrong character": ("p.txt", "# c\nsudoku 4\n1 . . .\n. x . .\n. . . .\n. . . .\n",
                        ":4: column 2: 'x' is not a digit 1..4 or '.'"),
    "bad header": ("p.txt", "\nsudoku nine\n", ":2: bad header: expected 'sudoku N [RxC]'"),
    "unknown header word": ("p.txt", "sudoku 4 2x2 diagonal\n", ":1: bad header: unexpected 'diagonal'"),
    "wrong row length": ("p.txt", "takuzu 4 4\n. . . .\n. . .\n. . . .\n. . . .\n",
                         ":3: this row has 3 cells, expected 4"),
    "wrong size in lines": ("p.txt", "." * 81 + "\n" + "." * 80 + "\n", ":2: expected a sudoku of 16, 81"),
    "lines bad symbol": ("p.txt", "." * 80 + "G\n", ":1: character 81 is 'G', not a blank"),
    "overlapping cages": ("p.txt", "killer 4\nA A B B\nC C A D\nE F G H\nI J K L\n",
                          ":3: cage A covers two separate regions (rows 1 and 2)"),
    "cage label without a sum": ("p.txt", "killer 4\nA A B C\nD E B C\nD E F F\nG G H H\n"
                                 "A 3\nB 4\nC 6\nD 5\nE 5\nF 7\nG 7\n", ":5: cage H has no sum line"),
    "sum for an unknown label": ("p.txt", "killer 4\nA A B C\nD E B C\nD E F F\nG G H H\n"
                                 "A 3\nB 4\nZ 6\n", ":8: sum for cage Z, but no cell of the grid is labelled Z"),
    "impossible cage sum": ("p.txt", "killer 4\nA A B C\nD E B C\nD E F F\nG G H H\nA 30\n",
                            ":6: cage A has 2 cells and cannot sum to 30 (possible: 3..7)"),
    "conflicting givens": ("p.txt", "sudoku 4\n1 . . .\n. . . .\n. . . .\n1 . . .\n",
                           ":5: givens conflict: column 1 has 1 twice"),
    "odd takuzu": ("p.txt", "# odd\ntakuzu 3 4\n. . . .\n. . . .\n. . . .\n",
                   ":2: a Takuzu grid must have an even number of rows and columns"),
    "takuzu conflict": ("p.txt", "takuzu 4 4\n. . . .\n0 0 0 .\n. . . .\n. . . .\n",
                        ":3: givens conflict: row 2 has more than 2 0s"),
    "kakuro clue without run": ("p.txt", "kakuro 3 3\n# 4\\ #\n\\3 . 5\\\n# . #\n",
                                ":3: down clue 5 at (2, 3) has no run of white cells"),
    "kakuro run longer than 9": ("p.txt", "kakuro 2 11\n# " + "1\\ " * 10 + "\n\\45 " + ". " * 10 + "\n",
                                 ":3: across clue 45 at (2, 1) heads a run of 10 cells, longer than 9"),
    "kakuro impossible sum": ("p.txt", "kakuro 3 3\n# 4\\ 3\\\n\\30 . .\n\\4 . .\n",
                              ":3: across clue 30 at (2, 1) heads 2 cells, which cannot sum to 30"),
    "janko two sums in a cage": ("k.txt", "4 4\n3 4 - -\n" + "- - - -\n" * 3 + "1 1 2 2\n3 3 4 4\n5 5 6 6\n7 7 8 8\n",
                                 ":2: cage 1 has two sums, 3 and 4: cages overlap or a region id is reused"),
    "janko truncated": ("k.txt", "9 9\n- - -\n", ":2: the text ends after 1 of the 9 rows"),
    "janko wrong row length": ("k.txt", "4 4\n- - -\n" + "- - - -\n" * 3, ":2: this row has 3 cells, expected 4"),
    "tatham bad character": ("t.txt", "# ids\n3x3:zzz!\n", ":2: the grid part has the character '!'"),
    "tatham too short": ("t.txt", "8x8:aaa\n", ":1: the Unruly grid describes 3 cells, expected 64"),
    "not utf-8": ("p.txt", None, ":2: byte 0xff is not UTF-8 text"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_puzzle_file(case, tmp_path, capsys):
    name, text, expected = MALFORMED[case]
    path = tmp_path / name
    if text is None:
        path.write_bytes(b"sudoku 4\n\xff . . .\n")
    else:
        path.write_text(text)
    solution = write(tmp_path, "s.txt", grid_text(SUDOKU_4))
    code, out, err = run_check(capsys, path, solution)
    assert code == 2 and out == []
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"puzzlebench: error: {path}:")
    assert expected in err


def test_janko_dataset_error_names_the_record(tmp_path, capsys):
    text = ('{"name": "Sudoku", "data": {"7_4x4": {"problem": "4 4\\n1 - - -\\n- - - -\\n- - x -\\n- - - -",'
            ' "solution": "", "source": "", "info": ""}}}')
    code, _, err = run_check(capsys, write(tmp_path, "d.json", text), write(tmp_path, "s.txt", grid_text(SUDOKU_4)))
    assert code == 2
    assert err == (f"puzzlebench: error: {tmp_path}/d.json: record 7_4x4, problem line 4: "
                   "column 3: 'x' is not a number 1..4 or '-'\n")


def test_bad_solution_files(tmp_path, capsys):
    puzzle = write(tmp_path, "p.txt", "sudoku 4\n" + ". . . .\n" * 4)
    code, _, err = run_check(capsys, puzzle, write(tmp_path, "s.txt", "1 2 3 4\n3 4 1 2\n"))
    assert code == 2 and err == f"puzzlebench: error: {tmp_path}/s.txt:2: the file ends after 2 of the 4 rows " \
                                "of the solution at line 1\n"
    code, _, err = run_check(capsys, puzzle, write(tmp_path, "s.txt", "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 x\n"))
    assert code == 2 and err.endswith("s.txt:4: column 4: 'x' is not a digit 1..4\n")
    code, _, err = run_check(capsys, puzzle, write(tmp_path, "s.txt", "3x3:zzzc\n"), "--solution-format", "tatham")
    assert code == 2 and "hold no solutions" in err


def test_index_and_missing_file(tmp_path, capsys):
    code, _, err = run_check(capsys, SEED / "sudoku/seed/matlab_cleve.txt", tmp_path / "nope.txt")
    assert code == 2 and "nope.txt" in err and "Traceback" not in err
    code, _, err = run_check(capsys, SEED / "sudoku/seed/matlab_cleve.txt", tmp_path / "nope.txt", "--index", 3)
    assert code == 2 and "index 3 is out of range" in err


# ---------------------------------------------------------------- through a real process

def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlebench", "check", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_subprocess_valid_and_invalid(tmp_path):
    result = _cli(SEED / "takuzu/seed/fjmc_blog2026.txt", SEED / "takuzu/seed/fjmc_blog2026.solution.txt")
    assert (result.returncode, result.stdout, result.stderr) == (0, "valid\n", "")
    result = _cli(SEED / "sudoku/seed/matlab_cleve.txt", SEED / "sudoku/seed/fjmc_blog2025.solution.txt")
    assert result.returncode == 1 and "cell (1, 5) is given as 3 but holds 7" in result.stdout.splitlines()


def test_subprocess_malformed_files(tmp_path):
    truncated = write(tmp_path, "t.txt", "kakuro 3 3\n# 4\\ 3\\\n")
    result = _cli(truncated, truncated)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"puzzlebench: error: {truncated}:2: the file ends after 1 of the 3 rows " \
                            "of the puzzle at line 1\n"
    overlapping = write(tmp_path, "o.txt", MALFORMED["overlapping cages"][1])
    result = _cli(overlapping, truncated)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"puzzlebench: error: {overlapping}:3: cage A covers two separate regions")


# ---------------------------------------------------------------- every grid of a solution file

SUDOKU_4B = [[2, 1, 4, 3], [4, 3, 2, 1], [1, 2, 3, 4], [3, 4, 1, 2]]
BLANK_4 = "sudoku 4 2x2\n" + ". . . .\n" * 4
GIVEN_1 = "sudoku 4 2x2\n1 . . .\n" + ". . . .\n" * 3   # SUDOKU_4 fits it, SUDOKU_4B does not
GIVEN_2 = "sudoku 4 2x2\n2 . . .\n" + ". . . .\n" * 3   # SUDOKU_4B fits it, SUDOKU_4 does not
WRONG_4 = [[1, 2, 3, 4], [1, 2, 3, 4], [2, 1, 4, 3], [4, 3, 2, 1]]


def test_check_reads_every_grid_of_a_solution_file(tmp_path, capsys):
    puzzle = write(tmp_path, "p.txt", BLANK_4)
    good = write(tmp_path, "good.txt", grid_text(SUDOKU_4) + "\n" + grid_text(SUDOKU_4B))
    assert run_check(capsys, puzzle, good)[:2] == (0, ["valid"])
    bad = write(tmp_path, "bad.txt", grid_text(SUDOKU_4) + "\n" + grid_text(WRONG_4))
    code, out, _ = run_check(capsys, puzzle, bad)
    assert code == 1 and out and all(line.startswith("solution 2 of 2: ") for line in out)


def test_check_pairs_the_puzzles_of_a_file_with_their_grids_in_order(tmp_path, capsys):
    puzzles = write(tmp_path, "p.txt", GIVEN_1 + GIVEN_2)
    right = write(tmp_path, "right.txt", grid_text(SUDOKU_4) + "\n" + grid_text(SUDOKU_4B))
    assert run_check(capsys, puzzles, right)[:2] == (0, ["valid"])
    swapped = write(tmp_path, "swapped.txt", grid_text(SUDOKU_4B) + "\n" + grid_text(SUDOKU_4))
    code, out, _ = run_check(capsys, puzzles, swapped)
    assert code == 1 and {line.split(":")[0] for line in out} == {"puzzle 1 (index 0)", "puzzle 2 (index 1)"}
    code, out, _ = run_check(capsys, puzzles, swapped, "--index", 1)
    assert code == 1 and {line.split(":")[0] for line in out} == {"puzzle 2 (index 1)"}
    short = write(tmp_path, "short.txt", grid_text(SUDOKU_4))
    code, out, err = run_check(capsys, puzzles, short)
    assert code == 2 and "short.txt: the file holds 1 solution(s) for 2 puzzles" in err and err.count("\n") == 1
