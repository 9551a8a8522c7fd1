"""One BLAS thread per process: at this network's size one thread is fastest, and two
training processes with default threads each ran 3.8× slower on a 2-core machine
(``../shared/design/engine.md``).

:func:`limit_blas_threads` sets ``OPENBLAS_NUM_THREADS`` (and its cousins) when numpy is
not loaded yet; when it is, it calls OpenBLAS's own ``*openblas_set_num_threads*`` in the
library numpy loaded (found in ``/proc/self/maps``), as threadpoolctl does, without that
dependency.
"""

from __future__ import annotations

import ctypes
import os
import sys

_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


def limit_blas_threads(threads: int = 1) -> bool:
    """Hold BLAS to ``threads``; whether it is known to be done."""
    if "numpy" not in sys.modules:
        for name in _VARIABLES:
            os.environ[name] = str(threads)
        return True
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            libraries = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return False
    done = False
    for library in libraries:
        try:
            handle = ctypes.CDLL(library)
        except OSError:
            continue
        for setter in _SETTERS:
            function = getattr(handle, setter, None)
            if function is not None:
                function(ctypes.c_int(threads))
                done = True
                break
    return done
