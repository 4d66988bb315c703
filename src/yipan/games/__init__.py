"""The built-in games, registered by name (lazily: a game's modules load when it is asked for).

Every game has the same shape, so a reader finds each part where they expect it::

    games/<name>/
        __init__.py   the Game class and what callers import, re-exported from rules
        rules.py      the Game: rules, notation (parse_move / format_move), render, view
        kernel.py     numba kernels, when the game has a fast engine (several files for a
                      large engine: board, search, threats... each with one job)
        player.py     the game's strongest AI: make_ai(game, level, rng, time) -> Player
        hooks.py      HOOKS = GameHooks(...): the AI, the game's own analysis, options it
                      adds to commands, its book builder (yipan.core.hooks)

    Shared by the games: ``grid.py`` (bitboards on a grid with a sentinel column, lines,
    ``a1`` coordinates, the text board and the web view) and ``yipan.native`` (the numba
    toolkit: random numbers, small sorts, the kernel-cache guard).

The recipe for a new game, kept true by ``tests/conformance`` and ``tests/test_layers.py``:

1. Write ``rules.py``: a ``Game`` subclass with immutable, hashable states (draw the state
   encoding in the docstring), ``info = GameInfo(...)`` declaring each optional method it
   provides (``heuristic``, ``move_ordering``, ``symmetry``, ``bounds``, ``chance``,
   ``playout``), ``parse_move``/``format_move`` in the game's usual notation, ``render``, and
   ``view`` (``grid.grid_view`` for a board of cells).
2. Register it below: ``register_game(GameSpec(name, title, factory="yipan.games.x:X",
   options=(GameOption(...), ...), hooks="yipan.games.x.hooks:HOOKS",
   examples=({...},)))``. The conformance suite now plays it at random under its defaults
   and each example option set, checks its declared capabilities, and ``yipan perft x``
   counts its tree.
3. Record its playthroughs: ``python tests/playthroughs/record.py x`` (commit the files).
4. If it has a fast engine: kernels in ``kernel.py`` with ``@njit(cache=True)``, random
   numbers and sorts from ``yipan.native``, a test of each kernel against the generic engine
   on small positions, and a benchmark script in ``benchmarks/``.
5. Its AI in ``player.py`` and its hooks in ``hooks.py``. A game imports ``yipan.core``,
   ``yipan.search``, ``yipan.impartial``, ``yipan.books``, ``yipan.native`` and its sibling
   helpers here; never ``yipan.players``, ``yipan.cli``, ``yipan.web`` or
   ``yipan.protocols`` (the layer test fails on it).
6. A protocol of its own (Gomocup, UCI, GTP) goes in ``yipan/protocols/`` and a command in
   ``yipan/cli/``; both call the game's player and hooks, and format everything themselves.
"""

from ..core.registry import GameOption, GameSpec, register_game
from ..core.text import read_int


def _whole(text: str) -> int:
    return read_int(text, "the value")


def _size(text: str) -> str:
    from .tictactoe.rules import parse_size

    rows, cols = parse_size(text)
    return f"{rows}x{cols}"


def _tictactoe() -> None:
    register_game(GameSpec(
        name="tictactoe",
        title="Tic-tac-toe and m,n,k-games",
        factory="yipan.games.tictactoe:TicTacToe",
        options=(
            GameOption("size", _size, "3x3", "board size, rows x columns (e.g. 4x4)"),
            GameOption("k", _whole, None, "stones in a row to win (default: the shorter side)"),
        ),
        hooks="yipan.games.tictactoe.hooks:HOOKS",
        aliases=("mnk",),
        examples=({"size": "4x4", "k": "3"}, {"size": "3x5", "k": "3"},
                  {"size": "11x11", "k": "11"}),
    ))


def _board(text: str) -> str:
    from .connect4.rules import parse_size

    width, height = parse_size(text)
    return f"{width}x{height}"


def _connect4() -> None:
    register_game(GameSpec(
        name="connect4",
        title="Connect Four",
        factory="yipan.games.connect4.rules:ConnectFour",
        options=(
            GameOption("size", _board, None, "board size, width x height (default 7x6)"),
            GameOption("width", _whole, None, "columns (default 7)"),
            GameOption("height", _whole, None, "rows (default 6)"),
        ),
        hooks="yipan.games.connect4.hooks:HOOKS",
        aliases=("connectfour",),
        examples=({"size": "5x4"}, {"size": "4x4"}),
    ))


