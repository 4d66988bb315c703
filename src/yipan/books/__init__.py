"""Opening books: positions solved ahead of time, stored, verified, and probed in play."""

from .book import Book, BookTooHardError, CorruptBookError, build_book, load_book, save_book
from .player import BookPlayer

__all__ = ["Book", "BookPlayer", "BookTooHardError", "CorruptBookError", "build_book",
           "load_book", "save_book"]
