"""A seven-card poker hand evaluator in numba: a strength that orders hands as the rules do.

``strength(cards)`` of 5 to 7 cards (numbers ``4 * rank + suit``, see ``cards``) is one integer,
larger for a better best five-card hand, equal for hands that tie::

    bits 20..23   category: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
                  6 full house, 7 four of a kind, 8 straight flush
    bits 16..19,  the ranks that break ties within the category, most important first
    12..15, ...   (pair rank then kickers; a straight's top card; ...), 0..12 for 2..A

The hand is read once into a mask of the ranks present, a mask per suit and a count per rank;
straights are found on the rank mask with the ace also below the two (A-2-3-4-5, whose top
card is the five).
"""

from __future__ import annotations

import numpy as np
from numba import njit

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")


@njit(cache=True)
def straight_top(mask: int) -> int:
    """The top rank of the highest straight in a 13-bit rank mask, or -1 (the wheel's is 3)."""
    extended = (mask << 1) | ((mask >> 12) & 1)  # bit 0: the ace below the two
    for top in range(13, 3, -1):
        if (extended >> (top - 4)) & 0x1F == 0x1F:
            return top - 1
    return -1


@njit(cache=True)
def top_ranks(mask: int, count: int) -> int:
    """The ``count`` highest ranks of a mask, packed four bits each, highest first."""
    packed = 0
    taken = 0
    for rank in range(12, -1, -1):
        if taken == count:
            break
        if (mask >> rank) & 1:
            packed = (packed << 4) | rank
            taken += 1
    return packed << (4 * (5 - count))


@njit(cache=True)
def bit_count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def add_card(once: int, twice: int, thrice: int, four: int, suits: int, card: int
             ) -> tuple[int, int, int, int, int]:
    """The masks of a hand with one more card: ranks seen at least once, twice, three and four
    times (13 bits each), and the cards by suit (bits ``13 * suit + rank``)."""
    bit = 1 << (card >> 2)
    if thrice & bit:
        four |= bit
    elif twice & bit:
        thrice |= bit
    elif once & bit:
        twice |= bit
    else:
        once |= bit
    return once, twice, thrice, four, suits | (1 << (13 * (card & 3) + (card >> 2)))


@njit(cache=True)
def strength_of(once: int, twice: int, thrice: int, four: int, suits: int) -> int:
    """The strength of a hand of 5 to 7 cards given by its masks (``add_card``)."""
    for suit in range(4):
        in_suit = (suits >> (13 * suit)) & 0x1FFF
        if bit_count(in_suit) >= 5:
            top = straight_top(in_suit)
            if top >= 0:
                return (STRAIGHT_FLUSH << 20) | (top << 16)
            flush = (FLUSH << 20) | top_ranks(in_suit, 5)
            break
    else:
        flush = -1
    if four:
        quads = top_ranks(four, 1) >> 16
        return (QUADS << 20) | (quads << 16) | top_ranks(once & ~(1 << quads), 1) >> 4
    if thrice:
        trips = top_ranks(thrice, 1) >> 16
        others = twice & ~(1 << trips)  # a second three of a kind plays as a pair
        if others:
            return (FULL_HOUSE << 20) | (trips << 16) | (top_ranks(others, 1) >> 4)
    if flush >= 0:
        return flush
    top = straight_top(once)
    if top >= 0:
        return (STRAIGHT << 20) | (top << 16)
    if thrice:
        trips = top_ranks(thrice, 1) >> 16
        return (TRIPS << 20) | (trips << 16) | top_ranks(once & ~(1 << trips), 2) >> 4
    if bit_count(twice) >= 2:
        pairs = top_ranks(twice, 2) >> 12
        high, low = pairs >> 4, pairs & 0xF
        rest = once & ~(1 << high) & ~(1 << low)
        return (TWO_PAIR << 20) | (high << 16) | (low << 12) | (top_ranks(rest, 1) >> 8)
    if twice:
        pair = top_ranks(twice, 1) >> 16
        return (PAIR << 20) | (pair << 16) | (top_ranks(once & ~(1 << pair), 3) >> 4)
    return (HIGH_CARD << 20) | top_ranks(once, 5)


@njit(cache=True)
def strength(cards: np.ndarray) -> int:
    """The strength of the best five cards among ``cards`` (module docstring)."""
    once = twice = thrice = four = suits = 0
    for card in cards:
        once, twice, thrice, four, suits = add_card(once, twice, thrice, four, suits, card)
    return strength_of(once, twice, thrice, four, suits)


def category(value: int) -> str:
    """The name of a strength's category (``"full house"``)."""
    return CATEGORY_NAMES[value >> 20]
