"""What the browser tests share: Chromium (Debian's, driven by playwright) or a skip (a
failure in CI, whose ``.ci/run`` must install it), the viewer served on a thread, a click
that waits for the server's answer, the scorer's sign-in. The ``browser`` and ``page``
fixtures (a tablet's page in a context of its own) are in ``tests/conftest.py``."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.formats import read_file, write_file
from tests.accounts_helpers import PASSWORD, add_account
from webviewer import create_app

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
"""Chromium's switches: headless, and no address but the loopback's resolved (a page that
fetched from elsewhere would fail)."""
ARTIFACTS = Path(__file__).parent / "artifacts"
"""Where the browser tests save their screenshots."""
TABLET = {"width": 768, "height": 1024}


def playwright_or_skip() -> ModuleType:
    """playwright's sync API; where Chromium is missing, the calling test module is skipped
    (and fails in CI, whose ``.ci/run`` must install it)."""
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing in CI: .ci/run must install it", pytrace=False)
        pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` on a werkzeug server thread on a free loopback port: its base URL."""
    from werkzeug.serving import make_server

    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()


@contextmanager
def served_viewer(folder: Path, scorer: bool = False, **config: Any) -> Iterator[str]:
    """The viewer (its default configuration, then ``config``) over a new, empty archive in
    ``folder``, with the account "Scorer" in it if ``scorer``, on a server thread: its base
    URL."""
    path = folder / "club.db"
    archive.open_archive(path).close()
    if scorer:
        add_account(path)
    with serving(create_app({"ARCHIVE": str(path), **config})) as base:
        yield base


@contextmanager
def chromium(sync_api: ModuleType) -> Iterator[Any]:
    """A Chromium of its own, closed at the end of the ``with`` block."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def press(page: Any, selector: str) -> None:
    """Click and wait for the page the server answers with."""
    with page.expect_navigation():
        page.click(selector)


def sign_in_as_scorer(page: Any) -> None:
    """On a scorer's page (``/record/``) that asks for the sign-in, sign in as "Scorer" and
    wait for the start form it leads back to; a page already signed in is left as it is."""
    if page.locator("input[name=password]").count():
        page.fill("input[name=name]", "Scorer")
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_selector('select[name="variant"]')


def analysed_game(folder: Path) -> tuple[Path, int]:
    """An archive in ``folder`` holding the first generated jacquet sample game, analysed
    by ``jacquet analyse --db`` at its defaults: the archive's path and the game's id."""
    record = folder / "one.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[:1], record)
    path = folder / "club.db"
    with archive.open_archive(path) as db:
        archive.import_files(db, [str(record)])
        game_id = db.execute("SELECT min(id) FROM games").fetchone()[0]
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return path, game_id
