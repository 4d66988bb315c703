"""A machine's first run: the second process compiles the kernels the search meets last, and
the engine loads them from numba's cache instead of compiling them again."""

import json
import os
import subprocess
import sys

COUNT_COMPILATIONS = """
import collections, json
from numba.core import event
from yipan.core import Limit
from yipan.games.chess.engine import Engine
from yipan.games.chess.rules import Chess

compiled = collections.Counter()

class Count(event.Listener):
    def on_start(self, ev):
        compiled[ev.data["dispatcher"].py_func.__name__] += 1

    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
engine = Engine(hash_mb=1, tables=None)
engine.warm_up()
game = Chess()
move = engine.think(game.initial_state(), Limit(nodes=5000)).pv[0]
print(json.dumps({"compiled": compiled, "legal": move in game.legal_moves(game.initial_state())}))
"""

HELPED = ("_order", "see", "make_move", "store", "_check_squares", "probe", "make_null_move")


def run(code_or_module: list[str], cache) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "YIPAN_COMPILE_HELPER": "0"}
    done = subprocess.run([sys.executable, *code_or_module], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_engine_loads_what_the_second_process_compiled(tmp_path):
    run(["-m", "yipan.games.chess.first_run"], tmp_path)  # the helper's work, done first
    report = json.loads(run(["-c", COUNT_COMPILATIONS], tmp_path).stdout.splitlines()[-1])
    compiled = report["compiled"]
    assert compiled.get("search") == 1 and report["legal"], report
    assert not set(HELPED) & set(compiled), compiled  # each loaded from the cache
