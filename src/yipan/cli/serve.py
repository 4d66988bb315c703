"""``yipan serve``: the local web app, to play every game in the browser and watch the AI think."""

from __future__ import annotations

import argparse
import importlib.util
import threading
import webbrowser

from .common import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="start the web app (play in the browser)",
        description="Start the local web app: pick a game, play against the AI, watch it think.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument("--searches", type=int, default=2, metavar="N",
                        help="searches that may run at once, each in its own process (default: 2)")
    parser.set_defaults(func=run)


class MissingWebExtra(UsageError):  # noqa: N818 - reads as the message it carries
    """FastAPI or uvicorn is not installed."""


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise UsageError(f"port must be 1-65535, got {args.port}")
    if args.searches < 1:
        raise UsageError(f"--searches must be at least 1, got {args.searches}")
    missing = [name for name in ("fastapi", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingWebExtra(f"the web app needs {' and '.join(missing)}: "
                              "pip install 'yipan[web]'")
    import uvicorn

    from ..web import create_app

    app = create_app(max_running=args.searches)
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/"
    print(f"yipan: serving on {url} (Ctrl-C to stop)")
    if args.open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
