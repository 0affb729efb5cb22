"""Drawing primitives the kinds' drawings share (matplotlib Axes in cell coordinates: cell ``(row, col)``
covers ``[col, col+1] x [row, row+1]``, the y axis pointing down); the picture itself is
:mod:`puzzlebench.draw`'s.  Givens are bold black, solution entries blue; sizes follow a cell's side on
the page, in points.  matplotlib is imported inside the functions."""

from __future__ import annotations

import numpy as np

GIVEN_COLOUR = "black"
SOLUTION_COLOUR = "#1f4fbf"
LINE_COLOUR = "#555555"
BLOCK_COLOUR = "#3c3c3c"
CLUE_COLOUR = "#d0d0d0"
DIAGONAL_COLOUR = "#e6e6e6"
CAGE_INSET = 0.1       # killer cage outlines, in cells from the cell borders
SUM_FONT = 0.26        # killer cage sums: font size, in cells
SUM_OFFSET = 0.05      # killer cage sums: distance from the cell's top-left corner, in cells
DIGIT_EM = 0.64        # width of a digit in the default font (DejaVu Sans), in font sizes


def digit_size(size: float, widest: int) -> float:
    """Font size (points) for numbers of up to ``widest`` digits in a cell of ``size`` points."""
    return size * (0.6 if widest <= 1 else 0.46 if widest == 2 else 0.34)


def lines(ax, segments, width: float, colour: str = LINE_COLOUR, style="solid", zorder: float = 2) -> None:
    from matplotlib.collections import LineCollection
    ax.add_collection(LineCollection(np.asarray(segments, dtype=float), linewidths=width, colors=colour,
                                     linestyles=style, capstyle="projecting", zorder=zorder))


def grid_lines(ax, rows: int, cols: int, size: float, box_rows: int = 0, box_cols: int = 0) -> None:
    """Thin lines between all cells; heavy lines between boxes and around the grid."""
    ys, xs = np.arange(rows + 1), np.arange(cols + 1)
    horizontal = np.stack([np.stack([np.zeros_like(ys), ys], 1), np.stack([np.full_like(ys, cols), ys], 1)], 1)
    vertical = np.stack([np.stack([xs, np.zeros_like(xs)], 1), np.stack([xs, np.full_like(xs, rows)], 1)], 1)
    heavy_h = (ys % box_rows == 0) if box_rows else (ys % rows == 0)
    heavy_v = (xs % box_cols == 0) if box_cols else (xs % cols == 0)
    thin, heavy = max(0.4, size / 60), max(1.2, size / 15)
    lines(ax, np.concatenate([horizontal[~heavy_h], vertical[~heavy_v]]), thin, zorder=1)
    lines(ax, np.concatenate([horizontal[heavy_h], vertical[heavy_v]]), heavy, "black", zorder=3)


def numbers(ax, grid: np.ndarray, mask: np.ndarray, font: float, colour: str, bold: bool,
             dy: float = 0.0) -> None:
    """Write ``grid`` at the cells of ``mask`` in ``font`` points, centred (shifted down by ``dy`` cells)."""
    for r, c in np.argwhere(mask):
        ax.text(c + 0.5, r + 0.5 + dy, str(int(grid[r, c])), ha="center", va="center_baseline",
                fontsize=font, color=colour, fontweight="bold" if bold else "normal", zorder=4)


def clear_corners(segments: np.ndarray, corners: np.ndarray, across: np.ndarray, down: float,
                  inset: float = CAGE_INSET) -> np.ndarray:
    """Shorten the outline pieces that start at a cage's top-left corner, to leave room for its sum.

    ``corners`` are the top-left cells ``(row, col)``; the piece along the top
    of cage k then starts ``across[k]`` cells right of the cell's left side and
    the piece down its left side ``down`` cells below its top.  (The top-left
    cell of a cage always has a convex corner there, so both pieces start there.)
    """
    starts = {(round(c + inset, 6), round(r + inset, 6)): k for k, (r, c) in enumerate(corners)}
    trimmed = segments.copy()
    for i, (x, y) in enumerate(segments[:, 0]):
        k = starts.get((round(x, 6), round(y, 6)))
        if k is None:
            continue
        r, c = corners[k]
        if np.isclose(segments[i, 0, 1], segments[i, 1, 1]):  # horizontal: the top side
            trimmed[i, 0, 0] = min(c + across[k], segments[i, 1, 0])
        else:
            trimmed[i, 0, 1] = min(r + down, segments[i, 1, 1])
    return trimmed


