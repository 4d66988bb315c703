"""``yipan ucci`` and ``yipan uci --variant xiangqi`` driven as a GUI drives them: the
script started as a subprocess, a whole game played through it against a seeded random
player, and garbage lines answered without ending the engine."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from yipan.core import IllegalMoveError
from yipan.games.xiangqi import Xiangqi
from yipan.protocols.ucci import UcciEngine
from yipan.protocols.uci import UciEngine

SRC = Path(__file__).resolve().parents[3] / "src"
MAX_PLIES = 200


@pytest.fixture(scope="module")
def compiled() -> None:
    """The kernels compiled here first, so the engine processes only load them."""
    from yipan.games.xiangqi.hooks import prepare

    prepare()


class Client:
    """A GUI's side of the pipe: send a line, read lines until one starts with a word."""

    def __init__(self, *arguments: str) -> None:
        env = {**os.environ,
               "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        self.process = subprocess.Popen([sys.executable, "-m", "yipan", *arguments],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8", env=env)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, word: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the engine ended before answering {word}: {lines}"
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def close(self) -> int:
        self.process.communicate(timeout=60)
        return self.process.returncode


def play_a_game(client: Client, to_text, from_text, seed: int) -> tuple[Xiangqi, object]:
    """The engine (red) against a seeded random player (black), to the end of the game."""
    game = Xiangqi()
    state = game.initial_state()
    played: list[str] = []
    rng = random.Random(seed)
    for _ in range(MAX_PLIES):
        if game.outcome(state) is not None:
            break
        if state.turn == 0:
            client.send("position startpos" + (" moves " + " ".join(played) if played else ""))
            client.send("go nodes 3000")
            answer = client.until("bestmove")[-1].split()
            move = game.parse_move(state, from_text(answer[1]))
            assert move in game.legal_moves(state)
        else:
            move = rng.choice(game.legal_moves(state))
        played.append(to_text(game.format_move(move)))
        state = game.play(state, move)
    return game, state


def test_a_ucci_gui_plays_a_whole_game(compiled):
    client = Client("ucci")
    client.send("ucci")
    lines = client.until("ucciok")
    assert any(line.startswith("option hashsize") for line in lines)
    client.send("setoption hashsize 16")
    client.send("isready")
    assert client.until("readyok")[-1] == "readyok"
    game, state = play_a_game(client, str, str, seed=5)
    assert game.outcome(state) is not None and game.outcome(state).winner == 0
    client.send("quit")
    assert client.until("bye")[-1] == "bye"
    assert client.close() == 0


def test_ucci_answers_garbage_bans_moves_and_says_nobestmove(compiled):
    client = Client("ucci")
    client.send("ucci")
    client.until("ucciok")
    for garbage in ("hello world", "position fen not-a-fen", "go depth x", "setoption",
                    "position startpos moves z9z9", "\x00\x01", "banmoves q1q2"):
        client.send(garbage)
    client.send("isready")
    lines = client.until("readyok")
    assert sum(line.startswith("info string") for line in lines) >= 5
    client.send("position startpos")
    client.send("go depth 1")
    first = client.until("bestmove")[-1].split()[1]
    client.send(f"banmoves {first}")
    client.send("go depth 1")
    assert client.until("bestmove")[-1].split()[1] != first
    client.send("position fen 3k5/2P1P4/9/9/9/9/9/9/9/5K3 b")  # black has no move
    client.send("go depth 3")
    assert client.until("nobestmove")[-1] == "nobestmove"
    client.send("quit")
    assert client.close() == 0


def fairy(text: str) -> str:
    """ICCS (ranks 0-9) as Fairy-Stockfish writes it (ranks 1-10)."""
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def iccs(text: str) -> str:
    files, rest = text[0], text[1:]
    for split in (1, 2):
        if rest[split:split + 1].isalpha():
            origin, target = rest[:split], rest[split + 1:]
            return f"{files}{int(origin) - 1}{rest[split]}{int(target) - 1}"
    raise AssertionError(text)


