"""The words players use for a poker action, read as the action the game names it by.

Players say ``push`` or ``jam`` for a shove, ``raise`` where the rules say bet (and the other
way round), ``call`` for a check when there is nothing to call, and Kuhn's own ``pass`` for a
check (or, facing a bet, a fold). A synonym becomes the first of its meanings that is legal in
the position, so a word never turns into an action the player could not have meant.
"""

from __future__ import annotations

from collections.abc import Collection

MEANINGS: dict[str, tuple[str, ...]] = {
    "push": ("shove",), "jam": ("shove",), "all-in": ("shove",), "allin": ("shove",),
    "all in": ("shove",), "shove": ("bet", "raise"),
    "raise": ("bet", "shove"), "bet": ("raise", "shove"),
    "call": ("check",),  # nothing to call: calling is checking
    "pass": ("check", "fold"),  # Kuhn's word for both
}


def action_word(text: str, legal: Collection[str]) -> str:
    """The legal action ``text`` means (lower case, spaces collapsed), else ``text`` so
    lowered (for the caller to accept or refuse)."""
    word = " ".join(text.lower().split())
    if word in legal:
        return word
    for meaning in MEANINGS.get(word, ()):
        if meaning in legal:
            return meaning
    return word
