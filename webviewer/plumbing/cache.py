"""A bounded cache shared by the threads of a server: bounded by count, and by bytes when
its entries are weighed."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``size`` values and, with ``weigh`` (an estimate of a value's bytes), at most
    ``max_bytes`` of them, the least recently used dropped first; a value heavier than
    ``max_bytes`` alone is made but not kept. Safe to share between threads (two threads
    missing the same key at once may both make its value)."""

    def __init__(self, size: int, max_bytes: int | None = None,
                 weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.bytes = 0
        """The estimated bytes kept now."""
        self._values: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``make()``, kept if it fits."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key][0]
        value = make()
        weight = self.weigh(value) if self.weigh is not None else 0
        if self.max_bytes is not None and weight > self.max_bytes:
            return value
        with self._lock:
            if key in self._values:
                self.bytes -= self._values[key][1]
            self._values[key] = (value, weight)
            self.bytes += weight
            self._values.move_to_end(key)
            while len(self._values) > self.size or (
                    self.max_bytes is not None and self.bytes > self.max_bytes):
                self.bytes -= self._values.popitem(last=False)[1][1]
        return value
