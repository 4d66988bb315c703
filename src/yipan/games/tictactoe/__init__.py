"""Tic-tac-toe and every m,n,k-game (``rules``), with the book-backed AI (``player``)."""

from .rules import Board, TicTacToe, parse_size

__all__ = ["Board", "TicTacToe", "parse_size"]