def cage_clues(ax, owner: np.ndarray, corners: np.ndarray, labels: list[str], size: float) -> None:
    """Each cage's dashed inset outline (``owner``: the cage of each cell) and its clue ``labels[k]``
    in the cage's top-left cell ``corners[k]``, the outline cleared around the clue (Killer, KenKen)."""
    widths = np.array([len(label) for label in labels]) * DIGIT_EM * SUM_FONT
    outlines = clear_corners(cage_outlines(owner), corners, SUM_OFFSET + widths + 0.06, SUM_OFFSET + SUM_FONT + 0.04)
    lines(ax, outlines, max(0.6, size / 36), "black", (0, (4, 3)), zorder=3)
    for (r, c), label in zip(corners, labels):
        ax.text(c + SUM_OFFSET, r + SUM_OFFSET, label, ha="left", va="top", fontsize=size * SUM_FONT, zorder=5)


def cage_outlines(owner: np.ndarray, inset: float = CAGE_INSET) -> np.ndarray:
    """Segments ``(k, 2, 2)`` of (x, y) points tracing each region of ``owner`` inset by ``inset``.

    A cell side lies on an outline where the neighbour across it belongs to
    another region.  The inset segment along that side stops ``inset`` short
    of a convex corner and runs ``inset`` past the cell into a concave one,
    so the pieces join into closed outlines one ``inset`` inside every region.
    Collinear pieces that touch are merged so dashes run on evenly.
    """
    rows, cols = owner.shape
    padded = np.pad(owner, 1, constant_values=-1)

    def same(dr: int, dc: int) -> np.ndarray:
        return padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols] == owner

    r, c = np.indices(owner.shape)
    centre = np.stack([c + 0.5, r + 0.5], -1)  # (x, y)
    pieces = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        tr, tc = abs(dc), abs(dr)  # along the side
        boundary = ~same(dr, dc)
        ends = []
        for s in (-1, 1):
            convex = ~same(s * tr, s * tc)
            concave = ~convex & same(dr + s * tr, dc + s * tc)
            reach = np.where(convex, 0.5 - inset, np.where(concave, 0.5 + inset, 0.5))
            ends.append(centre + np.array([dc, dr]) * (0.5 - inset) + s * reach[..., None] * np.array([tc, tr]))
        pieces.append(np.stack(ends, -2)[boundary])
    return _merge_collinear(np.concatenate(pieces))


def _merge_collinear(segments: np.ndarray) -> np.ndarray:
    """Join axis-parallel segments that continue one another into single segments."""
    merged = []
    for along in (0, 1):  # 0: horizontal segments (x varies), 1: vertical ones (y varies)
        across = 1 - along
        group = segments[np.isclose(segments[:, 0, across], segments[:, 1, across])]
        level = np.round(group[:, 0, across], 6)
        lo, hi = group[:, :, along].min(axis=1), group[:, :, along].max(axis=1)
        runs: list[list[float]] = []
        for order in np.lexsort((lo, level)):
            if runs and runs[-1][0] == level[order] and lo[order] <= runs[-1][2] + 1e-6:
                runs[-1][2] = max(runs[-1][2], hi[order])
            else:
                runs.append([level[order], lo[order], hi[order]])
        for lev, start, end in runs:
            ends = np.full((2, 2), lev)
            ends[:, along] = start, end
            merged.append(ends)
    return np.array(merged)


