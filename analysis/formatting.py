"""Tables as files: CSV at full precision, Markdown with rounded numbers and "--" for missing, and LaTeX
laid out for a paper (:mod:`~puzzlebench.analysis.latex`): ``tables/<name>.tex`` for the body of a paper,
``tables/supplement/<name>.tex`` for the one-column supplement."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from puzzlebench.system.atomic import replacing, write_whole

from .latex import SUPPLEMENT, TableSpec, latex_document_table, placement


def format_number(value, number_format: str = ".4g") -> str:
    """``value`` as ``number_format``, but numbers of 10^4 and more as whole numbers; "--" when missing."""
    if pd.isna(value):
        return "--"
    return f"{value:.0f}" if abs(value) >= 1e4 else format(value, number_format)


def _cell(value, number_format: str) -> str:
    if isinstance(value, float):
        return format_number(value, number_format)
    return "--" if pd.isna(value) else str(value)


def _as_text(table: pd.DataFrame, number_format: str) -> tuple[pd.DataFrame, list[bool]]:
    """Every cell as a string (floats by :func:`format_number`) and which columns are numeric."""
    numeric = [pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])
               for c in table.columns]
    return table.map(lambda v: _cell(v, number_format)), numeric


def markdown_table(table: pd.DataFrame, number_format: str = ".4g") -> str:
    """``table`` as a Markdown pipe table: numbers right-aligned as :func:`format_number`, missing as "--"."""
    text, numeric = _as_text(table, number_format)
    return text.to_markdown(index=False, disable_numparse=True,
                            colalign=["right" if n else "left" for n in numeric])


def table_files(directory, name: str) -> list[Path]:
    """Every file :func:`write_table` may write for table ``name`` in ``directory``."""
    directory = Path(directory)
    return [*(directory / f"{name}.{suffix}" for suffix in ("csv", "md", "tex")), directory / SUPPLEMENT / f"{name}.tex"]


def write_table(table: pd.DataFrame, directory, name: str, spec: TableSpec, number_format: str = ".4g") -> list[Path]:
    """``name``.csv (full precision), .md (numbers as ``number_format``) and .tex (as ``spec``; in the
    ``supplement/`` folder when :func:`~puzzlebench.analysis.latex.placement` says so) in ``directory``.

    An empty table is not written (nothing is returned); the files of an earlier analysis are removed
    either way, so the folder holds only this run's tables.
    """
    directory = Path(directory)
    for old in table_files(directory, name):
        old.unlink(missing_ok=True)
    if not len(table):
        return []
    tex_folder = directory / SUPPLEMENT if placement(table, spec) == SUPPLEMENT else directory
    tex_folder.mkdir(parents=True, exist_ok=True)
    paths = [directory / f"{name}.csv", directory / f"{name}.md", tex_folder / f"{name}.tex"]
    with replacing(paths[0], newline="") as fh:   # each file whole or not at all
        table.to_csv(fh, index=False)
    write_whole(paths[1], markdown_table(table, number_format) + "\n")
    write_whole(paths[2], latex_document_table(table, spec))
    return paths
