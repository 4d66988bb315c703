"""Xiangqi on the command line: perft with --fen, analyze, bad input, and whole games in the
terminal (ICCS, Chinese and WXF moves)."""

from __future__ import annotations

import io
import json
import random

from yipan.cli.main import main
from yipan.cli.play import play_interactive
from yipan.core import game_spec
from yipan.games.xiangqi import Xiangqi
from yipan.games.xiangqi.player import XiangqiPlayer

MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/4K3R w"


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_from_the_start_and_a_fen(capsys):
    status, out, err = run(capsys, "perft", "xiangqi", "--depth", "3", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["nodes"] == 79_666 and len(data["divide"]) == 44
    status, out, _ = run(capsys, "perft", "xiangqi", "炮二平五", "--depth", "1")
    assert status == 0 and "nodes: 45" in out  # the plain generator counts 45 too


def test_bad_input_is_one_line_and_exit_2(capsys):
    for args in (["perft", "xiangqi", "--fen", "nonsense", "--depth", "2"],
                 ["perft", "xiangqi", "a0a5", "--depth", "1"],
                 ["analyze", "xiangqi", "--fen", "9/9/9/9/9/9/9/9/9/4K4 w"],
                 ["analyze", "xiangqi", "马9进9"],
                 ["ucci", "--hash", "0"],
                 ["uci", "--variant", "shogi"]):
        status, out, err = run(capsys, *args)
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, args


def test_analyze_finds_the_mate_and_names_it_in_both_notations(capsys):
    status, out, err = run(capsys, "analyze", "xiangqi", "--fen", MATE_IN_ONE, "--depth", "4",
                           "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["move"] == "i0i9" and data["outcome"] == "win"
    assert data["extra"]["chinese"] == "车一进九" and data["extra"]["wxf"] == "R1+9"


def test_a_terminal_game_ends_in_checkmate():
    lines = iter(["R1+9"])
    out = io.StringIO()
    game = Xiangqi(MATE_IN_ONE)
    ai = XiangqiPlayer("medium", random.Random(1), time=5)
    status = play_interactive(game, ai, read=lambda _prompt: next(lines), out=out,
                              hooks=game_spec("xiangqi").load_hooks())
    text = out.getvalue()
    assert status == 0 and "(车)" in text and " 将 " in text
    assert "you win" in text.lower(), text[-300:]


def test_a_whole_game_from_the_start_against_a_random_player():
    """The person at the terminal is a seeded random player who asks for the FEN before
    each move (the figure ``fen``), so it always types a legal move."""
    out = io.StringIO()
    rng = random.Random(11)
    game = Xiangqi()
    asked = [False]

    def read(_prompt: str) -> str:
        if not asked[0]:
            asked[0] = True
            return "fen"
        asked[0] = False
        fen = out.getvalue().rsplit("fen: ", 1)[1].splitlines()[0]
        here = Xiangqi(fen)
        state = here.initial_state()
        move = rng.choice(here.legal_moves(state))
        return rng.choice([here.format_move(move), here.describe_move(state, move),
                           here.wxf_move(state, move)])

    ai = XiangqiPlayer("medium", random.Random(2), time=5)
    status = play_interactive(game, ai, read=read, out=out,
                              hooks=game_spec("xiangqi").load_hooks())
    text = out.getvalue()
    assert status == 0 and "try again" not in text
    assert "the ai wins" in text.lower() or "ai wins" in text.lower(), text[-400:]


def test_the_game_so_far_in_chinese_wxf_and_iccs():
    lines = iter(["h2e2", "chinese", "wxf", "iccs", "quit"])
    out = io.StringIO()
    game = Xiangqi()
    ai = XiangqiPlayer("easy", random.Random(4), time=5)
    hooks = game_spec("xiangqi").load_hooks()
    status = play_interactive(game, ai, read=lambda _prompt: next(lines), out=out, hooks=hooks)
    text = out.getvalue()
    assert status == 0
    assert "1. 炮二平五 " in text and "1. C2=5 " in text and "1. h2e2 " in text
    state = game.initial_state()
    moves = [game.parse_move(state, "h2e2")]
    state = game.play(state, moves[0])
    moves.append(game.parse_move(state, "马8进7"))
    assert hooks.export(game, game.initial_state(), moves)["wxf"] == "1. C2=5 H8+7"
