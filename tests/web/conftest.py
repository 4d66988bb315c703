"""Fixtures of the web app's tests: a real server on a free localhost port, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(**settings) -> Iterator[tuple[str, object]]:
    """Yield (base URL, app) of a server, its search workers warm, that stops when the block
    ends."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web tests need the web extra (uvicorn)")
    pytest.importorskip("fastapi", reason="the web tests need the web extra (fastapi)")
    from yipan.web import create_app

    app = create_app(**settings)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    # the pool warms up in the background; a test that counts worker starts must not see one
    # of the warm-up's starts land in the middle of it
    runner = app.state.runner
    deadline = time.monotonic() + 60
    while len(runner._idle) < runner.max_running:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server's search workers did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def live_server() -> Iterator[tuple[str, object]]:
    """One server shared by a module's tests: (base URL, app)."""
    with running_server() as served:
        yield served


@pytest.fixture
def server_factory():
    """``with server_factory(**settings) as (url, app):`` a server of one's own."""
    return running_server


CHROMIUM = Path("/usr/bin/chromium")  # Debian's, installed by .ci/run
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Debian's Chromium driven by Playwright, one for each browser test module."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests need playwright (the test extra)")
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} "
                    "(apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


WAIT = 60_000  # ms: generous, the machine may be busy; a wait only ends early on success


@contextmanager
def opened_pages(browser: Any, *, console_errors: bool = False
                 ) -> Iterator[Callable[..., Any]]:
    """``open(url, viewport, ready)``: a new page at ``url``, returned once ``ready(page)``
    has returned. When the block ends the pages close, and it fails if a script raised on any
    of them (with ``console_errors``, also if one logged an error: a 4xx answer the page
    shows is not one)."""
    pages = []
    errors: list[str] = []

    def open_page(url: str, viewport: dict, ready: Callable[[Any], None]) -> Any:
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda error: errors.append(str(error)))
        if console_errors:
            page.on("console", lambda message: errors.append(message.text)
                    if message.type == "error"
                    and not message.text.startswith("Failed to load resource") else None)
        page.goto(url)
        ready(page)
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        page.close()
    assert errors == [], f"script errors on the page: {errors}"


def board_drawn(selector: str = "svg.board, pre.text-board") -> Callable[[Any], None]:
    """A ``ready`` for ``opened_pages``: the game page's board is on the page."""
    return lambda page: page.wait_for_selector(selector, timeout=WAIT)


def wait_for_turn(page: Any) -> str:
    """Wait until it is the human's move or the game is over; return the status text."""
    page.wait_for_function(
        "() => { const s = document.getElementById('status');"
        " return s.className === 'over' || s.textContent.startsWith('Your move'); }",
        timeout=WAIT)
    return page.locator("#status").inner_text()


def url_moves(page: Any) -> list[str]:
    """The moves the page's address holds."""
    query = parse_qs(urlparse(page.url).query)
    return [move for move in query.get("moves", [""])[0].split() if move]
