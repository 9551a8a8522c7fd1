"""The English catalog of the rules' messages: why a play is illegal (one message or more
for every rule id of ``docs/rules.md`` an error can name), why a position or a roll does
not fit a rule set, and a rule set's unknown options.

Placeholders: ``{step}`` a single step or written move as notation (``24/18``, ``13/7
(in 13/7/1)``), ``{play}`` a written play, ``{example}`` a legal play, ``{point}`` and
the like point numbers (``bar``, ``off``), ``{roll}`` dice as ``5-3``."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # the labels of a player's error rate on a rule set's scale (RuleSet.skill)
    "skill.supernatural": "Supernatural",
    "skill.world-class": "World class",
    "skill.expert": "Expert",
    "skill.advanced": "Advanced",
    "skill.intermediate": "Intermediate",
    "skill.casual": "Casual player",
    "skill.beginner": "Beginner",
    "skill.awful": "Awful",
    # the lists and counts the rules' sentences hold
    "list.or": "{items} or {last}",
    "list.and": "{items} and {last}",
    "count.dice": ("{count} die", "{count} dice"),
    "count.steps": ("{count} step", "{count} steps"),
    "count.men": ("{count} man", "{count} men"),
    "rule.step-in-move": "{step} (in {move})",
    # the rules every rule set shares (notation.engine.movegen, notation.engine.checker)
    "rule.empty": "{step} moves from point {point}, where you have no man",
    "rule.bar": "{step} moves another man while a man is on the bar",
    "rule.open": ("{step} lands on point {point}, closed by {count} opposing man",
                  "{step} lands on point {point}, closed by {count} opposing men"),
    "rule.bearoff.outside": "{step} bears off while men are still outside points 6-1 (on {point})",
    "rule.bearoff.higher": ("{step} bears off with a {die} from {point} while a man stands higher, "
                            "on {higher}"),
    "rule.bearoff.rear": ("{step} bears off from {point}; only men on the rear-most point, {rear}, "
                          "may be borne off"),
    "rule.broken": "{step} breaks {rule}",
    "rule.hit.on-the-way": ("{move} would hit on {point} on the way: a hit on a rest point is "
                            "written, as {start}/{point}*/..."),
    "rule.hit.none-there": "{move} marks a hit on {point}, but no lone opposing man is there",
    "rule.hit.no-hitting": "{move} marks a hit, but {rules} has no hitting",
    "rule.ambiguous": "{play} can mean {meanings}: write the rest point",
    "rule.max": "{play} plays {played} of {roll}; {most} can be played, e.g. {example}",
    "rule.max.doublet": "{play} plays {played} of {die}; {most} can be played, e.g. {example}",
    "rule.waste": "{play} bears off {borne}; {best} can be borne off, e.g. {example}",
    "rule.high": ("{play} plays the {die}; when only one die can be played it must be the higher, "
                  "{high}, e.g. {example}"),
    "rule.doublet": ("{play} does not fit {roll}: a doublet gives {steps} steps of {die} "
                     "({pips} pips), the play moves {moved}"),
    "rule.dice": "{play} does not fit the roll {roll}: it moves {moved} pips, the dice give steps of {faces}",
    "rule.one-die": ("one die ({dice}) is no roll in {rules}: a turn is played with two dice (one die "
                     "is passed only in versailles, R-PASS)"),
    # the rule sets' own rules (notation.engine.rules)
    "rule.courier.not-passed": ("{step} moves a second man while the courier, on {point}, has not "
                                "reached points 6-1"),
    "rule.courier.next-turn": ("{step} moves a second man in the turn the courier reached points 6-1 "
                               "(courier_release=next-turn: the other men move from the next turn)"),
    "rule.bouchon.courier": ("{step} makes a block on points {points} wholly ahead of the opponent's "
                             "courier on his {their} (your {yours})"),
    "rule.bouchon.talon": ("{step} makes a block on points {points} wholly ahead of the opponent's "
                           "talon (no man has left it) on his {their} (your {yours})"),
    "rule.bouchon.first-quarter": "{step} fills all six points 24-19 while point 1 is not held",
    "rule.bouchon.last-two": ("{step} leaves a block on points {points} without holding points 2 "
                              "and 1 (bouchon=last-two)"),
    "rule.sixblock": ("{step} makes six points in a row ({points}) with none of the opponent's men "
                      "past them: his most advanced men stand on his {their} (your {yours})"),
    "rule.sixblock.option": ("{step} makes six points in a row ({points}) with none of the "
                             "opponent's men past them: his most advanced men stand on his {their} "
                             "(your {yours}) ({option})"),
    "rule.fevga.runner": ("{step} takes a second man off the head while the runner, on {point}, has "
                          "not passed the opponent's head (points 11-1)"),
    "rule.fevga.home-quarter": "{step} fills all six points 24-19, the own starting quarter",
    "rule.fevga.unblock": ("{play} keeps all six points {points} in front of the opponent's men (his "
                           "{their}, your {yours}); a play that opens one of them is legal "
                           "(prime=unblock)"),
    "rule.murray.starting-table": ("{step} would close a third point in the starting table "
                                   "({points}); at most two may be closed"),
    "rule.murray.midpoint": "{step} puts a third man on point 13; at most two may stand there",
    "rule.narde.head.first-turn": ("{step} takes a third man off the head; in the first turn, with "
                                   "{doublets}, two may leave it ({option})"),
    "rule.narde.head": ("{step} takes a second man off the head in this turn; one may leave it a "
                        "turn, two only in a player's first turn with {doublets} ({option})"),
    # a step refused in the recorder (notation.engine.step_entry)
    "step.refused": "{reason}. Steps that lead to a legal play: {steps}",
    "step.none": "none",
    "step.no-die": "no {die} is left to play",
    "step.no-finish": "{step} would leave no legal play to finish the roll",
    # rule sets, their options and positions
    "rules.title.jacquet": "Jacquet",
    "rules.title.versailles": "Jacquet de Versailles",
    "rules.title.hale": "Hale's Jacquet (1888)",
    "rules.title.murray": "Jacquet after Murray",
    "rules.title.narde": "Long nardy",
    "rules.title.fevga": "Fevga",
    "rules.title.backgammon": "Backgammon",
    "rules.unknown": "unknown rule set {name}; known: {known}",
    "rules.no-such-option": "rule set {name} has no option among {options}; its options: {known}",
    "option.choice": "{option} is {choices}, not {value}",
    "option.whole-number": "{option} is a whole number >= 0, not {value}",
    "position.no-bar": "{rules} has no bar, but the position has men on it",
    "position.shared-point": "both sides have men on one point (the mover's {point})",
    "position.not-over": "the game is not over: the mover has men left",
}
