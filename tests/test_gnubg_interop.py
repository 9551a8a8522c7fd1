"""What we write as .mat, GNU Backgammon imports with the same moves.

Each match is written by our writer, imported by gnubg (`import mat`), exported again by
gnubg (`export match mat`), and read back: every position of every game must be the
same. gnubg is Debian's package (`/usr/games/gnubg`); CI installs it, so there a missing
gnubg is a failure, elsewhere a skip.
"""

import os
import shutil
import subprocess

import pytest

from notation.formats.mat import read_mat
from notation.formats.mat.writer import write_mat

from .conftest import DATA

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)

pytestmark = pytest.mark.skipif(GNUBG is None and os.environ.get("CI") != "true",
                                reason="GNU Backgammon is not installed (apt-get install gnubg)")

MATCHES = ["match10013413.mat", "match1209610.mat", "match2900236.mat",
           "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"]


def positions(games):
    return [[node.state.position for node in game.mainline() if node.turn.kind == "roll"]
            for game in games]


@pytest.mark.parametrize("name", MATCHES)
def test_gnubg_imports_what_we_write_with_the_same_moves(name, tmp_path):
    assert GNUBG is not None, "gnubg must be installed in CI"
    ours = read_mat(DATA / "mat" / name)
    written = tmp_path / "ours.mat"
    written.write_text(write_mat(ours), encoding="utf-8")
    exported = tmp_path / "gnubg.mat"
    commands = f"import mat {written}\nexport match mat {exported}\n"
    run = subprocess.run([GNUBG, "-t", "-q", "-r"], input=commands, capture_output=True, check=False,
                         text=True, timeout=120)
    assert exported.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    theirs = read_mat(exported)
    assert not [e for g in theirs for e in g.errors]
    assert len(theirs) == len(ours)
    assert positions(theirs) == positions(ours)
    assert [g.headers["Result"] for g in theirs] == [g.headers["Result"] for g in ours]
