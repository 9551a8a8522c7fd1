"""The one switch between compiled and plain Python kernels.

:func:`kernel` compiles a function with numba (``njit``) when numba can be imported and
``JACQUET_NO_NUMBA`` is not set; otherwise it returns the function itself, which runs as
plain Python: slower by two orders of magnitude, but the same code and the same results.
:data:`COMPILED` says which.

The compiled code is cached on disk, in the user's cache folder
(``$XDG_CACHE_HOME`` or ``~/.cache``, then ``jacquet/numba/``), under a digest of this
package's sources and of :data:`CONSTANTS`: numba checks only a kernel's own file, so a
kernel whose callee in another file changed would otherwise be loaded stale. Where that folder cannot be
written numba caches beside the sources, or not at all (then each run compiles again).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:
    if os.environ.get("JACQUET_NO_NUMBA"):
        raise ImportError("JACQUET_NO_NUMBA is set")
    import numba as _numba
except ImportError:
    _numba = None

COMPILED = _numba is not None
"""Whether the kernels are compiled (numba is there and not switched off)."""


CONSTANTS = ("analysis/contact.py", "analysis/race.py", "analysis/rolls.py", "analysis/threats.py",
             "analysis/timing.py", "notation/engine/board.py", "notation/engine/rules/backgammon.py",
             "notation/engine/rules/bouchon.py", "notation/engine/rules/fevga.py")
"""The files outside this package whose module-level values the kernels take (the board's
shape, the 21 rolls, the rule sets' points): numba freezes them into the compiled code, so
they are part of the cache's digest."""


def _cache_folder() -> str:
    """The cache folder of this version of the kernels' sources."""
    digest = hashlib.sha256()
    root = Path(__file__).parents[2]
    for source in [*sorted(Path(__file__).parent.glob("*.py")), *(root / name for name in CONSTANTS)]:
        digest.update(source.read_bytes())
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(home) / "jacquet" / "numba" / digest.hexdigest()[:16])


_CACHE = _cache_folder() if _numba is not None else ""


def cache_folder() -> str:
    """The folder of this version of the compiled kernels ("" without numba), where the
    fast core also keeps what it computes once per rule set
    (:func:`analysis.fast.outcomes.stored_race_table`)."""
    return _CACHE


def kernel(function: F) -> F:
    """``function`` compiled in nopython mode (cached), or itself without numba.

    Its divisions follow numpy's error model, not Python's: no test of the divisor for
    zero before each (no kernel divides by zero), a test that kept a loop holding a
    division off the vector units (the sigmoid's, :func:`analysis.fast.forward.sigmoid`:
    a third of its time before); the quotients are the same."""
    return _compiled(function, False)


def summing_kernel(function: F) -> F:
    """:func:`kernel`, with leave to add up float sums in any order and to fuse a product
    into a sum (what lets a dot product run on vector units; numpy's BLAS takes the same
    leave): for the forward pass, whose figures agree with numpy's to float32 rounding
    either way."""
    return _compiled(function, True)


def _compiled(function: F, summing: bool) -> F:
    if _numba is None:
        return function
    config = _numba.config
    previous = config.CACHE_DIR
    config.CACHE_DIR = _CACHE  # read when the kernel's cache is set up, just below
    try:
        with warnings.catch_warnings():
            # where nothing can be written numba says so and compiles each run
            warnings.simplefilter("ignore", _numba.NumbaWarning)
            compiled: F = _numba.njit(cache=True, nogil=True, error_model="numpy",
                                      fastmath={"reassoc", "contract"} if summing else False
                                      )(function)
    finally:
        config.CACHE_DIR = previous
    return compiled

