"""Reading numbers from text a person (or an attacker) typed: ASCII digits only, short.

``"²".isdigit()`` is true and ``int("٣")`` is 3, and ``int`` of a 5,000-digit string raises;
every number in a move, an option or a file goes through here instead, so a strange digit or a
huge number is one clear error, never a traceback.
"""

from __future__ import annotations

MAX_DIGITS = 18  # fits in 64 bits; no board, heap or count of ours is larger


def is_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits 0-9 (and nothing else)."""
    return text.isascii() and text.isdigit()


def read_int(text: str, what: str = "number", *, max_digits: int = MAX_DIGITS,
             error: type[ValueError] = ValueError) -> int:
    """An integer written in ASCII (an optional sign, at most ``max_digits`` digits);
    otherwise ``error`` (a ValueError) naming ``what``, quoting at most a few dozen
    characters."""
    stripped = str(text).strip()
    digits = stripped[1:] if stripped[:1] in "+-" and len(stripped) > 1 else stripped
    if not is_digits(digits):
        raise error(f"{what} must be a whole number, not {quote(stripped)}")
    if len(digits.lstrip("0")) > max_digits:
        raise error(f"{what} is too large ({len(digits)} digits)")
    return int(stripped)


def quote(text: str, limit: int = 40) -> str:
    """``repr`` of the text, cut to ``limit`` characters (errors never echo a whole input)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")
