"""Ctrl-C while the engine works.

Python acts on SIGINT at the next bytecode it runs, wherever that is, and inside numba's
own Python (compiling a kernel, unpickling a kernel's result) a ``KeyboardInterrupt`` does
harm: a kernel's call comes back as a ``SystemError`` caused by it, a compilation cut short
leaves numba broken (a ``RuntimeError`` at the next call), now and then the process dies
(SIGSEGV). So the commands that stop cleanly on Ctrl-C (a rollout gives the games
completed, an archive's analysis keeps the games stored) hold it (:func:`ctrl_c_held`):
the first press is noted and acted on at the command's next safe point, between two
pieces of work; a second press stops at once, wherever it lands, and is then told from
other errors by :func:`is_ctrl_c`.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from notation.messages import say

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


class HeldCtrlC:
    """A Ctrl-C held by :func:`ctrl_c_held`: whether it was pressed, and the safe point."""

    def __init__(self) -> None:
        self.pressed = False

    def check(self) -> None:
        """A safe point: raises ``KeyboardInterrupt`` if Ctrl-C was pressed."""
        if self.pressed:
            raise KeyboardInterrupt


@contextmanager
def ctrl_c_held() -> Iterator[HeldCtrlC]:
    """Ctrl-C held for the block: the first press writes a note on stderr and makes the
    next :meth:`HeldCtrlC.check` raise ``KeyboardInterrupt``; a second raises it at once.
    Where SIGINT is not Python's to raise (ignored, as in a pool's worker; its default
    action; another thread than the main one) it is left as it is."""
    held = HeldCtrlC()
    if threading.current_thread() is not threading.main_thread() or not callable(
            signal.getsignal(signal.SIGINT)):
        yield held
        return

    def press(signum: int, frame: FrameType | None) -> None:
        if held.pressed:
            raise KeyboardInterrupt
        held.pressed = True
        print("\n" + say("cli.ctrl-c.held"), file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, press)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
