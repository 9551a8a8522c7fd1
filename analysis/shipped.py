"""The nets shipped with the package (``analysis/nets/RULESET.npz``, package data), and
loading a net for a rule set: a file given, else the shipped one."""

from __future__ import annotations

import zipfile
from importlib.resources import files
from pathlib import Path

from analysis.network import Network
from analysis.race import load_race
from notation.messages import Message, MessageError


class NoNet(MessageError, ValueError):
    """No net for a rule set: none shipped and none given, or a file that is not one
    (``msg``: the ``net.*`` message saying which, and what to do)."""


def _why(error: Exception) -> Message | str:
    """Why a file is not a net: the engine's message (said in the language asked), else
    what numpy or the system said, as it said it."""
    return error.msg if isinstance(error, MessageError) else str(error)


def shipped_path(variant: str) -> Path:
    """Where the shipped net of ``variant`` lives (whether or not it is there)."""
    return Path(str(files("analysis") / "nets" / f"{variant}.npz"))


def load_net(variant: str, path: str | Path | None = None, race: bool = True) -> Network:
    """The net for ``variant``: the file at ``path`` (judging alone), else the shipped one
    with the shipped race net beside it (:mod:`analysis.race`) where there is one and
    ``race``.
    :class:`NoNet` with what to do when there is none, or when the file is not a net for
    ``variant``."""
    target = Path(path) if path is not None else shipped_path(variant)
    if not target.exists():
        if path is not None:
            raise NoNet("net.no-file", path=str(target))
        raise NoNet("net.not-shipped", variant=variant)
    try:
        net = Network.load(target)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:  # a truncated file: not a zip
        raise NoNet("net.not-a-net", path=str(target), error=_why(error)) from None
    if net.variant != variant:
        raise NoNet("net.wrong-variant", path=str(target), found=net.variant, variant=variant)
    if race and path is None:
        with_shipped_race(net, variant)
    return net


def playing_net(variant: str, path: str | Path | None = None) -> Network:
    """The net that plays ``variant``: the contact net in the file at ``path`` (else the
    shipped one) with the shipped race net beside it, as a candidate net is measured and
    a fit starts from it; :class:`NoNet` as :func:`load_net` says."""
    return load_net(variant) if path is None else with_shipped_race(load_net(variant, path), variant)


def with_shipped_race(net: Network, variant: str) -> Network:
    """``net`` with the shipped race net of ``variant`` beside it (none where none is
    shipped); :class:`NoNet` saying what is wrong where that file is not a race net of
    ``variant``."""
    try:
        net.race = load_race(variant)
    except (OSError, ValueError, KeyError) as error:
        raise NoNet("net.race.not-a-net", variant=variant, error=_why(error)) from None
    if net.race is not None and net.race.variant != variant:
        raise NoNet("net.race.wrong-variant", variant=variant, found=net.race.variant)
    return net
