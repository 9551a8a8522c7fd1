"""Ctrl-C while a compiled kernel runs.

Python acts on SIGINT at the next bytecode it runs. A numba kernel that hands back arrays
runs some of its own (numba unpickles their dtype in Python), so a Ctrl-C that lands
there comes out of the kernel's call as a ``SystemError`` ("returned a result with an
exception set") whose cause is the ``KeyboardInterrupt``: caught as the interrupt it is,
the commands that stop cleanly on Ctrl-C (a rollout gives the games completed, an
archive's analysis keeps the games stored) do so wherever the key was pressed.
"""

from __future__ import annotations

CTRL_C = (KeyboardInterrupt, SystemError)
"""What to catch for a Ctrl-C; :func:`is_ctrl_c` tells a ``SystemError`` that is one."""


def is_ctrl_c(error: BaseException) -> bool:
    """Whether ``error`` is a Ctrl-C: a ``KeyboardInterrupt``, or an error raised because of
    one (its cause or context, at any depth)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
