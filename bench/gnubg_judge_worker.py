"""GNU Backgammon's judgement of every play of some matches: run *inside* gnubg, by
``bench/gnubg_judge.py`` (``gnubg -t -q -p bench/gnubg_judge_worker.py``), never imported by
the project (gnubg is GPL; this script only drives it, with Python's standard library).

The job is a JSON file named by the environment variable ``GNUBG_JUDGE_JOB``::

    {"plies": 2, "filter": [16, 0.32],
     "matches": [{"file": "/path/match.mat", "output": "/path/cache.json", "key": {...}}]}

For each match: gnubg's own importer reads the ``.mat`` (``import mat``), and for every
move record (the position before the play, from the mover's side, the dice, the play made)
gnubg's own move generator lists the legal plays with their 0-ply equities (``hint``, in a
money session without Jacoby, that position and those dice set, cubeless); the play made
and, as gnubg's own analysis filters them, the best ``filter[0]`` within ``filter[1]`` of
the best at 0-ply are judged again at ``plies``. Every equity is the mover's *cubeless
money* equity after the play: P(win) − P(lose) + the gammon and backgammon chances, each
counted once more. A play's result is named by the position ID seen by the next player, as
``Position.position_id()`` names it in the project, so that the two sides meet by ID.

Written per match to its ``output``: ``{"key", "games": [[decision, ...], ...]}`` with each
decision ``{"position", "dice", "player", "played", "class", "plays": [[after ID, equity,
equity at 0-ply, gnubg's notation, depth of the first], ...]}`` (best first by the first
equity); ``class`` is gnubg's class of the position before (``classifypos``: 0 over, 1-7
bear-offs and hypergammon, 8 race, 9 crashed, 10 contact).
"""

import json
import os

import gnubg  # the running gnubg's own module: this script exists only inside it

SETUP = (
    "set confirm new off",
    "set player 0 human",
    "set player 1 human",
    "set jacoby off",
    "set evaluation chequerplay evaluation cubeful off",
    "set evaluation chequerplay evaluation prune on",
    "set evaluation chequerplay evaluation deterministic on",
    "set evaluation chequerplay evaluation plies 0",
)
MONEY = gnubg.cubeinfo(1, 0, 0, 0, (0, 0), 0, 0)
"""A money game's cube (gammons count double): only its gammon prices matter, cubeless."""


def play_out(board, steps):
    """The board after ``steps`` (gnubg's (from, to) pairs, 25 the bar, 0 off) for the side
    on roll (``board[1]``), seen by the other side (the turn passes)."""
    mover, opponent = list(board[1]), list(board[0])
    for start, end in steps:
        mover[start - 1] -= 1
        if end > 0:
            mover[end - 1] += 1
            facing = 24 - end  # the mover's point ``end`` in the opponent's numbering, 0-based
            if opponent[facing] == 1:
                opponent[facing] = 0
                opponent[24] += 1
    return (mover, opponent)


def equity(board, context):
    """The cubeless money equity, for the side *not* on roll in ``board``, of ``board``
    judged by gnubg under ``context``."""
    win, win2, win3, lose2, lose3 = gnubg.evaluate(board, MONEY, context)[:5]
    return -(2 * win - 1 + win2 + win3 - lose2 - lose3)


def judge(board_id, dice, played, job):
    """Every legal play of ``dice`` from the position ``board_id``: [after ID, equity at
    ``plies``, at 0-ply, notation, depth of the first], best first. As gnubg's own analysis
    does, the plays its 0-ply puts ``window`` or more behind its best, past the ``keep``
    best, are not judged deeper (their 0-ply equity stands, depth 0); the play made (the
    position ``played`` leaves) always is. A forced play is listed unjudged."""
    gnubg.command(f"set board {board_id}")
    gnubg.command(f"set dice {dice[0]} {dice[1]}")
    board = gnubg.board()
    if gnubg.positionid(board) != board_id:
        raise RuntimeError(f"gnubg set {board_id} but shows {gnubg.positionid(board)}")
    hints = gnubg.hint(10000)["hint"]  # every legal play at 0-ply, best first
    deeper = gnubg.evalcontext(0, job["plies"], 1, 1, 0.0)
    keep, window = job["filter"]
    plays = []
    for rank, hint in enumerate(hints):
        after = play_out(board, gnubg.parsemove(hint["move"]))
        after_id = gnubg.positionid(after)
        if len(hints) == 1:
            plays.append([after_id, None, None, hint["move"], 0])
            continue
        zero = hint["equity"]
        if after_id == played or (rank < keep and hints[0]["equity"] - zero < window):
            plays.append([after_id, equity(after, deeper), zero, hint["move"], job["plies"]])
        else:
            plays.append([after_id, zero, zero, hint["move"], 0])
    plays.sort(key=lambda p: -(p[1] or 0.0))
    return plays


def match_decisions(path, job):
    """Each game's move records judged."""
    gnubg.command(f'import mat "{path}"')
    records = gnubg.match(0, 1, 0, 0)
    gnubg.command("new session")
    gnubg.command("new game")
    games = []
    for game in records["games"]:
        decisions = []
        for record in game["game"]:
            if record.get("action") != "move" or not record.get("dice") or not record.get("move"):
                continue  # a cube action, or "Cannot Move": no play to judge
            board_id, dice = record["board"], tuple(sorted(record["dice"], reverse=True))
            board = gnubg.positionfromid(board_id)
            played = gnubg.positionid(play_out(board, record["move"]))
            plays = judge(board_id, dice, played, job)
            decisions.append({"position": board_id, "dice": f"{dice[0]}{dice[1]}",
                              "player": record["player"], "played": played,
                              "class": gnubg.classifypos(board, 0), "plays": plays})
        games.append(decisions)
    return games


def main():
    with open(os.environ["GNUBG_JUDGE_JOB"], encoding="utf-8") as file:
        job = json.load(file)
    for command in SETUP:
        gnubg.command(command)
    for match in job["matches"]:
        games = match_decisions(match["file"], job)
        partial = match["output"] + ".part"
        with open(partial, "w", encoding="utf-8") as file:
            json.dump({"key": match["key"], "games": games}, file)
        os.replace(partial, match["output"])
        print(f"gnubg-judge: {match['file']}: {sum(map(len, games))} move records", flush=True)


main()
