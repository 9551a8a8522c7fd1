#!/usr/bin/env bash
# Train (or go on training) the shipped nets in two lanes (one process per core), each rule
# set with seed 1 and the default recipe (α 0.1): the new relatives narde and fevga first
# (they have the youngest nets), then the others on to their totals. Where a net's learning curve
# has flattened, it goes on with α lowered (TD-Gammon's recipe; saved in the net's recipe
# from the game where it was lowered): backgammon to 0.02 from 100,000 games and to 0.005
# from 200,000, where it had flattened again; murray to 0.02 from where it stood (16,772).
# Issue 35 asks for ten times the volume the v2 nets of jacquet, versailles and hale (15,000
# games; versailles' 18,784) and murray's v1 net (16,772) were shipped with: each goes on to
# 150,000 or more (versailles 190,000, murray 170,000: ten times theirs),
# α lowered to 0.02 for its last 50,000 or more.
# A trainer stopped short of its games exits non-zero, so a stop never starts the next line
# (nor lowers α early). Run from scratch, the script now makes a v2 net of murray (the
# latest encoding); the shipped one is v1, made by these commands before the v2 encoding
# existed. The lanes' backgammon lines made the v1 net shipped until session 22 (its
# checkpoint of 260,000 games is in git's history); the shipped backgammon net is v4's (below). Every line resumes its checkpoint when there is one, so running
# this script again after a stop continues exactly where it stopped (training is
# reproducible by seed: see docs/analysis.md). Console output goes to
# analysis/nets/RULESET.out (not committed); the strength log to RULESET.log.jsonl.
#
#   nohup tools/train_nets.sh &        # from the project root, with the venv's jacquet
#   nohup tools/train_nets.sh v4 &     # the v4 backgammon net alone (below)
#   nohup tools/train_nets.sh v4w192 & # the wider v4 net, 192 hidden units (below; not shipped)
#   NICE=10 nohup tools/train_nets.sh v5 & # the v5 net, warm-started from v4 (below)
set -uo pipefail
cd "$(dirname "$0")/.."
JACQUET=${JACQUET:-.venv/bin/jacquet}

train() {  # train VARIANT GAMES [OPTION...]
  local net="analysis/nets/$1.npz" resume=()
  [ -e "$net" ] && resume=(--resume)
  nice -n 15 "$JACQUET" train --variant "$1" --games "$2" --seed 1 --check-every 5000 --snapshot-every 10000 "${resume[@]}" "${@:3}" -o "$net" \
    >> "analysis/nets/$1.out" 2>&1
}

# The contact net fitted to rolled-out targets (issue 35, engine version v3; docs/analysis.md,
# "Fitting the contact net to rolled-out targets"), not in the lanes below. Its first round
# (session 20: 1,200 self-play and 300 recorded positions, 36 play-outs each; level with the
# shipped net, not shipped) is this line; its work file (analysis/nets/backgammon-v3.work.npz:
# 8,000 self-play positions of 1,869 games and 1,000 recorded ones sampled, 1,500 rolled out)
# resumes it. To go on, raise --positions and --real (the positions and play-outs done are
# kept, only the new ones rolled out; the fit starts anew) and --epochs.
#   nice -n 15 "$JACQUET" train-contact --variant backgammon --positions 1200 --games 36 --real 300 \
#     --records /work/shared/data/backgammon/real-mat --epochs 60 --seed 1 -o analysis/nets/backgammon-v3.npz

