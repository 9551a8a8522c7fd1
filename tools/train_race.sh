#!/usr/bin/env bash
# Train the shipped race nets (issue 35; docs/analysis.md, "The race evaluator"): for each
# rule set, race positions sampled from the shipped engine's self-play, each played out 36
# times by the engine (closed exactly where both sides are home), the net fitted to the
# results (seed 1). Each line samples and plays out with the contact net its race net was
# fitted to: the shipped one, or, once another contact net is shipped, the one kept in
# history/ (named with --policy), so that the line reproduces the shipped race net.
#   - backgammon: race r1 (session 19), fitted to the v1 contact net's races; fitted again
#     to v6's (r2, session 30) it was no better in gnubg's eyes, so r1 stays.
#   - hale: race r1 (session 20), fitted to the races of the contact net of 150,000 games
#     (80 units), kept as history/hale-150000.npz since the 160-unit net of 600,000 games
#     replaced it (session 33): its line names that net as --policy.
#   - murray: race r1, the prime flags followed through its positions and
#     play-outs, with the 170,000-game contact net (v1), kept as history/murray-170000.npz
#     since the 160-unit v2 net of 600,000 games replaced it (session 33): its line names
#     that net as --policy.
#   - jacquet and versailles: race r2, fitted again to the play-outs of the new
#     contact nets (jacquet's of 165,000 games, versailles' of 190,000); their r1 were fitted to
#     the old contact nets' games, and on the new ones' race positions r2 is the better.
#     The contact nets shipped since (jacquet's in session 31, versailles' in session 33) are
#     160-unit nets of 600,000 games: each line names the net its r2 was fitted to as --policy.
#     Fitted again to the 160-unit net's races (r3, session 32: --release 3 --policy
#     analysis/nets/jacquet.npz) it was level with r2 on two held-out sets, so r2 stays.
#   - narde and fevga: race r2 (session 30), the same for their contact nets of 250,000 and
#     275,000 games (their r1 were fitted to the 50,000-game nets'). narde's contact net of
#     250,000 games, kept as history/narde-250000.npz since its 160-unit net of 600,000 games
#     replaced it (session 35), is named by its line as --policy.
# The lines run in two lanes (one process per core); each resumes its work file
# (analysis/nets/RULESET-race.work.npz, not committed) when there is one: running the script
# again after a stop goes on where it stopped, with the same result. Console output goes to
# analysis/nets/RULESET-race.out (not committed); the learning curve to RULESET-race.log.jsonl.
#
#   nohup tools/train_race.sh &        # from the project root, with the venv's jacquet
set -uo pipefail
cd "$(dirname "$0")/.."
JACQUET=${JACQUET:-.venv/bin/jacquet}

race() {  # race VARIANT POSITIONS [OPTION...]
  nice -n 15 "$JACQUET" train-race --variant "$1" --positions "$2" --games 36 --epochs 200 --seed 1 \
    "${@:3}" -o "analysis/nets/$1-race.npz" >> "analysis/nets/$1-race.out" 2>&1
}

{ race backgammon 2500 && race hale 2500 --policy analysis/nets/history/hale-150000.npz && race narde 2500 --release 2 --policy analysis/nets/history/narde-250000.npz && race murray 2500 --policy analysis/nets/history/murray-170000.npz; } &
{ race jacquet 2500 --release 2 --policy analysis/nets/history/jacquet-165000.npz && race versailles 2500 --release 2 --policy analysis/nets/history/versailles-190000.npz && race fevga 2500 --release 2; } &
wait
