"""Shared fixtures: the rule sets, the data files, and the viewer's (as Flask's tutorial on
testing has them): ``app`` over ``archive_path``, a visitor's ``client``, a signed-in
``scorer`` and ``admin``, and ``make_app`` for a test that needs the viewer configured
otherwise. A test module gives the viewer its archive, or its settings, by overriding
``archive_path`` or ``viewer_config``; a module whose tests only read its archive may
override ``app`` with one app for the module (:func:`tests.viewer_helpers.viewer_app`)."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import archive
from notation import rule_set
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import viewer_app

os.environ["LANGUAGE"] = "en"  # the suite asserts English; a test of another language asks for it
DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def load_jsonl(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


JOB_SECONDS = 3600.0
"""``WORK_SECONDS`` of every app a test makes without naming its own: a job's time limit is
the subject of the tests that set one, never of the others, whose jobs (a fresh worker
process loading the bear-off tables, at ``nice`` 10 below a test run itself started under
``nice``) took past the 10 s default on a loaded machine and were answered 413."""


@pytest.fixture(scope="session", autouse=True)
def jobs_without_a_time_limit():
    """The worker pool's default ``WORK_SECONDS`` lifted to :data:`JOB_SECONDS` for the
    session (a test of the limit sets ``WORK_SECONDS`` itself), so that no test's outcome
    depends on the machine's pace."""
    from webviewer.plumbing.workers import WORK_DEFAULTS

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(WORK_DEFAULTS, "WORK_SECONDS", JOB_SECONDS)
        yield


@pytest.fixture(scope="session")
def jacquet():
    return rule_set("jacquet")


@pytest.fixture(scope="session")
def murray():
    return rule_set("murray")


@pytest.fixture(scope="session")
def versailles():
    return rule_set("versailles")


@pytest.fixture(scope="session")
def hale():
    return rule_set("hale")


@pytest.fixture(scope="session")
def backgammon():
    return rule_set("backgammon")


@pytest.fixture(scope="session")
def small_net(tmp_path_factory) -> str:
    """A jacquet net made untrained from seed 4 (small: 10 hidden units), for the tests of
    analysis that need a net but not its strength: the path of its file."""
    from analysis.network import Network

    path = tmp_path_factory.mktemp("nets") / "jacquet.npz"
    Network.create("jacquet", 10, seed=4).save(path)
    return str(path)


@pytest.fixture(scope="session")
def two_games(tmp_path_factory, small_net) -> tuple[str, str]:
    """The first two games of ``samples/generated/jacquet-10.jqn`` in a record file of their
    own, and a jacquet net made untrained from seed 4 (small: 10 hidden units), for the
    tests of analysis and confirmation: the paths of the two files."""
    from notation.formats import read_file, write_file

    folder = tmp_path_factory.mktemp("two-games")
    path = folder / "two.jqn"
    write_file(list(read_file(Path(__file__).parents[1] / "samples" / "generated" / "jacquet-10.jqn"))[:2],
               path)
    return str(path), small_net


# ---------------------------------------------------------------- the viewer

@pytest.fixture
def archive_of(tmp_path) -> Callable[..., Path]:
    """``archive_of(*records, name="club.db")``: a new archive ``name`` in the test's folder
    holding the games of ``records``, each a record file (a :class:`~pathlib.Path`) or a
    record's text (a ``str``)."""
    def make(*records: Path | str, name: str = "club.db") -> Path:
        files = []
        for number, record in enumerate(records):
            if isinstance(record, str):
                written = tmp_path / f"{Path(name).stem}-{number}.jqn"
                written.write_text(record, encoding="utf-8")
                record = written
            files.append(record)
        path = tmp_path / name
        with archive.open_archive(path) as db:
            if files:
                archive.import_files(db, files)
        return path
    return make


@pytest.fixture
def archive_path(archive_of) -> Path:
    """The archive the viewer fixtures serve: a new, empty one, unless the test module
    overrides this fixture with its own (``archive_of(...)``, the demo, ...)."""
    return archive_of()


@pytest.fixture
def viewer_config() -> dict[str, Any]:
    """The settings of the test module's viewer beyond ``TESTING`` and its archive (none
    unless the module overrides this fixture, e.g. ``{"WORKERS": 0}`` for heavy work in
    the request's thread)."""
    return {}


@pytest.fixture
def make_app(archive_path, viewer_config) -> Callable[..., Any]:
    """``make_app(path=None, **config)``: the viewer over ``path`` (``archive_path`` unless
    given) with the module's ``viewer_config``, then ``config`` (a second app over the same
    archive is the app restarted)."""
    def make(path: str | Path | None = None, **config: Any):
        return viewer_app(archive_path if path is None else path, **{**viewer_config, **config})
    return make


@pytest.fixture
def app(make_app):
    """The viewer over ``archive_path``."""
    return make_app()


@pytest.fixture
def client(app):
    """A visitor's browser: a test client of ``app``, signed in as nobody."""
    return app.test_client()


@pytest.fixture
def scorer(app):
    """A scorer's browser: a client of ``app`` signed in as "Scorer" through the sign-in
    form (the account added to the archive first)."""
    return signed_in_client(app, "Scorer", "scorer")


@pytest.fixture
def admin(app):
    """An admin's browser: a client of ``app`` signed in as "Admin" through the sign-in
    form (the account added to the archive first)."""
    return signed_in_client(app, "Admin", "admin")


# ---------------------------------------------------------------- the browser

@pytest.fixture(scope="module")
def browser():
    """One Chromium for the test module (the module skipped where it is missing, failed in
    CI): tests/browser_helpers.py."""
    from tests.browser_helpers import chromium, playwright_or_skip

    with chromium(playwright_or_skip()) as launched:
        yield launched


@pytest.fixture
def page(browser):
    """A tablet's page (768×1024) in a browser context of its own: its own cookies, so its
    own session."""
    from tests.browser_helpers import TABLET

    context = browser.new_context(viewport=TABLET)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def python_ctrl_c():
    """SIGINT raising KeyboardInterrupt in this process, as from a terminal (a test runner's
    worker may ignore it), then as it was."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
