"""Mutation testing of the readers on real records (issue 8): one play or one die of a real
``.mat`` match or of a sample game corrupted at a time must be caught at its turn, or be
a legal play whose consequence shows later, or make a genuinely different legal game.
``tests/corruption.py`` defines the records, the mutants and what "caught" means;
``bench/mutants.py`` runs every mutant of every record and reports the counts.

Here a sample: the records a fresh clone has (the sample games, ``tests/data/mat``) and,
where the shared corpus is present (CI), 20 of its matches; **mutants: the environment
variable ``JACQUET_MUTANTS``, default 500** (about five seconds), drawn with a fixed seed
spread over records, sites and kinds.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from notation import IllegalPlayError, Position, rule_set
from notation.engine.dice import Dice
from notation.engine.state import Colour, GameState
from notation.formats import read_file
from notation.formats.dialects import play_as_exported
from notation.tree.game import GameNode

from .corruption import (
    GOOD,
    KINDS,
    Mutant,
    Record,
    corrupt,
    jqn_records,
    load,
    mat_record,
    mutant,
    try_mutant,
)
from .fuzzing import real_mat_paths

MUTANTS = int(os.environ.get("JACQUET_MUTANTS", "500"))
SHARED_MATCHES = 20


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


@pytest.fixture(scope="module")
def records(scratch) -> list[Record]:
    rng = random.Random(8)
    local = real_mat_paths(shared=False)
    shared = [p for p in real_mat_paths() if p not in local]
    paths = local + rng.sample(shared, min(SHARED_MATCHES, len(shared)))
    candidates = jqn_records() + [mat_record(p) for p in paths]
    loaded = [load(record, scratch) for record in candidates]
    assert all(loaded), [c.name for c, r in zip(candidates, loaded, strict=False) if r is None]
    return loaded


def test_the_records_have_sites_in_both_formats(records):
    assert {r.fmt for r in records if r.sites} == {"jqn", "mat"}


def test_an_unchanged_play_written_step_by_step_reads_as_the_record(records, scratch):
    """The control for the splicing: a site's own dice and steps, written back in its place
    one move per step, leave a record that reads without error."""
    rng = random.Random(3)
    for record in rng.sample(records, 15):
        for index in rng.sample(range(len(record.sites)), min(5, len(record.sites))):
            turn = record.sites[index].node.turn
            same = Mutant(index, "none", turn.dice,
                          tuple((s.from_point, s.to_point) for s in turn.play.steps))
            path = scratch / f"same.{record.fmt}"
            path.write_text(corrupt(record, same), encoding="utf-8")
            assert not [e for g in read_file(path, record.fmt) for e in g.errors], record.name


@pytest.mark.long
def test_corrupted_plays_and_dice_are_caught_or_legal(records, scratch):
    rng = random.Random(1)
    verdicts: Counter = Counter()
    failures = []
    sites = [(record, index) for record in records for index in range(len(record.sites))]
    while sum(verdicts.values()) < MUTANTS:
        record, index = rng.choice(sites)
        kind = KINDS[sum(verdicts.values()) % len(KINDS)]
        changed = mutant(record, index, kind, rng)
        if changed is None:
            continue
        verdict, _ = try_mutant(record, changed, scratch)
        verdicts[kind, verdict] += 1
        if verdict not in GOOD:
            failures.append((record.name, record.sites[index].line, changed, verdict))
    assert not failures, failures[:5]
    for kind in KINDS:  # every kind made some mutants (another legal play is never caught)
        assert verdicts[kind, "later" if kind == "legal" else "caught"] > 0, kind
    for kind in ("swap", "empty"):  # never legal: a move written backwards, a man not there
        assert sum(n for (k, _), n in verdicts.items() if k == kind) == verdicts[kind, "caught"]


def test_a_play_of_more_steps_than_dice_is_refused_where_its_chains_merge():
    """Found by mutating a real match: the leniency for GNU Backgammon's step-by-step moves
    merged ``3/2 2/0`` and took ``61: 3/2 2/0 2/1``, three steps, for the legal ``3/off
    2/1``."""
    rules = rule_set("backgammon")
    node = GameNode(None, None, GameState(rules, Position.from_points({3: 1, 2: 2}, {24: 2}),
                                          Colour.WHITE))
    with pytest.raises(IllegalPlayError) as refused:
        play_as_exported(node, Dice(6, 1), "3/2 2/0 2/1", [], str)
    assert refused.value.rule_id == "R-DICE" and not node.variations
    assert str(play_as_exported(node, Dice(6, 1), "3/2 2/0", [], str).turn) == "61: 3/2/off"