# The shipped v4 net fitted to rolled-out targets (issue 35, session 25: docs/analysis.md,
# "The v4 net fitted at scale"): self-play positions of the shipped engine and recorded ones
# of real-mat/ but the 40 matches gnubg judges the engine on (bench/gnubg_judge.py --list),
# each played out 36 times to the race; the fit from the v4 net (its inputs, v4's): --policy
# names its snapshot in history/, the engine that began the round (v6 is shipped since).
# Its work file analysis/nets/fitted/backgammon-v4.work.npz resumes it: the same command
# goes on where it stopped; raise POSITIONS and REAL (self-play and recorded positions; up
# to 5,000 recorded ones are in the work file) to roll out more (only the new ones are; the
# fit starts anew on them all).
#   nohup tools/train_nets.sh v4fit [POSITIONS [REAL]] &
# Session 25 fitted it at 5400 1000 (the machine's load allowed no more before its deadline):
# better on the held-out targets, worse in play and in gnubg 2-ply's eyes on both sets of
# matches at its best held-out epoch (39). The same fit stopped after one epoch (the work
# file without the fit's state, --epochs 1: analysis/nets/fitted/backgammon-v4-e1.npz) plays
# level and gnubg judges it better on both sets: shipped in session 26 as v6 (below). Its work file holds 30,000 self-play and 5,000 recorded positions
# sampled, all rolled out (session 26) and fitted: not better than v6 (docs/analysis.md).
# The fit from fresh weights at 128 hidden units on the same targets: the work file copied
# to fitted/backgammon-v4-fresh128.work.npz without the fit's state (adam*, net_*, best_held_out,
# fit_positions), then train-contact with the same options and --start fresh --hidden 128
# --rate 0.003 --epochs 100 -o analysis/nets/fitted/backgammon-v4-fresh128.npz.
fit_v4() {  # fit_v4 OUT POSITIONS REAL [OPTION...]: the net OUT.npz, its progress in OUT.out
  local exclude=() match
  while IFS= read -r match; do exclude+=(--exclude "$match"); done < <(.venv/bin/python bench/gnubg_judge.py --list)
  [ "${#exclude[@]}" = 80 ] || { echo "bench/gnubg_judge.py --list gave $(( ${#exclude[@]} / 2 )) matches, not the 40 to leave out" >&2; exit 2; }
  nice -n 10 "$JACQUET" train-contact --variant backgammon --positions "$2" --games 36 --real "$3" \
    --policy analysis/nets/history/backgammon-v4-380000.npz \
    --records ../shared/data/backgammon/real-mat "${exclude[@]}" --epochs 60 --seed 1 "${@:4}" \
    -o "$1.npz" >> "$1.out" 2>&1
}
[ "${1:-}" = v4fit ] && { fit_v4 analysis/nets/fitted/backgammon-v4 "${2:-30000}" "${3:-5000}"; exit; }

# **The shipped backgammon net since session 26, jacquet-td backgammon v6**: the v4 net fitted
# one epoch to the first 5,400 self-play and 1,000 recorded positions of the work file above
# (the fit anew, on a copy of the work file without the fit's state), then shipped:
#   tools/train_nets.sh v6
# (docs/analysis.md, "The shipped net: v6"). It gives the committed weights to the bit
# (digest cb658d7395a3); the v4 net stays in history/ (backgammon-v4-380000.npz).
ship_v6() {
  local work=analysis/nets/fitted/backgammon-v4-e1.work.npz
  .venv/bin/python -c 'import sys, numpy as np
d = np.load(sys.argv[1])
fit = ("adam", "net_", "best_held_out", "fit_positions")
np.savez(sys.argv[2], **{k: d[k] for k in d.files if not k.startswith(fit)})' \
    analysis/nets/fitted/backgammon-v4.work.npz "$work"
  rm -f analysis/nets/fitted/backgammon-v4-e1.log.jsonl
  fit_v4 analysis/nets/fitted/backgammon-v4-e1 5400 1000 --epochs 1 && rm "$work" \
    && cp analysis/nets/fitted/backgammon-v4-e1.npz analysis/nets/backgammon.npz
}
[ "${1:-}" = v6 ] && { ship_v6; exit; }

