"""The garbage collector's settings for a process that reads many games: ``jacquet
validate``, ``convert``, ``import``, ``export`` and ``analyse``, the viewer's server, the
benchmarks.

Reading a record makes a game tree (some twenty objects per turn, its nodes linked both
ways), dropped when the game is done with (:func:`~notation.tree.game.released`). Beside the
trees live many objects that are never garbage: the modules, the caches of plays and dice
already read (thousands of small objects), a server's kept game views. CPython runs a full
collection every ten collections of its middle generation, and each one visits all of them
again: about a tenth of the time of reading murray games, more in a server. So such a
process:

* moves what start-up made (the modules, an app and its configuration) out of the
  collector's sight (:func:`gc.freeze`): none of it is garbage;
* runs a full collection after :data:`FULL_COLLECTION_EVERY` collections of the middle
  generation instead of 10, so what is kept is visited up to ten times less often (CPython
  also waits, as before, until the objects that survived since the last full collection
  are a quarter of those that had). Garbage in cycles is reclaimed in the end, at the next
  full collection. A CPython whose collector has no third generation ignores the
  threshold; the freeze still applies;
* collects the youngest generation after :data:`YOUNG_COLLECTION_AFTER` new objects
  instead of 700. A turn read makes some twenty objects, most of them gone again at once
  (the boards a step tries, the state it replaces); a collection every 700 caught many of
  them still alive and moved them on to be visited again. Reading murray games and the
  real ``.mat`` corpus takes 5-7% fewer instructions so, for a few thousand more young
  objects waiting at a time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_COLLECTION_EVERY = 100
"""Collections of the middle generation between two full collections (CPython: 10)."""

YOUNG_COLLECTION_AFTER = 20_000
"""New objects (less those freed) between two collections of the youngest generation
(CPython: 700)."""


def settle_for_serving() -> None:
    """Set the collector for a long-running server process: collect once, then freeze and
    collect as the module's text says. Call once, when start-up is done,
    before the first request: a second call would also freeze the views kept by then, which
    would never be reclaimed after leaving the cache."""
    gc.collect()
    gc.freeze()
    _collect_less_often()


@contextmanager
def reading_many_games() -> Iterator[None]:
    """The settings of the module's text while the block (or the decorated function) runs,
    the earlier ones back after it: for a command that reads many games. What start-up made
    is frozen as it stands (start-up leaves little garbage; collecting first would cost a
    command tens of milliseconds); in a process where objects are frozen already (an outer
    block, a server), nothing more is frozen, and nothing is unfrozen after."""
    threshold = gc.get_threshold()
    freezes = gc.get_freeze_count() == 0
    if freezes:
        gc.freeze()
    _collect_less_often()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if freezes:
            gc.unfreeze()


def _collect_less_often() -> None:
    """The thresholds of the module's text: young and full collections rarer."""
    gc.set_threshold(YOUNG_COLLECTION_AFTER, gc.get_threshold()[1], FULL_COLLECTION_EVERY)
