#!/usr/bin/env bash
# Train the shipped race nets (issue 35; docs/analysis.md, "The race evaluator"): for each
# rule set, race positions sampled from the shipped engine's self-play, each played out 36
# times by the engine (closed exactly where both sides are home), the net fitted to the
# results (seed 1). backgammon and jacquet in two lanes (one process per core), then the
# others the fast core trains: every shipped race net was made by its line here (hale, narde,
# fevga and versailles in session 20, the lines run one or two at a time: the same nets). Each line resumes its work file (analysis/nets/RULESET-race.work.npz,
# not committed) when there is one: running the script again after a stop goes on where it
# stopped, with the same result. murray (scored by a prime held) is not trained yet: its race
# positions need the prime flags. Console output goes to analysis/nets/RULESET-race.out (not
# committed); the learning curve to RULESET-race.log.jsonl.
#
#   nohup tools/train_race.sh &        # from the project root, with the venv's jacquet
set -uo pipefail
cd "$(dirname "$0")/.."
JACQUET=${JACQUET:-.venv/bin/jacquet}

race() {  # race VARIANT POSITIONS [OPTION...]
  nice -n 15 "$JACQUET" train-race --variant "$1" --positions "$2" --games 36 --epochs 200 --seed 1 \
    "${@:3}" -o "analysis/nets/$1-race.npz" >> "analysis/nets/$1-race.out" 2>&1
}

{ race backgammon 2500 && race hale 2500 && race narde 2500; } &
{ race jacquet 2500 && race versailles 2500 && race fevga 2500; } &
wait
