"""Each game package declares itself in ``meta.py``; reading every declaration loads no
game's rules and no numba, so ``import yipan`` and ``yipan games`` stay fast."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

LIST_EVERY_GAME = """
import json, sys
import yipan
from yipan.core import game_spec, list_games
specs = [game_spec(name) for name in list_games()]
print(json.dumps({"games": [spec.name for spec in specs],
                  "loaded": sorted(m for m in sys.modules
                                   if m.startswith(("yipan.games.", "numba")))}))
"""


def test_listing_every_game_loads_only_their_declarations():
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    output = subprocess.run([sys.executable, "-c", LIST_EVERY_GAME], env=env, check=True,
                            capture_output=True, text=True).stdout
    report = json.loads(output)
    assert {"tictactoe", "connect4", "nim", "wythoff", "go", "chess"} <= set(report["games"])
    assert report["loaded"], "no declaration was read"
    assert all(name.endswith(".meta") for name in report["loaded"]), report["loaded"]


def test_a_declaration_read_first_is_the_module_a_later_import_finds():
    from yipan.games import read_meta
    from yipan.games.connect4 import meta

    assert read_meta("connect4") is meta
    assert meta.GAMES[0].load_factory()(size="5x4").info.name == "connect4"
