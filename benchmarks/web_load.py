"""Load check of the web app: does a cheap request stay fast while searches run?

Starts ``yipan serve`` on a free localhost port, measures the latency of a cheap endpoint
(``GET /api/games`` and a ``state`` request) when the server is idle, then again while several
clients keep asking for analyses (pure-Python alpha-beta searches of 4x4 tic-tac-toe positions,
each up to ``--search-time`` seconds). Searches run in worker processes, so the event loop
should stay responsive; the ratio loaded/idle says how well. For comparison, the same app with
the searches in threads of the server process (``--variants threads``), where a pure-Python
search holds the GIL. Bounded: localhost only, at most 16 clients, at most 60 seconds of load
per variant.

    PYTHONPATH=src python benchmarks/web_load.py [--clients 4] [--seconds 10] [--search-time 1]
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, searches: int, variant: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if variant == "processes":
        command = [sys.executable, "-m", "yipan", "serve", "--port", str(port),
                   "--searches", str(searches)]
    else:
        command = [sys.executable, __file__, "--serve-with-threads", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not start: {server.stderr.read().decode()[-500:]}")


def serve_with_threads(port: int) -> None:
    """The comparison: the same app, but analyses run in threads of the server's process
    (what the worker processes avoid: a pure-Python search holds the GIL)."""
    import anyio
    import uvicorn

    from yipan.web import create_app
    from yipan.web.engines import run

    app = create_app()

    async def run_in_a_thread(job):
        return await anyio.to_thread.run_sync(lambda: list(run(job))[-1])

    app.state.runner.run = run_in_a_thread
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def random_position(rng: random.Random) -> list[str]:
    """A few random moves on a 4x4 board (four in a row wins): hard enough to keep a search busy."""
    cells = [f"{c}{r}" for c in "abcd" for r in "1234"]
    rng.shuffle(cells)
    return cells[:rng.randrange(0, 5)]


def poll(base: str, seconds: float, interval: float) -> dict[str, list[float]]:
    """Latencies (ms) of the cheap requests, every ``interval`` seconds for ``seconds``."""
    latencies: dict[str, list[float]] = {"games": [], "state": []}
    with httpx.Client(base_url=base, timeout=30) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.perf_counter()
            http.get("/api/games").raise_for_status()
            latencies["games"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            http.post("/api/games/tictactoe/state",
                      json={"moves": ["b2", "a1"]}).raise_for_status()
            latencies["state"].append((time.perf_counter() - start) * 1000)
            time.sleep(interval)
    return latencies


def analyst(base: str, stop: threading.Event, seed: int, search_time: float,
            done: list[float], busy: list[int]) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=120) as http:
        while not stop.is_set():
            body = {"moves": random_position(rng), "options": {"size": "4x4"},
                    "limit": {"time": search_time}}
            start = time.perf_counter()
            response = http.post("/api/games/tictactoe/analyze", json=body)
            if response.status_code == 503:
                busy.append(1)
                time.sleep(0.1)
                continue
            response.raise_for_status()
            done.append(time.perf_counter() - start)


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"n={len(values):4d}  median {statistics.median(values):7.1f} ms  "
            f"p95 {p95:7.1f} ms  max {max(values):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4, help="concurrent analysis clients")
    parser.add_argument("--seconds", type=float, default=10, help="seconds of load")
    parser.add_argument("--search-time", type=float, default=1.0, help="seconds per search")
    parser.add_argument("--searches", type=int, default=2, help="the server's worker processes")
    parser.add_argument("--variants", default="processes,threads",
                        help="processes (yipan serve) and/or threads (searches in the server)")
    parser.add_argument("--serve-with-threads", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_with_threads:
        serve_with_threads(args.serve_with_threads)
        return
    clients = max(1, min(args.clients, 16))
    seconds = max(1.0, min(args.seconds, 60.0))

    print(f"yipan web load: {clients} analysis clients, searches of up to {args.search_time} s"
          f" (4x4 tic-tac-toe), {seconds:g} s of load, {os.cpu_count()} CPUs")
    medians = {}
    for variant in args.variants.split(","):
        medians[variant] = measure(variant, clients, seconds, args)
    if len(medians) == 2:
        processes, threads = medians["processes"], medians["threads"]
        print(f"  GET /api/games median latency under load, threads / processes: "
              f"{threads / processes:.1f}x")


def measure(variant: str, clients: int, seconds: float, args: argparse.Namespace) -> float:
    """Run one server variant through idle and loaded polling; print and return the loaded
    median latency of the cheapest endpoint."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port, args.searches, variant)
    try:
        with httpx.Client(base_url=base, timeout=60) as http:  # warm the workers up
            http.post("/api/games/tictactoe/analyze", json={"limit": {"time": 0.1}})
        idle = poll(base, min(seconds, 5.0), 0.02)
        stop = threading.Event()
        done: list[float] = []
        busy: list[int] = []
        threads = [threading.Thread(target=analyst, args=(base, stop, seed, args.search_time,
                                                          done, busy))
                   for seed in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)  # let the searches start
        loaded = poll(base, seconds, 0.02)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        server.terminate()
        server.wait(timeout=30)

    label = (f"{args.searches} worker processes" if variant == "processes"
             else "searches in threads of the server process")
    print(f"- {variant}: {label}")
    for name in ("games", "state"):
        print(f"  {name:<6} idle    {summary(idle[name])}")
        print(f"  {name:<6} loaded  {summary(loaded[name])}")
        ratio = statistics.median(loaded[name]) / statistics.median(idle[name])
        print(f"  {name:<6} median latency loaded / idle: {ratio:.2f}x")
    print(f"  analyses finished: {len(done)} "
          f"(median {statistics.median(done) if done else 0:.2f} s each), "
          f"answered busy (503): {len(busy)}")
    return statistics.median(loaded["games"])


if __name__ == "__main__":
    main()
