"""All-in equities of the 169 starting-hand classes against each other, by enumerating boards.

For a five-card board, every two-card hand that does not touch it is valued once (1,081 of
them, by ``evaluator``), and every pair of hands that share no card is settled: a win counts
2 half-points, a tie 1 each. Summed over the boards and folded into classes, ``wins[i, j] /
(2 * deals[i, j])`` is the equity of class i against class j: exactly the average over every
deal of two such hands and every board, card removal included. Over all C(52, 5) = 2,598,960
boards the figures are exact; over boards drawn at random (``sampled_boards``) each is an
estimate, and ``standard_errors`` says how close.

The table is kept in a checksummed file (``save_table`` / ``load_table``), computed once.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from ..core import YipanError
from ..core.files import read_capped, write_atomically
from ..native import random_below, seed_from
from .cards import CLASSES, DECK, combo_classes, combos, pair_weights
from .evaluator import add_card, strength_of

HANDS = 1326


class CorruptEquityTableError(YipanError, ValueError):
    """An equity file that is truncated, altered or of another shape."""


@njit(cache=True)
def settle_board(board, pairs, masks, classes, wins, deals, strengths, weight):
    """Add one board's showdowns to ``wins`` (half-points) and ``deals`` (class by class),
    each counted ``weight`` times."""
    board_mask = np.uint64(0)
    once = twice = thrice = four = suits = 0
    for card in board:
        board_mask |= np.uint64(1) << np.uint64(card)
        once, twice, thrice, four, suits = add_card(once, twice, thrice, four, suits, card)
    for hand in range(pairs.shape[0]):
        if masks[hand] & board_mask:
            strengths[hand] = -1
            continue
        a = add_card(once, twice, thrice, four, suits, pairs[hand, 0])
        b = add_card(a[0], a[1], a[2], a[3], a[4], pairs[hand, 1])
        strengths[hand] = strength_of(b[0], b[1], b[2], b[3], b[4])
    for first in range(pairs.shape[0]):
        mine = strengths[first]
        if mine < 0:
            continue
        row = classes[first]
        for second in range(first + 1, pairs.shape[0]):
            theirs = strengths[second]
            if theirs < 0 or masks[first] & masks[second]:
                continue
            column = classes[second]
            if mine > theirs:
                wins[row, column] += 2 * weight
            elif mine < theirs:
                wins[column, row] += 2 * weight
            else:
                wins[row, column] += weight
                wins[column, row] += weight
            deals[row, column] += weight
            deals[column, row] += weight


@njit(cache=True)
def settle_random_boards(count, seed, pairs, masks, classes, wins, deals):
    """``count`` boards drawn uniformly (a partial shuffle of the deck per board)."""
    deck = np.arange(52)
    board = np.empty(5, np.int64)
    strengths = np.empty(pairs.shape[0], np.int64)
    state = np.uint64(seed)
    for _ in range(count):
        for k in range(5):
            state, pick = random_below(state, 52 - k)
            deck[k], deck[k + pick] = deck[k + pick], deck[k]
            board[k] = deck[k]
        settle_board(board, pairs, masks, classes, wins, deals, strengths, 1)
    return state


@njit(cache=True)
def board_key(board) -> int:
    """Five cards, sorted, packed six bits each."""
    ordered = np.sort(board)
    key = 0
    for card in ordered:
        key = (key << 6) | card
    return key


@njit(cache=True)
def canonical_boards(permutations):
    """Every board up to a renaming of the suits: (the boards as packed keys, how many of the
    2,598,960 boards each stands for). ``permutations``: the 24 orders of the four suits."""
    keys = np.empty(2598960, np.int64)
    board = np.empty(5, np.int64)
    renamed = np.empty(5, np.int64)
    count = 0
    for a in range(52):
        board[0] = a
        for b in range(a + 1, 52):
            board[1] = b
            for c in range(b + 1, 52):
                board[2] = c
                for d in range(c + 1, 52):
                    board[3] = d
                    for e in range(d + 1, 52):
                        board[4] = e
                        best = board_key(board)
                        for p in range(permutations.shape[0]):
                            for k in range(5):
                                renamed[k] = (board[k] & ~3) | permutations[p, board[k] & 3]
                            key = board_key(renamed)
                            if key < best:
                                best = key
                        keys[count] = best
                        count += 1
    keys.sort()
    unique = np.empty(count, np.int64)
    weights = np.zeros(count, np.int64)
    distinct = 0
    for i in range(count):
        if distinct == 0 or keys[i] != unique[distinct - 1]:
            unique[distinct] = keys[i]
            distinct += 1
        weights[distinct - 1] += 1
    return unique[:distinct], weights[:distinct]


@njit(cache=True)
def settle_canonical_boards(keys, weights, first, last, pairs, masks, classes, wins, deals):
    """Settle boards ``first`` to ``last - 1`` of ``canonical_boards``, each with its weight."""
    board = np.empty(5, np.int64)
    strengths = np.empty(pairs.shape[0], np.int64)
    for i in range(first, last):
        key = keys[i]
        for k in range(4, -1, -1):
            board[k] = key & 63
            key >>= 6
        settle_board(board, pairs, masks, classes, wins, deals, strengths, weights[i])


@dataclass
class EquityTable:
    """Half-point wins and deals, class by class, with the boards they came from."""

    wins: np.ndarray
    deals: np.ndarray
    boards: int
    exact: bool

    @property
    def equity(self) -> np.ndarray:
        """``equity[i, j]``: class i's share of the pot against class j, all in preflop."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.deals > 0, self.wins / np.maximum(2 * self.deals, 1), 0.5)

    def standard_errors(self) -> np.ndarray:
        """A bound on each sampled equity's standard error: as if each board gave one
        independent showdown per pair of classes (it gives many; they are correlated)."""
        if self.exact:
            return np.zeros_like(self.wins, dtype=float)
        equity = self.equity
        return np.sqrt(equity * (1 - equity) / max(self.boards, 1))


