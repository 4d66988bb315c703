"""A machine's first run: the second process compiles the kernels the search meets last, and
the engine loads them from numba's cache instead of compiling them again."""

THINK = """
from yipan.core import Limit
from yipan.games.chess.engine import Engine
from yipan.games.chess.rules import Chess

engine = Engine(hash_mb=1, tables=None)
engine.warm_up()
game = Chess()
move = engine.think(game.initial_state(), Limit(nodes=5000)).pv[0]
report["legal"] = move in game.legal_moves(game.initial_state())
"""

HELPED = ("_order", "see", "make_move", "store", "_check_squares", "probe", "make_null_move")


def test_the_engine_loads_what_the_second_process_compiled(count_compilations):
    # the helper's work, done first (what ``python -m yipan.games.chess.first_run`` runs)
    count_compilations("from yipan.games.chess.first_run import main; main()")
    report = count_compilations(THINK)
    compiled = report["compiled"]
    assert compiled.get("search") == 1 and report["legal"], report
    assert not set(HELPED) & set(compiled), compiled  # each loaded from the cache
