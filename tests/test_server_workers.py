"""Issue 33's findings on the worker pool: with the launcher gone (a venv rebuilt under a
running server) every heavy request was a 413 blaming its memory (F9); and 20 clients
looping on heavy requests took every place in the queue and were each answered a rendered
error page (F11). Now a job never runs the launcher again, a worker that fails is the
server's logged 503, each client address has its share of the queue, and a refusal is a
few plain words. Each test failed before the fix."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import archive
from notation.messages import Message, render
from webviewer import create_app
from webviewer.plumbing import workers as workers_module
from webviewer.plumbing.workers import Busy, WorkerFailed, Workers

ROOT = Path(__file__).resolve().parents[1]
GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "club.db"
    archive.open_archive(path).close()
    return path


def test_jobs_run_with_the_launcher_and_its_folder_gone(path, tmp_path):
    """The server started from a script in a folder (``.venv/bin/jacquet``); both removed
    under it (as a venv rebuilt is), a record is still checked in a worker."""
    folder = tmp_path / "venv-bin"
    folder.mkdir()
    launcher = folder / "jacquet"
    launcher.write_text(textwrap.dedent(f"""
        import os, shutil, sys
        sys.path.insert(0, {str(ROOT)!r})
        from webviewer import create_app
        from webviewer.plumbing.workers import start_workers
        app = create_app({{"ARCHIVE": {str(path)!r}, "TESTING": True, "WTF_CSRF_ENABLED": False,
                          "WORKERS": 1, "WORK_SECONDS": 120}})
        start_workers(app)
        shutil.rmtree({str(folder)!r})  # the launcher and its folder
        answer = app.test_client().post("/validate", data={{"record": {GAME!r}, "format": "jqn"}})
        print(answer.status_code, "1 game" in answer.text)
        """), encoding="utf-8")
    done = subprocess.run([sys.executable, str(launcher)], check=False, cwd=tmp_path, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "JACQUET_SECRET_KEY": "k" * 40})
    assert done.stdout.split() == ["200", "True"], done.stdout + done.stderr
    assert not folder.exists()


def test_a_worker_that_fails_is_the_servers_logged_503_not_the_requests_413(path, caplog):
    pool = Workers(1, 120.0, 0, 2 * 1024 ** 3)
    with pytest.raises(WorkerFailed, match="exit code 3"):
        pool.run(os._exit, 3)
    app = create_app({"ARCHIVE": str(path), "TESTING": True})
    with app.test_request_context("/validate", method="POST"), caplog.at_level(logging.ERROR):
        answer = app.make_response(app.handle_user_exception(WorkerFailed("exit code 1")))
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert "server failed" in answer.get_data(as_text=True)
    assert any("the server failed" in record.getMessage() for record in caplog.records)


class HeldJobs:
    """Jobs that stay in their worker until released (instead of a process, a wait), so
    that who is admitted is seen without depending on the machine's pace."""

    def __init__(self, monkeypatch) -> None:
        self.release = threading.Event()
        self.started = threading.Semaphore(0)
        monkeypatch.setattr(Workers, "_in_process", self._held)

    def _held(self, function, args):
        self.started.release()
        assert self.release.wait(120)
        return function(*args)


def admitted(pool: Workers, jobs: int) -> None:
    """Wait until ``jobs`` jobs are admitted (running or waiting); fail, not hang, if they
    never are."""
    deadline = time.monotonic() + 600
    while pool.admitted < jobs:
        assert time.monotonic() < deadline, f"{pool.admitted} job(s) admitted, not {jobs}"
        threading.Event().wait(0.01)


def test_one_address_takes_no_more_than_its_share_of_the_queue(monkeypatch):
    held = HeldJobs(monkeypatch)
    pool = Workers(1, 3600.0, 3, 2 * 1024 ** 3, per_address=2)  # a wait for the worker never times out here
    results: list[object] = []

    def job(address: str) -> None:
        try:
            results.append(pool.run(abs, -1, address=address))
        except Busy:
            results.append("busy")

    threads = [threading.Thread(target=job, args=("203.0.113.7",)) for _ in range(2)]
    for thread in threads:
        thread.start()
    assert held.started.acquire(timeout=120)  # one runs, the other waits for the worker
    admitted(pool, 2)
    with pytest.raises(Busy):  # a third from the same address: refused at once
        pool.run(abs, -1, address="203.0.113.7")
    other = threading.Thread(target=job, args=("198.51.100.2",))  # another address: a place
    other.start()
    admitted(pool, 3)
    held.release.set()
    for thread in (*threads, other):
        thread.join()
    assert results == [1, 1, 1] and pool.admitted == 0


def test_a_busy_refusal_is_a_few_plain_words_not_a_page(path, monkeypatch):
    app = create_app({"ARCHIVE": str(path), "TESTING": True, "WTF_CSRF_ENABLED": False,
                      "WORKERS": 1})

    def busy(*args, **kwargs):
        raise Busy

    monkeypatch.setattr(workers_module.Workers, "run", busy)
    client = app.test_client()
    refused = client.post("/validate", data={"record": GAME, "format": "jqn"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert refused.mimetype == "text/plain" and "<" not in refused.text
    assert "busy" in refused.text
    legal = client.get("/api/legal?dice=66", headers={"Accept-Language": "fr"})
    assert legal.status_code == 503  # as the API's other errors: the message's id and params beside its text
    assert legal.json == {"error": render(Message.of("server.busy"), "fr"), "id": "server.busy", "params": {}}
