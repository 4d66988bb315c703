"""The built-in games, registered by name (lazily: a game's modules load when it is asked for).

Every game has the same shape, so a reader finds each part where they expect it::

    games/<name>/
        __init__.py   the Game class and what callers import, re-exported from rules
        rules.py      the Game: rules, notation (parse_move / format_move), render, view
        kernel.py     numba kernels, when the game has a fast engine (several files for a
                      large engine: board, search, threats... each with one job)
        player.py     the game's strongest AI: make_ai(game, level, rng, time) -> Player,
                      best a Thinker (its think(game, state, limit) reports as it goes and
                      heeds limit.stop: the web page shows it thinking, "Move now" works)
        hooks.py      HOOKS = GameHooks(...): the AI, the game's own analysis, options it
                      adds to commands, its book builder (yipan.core.hooks)
        labels.py     positions labelled for ``yipan train --from-solver`` (the ``label``
                      hook), when the game has a solver or an engine to learn from

    Shared by the games: ``grid.py`` (bitboards on a grid with a sentinel column, lines,
    ``a1`` coordinates, the text board and the web view) and ``yipan.native`` (the numba
    toolkit: random numbers, small sorts, the kernel-cache guard).

The recipe for a new game, kept true by ``tests/conformance`` and ``tests/test_layers.py``:

1. Write ``rules.py``: a ``Game`` subclass with immutable, hashable states (draw the state
   encoding in the docstring), ``info = GameInfo(...)`` declaring each optional method it
   provides (``heuristic``, ``move_ordering``, ``symmetry``, ``bounds``, ``chance``,
   ``playout``, and ``encoding``/``actions`` for ``encode``/``move_index``: planes for a
   network, so PUCT and ``yipan train`` work on it), ``parse_move``/``format_move`` in the
   game's usual notation, ``render``, and ``view`` (``grid.grid_view`` for a board of cells).
2. Register it below: ``register_game(GameSpec(name, title, factory="yipan.games.x:X",
   options=(GameOption(..., label="in words"), ...), hooks="yipan.games.x.hooks:HOOKS",
   examples=({...},), rules="how it is played and won, in a few plain sentences"))``.
   The conformance suite now plays it at random under its defaults and each example option
   set, checks its declared capabilities, and ``yipan perft x`` counts its tree.
3. Record its playthroughs: ``python tests/playthroughs/record.py x`` (commit the files).
4. If it has a fast engine: kernels in ``kernel.py`` with ``@njit(cache=True)``, random
   numbers and sorts from ``yipan.native``, a test of each kernel against the generic engine
   on small positions, and a benchmark script in ``benchmarks/``.
5. Its AI in ``player.py`` and its hooks in ``hooks.py`` (``make_ai``; ``make_thinker`` when
   the player can think aloud; ``ai_summary``, what it does in a few words). A game imports
   ``yipan.core``, ``yipan.search``, ``yipan.impartial``, ``yipan.books``,
   ``yipan.learning`` (its labels), ``yipan.native`` and its sibling helpers here; never
   ``yipan.players``, ``yipan.cli``, ``yipan.web`` or ``yipan.protocols`` (the layer test
   fails on it).
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
            GameOption("size", _size, "3x3", "board size, rows x columns (e.g. 4x4)",
                       label="board size"),
            GameOption("k", _whole, None, "stones in a row to win (default: the shorter side)",
                       label="in a row to win"),
        ),
        hooks="yipan.games.tictactoe.hooks:HOOKS",
        aliases=("mnk",),
        rules="Two players, X and O, take turns marking an empty square; X goes first. "
              "Three in a row (across, down or diagonally) wins; a full board without one "
              "is a draw. On a larger board you may choose how many in a row win (the "
              "m,n,k-games).",
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
            GameOption("size", _board, None, "board size, width x height (default 7x6)",
                       label="board size"),
            GameOption("width", _whole, None, "columns (default 7)", hidden=True),
            GameOption("height", _whole, None, "rows (default 6)", hidden=True),
        ),
        hooks="yipan.games.connect4.hooks:HOOKS",
        aliases=("connectfour",),
        rules="Two players take turns dropping a disc into a column; it falls to the lowest "
              "free cell. Red (X) goes first, then yellow (O). Four of your discs in a row, "
              "across, down or diagonally, win; a full board without one is a draw.",
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
                          max_items=32, limits="1 to 32 heaps of 0 to 100000",
                          label="heaps")

    last_move = ("Players take turns; the player who makes the last move wins (whoever "
                 "cannot move loses).")

    register_game(GameSpec(
        name="nim", title="Nim", factory="yipan.games.heaps:Nim", hooks=hooks,
        options=(heaps((3, 4, 5)),
                 GameOption("rule", str, "normal", "normal or misere (taking the last loses)",
                            choices=("normal", "misere"),
                            label="rule (misere: taking the last token loses)")),
        rules="There are a few heaps of tokens. On your turn take as many tokens as you like "
              "(at least one) from one heap. Whoever takes the last token wins; under the "
              "misère rule, whoever takes it loses.",
        examples=({"heaps": "1,2,3", "rule": "misere"}, {"heaps": "7"})))
    register_game(GameSpec(
        name="bash", title="Bash game (take 1 to k)", factory="yipan.games.heaps:BashGame",
        hooks=hooks,
        options=(heaps((10,)), GameOption("k", _whole, 3, "the most tokens a move takes",
                                          label="most tokens a move takes")),
        rules="On your turn take one token or more, but no more than the agreed number "
              "(3 unless you choose another), from one heap. " + last_move,
        examples=({"heaps": "9,4", "k": "2"},)))
    register_game(GameSpec(
        name="subtraction", title="Subtraction game", hooks=hooks,
        factory="yipan.games.heaps:SubtractionGame",
        options=(heaps((10,)), GameOption("subtract", str, "1,3,4", "the amounts, e.g. 1,3,4",
                                          label="amounts a move may take")),
        rules="On your turn take from one heap exactly one of the allowed amounts (1, 3 or 4 "
              "unless you choose others). " + last_move,
        examples=({"heaps": "8,5", "subtract": "2,5"},)))
    register_game(GameSpec(
        name="octal", title="Octal game", factory="yipan.games.heaps:OctalGame", hooks=hooks,
        options=(heaps((10,)), GameOption("code", str, "0.77", "the octal code, e.g. 0.137",
                                          label="octal code (the rules, as digits)")),
        rules="A family of heap games written as a code: the k-th digit after the point says "
              "what taking k tokens from a heap may leave (1: nothing, 2: one heap, 4: two "
              "heaps, added up). 0.77 is Kayles, 0.07 Dawson's Kayles. " + last_move,
        examples=({"heaps": "9", "code": "0.137"}, {"heaps": "7,3", "code": "4.7"})))
    register_game(GameSpec(
        name="kayles", title="Kayles (0.77)", factory="yipan.games.heaps:Kayles", hooks=hooks,
        options=(heaps((12,)),), examples=({"heaps": "4,5"},),
        rules="A row of pins. On your turn knock down one pin, or two pins standing side by "
              "side; a gap splits a row in two. " + last_move))
    register_game(GameSpec(
        name="dawsons-kayles", title="Dawson's Kayles (0.07)", hooks=hooks,
        factory="yipan.games.heaps:DawsonsKayles", options=(heaps((12,)),),
        rules="A row of pins. On your turn knock down two pins standing side by side; a gap "
              "splits a row in two. " + last_move))
    register_game(GameSpec(
        name="grundy-game", title="Grundy's game", factory="yipan.games.heaps:GrundysGame",
        hooks=hooks, options=(heaps((12,)),), aliases=("grundys-game",),
        examples=({"heaps": "7,6"},),
        rules="On your turn split one heap into two heaps of different sizes (a heap of 1 or "
              "2 cannot be split). " + last_move))
    register_game(GameSpec(
        name="wythoff", title="Wythoff's game", factory="yipan.games.heaps:WythoffGame",
        hooks=hooks, options=(heaps((4, 7)),), examples=({"heaps": "3,5"},),
        rules="Two heaps. On your turn take any number of tokens from one heap, or the same "
              "number from both. " + last_move))


def _g2048() -> None:
    register_game(GameSpec(
        name="2048",
        title="2048 (one player against chance)",
        factory="yipan.games.g2048:G2048",
        hooks="yipan.games.g2048.hooks:HOOKS",
        rules="Slide every tile up, down, left or right (arrow keys, or swipe). Two tiles of "
              "the same number that meet merge into one with their sum, which adds to your "
              "score. After each move a new tile, 2 or 4, appears on a free square. The game "
              "ends when no move changes the board: aim for a 2048 tile.",
    ))

def _gomoku() -> None:
    register_game(GameSpec(
        name="gomoku",
        title="Gomoku (five in a row)",
        factory="yipan.games.gomoku:Gomoku",
        options=(
            GameOption("size", _whole, 15, "board size, 7 to 22", label="board size (lines)"),
            GameOption("rule", str, "freestyle",
                       "freestyle (five or more), standard (exactly five), renju (black: "
                       "exactly five, no double three, double four or overline), caro (five "
                       "or more, not blocked at both ends) or caro-exact (exactly five, not "
                       "blocked at both ends)",
                       choices=("freestyle", "standard", "renju", "caro", "caro-exact"),
                       label="what wins", choice_labels={
                           "freestyle": "freestyle: five or more",
                           "standard": "standard: exactly five",
                           "renju": "renju: black exactly five, no double three, double "
                                    "four or overline",
                           "caro": "caro: five or more, not blocked at both ends",
                           "caro-exact": "caro: exactly five, not blocked at both ends"}),
        ),
        hooks="yipan.games.gomoku.hooks:HOOKS",
        rules="Two players, black and white, take turns placing a stone on an empty point; "
              "black goes first. Five stones in a row, across, down or diagonally, win. "
              "Freestyle: five or more. Standard: exactly five (six or more do not count). "
              "Renju: white wins with five or more, black only with exactly five, and black "
              "may not play a point that makes two threes at once, two fours at once, or six "
              "or more in a row, unless it also makes five (a three is a line one move from "
              "an open four; a four, one move from five). Caro: five or more win, but not a "
              "line whose both ends are blocked by the opponent's stones (the edge of the "
              "board blocks nothing); caro-exact: the same with exactly five.",
        examples=({"size": "9", "rule": "standard"}, {"rule": "renju"},
                  {"size": "11", "rule": "caro"}, {"size": "9", "rule": "caro-exact"}),
    ))


def _hidden_information_games() -> None:
    """Games where a player does not see everything: solved by CFR (``yipan.search.cfr``)."""
    hooks = "yipan.games.equilibrium:HOOKS"
    register_game(GameSpec(
        name="kuhn", title="Kuhn poker", factory="yipan.games.kuhn:KuhnPoker", hooks=hooks,
        aliases=("kuhn-poker",),
        rules="A deck of three cards: jack, queen, king. Each player antes one chip and is "
              "dealt one card, seen only by its owner. The first player checks or bets one "
              "chip; after a check the second may check (showdown) or bet; a bet is called "
              "or folded. At a showdown the higher card takes the pot; a fold gives it to "
              "the bettor."))
    register_game(GameSpec(
        name="leduc", title="Leduc hold'em", factory="yipan.games.leduc:LeducHoldem",
        hooks=hooks, aliases=("leduc-holdem",),
        rules="Six cards: two jacks, two queens, two kings. Each player antes one chip and "
              "gets one private card. A betting round (bets of 2 chips, at most two raises), "
              "then one public card is shown and a second round (bets of 4). At the "
              "showdown a pair with the public card wins; else the higher card; a fold "
              "gives the pot to the other player."))
    register_game(GameSpec(
        name="liars-dice", title="Liar's Dice", factory="yipan.games.liarsdice:LiarsDice",
        hooks=hooks, aliases=("liarsdice",),
        rules="Each player rolls their dice under a cup and sees only their own. Players "
              "take turns bidding that at least so many dice on the table show a face, each "
              "bid higher than the last (more dice, or the same number of a higher face), or "
              "call 'liar'. The highest face is wild. The cups are lifted: if the bid holds "
              "its bidder wins, else the caller.",
        options=(GameOption("dice", _whole, 1, "dice per player, 1 or 2", label="dice each"),
                 GameOption("faces", _whole, 6, "faces of a die, 2 to 6 (two dice: up to 3)",
                            label="faces of a die")),
        examples=({"dice": "1", "faces": "3"}, {"dice": "2", "faces": "2"})))

    def big_blinds(text: str) -> float:
        from .pushfold.rules import read_big_blinds

        return read_big_blinds(text)

    register_game(GameSpec(
        name="pushfold", title="Push or fold hold'em (heads-up)",
        factory="yipan.games.pushfold:PushFoldHoldem", hooks="yipan.games.pushfold.hooks:HOOKS",
        aliases=("push-fold",),
        rules="Heads-up no-limit hold'em cut to one decision each: the small blind (half a "
              "big blind) goes all in with its stack or folds; facing the shove, the big "
              "blind calls or folds. On a call the five board cards are dealt and the best "
              "five-card hand of seven takes the pot.",
        options=(GameOption("stack", big_blinds, 10.0, "effective stack in big blinds, 1 to 100",
                            label="stack (big blinds)"),
                 GameOption("ante", big_blinds, 0.0, "each player's ante in big blinds, 0 to 1",
                            label="ante (big blinds)")),
        examples=({"stack": "3", "ante": "0.5"},)))
def _fen(text: str) -> str:
    from .chess.notation import normal_fen

    return normal_fen(text)


def _chess() -> None:
    register_game(GameSpec(
        name="chess",
        title="Chess",
        factory="yipan.games.chess:Chess",
        options=(GameOption("fen", _fen, None, "the start position in FEN (default: the usual "
                                               "start)", label="start position (FEN)"),),
        hooks="yipan.games.chess.hooks:HOOKS",
        rules="White and black move in turn, white first; each piece moves its own way and "
              "captures by moving onto an enemy piece. Castling, en passant and promotion as "
              "usual. Checkmate the enemy king to win; stalemate, threefold repetition, fifty "
              "moves without a capture or pawn move, and too little material are draws.",
        examples=({"fen": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
                          "0 1"},
                  {"fen": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}),
    ))


def _komi(text: str) -> float:
    from .go.rules import parse_komi

    return parse_komi(text)


def _go() -> None:
    options = (
        GameOption("size", _whole, 9, "board size, 5 to 19 (9, 13, 19)",
                   label="board size (lines)"),
        GameOption("komi", _komi, 7.5, "points given to white (area scoring)",
                   label="komi (white's points)"),
        GameOption("handicap", _whole, 0, "fixed handicap stones for black, 2 to 9",
                   label="handicap stones"),
    )
    register_game(GameSpec(
        name="go",
        title="Go (area scoring, positional superko)",
        factory="yipan.games.go:Go",
        options=options,
        hooks="yipan.games.go.hooks:HOOKS",
        rules="Black and white take turns placing a stone on an empty point (or passing); "
              "black goes first. A group with no empty point next to it is captured. A move "
              "may not repeat an earlier position. Two passes end the game: each side's "
              "stones and the empty points only it surrounds are its area; white gets komi; "
              "the larger area wins.",
        aliases=("weiqi", "baduk", "go9", "go13", "go19"),
        presets={"go9": {"size": 9}, "go13": {"size": 13}, "go19": {"size": 19}},
        examples=({"size": "5", "komi": "0.5"}, {"size": "7", "handicap": "2", "komi": "0"}),
    ))


def _xiangqi_fen(text: str) -> str:
    from .xiangqi.rules import position_from_fen

    position_from_fen(text)  # a GameOptionError says what is wrong with it
    return " ".join(str(text).split())


def _xiangqi() -> None:
    register_game(GameSpec(
        name="xiangqi",
        title="Chinese chess (xiangqi, 象棋)",
        factory="yipan.games.xiangqi:Xiangqi",
        options=(GameOption("fen", _xiangqi_fen, None,
                            "the start position in xiangqi FEN (default: the usual start)",
                            label="start position (FEN)"),),
        hooks="yipan.games.xiangqi.hooks:HOOKS",
        aliases=("chinese-chess", "cchess"),
        rules="Red and black move in turn, red first, on the points of a 9 by 10 board cut "
              "by a river. The general and its two advisors keep to the palace (the general "
              "one step along a line, advisors one step diagonally); elephants move two "
              "points diagonally, never across the river, blocked by a piece in between; "
              "horses move one point straight then one diagonally, blocked by a piece next "
              "to them; chariots move like rooks; cannons move like rooks but capture by "
              "jumping exactly one piece; soldiers step forward, and also sideways once "
              "across the river. The two generals may not face each other on an open file. "
              "Checkmate the enemy general, or leave the opponent no legal move, to win. A "
              "position repeated three times is a draw, except that the side giving "
              "perpetual check loses, and failing that the side perpetually chasing an "
              "unprotected piece; sixty moves without a capture are a draw.",
        examples=({"fen": "3akab2/9/4b4/9/2c6/9/9/3R5/4A4/4KA3 w"},
                  {"fen": "4k4/4a4/9/9/9/9/9/9/4p4/3K5 b"}),
    ))


def register_builtin_games() -> None:
    """Register every built-in game by name (no game's module is imported)."""
    _tictactoe()
    _connect4()
    _heap_games()
    _g2048()
    _gomoku()
    _hidden_information_games()
    _chess()
    _go()
    _xiangqi()
