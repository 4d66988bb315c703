"""Liar's Dice in the registry: its options, rules in words and example option sets; its AI
plays the equilibrium of ``yipan.games.equilibrium``."""

from ...core.registry import GameOption, GameSpec, whole_number

GAMES = (GameSpec(
    name="liars-dice", title="Liar's Dice", factory="yipan.games.liarsdice:LiarsDice",
    hooks="yipan.games.equilibrium:HOOKS", aliases=("liarsdice",),
    rules="Each player rolls their dice under a cup and sees only their own. Players "
          "take turns bidding that at least so many dice on the table show a face, each "
          "bid higher than the last (more dice, or the same number of a higher face), or "
          "call 'liar'. The highest face is wild. The cups are lifted: if the bid holds "
          "its bidder wins, else the caller.",
    options=(GameOption("dice", whole_number, 1, "dice per player, 1 or 2", label="dice each"),
             GameOption("faces", whole_number, 6, "faces of a die, 2 to 6 (two dice: up to 3)",
                        label="faces of a die")),
    examples=({"dice": "1", "faces": "3"}, {"dice": "2", "faces": "2"})),)
