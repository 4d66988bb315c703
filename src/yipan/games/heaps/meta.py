"""The heap games in the registry (Nim and the other games of ``yipan.impartial``, played by
Grundy values): their options, rules in words and example option sets."""

from ...core.registry import GameOption, GameSpec, whole_number

HOOKS = "yipan.games.heaps.hooks:HOOKS"
LAST_MOVE = ("Players take turns; the player who makes the last move wins (whoever cannot "
             "move loses).")


def _heap(text: str) -> int:
    from .rules import parse_heap

    return parse_heap(text)


def _heaps(default: tuple[int, ...]) -> GameOption:
    return GameOption("heaps", _heap, default, "heap sizes, e.g. 3 4 5", many=True,
                      positional=True, max_items=32, limits="1 to 32 heaps of 0 to 100000",
                      label="heaps")


GAMES = (
    GameSpec(
        name="nim", title="Nim", factory="yipan.games.heaps:Nim", hooks=HOOKS,
        options=(_heaps((3, 4, 5)),
                 GameOption("rule", str, "normal", "normal or misere (taking the last loses)",
                            choices=("normal", "misere"),
                            label="rule (misere: taking the last token loses)")),
        rules="There are a few heaps of tokens. On your turn take as many tokens as you like "
              "(at least one) from one heap. Whoever takes the last token wins; under the "
              "misère rule, whoever takes it loses.",
        examples=({"heaps": "1,2,3", "rule": "misere"}, {"heaps": "7"})),
    GameSpec(
        name="bash", title="Bash game (take 1 to k)", factory="yipan.games.heaps:BashGame",
        hooks=HOOKS,
        options=(_heaps((10,)), GameOption("k", whole_number, 3, "the most tokens a move takes",
                                           label="most tokens a move takes")),
        rules="On your turn take one token or more, but no more than the agreed number "
              "(3 unless you choose another), from one heap. " + LAST_MOVE,
        examples=({"heaps": "9,4", "k": "2"},)),
    GameSpec(
        name="subtraction", title="Subtraction game", hooks=HOOKS,
        factory="yipan.games.heaps:SubtractionGame",
        options=(_heaps((10,)), GameOption("subtract", str, "1,3,4", "the amounts, e.g. 1,3,4",
                                           label="amounts a move may take")),
        rules="On your turn take from one heap exactly one of the allowed amounts (1, 3 or 4 "
              "unless you choose others). " + LAST_MOVE,
        examples=({"heaps": "8,5", "subtract": "2,5"},)),
    GameSpec(
        name="octal", title="Octal game", factory="yipan.games.heaps:OctalGame", hooks=HOOKS,
        options=(_heaps((10,)), GameOption("code", str, "0.77", "the octal code, e.g. 0.137",
                                           label="octal code (the rules, as digits)")),
        rules="A family of heap games written as a code: the k-th digit after the point says "
              "what taking k tokens from a heap may leave (1: nothing, 2: one heap, 4: two "
              "heaps, added up). 0.77 is Kayles, 0.07 Dawson's Kayles. " + LAST_MOVE,
        examples=({"heaps": "9", "code": "0.137"}, {"heaps": "7,3", "code": "4.7"})),
    GameSpec(
        name="kayles", title="Kayles (0.77)", factory="yipan.games.heaps:Kayles", hooks=HOOKS,
        options=(_heaps((12,)),), examples=({"heaps": "4,5"},),
        rules="A row of pins. On your turn knock down one pin, or two pins standing side by "
              "side; a gap splits a row in two. " + LAST_MOVE),
    GameSpec(
        name="dawsons-kayles", title="Dawson's Kayles (0.07)", hooks=HOOKS,
        factory="yipan.games.heaps:DawsonsKayles", options=(_heaps((12,)),),
        rules="A row of pins. On your turn knock down two pins standing side by side; a gap "
              "splits a row in two. " + LAST_MOVE),
    GameSpec(
        name="grundy-game", title="Grundy's game", factory="yipan.games.heaps:GrundysGame",
        hooks=HOOKS, options=(_heaps((12,)),), aliases=("grundys-game",),
        examples=({"heaps": "7,6"},),
        rules="On your turn split one heap into two heaps of different sizes (a heap of 1 or "
              "2 cannot be split). " + LAST_MOVE),
    GameSpec(
        name="wythoff", title="Wythoff's game", factory="yipan.games.heaps:WythoffGame",
        hooks=HOOKS, options=(_heaps((4, 7)),), examples=({"heaps": "3,5"},),
        rules="Two heaps. On your turn take any number of tokens from one heap, or the same "
              "number from both. " + LAST_MOVE),
)
