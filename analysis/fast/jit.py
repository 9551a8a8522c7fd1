"""The one switch between compiled and plain Python kernels.

:func:`kernel` compiles a function with numba (``njit``, cached on disk beside the
source where that folder can be written) when numba can be imported and
``JACQUET_NO_NUMBA`` is not set; otherwise it returns the function itself, which runs as
plain Python: slower by two orders of magnitude, but the same code and the same results.
:data:`COMPILED` says which.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
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


def kernel(function: F) -> F:
    """``function`` compiled in nopython mode (cached), or itself without numba."""
    if _numba is None:
        return function
    with warnings.catch_warnings():
        # a read-only install cannot cache: numba then says so and compiles each run
        warnings.simplefilter("ignore", _numba.NumbaWarning)
        compiled: F = _numba.njit(cache=True, nogil=True)(function)
    return compiled


def plain(function: Callable[..., Any]) -> Callable[..., Any]:
    """The plain Python function behind a kernel (itself without numba): for the tests
    that check the fallback gives the same results."""
    inner: Callable[..., Any] = getattr(function, "py_func", function)
    return inner
