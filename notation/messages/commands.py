"""The English catalog of the command line's own messages (``jacquet_cli``): what a
command prints about its work, beside the errors it passes on. The words a user types
(``undo``, ``hint``, ``quit``...) stay English in every language: they are the commands."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    "count.games": ("{count} game", "{count} games"),
    "count.errors": ("{count} error", "{count} errors"),
    "cli.validate.summary": "{games}, {errors}",
    # a file a command cannot read (or write): the same line, naming it once, in every command
    "cli.file.unreadable": "{path}: cannot be read: {reason}",
    "cli.file.missing": "{path}: no such file",
    "cli.file.unknown-format": "{path}: cannot tell its format from its extension; known: {known}",
    "cli.unknown-language": "unknown language {language}; known: {known}",
    # jacquet record and jacquet play: what a refused action, the board and the prompts say
    "cli.prompt": "{question}:",
    "cli.refused": "refused: {reason}",
    "cli.refused.rule": "refused: [{rule}] {reason}",
    "cli.legal-plays": "legal plays: {plays}",
    "cli.board.legend": "W is White, B is Black; the points numbered for {player}.",
    "cli.output.format": "cannot write a {variant} game as {format}",
    "cli.output.exists": ("{path} exists and is never written over: give another file, or --append "
                          "to add the game to it"),
    "cli.output.cannot-append": "cannot append to {path}: {reason}",
    "cli.output.invalid": "cannot append to {path}: it does not read back as a valid record ({error})",
    "cli.output.appeared": "the file appeared meanwhile, and is never written over",
    "cli.output.cannot-write": "cannot write {path}: {reason}; the record is above",
    "cli.record.help": ("Commands: Enter rolls the dice; dice such as 64 enter the dice thrown at the "
                        "table; a play such as 24/18 13/11, or its number in the list; undo (the last "
                        "turn: its dice stay); comment TEXT; nag N (1 !, 2 ?, ...); resign N; board; "
                        "help; quit."),
    "cli.record.help.cube": ("Commands: Enter rolls the dice; dice such as 64 enter the dice thrown at "
                             "the table; a play such as 24/18 13/11, or its number in the list; undo "
                             "(the last turn: its dice stay); comment TEXT; nag N (1 !, 2 ?, ...); "
                             "double, take, drop; resign N; board; help; quit."),
    "cli.record.take-or-drop": "{player}: take or drop",
    "cli.record.plays": "{player} plays {dice}",
    "cli.record.forced": "{player} plays the {dice} (Enter)",
    "cli.record.to-roll": "{player} to roll (Enter, or the dice)",
    "cli.record.the-game": "the game",
    "cli.record.taken-back": "taken back",
    "cli.record.taken-back.again": "taken back: {player} plays {dice} again",
    "cli.record.comment-after": "write the comment after the word: comment A fine split",
    "cli.record.comment-added": "comment added to {node}: {comment}",
    "cli.record.no-mark": "no mark {mark}: {marks}",
    "cli.record.mark-added": "mark {glyph} (${number}) added to {node}",
    "cli.record.choose": "choose a play from 1 to {most}",
    "cli.record.written": "result {result} written to {path}",
    "cli.record.appended": "result {result} appended to {path}",
    "cli.record.unfinished-written": "unfinished game written to {path}",
    "cli.record.unfinished-appended": "unfinished game appended to {path}",
    "cli.show.games": ("{file} has {count} game, not {number}", "{file} has {count} games, not {number}"),
    "cli.show.turns": "game {game} has {turns} turns",
    "cli.show.header": "{file}, game {game}, ply {ply}: {doing} ({rules}), position {position}",
    "cli.show.to-play": "{player} to play",
    "cli.stats.results": "Results per player",
    "cli.stats.results.row": "{player} {games} games  {wins} won  {losses} lost  points {won}-{lost}",
    "cli.stats.dice": "Dice (faces 1-6, chi-square, p-value: small means unlikely from fair dice)",
    "cli.stats.openings": "Opening plays per roll",
    "cli.stats.analysed": ("Analysed games per player and engine (error rate: thousandths of a point lost "
                           "per unforced decision; luck: points)"),
    "cli.stats.confirmed": "({count} at {level})",
    "cli.stats.analysed.row": ("{player} {level}  {games} games  {decisions} decisions{confirmed}  "
                               "error rate {rate} ({skill})  luck {luck}"),
    "cli.analyse.title": ("{path}, game {game} ({rules}): {white} ({white_side}) v {black} ({black_side}); "
                          "{engine}"),
    "cli.analyse.stops": "analysis stops at the record's error: {error}",
    "cli.analyse.progress": "[{index}/{total}] {path}, game {game} done",
    "cli.analyse.stored": ("{count} game analysed in {path}; skipped (analysed before): {skipped}",
                           "{count} games analysed in {path}; skipped (analysed before): {skipped}"),
    "cli.analyse.ply": "ply",
    "cli.analyse.player": "player",
    "cli.analyse.dice": "dice",
    "cli.analyse.played": "played",
    "cli.analyse.rank": "rank",
    "cli.analyse.equity": "equity",
    "cli.analyse.loss": "loss",
    "cli.analyse.mark": "mark",
    "cli.analyse.level": "level",
    "cli.analyse.luck": "luck",
    "cli.analyse.best": "best",
    "cli.analyse.forced": "forced",
    "cli.analyse.decisions": "decisions",
    "cli.analyse.error-rate": "error rate",
    "cli.analyse.result": "result",
    "cli.analyse.adjusted": "adjusted",
    "cli.write.cannot": "cannot write {path}: {reason}",
    "cli.write.nothing": "nothing written: {reason}",
    "cli.write.left-out": "note: {what}",
    "cli.write.written": ("{count} game written to {path}", "{count} games written to {path}"),
    "cli.convert.errors": ("nothing written: {count} error in {path}",
                           "nothing written: {count} errors in {path}"),
    "cli.search.found": ("{count} game", "{count} games"),
    "cli.search.showing": ", showing {first}-{last}",
    "cli.search.at-ply": " at ply {ply}",
    "cli.search.invalid": "INVALID [{rule}]{where}",
    "cli.search.turns": "{turns} turns",
    "cli.explore.first": "the first {games} games through {position} (there are more: --limit)",
    "cli.explore.games": ("{count} game through {position}", "{count} games through {position}"),
    "cli.explore.game": "game {game}, before ply {ply} ({variant}, {date}, {result})",
    "cli.explore.no-date": "no date",
    "cli.explore.plays": "plays made from it (roll: play, times, share won by who made it):",
    "cli.explore.won": "won {share}",
    "cli.import.summary": ("{count} game imported; duplicates skipped: {duplicates}; refused: {refused}",
                           "{count} games imported; duplicates skipped: {duplicates}; refused: {refused}"),
    "cli.import.kept-invalid": "{count} kept invalid",
    "cli.import.unreadable": ("{count} file unreadable", "{count} files unreadable"),
    "cli.import.turns": "{turns} turns, in {seconds} s",
    "cli.import.into": "{summary}, into {path}",
    "cli.play.help": ("Enter rolls your dice; then type your play (24/18 13/11) or its number in the "
                      "list. hint: the engine's ranking of your plays; double (a rule set with the "
                      "cube); resign N; board; quit (the record is written); help."),
    "cli.play.event": "A game against the engine",
    "cli.play.you": "You",
    "cli.play.you-are": "You are {player} ({letter} on the board), against {engine}. {help}",
    "cli.play.you-play": "You play {dice}",
    "cli.play.your-roll": "Your roll (Enter)",
    "cli.play.hint-first": "roll first (Enter): a hint ranks the plays of your roll",
    "cli.play.roll-first": "roll first (Enter), or type help",
    "cli.play.equities-by": "(equities by {engine})",
    "cli.play.no-play": "{engine} rolls {dice}: no play",
    "cli.play.engine-plays": "{engine} rolls {dice}: {play} (equity {equity})",
    "cli.play.takes": "{engine} takes (its winning chance {chance}%)",
    "cli.play.drops": "{engine} drops (its winning chance {chance}%)",
    "cli.play.you-win": ("You win {count} point.", "You win {count} points."),
    "cli.play.engine-wins": ("The engine wins {count} point.", "The engine wins {count} points."),
    "cli.play.written": "finished game written to {path}; analyse it with: jacquet analyse {path}",
    "cli.play.unfinished": "unfinished game written to {path}; analyse it with: jacquet analyse {path}",
    "cli.analyse.marks": ("marks by the equity the play made loses against the best, in points: "
                          "?! doubtful, {doubtful} or more; ? bad, {bad} or more; "
                          "?? very bad, {very_bad} or more"),
    "cli.analyse.level-key": "level {key}: {level}",
    # the administration and the engine's building: jacquet users, serve, check, train,
    # train-race, train-contact, bearoff, rollout, legal; an archive's analysis
    # an archive's analysis and import
    "cli.import.importing": "importing",
    "cli.import.analysed": ("{count} game analysed; skipped (analysed before): {skipped}",
                            "{count} games analysed; skipped (analysed before): {skipped}"),
    "cli.import.analyse-only": "--ply, --net, --jobs and --confirm are for --analyse",
    "cli.analyse.analysing": ("analysing {count} game", "analysing {count} games"),
    "cli.analyse.stopped": ("stopped: {count} game analysed and stored; run again to go on",
                            "stopped: {count} games analysed and stored; run again to go on"),
    "cli.ctrl-c.held": "Ctrl-C: stopping once the work under way is done (Ctrl-C again stops at once)",
    "cli.analyse.not-a-net": "{path} is not a net file: {reason}",
    "cli.analyse.marks-option": "three rising equities, doubtful,bad,very bad: e.g. 0.04,0.08,0.16",
    "cli.analyse.db-alone": "--db analyses the archive: give no FILES, -o, --json or --game",
    "cli.analyse.no-files": "give the record FILES to analyse, or --db ARCHIVE",
    "cli.analyse.no-game": ("{path} holds {count} game, no game {number}",
                            "{path} holds {count} games, no game {number}"),
    # jacquet users
    "cli.users.no-archive": ("no archive at {path}: make one with `jacquet import` (or `jacquet serve`, "
                             "which builds the demo archive)"),
    "cli.users.password": "Password",
    "cli.users.password.again": "The password again",
    "cli.users.added": "added {name} ({role})",
    "cli.users.none": "no accounts: the viewer is read-only (add one with `jacquet users add`)",
    "cli.users.removed": "removed {name}",
    "cli.users.new-password": "new password for {name}",
    # jacquet serve
    "cli.serve.demo": "no archive at {path}: building a demo archive from the samples",
    "cli.serve.serving": "serving {path} on {address}",
    "cli.serve.bad-host": "{host} is not an address or a known host name",
    "cli.serve.cannot-listen": "cannot listen on {host}:{port}: {reason}",
    "cli.serve.exposed": "{host} is reachable from other machines, over plain HTTP.",
    "cli.serve.accounts": (("{count} account may sign in and write (record and save games; admins also "
                            "hide and delete them); everyone else may browse, search and validate."),
                           ("{count} accounts may sign in and write (record and save games; admins also "
                            "hide and delete them); everyone else may browse, search and validate.")),
    "cli.serve.no-accounts": ("no accounts: the site is read-only (browse, search, validate); to let a "
                              "scorer record and save games: jacquet users add NAME --role scorer "
                              "--db {path}"),
    "cli.serve.in-clear": ("Passwords and session cookies cross the network in clear: for anything but "
                           "a trusted network, serve on 127.0.0.1 behind an HTTPS reverse proxy (Caddy, "
                           "nginx) and set PROXIES = 1 and SESSION_COOKIE_SECURE = True in the instance "
                           "config (docs/server.md)."),
    "cli.serve.hosts": "Host names accepted: {names} (more with --trusted-host NAME).",
    # jacquet check
    "cli.check.damaged": ("{path} is damaged ({count} problem): restore it from a backup",
                          "{path} is damaged ({count} problems): restore it from a backup"),
    "cli.check.ok": "{path}: ok",
    # jacquet train, train-race, train-contact
    "cli.train.blas": "BLAS threads could not be limited; run with OPENBLAS_NUM_THREADS=1",
    "cli.train.no-checkpoint": "--resume: no checkpoint {path}",
    "cli.train.exists": "{path} exists: --resume to continue it, or another -o",
    "cli.train.played-by": "training games played by the {core}",
    "cli.train.against": "{opponent} {rate}% ± {error}",
    "cli.train.checked": "{games} games: {results}",
    "cli.train.checkpoint": "{games} games, checkpoint written ({rate} games/s)",
    "cli.train.progress": "{net}, from game {start}",
    "cli.train.done": "{net}: {games} games, {seconds} s of training; checkpoint {path}, log {log}",
    "cli.train.needs-records": "--real needs --records: the files of recorded games to take them from",
    "cli.train.contact-done": ("{net} for {variant}: {positions} positions × {games} play-outs{truncated}, "
                               "{epochs} epochs; net {path}, learning curve {log}"),
    "cli.train.truncated": (" truncated at {count} ply", " truncated at {count} plies"),
    "cli.train.race-done": ("{net} for {variant}: {positions} positions × {games} play-outs, {epochs} "
                            "epochs; net {path}, learning curve {log}"),
    # jacquet bearoff build
    "cli.bearoff.into": "into {folder}",
    "cli.bearoff.built": "{rule} ({variants}): {positions} positions, {seconds} s, {size} MB, {path}",
    "cli.bearoff.two-sided": ("{rule}, two-sided up to {men} men a side: {pairs} pairs, {seconds} s, "
                              "{size} MB, {path}"),
    # jacquet rollout
    "cli.rollout.two-dice": "a roll is two dice, not {dice}: write e.g. 31",
    "cli.rollout.not-legal": "{play} is not a legal play of {dice}: {reason}; legal: {legal}",
    "cli.rollout.rolling": ("rolling out {count} play", "rolling out {count} plays"),
    "cli.rollout.stopped": (("interrupted: the figures are those of the {count} game completed of {total} "
                             "per candidate"),
                            ("interrupted: the figures are those of the {count} games completed of {total} "
                             "per candidate")),
    "cli.rollout.title": "rollout of {variant} {position}, dice {dice}, by {by}",
    "cli.rollout.by": "{engine} ({digest}) at {ply}-ply, {games} games, {how}, seed {seed}{reduced}",
    "cli.rollout.to-the-end": "played to the end",
    "cli.rollout.truncated": ("truncated after {count} turn", "truncated after {count} turns"),
    "cli.rollout.luck-adjusted": ", luck-adjusted",
    "cli.rollout.interrupted": "INTERRUPTED: {games} of {total} games per candidate",
    "cli.rollout.figures": "figures for the player on roll, each ± one standard error",
    "cli.rollout.no-game": "no game completed",
    "cli.rollout.play": "play",
    "cli.rollout.win": "win",
    "cli.rollout.win-outcome": "win {outcome}",
    "cli.rollout.lose-outcome": "lose {outcome}",
    # jacquet legal
    "cli.legal.no-dice": "give the roll with --dice, e.g. --dice 65",
    "cli.legal.equities-by": "equities by {engine}",
    "cli.legal.empty": "an empty line is no query",
    "cli.legal.too-deep": "the query nests too deeply",
    "cli.legal.not-object": "a query is a JSON object",
    "cli.legal.needs-dice": 'a query needs "dice", e.g. "65"',
    "cli.legal.dice": '"dice" is a roll: "65", 65 or [6, 5]',
    "cli.legal.options": '"options" is a JSON object',
    "cli.legal.position": '"position" is a position ID string',
    # the other commands' refusals
    "cli.option.form": "{option} is not NAME=VALUE",
    "cli.export.unreadable": "game {game} cannot be read back, nothing written: {reason}",
}
