"""The rule sets, by name: ``jacquet`` (default), ``murray``, ``versailles``, ``hale``,
``backgammon``, ``narde``, ``fevga``. Each lives in its own module as data plus small hooks.

>>> rule_set("jacquet").name
'jacquet'
>>> rule_set("jacquet", courier_release="next-turn").describe()
'jacquet(courier_release=next-turn)'
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import signature

from notation.engine.rules.backgammon import backgammon
from notation.engine.rules.base import RuleSet, StepContext, courier_phase, courier_point
from notation.engine.rules.fevga import fevga
from notation.engine.rules.hale import hale
from notation.engine.rules.jacquet import jacquet
from notation.engine.rules.murray import holds_prime, murray, prime_during, prime_made, prime_possible
from notation.engine.rules.narde import narde
from notation.engine.rules.versailles import versailles
from notation.errors import InvalidError
from notation.messages import Message

DEFAULT = "jacquet"
FACTORIES: dict[str, Callable[..., RuleSet]] = {
    "jacquet": jacquet,
    "murray": murray,
    "versailles": versailles,
    "hale": hale,
    "backgammon": backgammon,
    "narde": narde,
    "fevga": fevga,
}
NAMES = tuple(FACTORIES)
"""Every rule set's name, in the order the registry lists them (the default first)."""
TITLES = {name: factory().title for name, factory in FACTORIES.items()}
"""Every rule set's name shown to people, by its name: the message id of it
(:meth:`RuleSet.titled` says it in a language)."""
OPTIONS = {name: tuple(signature(factory).parameters) for name, factory in FACTORIES.items()}
"""Every rule set's option names (``NAME=VALUE`` in the ``Options`` tag), by its name."""


def rule_set(name: str = DEFAULT, /, **options: object) -> RuleSet:
    """The rule set called ``name`` with its named options (``courier_release``,
    ``bouchon``, ``third_table_penalty``, ``head_doublets``, ``cube``, ``prime``);
    :class:`InvalidError` for an unknown name/option (an option called ``name`` too: the
    name is positional only)."""
    key = name.strip().lower()
    if key not in FACTORIES:
        raise InvalidError(Message.of("rules.unknown", name=repr(name), known=", ".join(NAMES)))
    try:
        return FACTORIES[key](**options)
    except TypeError:
        known = ", ".join(signature(FACTORIES[key]).parameters) or "none"
        raise InvalidError(Message.of("rules.no-such-option", name=repr(key),
                                      options=str(sorted(options)), known=known)) from None


__all__ = [
    "DEFAULT",
    "NAMES",
    "OPTIONS",
    "TITLES",
    "RuleSet",
    "StepContext",
    "backgammon",
    "courier_phase",
    "courier_point",
    "fevga",
    "hale",
    "holds_prime",
    "jacquet",
    "murray",
    "narde",
    "prime_during",
    "prime_made",
    "prime_possible",
    "rule_set",
    "versailles",
]
