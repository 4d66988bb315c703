"""Fixtures of the web app's tests: a real server on a free localhost port, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
