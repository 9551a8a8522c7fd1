"""Issue 33, F11: a client looping on heavy requests beyond its share of the worker pool
is refused before the app does anything with its request (no session, form, CSRF token or
page), so that its refusals cost the serving process next to nothing; the share is the
client's, by the address a reverse proxy forwards under ``PROXIES``. Whether a job is held
is seen through the pool itself (jobs held in their worker until released), never by a
time."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tests.test_server_workers import GAME, HeldJobs, admitted

CLIENT = "203.0.113.7"
OTHER = "198.51.100.2"


def app_seen(make_app, **config):
    """The viewer (``make_app``: tests/conftest.py, over an empty archive; one worker, no
    queue beyond its share), and the endpoints of the requests Flask began to handle (its
    first step after the session is opened)."""
    app = make_app(WTF_CSRF_ENABLED=False, WORKERS=1, WORK_QUEUE=3, WORK_PER_ADDRESS=2, **config)
    began: list[str] = []

    @app.url_value_preprocessor
    def seen(endpoint, values) -> None:
        began.append(endpoint)

    return app, began


def check_from(app, environ_base: dict[str, str], headers: dict[str, str] | None = None) -> threading.Thread:
    """A check of a record sent from a client, in a thread of its own (started)."""
    thread = threading.Thread(target=lambda: app.test_client().post(
        "/validate", data={"record": GAME, "format": "jqn"}, environ_base=environ_base, headers=headers))
    thread.start()
    return thread


@contextmanager
def share_taken(app, monkeypatch, environ_base: dict[str, str],
                headers: dict[str, str] | None = None) -> Iterator[list[threading.Thread]]:
    """Two checks of a record sent from one client, held in the pool (its share taken) for
    the ``with`` block, then released; the block may add threads of its own to the list,
    joined with the two."""
    held = HeldJobs(monkeypatch)
    threads = [check_from(app, environ_base, headers) for _ in range(2)]
    try:
        assert held.started.acquire(timeout=600)
        admitted(app.extensions["jacquet.workers"], 2)
        yield threads
    finally:
        held.release.set()
        for thread in threads:
            thread.join()


def test_a_heavy_request_beyond_its_clients_share_is_refused_before_the_app_reads_it(make_app, monkeypatch):
    app, began = app_seen(make_app)
    with share_taken(app, monkeypatch, environ_base={"REMOTE_ADDR": CLIENT}) as threads:
        client = app.test_client()
        before = len(began)
        refused = client.post("/validate", data={"record": GAME, "format": "jqn"},
                              environ_base={"REMOTE_ADDR": CLIENT})
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
        assert refused.mimetype == "text/plain" and "busy" in refused.text and "<" not in refused.text
        assert "Set-Cookie" not in refused.headers and len(began) == before  # Flask never saw it
        assert refused.headers["X-Content-Type-Options"] == "nosniff"  # as every answer
        assert {"accept-language", "cookie"} <= {v.lower() for v in refused.vary}  # in the visitor's language
        # the same client still browses, and another client's check is admitted
        assert client.get("/validate", environ_base={"REMOTE_ADDR": CLIENT}).status_code == 200
        threads.append(check_from(app, {"REMOTE_ADDR": OTHER}))
        admitted(app.extensions["jacquet.workers"], 3)
    answer = app.test_client().post("/validate", data={"record": GAME, "format": "jqn"},
                                    environ_base={"REMOTE_ADDR": CLIENT})
    assert answer.status_code == 200 and "1 game" in answer.text  # its share free again


def test_behind_a_proxy_the_share_is_the_forwarded_clients(make_app, monkeypatch):
    app, began = app_seen(make_app, PROXIES=1)
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    with share_taken(app, monkeypatch, environ_base=proxy, headers={"X-Forwarded-For": CLIENT}) as threads:
        client = app.test_client()
        before = len(began)
        refused = client.post("/validate", data={"record": GAME, "format": "jqn"}, environ_base=proxy,
                              headers={"X-Forwarded-For": CLIENT})
        assert refused.status_code == 503 and len(began) == before
        threads.append(check_from(app, proxy, {"X-Forwarded-For": OTHER}))
        admitted(app.extensions["jacquet.workers"], 3)  # another client behind the same proxy


def test_pages_that_are_not_heavy_are_never_refused_early(make_app, monkeypatch):
    app, _ = app_seen(make_app)
    with share_taken(app, monkeypatch, environ_base={"REMOTE_ADDR": CLIENT}):
        client = app.test_client()
        for page in ("/", "/validate", "/login", "/api/games"):
            assert client.get(page, environ_base={"REMOTE_ADDR": CLIENT}).status_code == 200, page
        # a wrong method on a heavy path is the app's own answer, not a busy one
        assert client.put("/validate", environ_base={"REMOTE_ADDR": CLIENT}).status_code == 405