# The backgammon contact net on the threat features (issue 35, encoding v4: docs/analysis.md,
# "v4: the threat features"), 128 hidden units, TD-Gammon's lowerings of α as the v1 net
# had them; its own checkpoint (backgammon-v4.npz), not in the lanes below. **The shipped
# backgammon net** (analysis/nets/backgammon.npz, from session 24; session 22 shipped the
# 200,000-game net) is this line's net at 380,000 games, the end of its fourth command (its
# snapshot history/backgammon-v4-380000.npz, the same weights), copied there. Its third and
# fourth commands ran from the committed 200,000-game snapshot, which holds no dice state
# (the checkpoint was lost with a machine; such a file resumes with dice seeded by the seed
# and the games done): to repeat them exactly,
#   cp analysis/nets/history/backgammon-v4-200000.npz analysis/nets/backgammon-v4.npz
#   tools/train_nets.sh v4
#   cp analysis/nets/history/backgammon-v4-380000.npz analysis/nets/backgammon.npz
train_on() {  # train_on ENCODING HIDDEN VARIANT GAMES [OPTION...]: its own checkpoint VARIANT-vENCODING.npz
  local name="$3-v$1"  # at 128 hidden units; a wider line: VARIANT-vENCODINGwHIDDEN.npz
  [ "$2" = 128 ] || name+="w$2"
  [ "${SEED:-1}" = 1 ] || name+="s$SEED"  # another seed than 1: VARIANT-vENCODINGwHIDDENsSEED.npz
  local net="analysis/nets/$name.npz" resume=(--hidden "$2" --encoding "$1")
  [ -e "$net" ] && resume=(--resume)
  nice -n "${NICE:-15}" "$JACQUET" train --variant "$3" --games "$4" --seed "${SEED:-1}" --check-every 5000 --snapshot-every 10000 "${resume[@]}" "${@:5}" -o "$net" \
    >> "analysis/nets/$name.out" 2>&1
}
# jacquet past 165,000 games (issue 35, session 26): the shipped net's checkpoint copied to a
# checkpoint of its own (jacquet-v2w80.npz, 80 hidden units as shipped), on at α 0.005 (as
# backgammon's v4 line gained past 200,000), a snapshot every 100,000 games:
#   NICE=10 nohup tools/train_nets.sh jacquet-on &
# narde and fevga past their first 50,000 games (issue 35, session 26), each on its own
# checkpoint (the shipped net's copied: narde-v2w80.npz, fevga-v2w80.npz), the lanes' recipe:
# α 0.1 to 100,000, then α 0.02; a snapshot every 100,000 games:
#   NICE=10 nohup tools/train_nets.sh relatives-on &     # both, one process per core
# Session 26 stopped them at 250,000 (narde) and 275,000 (fevga) games and shipped those
# checkpoints (cp analysis/nets/narde-v2w80.npz analysis/nets/narde.npz, and fevga's alike):
# against the 50,000-game nets, 63.3% and 59.8% over 5,000 games (docs/analysis.md).
go_on() {  # go_on VARIANT: the shipped net's checkpoint copied to its own, then on
  [ -e "analysis/nets/$1-v2w80.npz" ] || cp "analysis/nets/$1.npz" "analysis/nets/$1-v2w80.npz"
  train_on 2 80 "$1" 100000 --snapshot-every 100000 && train_on 2 80 "$1" 1000000 --alpha 0.02 --snapshot-every 100000
}
[ "${1:-}" = relatives-on ] && { go_on narde & go_on fevga & wait; exit; }
[ "${1:-}" = jacquet-on ] && { [ -e analysis/nets/jacquet-v2w80.npz ] || cp analysis/nets/jacquet.npz analysis/nets/jacquet-v2w80.npz
  train_on 2 80 jacquet 1000000 --alpha 0.005 --snapshot-every 100000; exit; }
[ "${1:-}" = v4 ] && { train_on 4 128 backgammon 100000 && train_on 4 128 backgammon 200000 --alpha 0.02 \
  && train_on 4 128 backgammon 300000 --alpha 0.005 && train_on 4 128 backgammon 380000; exit; }
# Past 300,000 games (session 24): the v4 line went on at α 0.005 (the fourth command; the run
# went on to 380,306 games, its snapshot at 380,000 the one shipped): its copies at 300,000 to
# 380,000 play level with the 200,000-game net, and gnubg 2-ply judges the 380,000-game net
# better on both sets of real matches (docs/analysis.md, "Past 200,000 games, and a wider
# net"); its snapshots history/backgammon-v4-350000.npz and -380000.npz are kept (a snapshot
# resumes exactly).
# The wider v4 net: 192 hidden units from fresh weights, the same lowerings of α, its own
# checkpoint backgammon-v4w192.npz; run to 200,000 games (its snapshots at 50,000-game steps
# kept): level with the 128-unit line at 50,000 to 150,000 games, below the shipped net at
# 200,000 (47.6% ± 1.0), not shipped:
[ "${1:-}" = v4w192 ] && { train_on 4 192 backgammon 100000 && train_on 4 192 backgammon 200000 --alpha 0.02; exit; }
# The v5 backgammon net (issue 35, encoding v5: v4 and the timing features, docs/analysis.md,
# "The timing features and the v5 backgammon net"), warm-started: the v4 line's net at 380,000
# games (the shipped net) on the v5 inputs, the new inputs' weights 0 (analysis/warm_start.py:
# it judges as v4 did), its games, recipe (α 0.005 from 200,000 games) and dice state kept,
# then TD(λ) on, snapshots every 50,000 games; its own checkpoint backgammon-v5.npz
# (NICE=10 nohup tools/train_nets.sh v5 &). Session 25 ran it to 480,000 games (stopped at
# 429,433 for the measurements, then resumed): its checkpoint is committed, so raising the
# total below and running the line again goes on exactly. Not shipped (docs/analysis.md):
[ "${1:-}" = v5 ] && { [ -e analysis/nets/backgammon-v5.npz ] || .venv/bin/python -m analysis.warm_start \
    analysis/nets/history/backgammon-v4-380000.npz analysis/nets/backgammon-v5.npz 5
  train_on 5 128 backgammon 480000 --check-every 10000 --snapshot-every 50000; exit; }
