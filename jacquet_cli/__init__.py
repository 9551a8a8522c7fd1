"""The ``jacquet`` command: a thin click layer over :mod:`notation` (and, as they land,
:mod:`archive` and :mod:`webviewer`). Each command lives in its own module.

The commands are loaded lazily (click's ``LazyGroup`` pattern): a command's module is
imported only when that command runs or its own help is asked for, so ``jacquet --help`` or
``jacquet legal`` imports neither Flask, lxml nor sqlite-utils. ``jacquet --help`` lists
each command with the first paragraph of its help, kept in :data:`COMMANDS` beside the
module that defines it (``tests/test_cli_lazy.py`` checks that the two agree)."""

from __future__ import annotations

import importlib
from typing import Any

import click

COMMANDS: dict[str, tuple[str, str]] = {
    "analyse": ("jacquet_cli.analyse:analyse_command",
                ("Judge every turn of the games of FILES: the plays ranked by equity, the equity "
                 "the play made lost and its mark (?! ? ??), the luck of the roll, and per player "
                 "the error rate (equity lost per unforced decision, in thousandths of a point) "
                 "and luck.")),
    "bearoff": ("jacquet_cli.bearoff:bearoff_command",
                ("The exact bear-off tables (one per bear-off rule) the engine uses wherever both "
                 "sides are bearing off.")),
    "check": ("jacquet_cli.check_cmd:check_command",
              "Check that the archive is sound (SQLite's integrity_check, read only)."),
    "convert": ("jacquet_cli.convert:convert",
                "Convert the games of SOURCE into TARGET."),
    "export": ("jacquet_cli.search:export_command",
               "Write the games a search selects (all games without filters) to a file."),
    "generate": ("jacquet_cli.generate:generate",
                 "Random legal games from a simple policy (a random legal play each turn)."),
    "import": ("jacquet_cli.import_cmd:import_command",
               "Import the games of FILES (any supported format) into the archive."),
    "legal": ("jacquet_cli.legal:legal",
              "Every legal play for the player on roll, one per line, sorted."),
    "play": ("jacquet_cli.play:play_command",
             "Play a game against the engine in the terminal."),
    "record": ("jacquet_cli.record:record_command",
               "Record a game turn by turn in the terminal."),
    "rollout": ("jacquet_cli.rollout:rollout_command",
                ("Roll out the plays of a position and roll: each candidate played to the end "
                 "GAMES times by the engine against itself, on the same dice for every candidate "
                 "(the first two rolls balanced over the 36 outcomes), with its outcome "
                 "probabilities and equity (expected points for the player on roll, cubeless) and "
                 "their standard errors.")),
    "search": ("jacquet_cli.search:search_command",
               "Search the archive's games; or, with --position, explore a position."),
    "serve": ("jacquet_cli.serve:serve_command",
              ("Serve the viewer over the archive; with no archive at --db, build a demo archive "
               "from the sample records first.")),
    "show": ("jacquet_cli.show:show",
             "The position at a ply of a game."),
    "stats": ("jacquet_cli.stats:stats_command",
              ("Statistics of the archive: results per player, the dice each player rolled with a "
               "chi-square test of fairness, the most frequent opening plays per roll.")),
    "train": ("jacquet_cli.train:train_command",
              "Train the evaluator of a rule set by self-play (TD(λ), TD-Gammon's recipe)."),
    "train-contact": ("jacquet_cli.train_contact:train_contact_command",
                      "Fit the contact net of a rule set to rolled-out targets."),
    "train-race": ("jacquet_cli.train_race:train_race_command",
                   "Train the race evaluator of a rule set on rolled-out targets."),
    "users": ("jacquet_cli.users:users_command",
              ("Manage the viewer's accounts: scorers record and save games, admins also hide and "
               "delete stored games and read the audit log. Visitors need no account.")),
    "validate": ("jacquet_cli.validate:validate",
                 "Check every game of FILES against the rules."),
}
"""Each command's name: where it is defined (``module:attribute``), and the first paragraph
of its help, which ``jacquet --help`` shows (shortened to the terminal's width)."""


class LazyGroup(click.Group):
    """A group whose commands are imported when first looked up by name
    (:data:`COMMANDS`); its help lists them from their summaries, importing none."""

    def __init__(self, *args: Any, lazy_commands: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def invoke(self, ctx: click.Context) -> Any:
        """As click's own; a Ctrl-C that a compiled kernel turned into a ``SystemError``
        (:mod:`analysis.ctrl_c`) is the ``KeyboardInterrupt`` click stops on ("Aborted!"),
        not a traceback."""
        try:
            return super().invoke(ctx)
        except SystemError as error:
            from analysis.ctrl_c import is_ctrl_c

            if is_ctrl_c(error):
                raise KeyboardInterrupt from None
            raise

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            self.add_command(load_command(self.lazy_commands[cmd_name][0]), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click's own, each row from the command's summary unless it is loaded."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)  # as click reckons it
        rows = []
        for name in names:
            command = self.commands.get(name) or click.Command(name, help=self.lazy_commands[name][1])
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def load_command(target: str) -> click.Command:
    """The command object at ``module:attribute``, its module imported."""
    module_name, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{target} is not a click command")
    return command


LANGUAGE_HELP = ("Language of the messages: en, fr or ru (default: from LANGUAGE, LC_ALL, "
                 "LC_MESSAGES or LANG, else en).")
"""The help of ``--lang`` (``tests/test_cli_language.py`` checks that it names
:data:`notation.messages.LANGUAGES`: the option's help is shown without importing them)."""


@click.group(cls=LazyGroup, lazy_commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jacquet")
@click.option("--lang", metavar="LANG", help=LANGUAGE_HELP)
def main(lang: str | None) -> None:
    """Record, replay, validate and browse games of Jacquet and its relatives.

    Rule sets: jacquet (default), murray, versailles, hale, backgammon, narde, fevga.
    """
    choose_language(lang)


def choose_language(lang: str | None) -> None:
    """Make ``lang`` (else the environment's language) the language of the messages until
    the command ends; a usage error for a language without a catalog."""
    from notation import messages  # (here: ``jacquet --help`` imports no notation)

    if lang is not None and lang.lower() not in messages.LANGUAGES:
        raise click.BadParameter(messages.render(messages.Message.of(
            "cli.unknown-language", language=repr(lang), known=", ".join(messages.LANGUAGES))),
            param_hint="'--lang'")
    previous = messages.language()
    messages.set_language(lang.lower() if lang else messages.language_from_environment())
    click.get_current_context().call_on_close(lambda: messages.set_language(previous))
