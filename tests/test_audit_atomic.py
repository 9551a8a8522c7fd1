"""Issue 33, F8: a process killed (kill -9) between storing games and writing their audit
line left games nobody was credited with (150 stored, no line; an interrupted import, 200
games and no line). The line is now written in the transaction that stores the games: a
process killed at the moment the line is written leaves every stored game with its line.
Each test kills a real process (SIGKILL from inside the audit's write, the worst moment)
and failed before the fix."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import archive

ROOT = Path(__file__).resolve().parents[1]
TEN = ROOT / "samples" / "generated" / "jacquet-10.jqn"
KILLED_AT_THE_AUDIT = """
import os, signal
import archive.audit
calls = []
original = archive.audit.log
def log(*args, **kwargs):
    calls.append(args)
    if len(calls) == {kill_at}:
        os.kill(os.getpid(), signal.SIGKILL)
    return original(*args, **kwargs)
archive.audit.log = log
"""


def run_killed(script: str, kill_at: int) -> int:
    """Run ``script`` in a new interpreter whose ``kill_at``-th audit line kills it; its
    exit status."""
    code = KILLED_AT_THE_AUDIT.replace("{kill_at}", str(kill_at)) + textwrap.dedent(script)
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "JACQUET_SECRET_KEY": "k" * 40})
    return done.returncode


def stored_and_credited(path) -> tuple[set[int], set[int]]:
    """The games in the archive, and those its audit lines name."""
    db = archive.open_archive(path)
    try:
        games = {row[0] for row in db.execute("SELECT id FROM games")}
        credited: set[int] = set()
        for game_id, detail in db.execute("SELECT game_id, detail FROM audit"):
            if game_id is not None:
                credited.add(game_id)
            for low, high in re.findall(r"(\d+)(?:-(\d+))?", detail.rsplit(": ", 1)[-1]):
                credited.update(range(int(low), int(high or low) + 1))
        return games, credited
    finally:
        db.close()


def test_an_import_killed_at_its_audit_line_leaves_no_game_uncredited(tmp_path):
    path = tmp_path / "club.db"
    archive.open_archive(path).close()
    status = run_killed(f"""
        from jacquet_cli import main
        main(["import", {str(TEN)!r}, "--db", {str(path)!r}, "--batch", "4"])
        """, kill_at=2)
    assert status == -9
    games, credited = stored_and_credited(path)
    assert games == credited == {1, 2, 3, 4}  # the first batch with its line, the second undone


def test_a_save_killed_at_its_audit_line_leaves_no_game_uncredited(tmp_path):
    path = tmp_path / "club.db"
    archive.open_archive(path).close()
    status = run_killed(f"""
        import re
        from pathlib import Path
        from tests.accounts_helpers import signed_in_client
        from webviewer import create_app
        app = create_app({{"ARCHIVE": {str(path)!r}, "WORKERS": 0}})
        client = signed_in_client(app)
        token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/validate").text).group(1)
        client.post("/validate/save", data={{"csrf_token": token, "format": "jqn",
                    "name": "ten.jqn", "record": Path({str(TEN)!r}).read_text()}})
        """, kill_at=3)
    assert status == -9
    games, credited = stored_and_credited(path)
    assert games == credited  # nothing stored (the games' transaction was cut), or all credited
