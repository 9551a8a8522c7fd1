#!/usr/bin/env bash
# Train (or go on training) the shipped nets in two lanes (one process per core), each rule
# set with seed 1 and the default recipe: backgammon first (short of its target against
# pubeval), then the others on to their totals (murray last: it has stopped gaining at
# 0-ply). Every line resumes its checkpoint when there is one,
# so running this script again after a stop continues exactly where it stopped (training
# is reproducible by seed: see docs/analysis.md). Console output goes to
# analysis/nets/RULESET.out (not committed); the strength log to RULESET.log.jsonl.
#
#   nohup tools/train_nets.sh &        # from the project root, with the venv's jacquet
set -uo pipefail
cd "$(dirname "$0")/.."
JACQUET=${JACQUET:-.venv/bin/jacquet}

train() {  # train VARIANT GAMES
  local net="analysis/nets/$1.npz" resume=()
  [ -e "$net" ] && resume=(--resume)
  nice -n 15 "$JACQUET" train --variant "$1" --games "$2" --seed 1 --check-every 5000 --snapshot-every 10000 "${resume[@]}" -o "$net" \
    >> "analysis/nets/$1.out" 2>&1
}

{ train jacquet 60000 && train versailles 50000 && train murray 30000; } &
{ train backgammon 100000 && train hale 50000; } &
wait
