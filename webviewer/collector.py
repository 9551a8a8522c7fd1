"""The garbage collector's settings for a process that serves the viewer.

A server keeps up to :data:`~webviewer.views.CACHED_GAMES` game trees read back from the
archive (a few thousand objects each, their nodes linked both ways), and every first view of
a game reads another. With CPython's default thresholds a full collection comes every few
games read, and each one visits every kept tree again (measured: about 40% of a first view's
time). A server process therefore, once it has started:

* collects once, then moves what start-up made (modules, templates, the app, the rule sets)
  out of the collector's sight (:func:`gc.freeze`): none of it is ever garbage;
* runs a full collection after :data:`FULL_COLLECTION_EVERY` collections of the middle
  generation instead of 10, so kept trees are visited ten times less often. The youngest
  generations are collected as usual, and so is garbage in the end: a game dropped from the
  cache is reclaimed at the next full collection (every few hundred games read).
"""

from __future__ import annotations

import gc

FULL_COLLECTION_EVERY = 100
"""Collections of the middle generation between two full collections (CPython: 10)."""


def settle_for_serving() -> None:
    """Set the collector for a long-running server process (see the module's text); call
    once start-up is done, before the first request. Calling it again changes nothing more."""
    gc.collect()
    gc.freeze()
    youngest, middle, _ = gc.get_threshold()
    gc.set_threshold(youngest, middle, FULL_COLLECTION_EVERY)