def _hands() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pairs = combos()
    masks = (np.uint64(1) << pairs[:, 0].astype(np.uint64)) | \
        (np.uint64(1) << pairs[:, 1].astype(np.uint64))
    return pairs, masks, combo_classes(pairs)


def sampled_boards(count: int, rng: random.Random) -> EquityTable:
    """The table over ``count`` random boards."""
    pairs, masks, classes = _hands()
    wins = np.zeros((CLASSES, CLASSES), np.int64)
    deals = np.zeros((CLASSES, CLASSES), np.int64)
    settle_random_boards(count, seed_from(rng), pairs, masks, classes, wins, deals)
    return EquityTable(wins, deals, count, exact=False)


def all_boards(progress=None, chunk: int = 2000) -> EquityTable:
    """The exact table: every board, each of the 134,459 up to suits once with its weight
    (minutes on one core); ``progress(done, total)`` after each chunk of boards."""
    pairs, masks, classes = _hands()
    permutations = np.array(list(itertools.permutations(range(4))), np.int64)
    keys, weights = canonical_boards(permutations)
    wins = np.zeros((CLASSES, CLASSES), np.int64)
    deals = np.zeros((CLASSES, CLASSES), np.int64)
    for first in range(0, len(keys), chunk):
        last = min(first + chunk, len(keys))
        settle_canonical_boards(keys, weights, first, last, pairs, masks, classes, wins, deals)
        if progress is not None:
            progress(last, len(keys))
    return EquityTable(wins, deals, math.comb(DECK, 5), exact=True)


def merge(tables: list[EquityTable]) -> EquityTable:
    """Sampled tables added up (their boards drawn independently)."""
    wins = np.sum([t.wins for t in tables], axis=0)
    deals = np.sum([t.deals for t in tables], axis=0)
    return EquityTable(wins, deals, sum(t.boards for t in tables), exact=False)


# -- the file ------------------------------------------------------------------------------------
MAGIC = "yipan-equities 1"
MAX_TABLE_BYTES = 16 << 20  # the table is a line for each of 169 classes


def deal_counts() -> np.ndarray:
    """``deals[i, j]`` of the exact table: the deals of two hands of classes i and j (the
    card removal, ``cards.pair_weights``) times the C(48, 5) boards each leaves."""
    return pair_weights().astype(np.int64) * math.comb(DECK - 4, 5)


def save_table(path: str | Path, table: EquityTable) -> None:
    """The exact table as text, written atomically: a header, then a line per class i with
    the half-point wins of i against classes i, i + 1, ..., 168 (the rest follows:
    ``wins[j, i] = 2 * deals[i, j] - wins[i, j]``, and the deals are ``deal_counts``), then
    ``sha256 <digest of every byte before>``."""
    if not table.exact:
        raise ValueError("only the exact table is kept in a file")
    lines = [MAGIC, json.dumps({"classes": CLASSES, "boards": table.boards, "exact": True})]
    lines += [" ".join(map(str, table.wins[row, row:])) for row in range(CLASSES)]
    body = "\n".join(lines) + "\n"
    write_atomically(path, body + f"sha256 {hashlib.sha256(body.encode()).hexdigest()}\n")


def load_table(path: str | Path) -> EquityTable:
    """Read ``save_table``'s file; anything amiss is a CorruptEquityTableError."""
    name = Path(path).name
    data = read_capped(path, MAX_TABLE_BYTES, "equity table")
    body, _, tail = data.rpartition(b"sha256 ")
    if not body or hashlib.sha256(body).hexdigest().encode() != tail.strip():
        raise CorruptEquityTableError(f"equity table {name!r}: checksum mismatch")
    deals = deal_counts()
    try:
        lines = body.decode("ascii").splitlines()
        header = json.loads(lines[1])
        if lines[0] != MAGIC or header["classes"] != CLASSES or len(lines) != CLASSES + 2:
            raise ValueError
        wins = np.zeros((CLASSES, CLASSES), np.int64)
        for row, line in enumerate(lines[2:]):
            values = [int(x) for x in line.split()]
            if len(values) != CLASSES - row:
                raise ValueError
            wins[row, row:] = values
            wins[row + 1:, row] = 2 * deals[row, row + 1:] - wins[row, row + 1:]
    except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
        raise CorruptEquityTableError(f"equity table {name!r}: malformed") from None
    if (wins < 0).any() or (wins > 2 * deals).any():
        raise CorruptEquityTableError(f"equity table {name!r}: wins out of range")
    return EquityTable(wins, deals, int(header["boards"]), exact=True)
