"""A machine's first run: the engine's two searches compiled at once, on two processes.

numba compiles a kernel the first time it runs on a machine and keeps the machine code in its
cache on disk; later runs load it in about a second. The first time, compiling is the
Gomocup brain's whole answer to START (a tournament manager waits for it). The alpha-beta
search and the threat search are separate kernels (each with the board's kernels beneath),
so a second process compiles the threat search while this one compiles the alpha-beta
search, and this one then loads the threat search from the cache::

    this process:    import | board + alpha-beta (compiled) ........| threats (loaded)
    second process:  import | board + threat search (compiled) ...|

The board's kernels are compiled by both (neither can wait for the other); on two cores
that still shortens the first START (``benchmarks/first_move.py``). The helper's rules (when
it starts, how long it is waited for) are ``yipan.native_helper``'s.

    python -m yipan.games.gomoku.first_run SIZE RULE   (what the second process runs)
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

from ...native_helper import cpus, start_helper, stop, wait_for
from .threats import threat_node

__all__ = ["compile_threat_search_elsewhere", "cpus", "stop", "wait_for"]


def compile_threat_search_elsewhere(size: int, rule: str) -> subprocess.Popen | None:
    """Start the second process when the threat search is not compiled yet (else None)."""
    return start_helper(__name__, [str(size), rule], threat_node)


def main(argv: Sequence[str]) -> int:
    from .engine import Engine

    size, rule = int(argv[0]), argv[1]
    Engine(size, rule, memory_bytes=1 << 20).compile_threat_search()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
