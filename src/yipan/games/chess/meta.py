"""Chess in the registry: its option (the start position), rules in words and example
positions."""

from ...core.registry import GameOption, GameSpec


def _fen(text: str) -> str:
    from .notation import normal_fen

    return normal_fen(text)


GAMES = (GameSpec(
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
),)
