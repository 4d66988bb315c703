"""States that draw themselves in a notebook, as python-chess boards do in Jupyter.

Each built-in state class has ``_repr_html_`` delegating to ``notebook_html(game_name,
state)``: an SVG drawing made from the game's ``view`` (the JSON picture the web page draws
from) for the kinds of board it knows (``grid``: tic-tac-toe, Connect Four, Gomoku; ``go``;
``tiles``: 2048; ``chess``; ``xiangqi``; ``heaps``), else the game's text ``render`` in a
``<pre>``.

A state does not carry its game's options, so a state draws itself with the game of that
name under its default options (the 3x3 board, the 9x9 Go board). A state of another size is
drawn with its game given: ``notebook_html(yipan.get_game("tictactoe", size="4x4"), state)``.
"""

from __future__ import annotations

from functools import cache
from html import escape
from typing import Any

from .game import Game

CELL = 32  # pixels a square
MARGIN = 20  # room for the labels


@cache
def _default_game(name: str) -> Game:
    from .registry import get_game

    return get_game(name)


def notebook_html(game: Game | str, state: Any) -> str:
    """The state as HTML for a notebook: an inline SVG board, or its text in a ``<pre>``."""
    played = _default_game(game) if isinstance(game, str) else game
    drawing = svg(played.view(state))
    if drawing is not None:
        return drawing
    return f"<pre>{escape(played.render(state))}</pre>"


def svg(view: dict[str, Any]) -> str | None:
    """An SVG drawing of a game's ``view``, or None for a kind of view it does not draw."""
    kind = view.get("kind")
    if kind in ("grid", "go"):
        return _stones(view)
    if kind == "tiles":
        return _tiles(view)
    if kind in ("chess", "xiangqi"):
        return _pieces(view)
    if kind == "heaps":
        return _heaps(view)
    return None


def _frame(width: int, height: int, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">' + "".join(body)
            + "</svg>")


def _text(x: float, y: float, text: str, size: int = 12, fill: str = "#333") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
            f'text-anchor="middle" dominant-baseline="central">{escape(str(text))}</text>')


def _labels(view: dict[str, Any], rows: int, cols: int) -> list[str]:
    body = []
    for col, label in enumerate(view.get("col_labels") or view.get("files") or ()):
        if col < cols:
            body.append(_text(MARGIN + col * CELL + CELL / 2, MARGIN / 2, label, 10))
    for row, label in enumerate(view.get("row_labels") or view.get("ranks") or ()):
        if row < rows:
            body.append(_text(MARGIN / 2, MARGIN + row * CELL + CELL / 2, label, 10))
    return body


def _stones(view: dict[str, Any]) -> str:
    """Marks (X and O) or stones on a grid; Connect Four's discs in red and yellow."""
    cells = view["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    marks = view.get("pieces") == "marks"
    colours = ("#d33", "#ec2") if view.get("gravity") else ("#222", "#f4f4f4")
    body = [f'<rect width="{cols * CELL + MARGIN}" height="{rows * CELL + MARGIN}" '
            f'fill="{"#fff" if marks else "#e8c27a"}"/>', *_labels(view, rows, cols)]
    for row, line in enumerate(cells):
        for col, cell in enumerate(line):
            x, y = MARGIN + col * CELL, MARGIN + row * CELL
            body.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" '
                        'stroke="#555"/>')
            if cell is None:
                continue
            if marks:
                body.append(_text(x + CELL / 2, y + CELL / 2, "XO"[cell], 22,
                                  ("#236", "#a22")[cell]))
            else:
                body.append(f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" '
                            f'r="{CELL * 0.42:g}" fill="{colours[cell]}" stroke="#222"/>')
    return _frame(cols * CELL + MARGIN, rows * CELL + MARGIN, body)


def _tiles(view: dict[str, Any]) -> str:
    """2048's tiles, each with its number."""
    cells = view["cells"]
    rows, cols = len(cells), len(cells[0]) if cells else 0
    body = [f'<rect width="{cols * CELL * 1.5 + 8:g}" height="{rows * CELL * 1.5 + 8:g}" '
            'fill="#bbada0"/>']
    size = CELL * 1.5
    for row, line in enumerate(cells):
        for col, value in enumerate(line):
            x, y = 4 + col * size, 4 + row * size
            fill = "#cdc1b4" if not value else "#eee4da" if value < 8 else "#f2b179"
            body.append(f'<rect x="{x:g}" y="{y:g}" width="{size - 4:g}" height="{size - 4:g}" '
                        f'rx="4" fill="{fill}"/>')
            if value:
                body.append(_text(x + size / 2 - 2, y + size / 2 - 2, value, 16))
    return _frame(int(cols * size + 8), int(rows * size + 8), body)


CHESS_GLYPHS = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟", strict=True))
XIANGQI_GLYPHS = {**dict(zip("KABNRCP", "帅仕相马车炮兵", strict=True)),
                  **dict(zip("kabnrcp", "将士象马车炮卒", strict=True))}


def _pieces(view: dict[str, Any]) -> str:
    """A chess board (light and dark squares) or a xiangqi board, pieces as glyphs (red for
    xiangqi's red side)."""
    board = view["board"]
    rows, cols = len(board), len(board[0]) if board else 0
    chess = view.get("kind") == "chess"
    body = [f'<rect width="{cols * CELL + MARGIN}" height="{rows * CELL + MARGIN}" '
            'fill="#fff"/>', *_labels(view, rows, cols)]
    for row, line in enumerate(board):
        for col, piece in enumerate(line):
            x, y = MARGIN + col * CELL, MARGIN + row * CELL
            fill = ("#f0d9b5" if (row + col) % 2 == 0 else "#b58863") if chess else "#f2d8a0"
            body.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                        'stroke="#8a6d3b" stroke-width="0.5"/>')
            if piece:
                glyphs = CHESS_GLYPHS if chess else XIANGQI_GLYPHS
                colour = "#000" if chess else ("#c00" if piece.isupper() else "#000")
                body.append(_text(x + CELL / 2, y + CELL / 2, glyphs.get(piece, piece),
                                  24 if chess else 18, colour))
    return _frame(cols * CELL + MARGIN, rows * CELL + MARGIN, body)


MOST_TOKENS = 40  # tokens drawn a heap; a larger heap shows its number only


def _heaps(view: dict[str, Any]) -> str:
    """A row of tokens a heap, its number beside it."""
    heaps = view["heaps"]
    step = 14
    width = 60 + MOST_TOKENS * step
    body = [f'<rect width="{width}" height="{len(heaps) * 24 + 8}" fill="#fff"/>']
    for index, size in enumerate(heaps):
        y = 16 + index * 24
        body.append(_text(28, y, f"{index + 1}: {size}", 12))
        for token in range(min(size, MOST_TOKENS)):
            body.append(f'<circle cx="{60 + token * step}" cy="{y}" r="5" fill="#8a5a2b"/>')
        if size > MOST_TOKENS:
            body.append(_text(width - 8, y, "…", 12))
    return _frame(width, len(heaps) * 24 + 8, body)
