"""What the browser tests of the recorder and of ``/play/`` share: Chromium or a skip (a
failure in CI), the viewer served on a thread, a tablet's page, a click that waits for the
server's answer. Chromium and playwright as in :mod:`tests.test_viewer_browser`."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

from tests.test_viewer_browser import ARGS, CHROMIUM

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
def tablet_page(sync_api: ModuleType) -> Iterator[Any]:
    """A page of a Chromium of its own, at a tablet's size."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=TABLET)
        yield context.new_page()
        browser.close()


def press(page: Any, selector: str) -> None:
    """Click and wait for the page the server answers with."""
    with page.expect_navigation():
        page.click(selector)