# A wider jacquet net (issue 35, session 29): the shipped line's recipe from fresh weights at
# 160 hidden units instead of 80 (the 80-unit line is level with itself from 165,000 to 282,500
# games: does its width hold it?), its own checkpoint jacquet-v2w160.npz, snapshots every
# 50,000 games; α 0.1 to 100,000 games, 0.02 to 300,000, then 0.005:
#   NICE=10 nohup tools/train_nets.sh jacquet-w160 &
# **The shipped jacquet net since session 31** is this line's at its end, 600,000 games (the
# line copies its checkpoint to analysis/nets/jacquet.npz as it ends; digest cc8b1fbc412e); the
# 80-unit net of 165,000 games it replaced is kept as history/jacquet-165000.npz.
# hale's the same way (session 31: jacquet's 160-unit line ended above its shipped net; hale's
# marks miss most of the rollouts' errors), its own checkpoint hale-v2w160.npz:
#   NICE=10 nohup tools/train_nets.sh hale-w160 &
# **The shipped hale net since session 33** is that line's at its end, 600,000 games (copied to
# analysis/nets/hale.npz as the line ends; digest 93630697602f); the 80-unit net of 150,000
# games it replaced is kept as history/hale-150000.npz.
wider() {  # wider VARIANT: 160 hidden units from fresh weights, α 0.1, 0.02, 0.005
  train_on 2 160 "$1" 100000 --snapshot-every 50000 \
    && train_on 2 160 "$1" 300000 --alpha 0.02 --snapshot-every 50000 \
    && train_on 2 160 "$1" 600000 --alpha 0.005 --snapshot-every 50000
}
[ "${1:-}" = jacquet-w160 ] && { wider jacquet && cp analysis/nets/jacquet-v2w160.npz analysis/nets/jacquet.npz; exit; }
[ "${1:-}" = hale-w160 ] && { wider hale && cp analysis/nets/hale-v2w160.npz analysis/nets/hale.npz; exit; }
# murray's the same way on its v2 inputs (session 32: the contact features of v2, built for
# murray and backgammon, with no murray net trained on them until then; the murray net shipped
# then was v1, 80 units, 170,000 games), its own checkpoint murray-v2w160.npz:
#   NICE=10 nohup tools/train_nets.sh murray-w160 &
# **The shipped murray net since session 33** is this line's at its end, 600,000 games (copied
# to analysis/nets/murray.npz as the line ends); the v1 net of 170,000 games it replaced is kept
# as history/murray-170000.npz.
[ "${1:-}" = murray-w160 ] && { wider murray && cp analysis/nets/murray-v2w160.npz analysis/nets/murray.npz; exit; }
# versailles' the same way (session 33; its net shipped until then was v2, 80 units, 190,000
# games, kept as history/versailles-190000.npz), its own checkpoint versailles-v2w160.npz; its
# net at the end, 600,000 games, is the shipped one since session 33 (copied as the line ends):
#   NICE=10 nohup tools/train_nets.sh versailles-w160 &
[ "${1:-}" = versailles-w160 ] && { wider versailles && cp analysis/nets/versailles-v2w160.npz analysis/nets/versailles.npz; exit; }
# narde's and fevga's the same way (session 33; their nets shipped then were v2, 80 units,
# 250,000 and 275,000 games, their 80-unit lines level with them past that), their own
# checkpoints narde-v2w160.npz and fevga-v2w160.npz:
#   NICE=10 nohup tools/train_nets.sh narde-w160 &
#   NICE=10 nohup tools/train_nets.sh fevga-w160 &
# **The shipped narde net since session 35** is its line's at the end, 600,000 games (copied as
# the line ends); the 80-unit net of 250,000 games it replaced is kept as history/narde-250000.npz.
[ "${1:-}" = narde-w160 ] && { wider narde && cp analysis/nets/narde-v2w160.npz analysis/nets/narde.npz; exit; }
# fevga's line ended in session 36 at 600,000 games, level with the shipped 80-unit net
# (51.5% and 51.4% over 5,000 games each): not shipped, its net kept as fevga-v2w160.npz.
[ "${1:-}" = fevga-w160 ] && { wider fevga; exit; }
# **The shipped fevga net since session 37** is a committee (analysis/committee.py, engine
# version v7: each output the sigmoid of the mean of its members' logits) of the 80-unit net of
# 275,000 games shipped until then, kept as history/fevga-275000.npz, and this line's net at
# 600,000 games: level with each other, together they beat the first (docs/analysis.md, "A
# committee of nets"). Made again, the same weights:
#   tools/train_nets.sh fevga-committee
# A second member for a committee of the other rule sets (session 37): the 160-unit recipe
# again with seed 2, its own checkpoint VARIANT-v2w160s2.npz (snapshots in history/), to be
# measured as fevga's committee was; nothing shipped is touched:
#   NICE=10 nohup tools/train_nets.sh second jacquet &
# jacquet's ran to its end in session 37: its committee with the shipped net plays level with
# that net (50.9% and 51.1% over 5,000 games each), not shipped. hale's ran to its end in session 38
# (600,000 games, 2,834 s of training): on the error of a loss its committee with the shipped
# net is 1% better than that net (docs/analysis.md); its play is not measured yet.
[ "${1:-}" = second ] && { SEED=2 wider "$2"; exit; }
# jacquet's contact net fitted to targets of PLAYOUTS play-outs a position (session 38; the
# fits of 36 play-outs in sessions 26 and 28 learned their noise): self-play positions of the
# shipped engine, seed 3 (the marks bench's positions are other games), each played out
# PLAYOUTS times to the race, the fit from the shipped net, its best held-out epoch kept;
# SIBLINGS 2 keeps beside each position the engine's next two plays' positions of that turn
# (the candidates a mark weighs against each other). Each its own work file, committed as it goes:
#   NICE=10 nohup tools/train_nets.sh fit 1296 1000 0 &     # fitted/jacquet-1296.npz
#   NICE=10 nohup tools/train_nets.sh fit 1296 999 2 &      # fitted/jacquet-1296s2.npz
# Both ran in session 38 (--epochs 1, then --epochs 20): each fit learns its 1,000 positions
# and judges the positions it did not see no better, nor the marks (docs/analysis.md): not
# shipped. Ten times the positions, going on from the first's work file, and the same at a
# quarter of the play-outs (begun in session 39; stopped at 1,775 and 2,500 positions rolled out):
#   NICE=15 nohup tools/train_nets.sh fit 1296 10000 0 --epochs 20 &   # fitted/jacquet-1296.npz
#   NICE=15 nohup tools/train_nets.sh fit 324 10000 0 --epochs 20 &    # fitted/jacquet-324.npz
fit() {  # fit PLAYOUTS POSITIONS SIBLINGS [OPTION...]
  local out=analysis/nets/fitted/jacquet-$1
  [ "$3" = 0 ] || out+="s$3"
  nice -n "${NICE:-10}" "$JACQUET" train-contact --variant jacquet --positions "$2" --siblings "$3" \
    --games "$1" --seed 3 "${@:4}" -o "$out.npz" >> "$out.out" 2>&1
}
[ "${1:-}" = fit ] && { fit "$2" "$3" "$4" "${@:5}"; exit; }
[ "${1:-}" = fevga-committee ] && { "${PYTHON:-.venv/bin/python}" tools/committee.py --variant fevga -o analysis/nets/fevga.npz \
  analysis/nets/history/fevga-275000.npz analysis/nets/fevga-v2w160.npz; exit; }

# jacquet's lines here made the 80-unit net shipped until session 31 (history/jacquet-165000.npz);
# run from scratch they make it again in jacquet.npz, which the jacquet-w160 line replaces.
{ train narde 50000 && train jacquet 60000 && train murray 16772 && train murray 30000 --alpha 0.02 && train versailles 50000 \
  && train jacquet 100000 && train jacquet 165000 --alpha 0.02 && train versailles 100000 && train versailles 190000 --alpha 0.02; } &
{ train fevga 50000 && train hale 50000 \
  && train hale 100000 && train hale 150000 --alpha 0.02 && train murray 170000 --alpha 0.02; } &
wait
