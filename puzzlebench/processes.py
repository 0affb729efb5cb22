"""Child processes that end with their parent."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int) -> None:
    """Ask Linux to SIGKILL this process when its parent dies (``prctl(PR_SET_PDEATHSIG)``).

    Call it first thing in a child (after fork, before exec: the setting survives
    exec).  ``parent_pid`` is the parent's pid taken before the fork: if the parent
    is already gone, and the child was adopted, the child exits at once.  Elsewhere
    than Linux this does nothing.
    """
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)