def _heap(text: str) -> int:
    from .heaps.rules import parse_heap

    return parse_heap(text)


def _heap_games() -> None:
    """Nim and the other heap games of ``yipan.impartial``: the AI plays by Grundy values."""
    heaps_help = "heap sizes, e.g. 3 4 5"
    hooks = "yipan.games.heaps.hooks:HOOKS"

    def heaps(default: tuple[int, ...]) -> GameOption:
        return GameOption("heaps", _heap, default, heaps_help, many=True, positional=True,
                          max_items=32, limits="1 to 32 heaps of 0 to 100000")

    register_game(GameSpec(
        name="nim", title="Nim", factory="yipan.games.heaps:Nim", hooks=hooks,
        options=(heaps((3, 4, 5)),
                 GameOption("rule", str, "normal", "normal or misere (taking the last loses)",
                            choices=("normal", "misere"))),
        examples=({"heaps": "1,2,3", "rule": "misere"}, {"heaps": "7"})))
    register_game(GameSpec(
        name="bash", title="Bash game (take 1 to k)", factory="yipan.games.heaps:BashGame",
        hooks=hooks,
        options=(heaps((10,)), GameOption("k", _whole, 3, "the most tokens a move takes")),
        examples=({"heaps": "9,4", "k": "2"},)))
    register_game(GameSpec(
        name="subtraction", title="Subtraction game", hooks=hooks,
        factory="yipan.games.heaps:SubtractionGame",
        options=(heaps((10,)), GameOption("subtract", str, "1,3,4", "the amounts, e.g. 1,3,4")),
        examples=({"heaps": "8,5", "subtract": "2,5"},)))
    register_game(GameSpec(
        name="octal", title="Octal game", factory="yipan.games.heaps:OctalGame", hooks=hooks,
        options=(heaps((10,)), GameOption("code", str, "0.77", "the octal code, e.g. 0.137")),
        examples=({"heaps": "9", "code": "0.137"}, {"heaps": "7,3", "code": "4.7"})))
    register_game(GameSpec(
        name="kayles", title="Kayles (0.77)", factory="yipan.games.heaps:Kayles", hooks=hooks,
        options=(heaps((12,)),), examples=({"heaps": "4,5"},)))
    register_game(GameSpec(
        name="dawsons-kayles", title="Dawson's Kayles (0.07)", hooks=hooks,
        factory="yipan.games.heaps:DawsonsKayles", options=(heaps((12,)),)))
    register_game(GameSpec(
        name="grundy-game", title="Grundy's game", factory="yipan.games.heaps:GrundysGame",
        hooks=hooks, options=(heaps((12,)),), aliases=("grundys-game",),
        examples=({"heaps": "7,6"},)))
    register_game(GameSpec(
        name="wythoff", title="Wythoff's game", factory="yipan.games.heaps:WythoffGame",
        hooks=hooks, options=(heaps((4, 7)),), examples=({"heaps": "3,5"},)))


def _g2048() -> None:
    register_game(GameSpec(
        name="2048",
        title="2048 (one player against chance)",
        factory="yipan.games.g2048:G2048",
        hooks="yipan.games.g2048.hooks:HOOKS",
    ))

def _gomoku() -> None:
    register_game(GameSpec(
        name="gomoku",
        title="Gomoku (five in a row)",
        factory="yipan.games.gomoku:Gomoku",
        options=(
            GameOption("size", _whole, 15, "board size, 7 to 22"),
            GameOption("rule", str, "freestyle",
                       "freestyle (five or more) or standard (exactly five)",
                       choices=("freestyle", "standard")),
        ),
        hooks="yipan.games.gomoku.hooks:HOOKS",
        examples=({"size": "9", "rule": "standard"},),
    ))


def _fen(text: str) -> str:
    from .chess.notation import normal_fen

    return normal_fen(text)


def _chess() -> None:
    register_game(GameSpec(
        name="chess",
        title="Chess",
        factory="yipan.games.chess:Chess",
        options=(GameOption("fen", _fen, None, "the start position in FEN (default: the usual "
                                               "start)"),),
        hooks="yipan.games.chess.hooks:HOOKS",
        examples=({"fen": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
                          "0 1"},
                  {"fen": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}),
    ))


def register_builtin_games() -> None:
    """Register every built-in game by name (no game's module is imported)."""
    _tictactoe()
    _connect4()
    _heap_games()
    _g2048()
    _gomoku()
    _chess()
