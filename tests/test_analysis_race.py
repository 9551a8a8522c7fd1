"""The position classes (issue 35) and the race evaluator: the class of hand-built
positions of every rule set, the fast classes against the rule set's own on random
positions, the judge's choice of evaluator by class, the race net's name, rolled-out
targets against positions whose result is certain, and a supervised fit on exact
bear-off targets."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from analysis.bearoff import exact_outputs
from analysis.board_judge import BoardJudge
from analysis.network import Network
from analysis.race import BEAROFF, CLASS_NAMES, CONTACT, RACE, RaceInputs, RaceNet, by_class, classes, places
from analysis.race_training import RaceRecipe, RaceTrainer, rollout_targets
from analysis.supervised import Adam, epoch, loss
from notation import BAR, OFF, Position, rule_set
from notation.engine.rules import NAMES
from notation.engine.rules.base import POSITION_CLASSES
from tests.fast_positions import random_primes

SAME_WAY = ("jacquet", "murray", "versailles", "hale", "narde", "fevga")
"""The rule sets where both sides run the same way (my ``p`` is his ``p ± 12``)."""


def position(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    """A position from {point: men} of each side in its own numbering; the rest off."""
    sides = []
    for men in (mover, opponent):
        counts = [0] * 26
        for point, count in men.items():
            counts[point] += count
        counts[OFF] += 15 - sum(men.values())
        sides.append(tuple(counts))
    return Position(sides[0], sides[1])


def test_every_rule_set_says_how_its_sides_run() -> None:
    for name in SAME_WAY:
        assert rule_set(name).opposite[13] == 1
    assert rule_set("backgammon").opposite[1] == 24


@pytest.mark.parametrize("name", SAME_WAY)
def test_classes_where_both_sides_run_the_same_way(name: str) -> None:
    rules = rule_set(name)
    # both sides home: the tables
    assert rules.position_class(position({6: 5, 2: 10}, {5: 7, 1: 8})) == "bearoff"
    # my men on my 12 and 2, his on his 11 and 4 (my 23 and 16): every man has passed
    # every man of the other side
    assert rules.position_class(position({12: 5, 2: 10}, {11: 7, 4: 8})) == "race"
    # one man of mine on my 14 (his 2, in his home): his men on his 11 must pass it
    assert rules.position_class(position({14: 1, 12: 4, 2: 10}, {11: 7, 4: 8})) == "contact"
    # my man on my 20 (his 8) has his men on my 16 ahead of it
    assert rules.position_class(position({20: 1, 2: 14}, {4: 15})) == "contact"
    # the start: every man still to pass every other
    assert rules.position_class(rules.start) == "contact"


def test_classes_in_backgammon() -> None:
    rules = rule_set("backgammon")
    assert rules.position_class(position({6: 5, 2: 10}, {5: 7, 1: 8})) == "bearoff"
    # my rearmost on my 8, his on his 10 (my 15): passed
    assert rules.position_class(position({8: 5, 3: 10}, {10: 7, 5: 8})) == "race"
    # my man on my 24 (his 1) still has his men on his 10 and 5 to pass
    assert rules.position_class(position({24: 1, 3: 14}, {10: 7, 5: 8})) == "contact"
    # a man on the bar must enter behind his men
    assert rules.position_class(position({BAR: 1, 3: 14}, {5: 15})) == "contact"
    # a man of mine still outside my home in a race: not a bear-off
    assert rules.position_class(position({7: 1, 3: 14}, {5: 15})) == "race"
    assert rules.position_class(rules.start) == "contact"


def test_a_man_on_the_bar_in_murray_is_contact() -> None:
    rules = rule_set("murray")
    assert rules.position_class(position({BAR: 1, 2: 14}, {4: 15})) == "contact"


def racing_position(rules_name: str, rng: random.Random) -> Position:
    """A position near the end of contact: my men up to a random point, his men on his
    points that lie at or beyond a point near it on my route (a race or just not); one in
    ten with both sides home."""
    rules = rule_set(rules_name)
    edge = rng.randint(1, 20)
    mover = [0] * 26
    opponent = [0] * 26
    mine = list(range(1, edge + 1))
    if rng.random() < 0.1:  # both sides home
        edge, mine = 6, list(range(1, 7))
    for _ in range(15):
        if rng.random() < 0.15:
            mover[OFF] += 1
        else:
            mover[rng.choice(mine)] += 1
    slack = rng.randint(-4, 2)
    his = [q for q in range(1, 25) if rules.opposite[q] >= edge + slack and not mover[rules.opposite[q]]]
    if edge == 6 and rng.random() < 0.5:
        his = list(range(1, 7))
    his = [q for q in his if not mover[rules.opposite[q]]] or [q for q in range(1, 25) if not mover[rules.opposite[q]]]
    for _ in range(15):
        if rng.random() < 0.15:
            opponent[OFF] += 1
        else:
            opponent[rng.choice(his)] += 1
    return Position(tuple(mover), tuple(opponent))


def racing_boards(name: str, rng: random.Random) -> tuple[list[Position], np.ndarray]:
    """1,500 :func:`racing_position` of ``name`` and their 52 counts as one array."""
    positions = [racing_position(name, rng) for _ in range(1500)]
    return positions, np.array([p.mover + p.opponent for p in positions], dtype=np.int8)


@pytest.mark.parametrize("name", NAMES)
def test_the_fast_classes_are_the_rule_sets(name: str) -> None:
    rules = rule_set(name)
    positions, boards = racing_boards(name, random.Random(7))
    fast = classes(rules, boards)
    reference = [CLASS_NAMES.index(rules.position_class(p)) for p in positions]
    assert fast.tolist() == reference
    counts = np.bincount(fast, minlength=3)
    assert counts[RACE] > 100 and counts[CONTACT] > 100 and counts[BEAROFF] > 10


@pytest.mark.parametrize("name", NAMES)
def test_the_kernels_classes_and_race_inputs_are_the_references(name: str) -> None:
    from analysis.fast import race as kernels  # imports numba

    rules = rule_set(name)
    rng = random.Random(11)
    positions, boards = racing_boards(name, rng)
    if rules.position_classes == POSITION_CLASSES:
        fast = kernels.classes(boards, places(rules))
        assert fast.tolist() == [CLASS_NAMES.index(rules.position_class(p)) for p in positions]
    primes = random_primes(rng, len(positions))
    inputs = RaceInputs(rules)
    for flags in (primes, None):
        reference = inputs.encode(boards, flags)
        held = flags if flags is not None else np.zeros_like(primes)
        fast_inputs = kernels.race_inputs(boards, held, rules.tracks_prime, inputs.side_size)
        assert fast_inputs.dtype == np.float32 and np.array_equal(fast_inputs, reference)


def _race_net(variant: str, bias: float) -> RaceNet:
    """A race net whose outputs are all sigmoid(``bias``) (zero weights)."""
    net = RaceNet.create(variant, hidden=4)
    net.w2[:] = 0.0
    net.b2[:] = bias
    return net


def test_the_judge_chooses_the_evaluator_by_class() -> None:
    rules = rule_set("backgammon")
    contact = Network.create("backgammon", hidden=8, seed=3)
    boards = np.array([p.mover + p.opponent for p in (
        position({8: 5, 3: 10}, {10: 7, 5: 8}),        # race
        position({24: 1, 3: 14}, {10: 7, 5: 8}),       # contact
    )], dtype=np.int8)
    alone = BoardJudge(contact, rules).judge(boards, None).raw.copy()
    contact.race = _race_net("backgammon", 3.0)
    for loaded in (False, True):  # numpy's classes and race inputs, or the kernels'
        judge = BoardJudge(contact, rules)
        if loaded:
            judge.load_kernels()
        both = judge.judge(boards, None)
        assert np.allclose(both.raw[0], 1 / (1 + np.exp(-3.0)))
        assert np.array_equal(both.raw[1], alone[1])
        # the outcomes no longer possible stay 0 whichever net judges: nobody has a man
        # in the other's home, so no backgammon
        assert both.y[0, 2] == 0.0 and both.y[0, 4] == 0.0


def test_the_reference_judge_chooses_as_the_fast_one() -> None:
    rules = rule_set("jacquet")
    contact = Network.create("jacquet", hidden=8, seed=3)
    contact.race = _race_net("jacquet", -2.0)
    raw = np.zeros((2, 3), np.float32)
    boards = np.array([p.mover + p.opponent for p in (
        position({12: 5, 2: 10}, {11: 7, 4: 8}), position({20: 1, 2: 14}, {4: 15}))], dtype=np.int8)
    judged = by_class(contact.race, rules, boards, None, raw)
    assert np.allclose(judged[0], 1 / (1 + np.exp(2.0))) and not judged[1].any()


def test_the_race_net_is_named_beside_the_contact_net() -> None:
    net = Network.create("backgammon", hidden=8)
    alone, digest = net.name, net.digest
    net.race = _race_net("backgammon", 0.0)
    assert net.name == f"{alone} + race r1"
    assert net.digest != digest
    # fitted again (the same inputs) to a new contact net's play-outs: the next release
    net.race.meta["release"] = 2
    assert net.name == f"{alone} + race r2"


def test_a_rollout_of_a_certain_race_gives_its_result() -> None:
    rules = rule_set("backgammon")
    judge = BoardJudge(Network.create("backgammon", hidden=8, seed=1), rules)
    # I have just moved: one man left on my 1; he has all 15 on his 12, none off: he
    # cannot bear off before my next turn, so I win a gammon (not a backgammon: none of
    # his men is in my home, his 19-24)
    certain = position({1: 1}, {12: 15})
    # he has just moved, his 15 men on his 12; I (to act) have one man on my 1: I win a
    # gammon whatever he does: he loses a gammon
    lost = position({12: 15}, {1: 1})
    boards = np.array([certain.mover + certain.opponent, lost.mover + lost.opponent], np.int8)
    targets = rollout_targets(judge, boards, 8, seed=1, first=0)
    assert targets[0].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert targets[1].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize(("held", "punto"), [(True, 0.0), (False, 1.0)])
def test_a_prime_held_keeps_its_flag_through_a_play_out(held: bool, punto: float) -> None:
    """murray's marcia per punto needs a winner who never held a prime: the flag of a prime
    held before the race goes with the position to the game's end."""
    rules = rule_set("murray")
    judge = BoardJudge(Network.create("murray", hidden=8, seed=1), rules)
    # I have just moved: one man left on my 1 (rear-most: any die bears it off); his 15 men
    # on his 12, none off: I win next turn, a marcia, per punto unless I held a prime
    race = position({1: 1}, {12: 15})
    assert classes(rules, np.array([race.mover + race.opponent], np.int8)).tolist() == [RACE]
    boards = np.array([race.mover + race.opponent], np.int8)
    # (I, he) have held a prime
    targets = rollout_targets(judge, boards, 8, seed=1, first=0, primes=np.array([[held, False]]))
    assert targets[0].tolist() == [1.0, 1.0, punto, 0.0, 0.0]


