"""Files written whole or not at all: a hidden temporary file beside the target, renamed over it.

A reader (or a later run) sees the old file or the new one, never a file cut short by a full disk, a
write error or a kill; a failed write leaves the old file as it was and no temporary behind, and says
which file it could not write.
"""

from __future__ import annotations

import errno
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

from ..errors import PuzzleError

WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO)
"""The errors of writing a file (a full disk, a quota, a size limit, a read-only or failing disk): each
is reported with the name of the file that could not be written."""


@contextmanager
def replacing(path, newline: str | None = None, binary: bool = False):
    """A text file (UTF-8; with ``binary`` a bytes file) to write ``path`` through: renamed over
    ``path`` when the block ends without an error; on any error the temporary is removed and ``path``
    is untouched.  An OSError of the writing (a full disk, a read-only folder) becomes a
    :class:`PuzzleError` naming ``path``."""
    path = Path(path)
    temporary = path.with_name(_hidden(path.name, "tmp"))
    try:
        with (open(temporary, "wb") if binary else open(temporary, "w", newline=newline, encoding="utf-8")) as fh:
            yield fh
        os.replace(temporary, path)
    except OSError as err:
        raise PuzzleError(f"cannot write it: {err.strerror or err}", path=str(path)) from None
    finally:
        temporary.unlink(missing_ok=True)


def _hidden(name: str, what: str) -> str:
    """A hidden temporary name beside ``name``, owned by this process (cut so that it is never too
    long for the file system where ``name`` itself is not)."""
    return f".{name[:200]}.{what}-{os.getpid()}"


@contextmanager
def writing_folder(path):
    """A new folder to fill, published at ``path`` (absent or empty) by one rename when the block
    ends without an error; on any error the folder is removed with what it holds and ``path`` is as
    it was.  An OSError of the writing becomes a :class:`PuzzleError` naming ``path``."""
    path = Path(path)
    temporary = path.with_name(_hidden(path.name, "writing"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.mkdir()
        yield temporary
        if path.is_dir():
            path.rmdir()  # empty, as the caller checked; a file that appeared since is an error
        os.rename(temporary, path)
    except OSError as err:
        raise PuzzleError(f"cannot write it: {err.strerror or err}", path=str(path)) from None
    finally:
        if temporary.is_dir():
            shutil.rmtree(temporary, ignore_errors=True)


def check_writable(path) -> None:
    """Raise a :class:`PuzzleError` naming ``path`` when a file cannot be created beside it (a read-only
    or full file system, a folder without write permission): tried by creating and removing a hidden
    empty file, which a check of the permission bits alone (always writable for root) would not tell."""
    path = Path(path)
    probe = path.with_name(_hidden(path.name, "probe"))
    try:
        with open(probe, "x"):
            pass
    except OSError as err:
        raise PuzzleError(f"cannot write it: {err.strerror or err}", path=str(path)) from None
    finally:
        if probe.exists():
            probe.unlink()


def write_whole(path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`replacing`)."""
    with replacing(path) as fh:
        fh.write(text)


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o22)
    os.umask(mask)
    return mask
