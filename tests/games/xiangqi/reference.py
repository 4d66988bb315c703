"""A plain, slow xiangqi move generator written from the rules alone (no tables, no numba):
the referee of the kernel's perft on random positions.

A board is a dict {(file, rank): "R"/"r"...} (FEN letters, red upper case); side "w" or "b".
"""

from __future__ import annotations


def parse(fen: str) -> tuple[dict[tuple[int, int], str], str]:
    rows, side = fen.split()[:2]
    board = {}
    for index, row in enumerate(rows.split("/")):
        rank, file = 9 - index, 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                board[(file, rank)] = char
                file += 1
    return board, side


def red(piece: str) -> bool:
    return piece.isupper()


def palace(is_red: bool, file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (0 <= rank <= 2 if is_red else 7 <= rank <= 9)


def on_board(file: int, rank: int) -> bool:
    return 0 <= file <= 8 and 0 <= rank <= 9


def pseudo(board: dict, side: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    is_red = side == "w"
    out = []
    for (file, rank), piece in list(board.items()):
        if red(piece) != is_red:
            continue
        kind = piece.lower()
        targets = []
        if kind in "rc":
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                f, r = file + df, rank + dr
                jumped = False
                while on_board(f, r):
                    if (f, r) not in board:
                        if not jumped:
                            targets.append((f, r))
                    else:
                        if kind == "r":
                            targets.append((f, r))
                            break
                        if jumped:
                            targets.append((f, r))
                            break
                        jumped = True
                    f, r = f + df, r + dr
        elif kind == "n":
            for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1),
                           (-2, -1)):
                leg = (file, rank + dr // abs(dr)) if abs(dr) == 2 else (file + df // abs(df),
                                                                          rank)
                if leg not in board:
                    targets.append((file + df, rank + dr))
        elif kind == "b":
            for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                f, r = file + df, rank + dr
                river_ok = r <= 4 if is_red else r >= 5
                if river_ok and (file + df // 2, rank + dr // 2) not in board:
                    targets.append((f, r))
        elif kind == "a":
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if palace(is_red, file + df, rank + dr):
                    targets.append((file + df, rank + dr))
        elif kind == "k":
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if palace(is_red, file + df, rank + dr):
                    targets.append((file + df, rank + dr))
        elif kind == "p":
            forward = 1 if is_red else -1
            targets.append((file, rank + forward))
            crossed = rank >= 5 if is_red else rank <= 4
            if crossed:
                targets += [(file + 1, rank), (file - 1, rank)]
        for target in targets:
            if not on_board(*target):
                continue
            occupant = board.get(target)
            if occupant is not None and red(occupant) == is_red:
                continue
            out.append(((file, rank), target))
    return out


def exposed(board: dict, side: str) -> bool:
    """Whether ``side``'s general can be taken by the other side, or faces the other."""
    mine = "K" if side == "w" else "k"
    king = next(square for square, piece in board.items() if piece == mine)
    theirs = next(square for square, piece in board.items() if piece == mine.swapcase())
    if king[0] == theirs[0]:
        low, high = sorted((king[1], theirs[1]))
        if all((king[0], r) not in board for r in range(low + 1, high)):
            return True
    other = "b" if side == "w" else "w"
    return any(target == king for _, target in pseudo(board, other))


def legal(board: dict, side: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    out = []
    for origin, target in pseudo(board, side):
        after = dict(board)
        after[target] = after.pop(origin)
        if not exposed(after, side):
            out.append((origin, target))
    return out


def iccs(move: tuple[tuple[int, int], tuple[int, int]]) -> str:
    (f1, r1), (f2, r2) = move
    return f"{'abcdefghi'[f1]}{r1}{'abcdefghi'[f2]}{r2}"


def perft(board: dict, side: str, depth: int) -> int:
    moves = legal(board, side)
    if depth == 1:
        return len(moves)
    other = "b" if side == "w" else "w"
    total = 0
    for origin, target in moves:
        after = dict(board)
        after[target] = after.pop(origin)
        total += perft(after, other, depth - 1)
    return total
