"""Push-or-fold hold'em in the registry: its options (stack, ante), rules in words and an
example option set."""

from ...core.registry import GameOption, GameSpec


def _big_blinds(text: str) -> float:
    from .rules import read_big_blinds

    return read_big_blinds(text)


GAMES = (GameSpec(
    name="pushfold", title="Push or fold hold'em (heads-up)",
    factory="yipan.games.pushfold:PushFoldHoldem", hooks="yipan.games.pushfold.hooks:HOOKS",
    aliases=("push-fold",),
    rules="Heads-up no-limit hold'em cut to one decision each: the small blind (half a "
          "big blind) goes all in with its stack or folds; facing the shove, the big "
          "blind calls or folds. On a call the five board cards are dealt and the best "
          "five-card hand of seven takes the pot.",
    options=(GameOption("stack", _big_blinds, 10.0, "effective stack in big blinds, 1 to 100",
                        label="stack (big blinds)"),
             GameOption("ante", _big_blinds, 0.0, "each player's ante in big blinds, 0 to 1",
                        label="ante (big blinds)")),
    examples=({"stack": "3", "ante": "0.5"},)),)
