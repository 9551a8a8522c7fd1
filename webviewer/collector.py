"""The garbage collector's settings for a process that serves the viewer.

A server keeps up to :data:`~webviewer.views.CACHED_GAMES` game views (a few objects per
turn: :mod:`webviewer.views`), and every first view of a game reads its record back into a
game tree (some twenty objects per turn, its nodes linked both ways), from which the view
is made before the tree is released. With CPython's default thresholds a full collection
comes every few games read, and each one visits everything kept again (measured when the
views kept their trees: about 40% of a first view's time). A server process therefore,
once it has started and before its first request:

* collects once, then moves what start-up made (the modules, the app and its
  configuration) out of the collector's sight (:func:`gc.freeze`): none of it is garbage;
* runs a full collection after :data:`FULL_COLLECTION_EVERY` collections of the middle
  generation instead of 10, so what is kept is visited up to ten times less often (CPython
  also waits, as before, until the objects that survived since the last full collection
  are a quarter of those that had). The youngest generations are collected as usual, and
  garbage in cycles is reclaimed in the end, at the next full collection. A CPython whose
  collector has no third generation ignores the threshold; the freeze still applies.

Call it once per process: a second call would also freeze the views kept by then, which
would never be reclaimed after leaving the cache.
"""

from __future__ import annotations

import gc

FULL_COLLECTION_EVERY = 100
"""Collections of the middle generation between two full collections (CPython: 10)."""


def settle_for_serving() -> None:
    """Set the collector for a long-running server process (see the module's text); call
    once, when start-up is done, before the first request."""
    gc.collect()
    gc.freeze()
    youngest, middle, _ = gc.get_threshold()
    gc.set_threshold(youngest, middle, FULL_COLLECTION_EVERY)
