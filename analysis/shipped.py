"""The nets shipped with the package (``analysis/nets/RULESET.npz``, package data), and
loading a net for a rule set: a file given, else the shipped one."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from analysis.network import Network
from analysis.race import load_race


class NoNet(ValueError):
    """No net for a rule set: none shipped and none given, or a file that is not one."""


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
            raise NoNet(f"no net file {target}")
        raise NoNet(f"no net is shipped for {variant}: train one with `jacquet train --variant "
                    f"{variant} --games N -o {variant}.npz`, then give it with --net")
    try:
        net = Network.load(target)
    except (OSError, ValueError, KeyError) as error:
        raise NoNet(f"{target} is not a net file: {error}") from None
    if net.variant != variant:
        raise NoNet(f"{target} is a {net.variant} net, not a {variant} one")
    if race and path is None:
        try:
            net.race = load_race(variant)
        except (OSError, ValueError, KeyError) as error:
            raise NoNet(f"the shipped race net of {variant} is not one: {error}") from None
        if net.race is not None and net.race.variant != variant:
            raise NoNet(f"the shipped race net of {variant} is a {net.race.variant} one")
    return net