def test_murray_race_positions_keep_their_prime_flags(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Sampled from self-play, murray's race positions come with each side's prime flag
    (the shipped engine's games hold primes), its inputs among the race net's, and a
    resumed run gives the same net."""
    from analysis.shipped import load_net

    rules = rule_set("murray")
    engine = load_net("murray", race=False)
    recipe = RaceRecipe(positions=24, games=2, keep=0.5, epochs=4, hidden=8, seed=3)
    trainer = RaceTrainer(tmp_path / "whole.npz", engine, rules, recipe, report=lambda _: None)
    whole = trainer.fit()
    boards, primes = trainer.positions(), trainer.primes()
    assert primes is not None and primes.shape == (24, 2) and primes.any()
    assert (classes(rules, boards) == RACE).all()
    inputs = whole.inputs.encode(boards, primes)
    assert inputs.shape == (24, 278)
    side = whole.inputs.side_size
    assert inputs[:, side - 1].tolist() == primes[:, 0].tolist()
    assert inputs[:, 2 * side - 1].tolist() == primes[:, 1].tolist()
    short = RaceRecipe(**{**recipe.__dict__, "epochs": 2})
    cut = RaceTrainer(tmp_path / "cut.npz", engine, rules, short, report=lambda _: None)
    cut.positions(chunk=3)  # sampled a few games at a time, saved after each: the same flags
    assert np.array_equal(cut.positions(), boards) and np.array_equal(cut.primes(), primes)
    cut.fit()
    resumed = RaceTrainer(tmp_path / "cut.npz", engine, rules, recipe, report=lambda _: None).fit()
    assert resumed.digest == whole.digest


def _bear_offs(count: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        sides = []
        for _side in range(2):
            counts = [0] * 26
            for _man in range(rng.randint(1, 15)):
                counts[rng.randint(1, 6)] += 1
            counts[OFF] = 15 - sum(counts)
            sides.append(tuple(counts))
        out.append(sides[0] + sides[1])
    return np.array(out, dtype=np.int8)


def test_a_supervised_fit_reduces_its_loss_on_exact_targets() -> None:
    rules = rule_set("jacquet")
    boards = _bear_offs(600, 5)
    exact, targets = exact_outputs(rules, [Position(tuple(b[:26]), tuple(b[26:])) for b in boards.tolist()])
    assert exact.all()
    targets = targets.astype(np.float32)
    net = RaceNet.create("jacquet", hidden=16, seed=2)
    x = net.inputs.encode(boards)
    train, held = slice(0, 500), slice(500, 600)
    before = (loss(net, x[train], targets[train]), loss(net, x[held], targets[held]))
    adam = Adam(rate=0.01)
    for _ in range(15):
        epoch(net, adam, x[train], targets[train], 32, seed=2)
    after = (loss(net, x[train], targets[train]), loss(net, x[held], targets[held]))
    assert after[0] < 0.7 * before[0] and after[1] < 0.7 * before[1]


def test_race_training_resumes_to_the_same_net(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rules = rule_set("jacquet")
    contact = Network.create("jacquet", hidden=8, seed=4)
    recipe = RaceRecipe(positions=12, games=4, keep=0.5, epochs=6, hidden=8, seed=3)
    whole = RaceTrainer(tmp_path / "whole.npz", contact, rules, recipe, report=lambda _: None).fit()
    short = RaceRecipe(**{**recipe.__dict__, "epochs": 2})
    RaceTrainer(tmp_path / "cut.npz", contact, rules, short, report=lambda _: None).fit()
    resumed = RaceTrainer(tmp_path / "cut.npz", contact, rules, recipe, report=lambda _: None).fit()
    assert np.array_equal(whole.w1, resumed.w1) and np.array_equal(whole.b2, resumed.b2)
    assert RaceNet.load(tmp_path / "cut.npz").digest == whole.digest
    curve = (tmp_path / "cut.log.jsonl").read_text().splitlines()
    assert len(curve) == 6


def test_jacquet_train_race_goes_on_where_it_stopped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from jacquet_cli.train_race import train_race_command

    out = tmp_path / "jacquet-race.npz"
    args = ["--variant", "jacquet", "--positions", "10", "--games", "2", "--hidden", "4",
            "--release", "2", "-o", str(out), "-q"]
    first = CliRunner().invoke(train_race_command, [*args, "--epochs", "2"])
    assert first.exit_code == 0, first.output
    assert len((tmp_path / "jacquet-race.log.jsonl").read_text().splitlines()) == 2
    again = CliRunner().invoke(train_race_command, [*args, "--epochs", "3"])
    assert again.exit_code == 0, again.output
    assert len((tmp_path / "jacquet-race.log.jsonl").read_text().splitlines()) == 3
    net = RaceNet.load(out)
    # the net of the epoch with the lowest held-out loss
    curve = [json.loads(line) for line in (tmp_path / "jacquet-race.log.jsonl").read_text().splitlines()]
    best = min(curve, key=lambda row: row["held_out"])
    assert net.meta["epochs"] == best["epoch"] and net.meta["positions"] == 10
    assert net.name == "race r2"


@pytest.mark.parametrize("name", NAMES)
def test_a_rule_set_and_its_engine_go_to_worker_processes(name: str) -> None:
    import pickle

    rules = rule_set(name)
    copy = pickle.loads(pickle.dumps(rules))
    assert copy.position_class(copy.start) == "contact"
    net = Network.create("jacquet", hidden=4)
    net.race = _race_net("jacquet", 0.0)
    assert pickle.loads(pickle.dumps(net)).name == net.name


def test_a_shipped_race_net_of_another_rule_set_is_refused(tmp_path, monkeypatch):
    """The race net shipped beside a rule set's net must be of that rule set, as the contact
    net must: a backgammon race net under jacquet's name would judge jacquet's races."""
    import analysis.race
    from analysis.race import RaceNet
    from analysis.shipped import NoNet, load_net

    path = tmp_path / "jacquet-race.npz"
    RaceNet.create("backgammon", 8, seed=1).save(path)
    monkeypatch.setattr(analysis.race, "shipped_race_path", lambda variant: path)
    with pytest.raises(NoNet, match="backgammon"):
        load_net("jacquet")


def test_a_candidate_net_plays_with_the_shipped_race_net(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A contact net given as a file judges alone when loaded (``--net FILE``), and plays
    with the rule set's shipped race net beside it when it is measured as a candidate or
    fitted from (``playing_net``), so that its races are played as the shipped engine's."""
    from analysis.shipped import load_net, playing_net

    path = tmp_path / "candidate.npz"
    Network.create("jacquet", hidden=8).save(path)
    shipped = load_net("jacquet")
    assert load_net("jacquet", path).race is None
    candidate = playing_net("jacquet", path)
    assert candidate.race is not None and candidate.race.digest == shipped.race.digest
    assert candidate.name.endswith(shipped.name.split(" + ")[1])
    assert playing_net("jacquet").digest == shipped.digest


def test_jacquet_train_race_samples_with_the_policy_given(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``--policy FILE``: the race positions are sampled and played out by the contact net
    in FILE, not the shipped one, so that a race net fitted to a contact net's races is
    made again by its command once another contact net is shipped."""
    from click.testing import CliRunner

    from analysis import race_training
    from analysis.shipped import load_net
    from jacquet_cli.train_race import train_race_command

    seen: list[str] = []
    made = race_training.RaceTrainer.__init__

    def spy(self, path, net, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(net.digest)
        made(self, path, net, *args, **kwargs)

    monkeypatch.setattr(race_training.RaceTrainer, "__init__", spy)
    policy = tmp_path / "policy.npz"
    Network.create("jacquet", hidden=8).save(policy)
    args = ["--variant", "jacquet", "--positions", "10", "--games", "2", "--hidden", "4", "--epochs", "1", "-q"]
    given = CliRunner().invoke(train_race_command, [*args, "--policy", str(policy), "-o", str(tmp_path / "a.npz")])
    assert given.exit_code == 0, given.output
    shipped = CliRunner().invoke(train_race_command, [*args, "-o", str(tmp_path / "b.npz")])
    assert shipped.exit_code == 0, shipped.output
    assert seen == [Network.load(policy).digest, load_net("jacquet", race=False).digest]
    assert RaceNet.load(tmp_path / "a.npz").digest != RaceNet.load(tmp_path / "b.npz").digest
