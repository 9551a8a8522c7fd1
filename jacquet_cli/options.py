"""Options shared by several commands."""

from __future__ import annotations

import click

from notation.engine.rules import DEFAULT, NAMES, RuleSet, rule_set
from notation.messages import say

variant_option = click.option(
    "--variant", "-v", type=click.Choice(NAMES, case_sensitive=False), default=DEFAULT,
    show_default=True, help="Rule set.")
rule_option = click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="A rule-set option, e.g. courier_release=next-turn, bouchon=last-two, "
         "third_table_penalty=2, head_doublets=6-4, cube=true, prime=sixblock. Repeatable.")


def rules_from(variant: str, options: tuple[str, ...]) -> RuleSet:
    """The rule set named on the command line, or a usage error (exit 2)."""
    named: dict[str, object] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep:
            raise click.BadParameter(say("cli.option.form", option=repr(option)), param_hint="--option")
        named[name.strip()] = int(value) if value.strip().isdigit() else value.strip()
    try:
        return rule_set(variant, **named)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