def test_a_uci_gui_plays_a_whole_game_in_the_fairy_stockfish_dialect(compiled):
    client = Client("uci", "--variant", "xiangqi")  # (chess, the default: tests/games/chess)
    client.send("uci")
    lines = client.until("uciok")
    assert any("UCI_Variant" in line and "var xiangqi" in line for line in lines)
    client.send("setoption name UCI_Variant value xiangqi")
    client.send("isready")
    client.until("readyok")
    game, state = play_a_game(client, fairy, iccs, seed=9)
    assert game.outcome(state) is not None and game.outcome(state).winner == 0
    client.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
                " moves h3e3")
    client.send("go depth 3")
    lines = client.until("bestmove")
    assert any(" pv " in line and "score cp" in line for line in lines)
    assert lines[-1].split()[1] in {fairy(game.format_move(m)) for m in
                                    game.legal_moves(game.play(game.initial_state(), 2841))}
    client.send("quit")
    assert client.close() == 0


# -- hostile input, in process --------------------------------------------------------------------
SEARCH_ENDS = 120  # seconds: a bounded go that has not answered by then hangs
REPEATED = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"  # the start, for the third time


class Recorder:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, line: str) -> None:
        self.lines.append(line)


def ucci_engine() -> tuple[UcciEngine, Recorder]:
    out = Recorder()
    return UcciEngine(out, hash_mb=1), out


def test_the_null_move_is_no_move_of_xiangqi():
    game = Xiangqi()
    with pytest.raises(IllegalMoveError, match="null move"):
        game.parse_move(game.initial_state(), "0000")


def test_ucci_reads_a_move_list_up_to_a_null_move(compiled):
    ucci, out = ucci_engine()
    for line in ("position startpos moves h2e2 0000 h9g7", "isready"):
        assert ucci.handle(line) is True
    game = Xiangqi()
    assert ucci.state == game.play(game.initial_state(),
                                   game.parse_move(game.initial_state(), "h2e2"))
    assert any("null move" in line for line in out.lines) and out.lines[-1] == "readyok"


def test_a_position_drawn_by_repetition_still_gets_a_move(compiled):
    ucci, out = ucci_engine()
    for line in (f"position startpos moves {REPEATED}", "go depth 2"):
        ucci.handle(line)
    ucci.search_thread.join(SEARCH_ENDS)
    game = Xiangqi()
    assert game.outcome(ucci.state) is not None  # over by the rule, yet the pieces move
    answer = [line for line in out.lines if "bestmove" in line][-1].split()
    assert answer[0] == "bestmove"
    assert game.parse_move(ucci.state, answer[1]) in game.legal_moves(game.initial_state())


def test_searchmoves_restricts_the_root_in_the_fairy_stockfish_dialect(compiled):
    out = Recorder()
    uci = UciEngine(out, hash_mb=1, variant="xiangqi")
    for line in ("go searchmoves a4a5 i4i5 depth 3", "go searchmoves b3b10 movetime 50"):
        uci.handle(line)
        uci.search_thread.join(SEARCH_ENDS)
        assert not uci.search_thread.is_alive()
    answers = [line.split()[1] for line in out.lines if line.startswith("bestmove")]
    assert answers[0] in {"a4a5", "i4i5"} and answers[1] == "b3b10"
    assert any(line.startswith("info depth 3 ") for line in out.lines)


def test_an_error_in_a_ucci_handler_is_one_line_and_the_engine_lives(compiled, monkeypatch):
    ucci, out = ucci_engine()
    ucci.ready.wait()

    def broken(megabytes: int) -> None:
        raise MemoryError("no room")

    monkeypatch.setattr(ucci.engine, "resize", broken)
    assert ucci.handle("setoption hashsize 2") is True
    assert out.lines[-1] == "info string setoption: internal error: MemoryError: no room"
    assert ucci.handle("isready") is True and out.lines[-1] == "readyok"
