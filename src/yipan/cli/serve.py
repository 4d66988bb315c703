"""``yipan serve``: the local web app, to play every game in the browser and watch the AI think."""

from __future__ import annotations

import argparse
import importlib.util
import socket
import threading
import time
import webbrowser
from typing import TYPE_CHECKING

from ..core.text import quote
from .common import UsageError, count

if TYPE_CHECKING:
    from ..prepare import Readiness


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="start the web app (play in the browser)",
        description="Start the local web app: pick a game, play against the AI, watch it think.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=count(1, 65535), default=8000,
                        help="port (default: 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument("--searches", type=count(1, 64), default=2, metavar="N",
                        help="searches that may run at once, each in its own process (default: 2)")
    parser.set_defaults(func=run)


class MissingWebExtra(UsageError):  # noqa: N818 - reads as the message it carries
    """FastAPI or uvicorn is not installed."""


def check_address(host: str, port: int) -> None:
    """Bind the address once, before anything is printed: a taken port or an unknown host
    is one line and exit status 2, not a line saying the server runs."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        raise UsageError(f"cannot listen on host {quote(host)}: no such address") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise UsageError(f"cannot listen on {host}:{port}: {error.strerror}") from None


def run(args: argparse.Namespace) -> int:
    check_address(args.host, args.port)
    missing = [name for name in ("fastapi", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingWebExtra(f"the web app needs {' and '.join(missing)}: "
                              "pip install 'yipan[web]'")
    import uvicorn

    from ..plugins import load_game_modules
    from ..prepare import Readiness, compile_workers
    from ..web import create_app

    load_game_modules()  # the games of other packages are prepared too
    readiness = Readiness()
    preparing = readiness.start(compile_workers())
    app = create_app(max_running=args.searches, readiness=readiness)
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/"
    print(f"yipan: serving on {url} (Ctrl-C to stop); preparing the engines meanwhile (the "
          "first run on a machine compiles them, up to a few minutes; each game is playable "
          "as soon as its engine is ready)", flush=True)
    threading.Thread(target=_say_when_ready, args=(readiness, preparing), daemon=True).start()
    if args.open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _say_when_ready(readiness: Readiness, preparing: threading.Thread) -> None:
    preparing.join()
    seconds = (readiness.finished or time.monotonic()) - readiness.started
    print(f"yipan: every engine ready in {seconds:.1f} s", flush=True)
