"""The built-in games, registered by name (lazily: a game's module loads when it is asked for).

To add a game: write a module here with a ``Game`` subclass and add one ``register_game``
call below; the conformance suite then checks it and the CLI and web app offer it.
"""

from ..core.registry import GameOption, GameSpec, register_game


def _size(text: str) -> str:
    from .tictactoe import parse_size

    rows, cols = parse_size(text)
    return f"{rows}x{cols}"


register_game(GameSpec(
    name="tictactoe",
    title="Tic-tac-toe and m,n,k-games",
    factory="yipan.games.tictactoe:TicTacToe",
    options=(
        GameOption("size", _size, "3x3", "board size, rows x columns (e.g. 4x4)"),
        GameOption("k", int, None, "stones in a row to win (default: the shorter side)"),
    ),
    ai="yipan.games.tictactoe:make_ai",
    aliases=("mnk",),
))


def _board(text: str) -> str:
    from .connect4.rules import parse_size

    width, height = parse_size(text)
    return f"{width}x{height}"


register_game(GameSpec(
    name="connect4",
    title="Connect Four",
    factory="yipan.games.connect4.rules:ConnectFour",
    options=(
        GameOption("size", _board, None, "board size, width x height (default 7x6)"),
        GameOption("width", int, None, "columns (default 7)"),
        GameOption("height", int, None, "rows (default 6)"),
    ),
    ai="yipan.games.connect4.player:make_ai",
    cli="yipan.games.connect4.cli",
    aliases=("connectfour",),
))


def _heap(text: str) -> int:
    from .heaps import parse_heap

    return parse_heap(text)


def _heap_games() -> None:
    """Nim and the other heap games of ``yipan.impartial``: the AI plays by Grundy values."""
    heaps_help = "heap sizes, e.g. 3 4 5"
    ai, cli = "yipan.games.heap_ai:make_ai", "yipan.games.heap_cli"

    def heaps(default: tuple[int, ...]) -> GameOption:
        return GameOption("heaps", _heap, default, heaps_help, many=True, positional=True)

    register_game(GameSpec(
        name="nim", title="Nim", factory="yipan.games.heaps:Nim", ai=ai, cli=cli,
        options=(heaps((3, 4, 5)),
                 GameOption("rule", str, "normal", "normal or misere (taking the last loses)",
                            choices=("normal", "misere")))))
    register_game(GameSpec(
        name="bash", title="Bash game (take 1 to k)", factory="yipan.games.heaps:BashGame",
        ai=ai, cli=cli,
        options=(heaps((10,)), GameOption("k", int, 3, "the most tokens a move takes"))))
    register_game(GameSpec(
        name="subtraction", title="Subtraction game", ai=ai, cli=cli,
        factory="yipan.games.heaps:SubtractionGame",
        options=(heaps((10,)), GameOption("subtract", str, "1,3,4", "the amounts, e.g. 1,3,4"))))
    register_game(GameSpec(
        name="octal", title="Octal game", factory="yipan.games.heaps:OctalGame", ai=ai, cli=cli,
        options=(heaps((10,)), GameOption("code", str, "0.77", "the octal code, e.g. 0.137"))))
    register_game(GameSpec(
        name="kayles", title="Kayles (0.77)", factory="yipan.games.heaps:Kayles", ai=ai, cli=cli,
        options=(heaps((12,)),)))
    register_game(GameSpec(
        name="dawsons-kayles", title="Dawson's Kayles (0.07)", ai=ai, cli=cli,
        factory="yipan.games.heaps:DawsonsKayles", options=(heaps((12,)),)))
    register_game(GameSpec(
        name="grundy-game", title="Grundy's game", factory="yipan.games.heaps:GrundysGame",
        ai=ai, cli=cli, options=(heaps((12,)),), aliases=("grundys-game",)))
    register_game(GameSpec(
        name="wythoff", title="Wythoff's game", factory="yipan.games.wythoff:WythoffGame",
        ai=ai, cli=cli, options=(heaps((4, 7)),)))


_heap_games()

register_game(GameSpec(
    name="2048",
    title="2048 (one player against chance)",
    factory="yipan.games.g2048:G2048",
    ai="yipan.games.g2048:make_ai",
    cli="yipan.games.g2048_cli",
))

register_game(GameSpec(
    name="gomoku",
    title="Gomoku (five in a row)",
    factory="yipan.games.gomoku:Gomoku",
    options=(
        GameOption("size", int, 15, "board size, 7 to 22"),
        GameOption("rule", str, "freestyle", "freestyle (five or more) or standard (exactly five)",
                   choices=("freestyle", "standard")),
    ),
    ai="yipan.games.gomoku.players:make_ai",
    cli="yipan.games.gomoku.cli",
))
