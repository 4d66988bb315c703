"""Single keys at a terminal: 2048 is played with the arrows (or w/a/s/d), one key a move,
without Enter. Only when the input is a terminal: piped input (tests, scripts) stays lines.

The terminal is put in cbreak mode for one key at a time (Ctrl-C still interrupts), then
restored, so that a line the player starts with another key (a tile such as ``2@a1``, or
``max tile``) is typed and edited as usual.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import TextIO

KEY_WORDS = {
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
    "\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left",  # keypad mode
    "w": "up", "a": "left", "s": "down", "d": "right",
    "h": "help", "?": "help", "u": "undo", "m": "moves", "q": "quit",
}
"""What each key means: the player's words (help, undo, moves, quit) keep a key each."""

KEYS_HELP = ("keys: the arrows or w/a/s/d move; h help, u undo, m moves, q quit "
             "(any other key starts a line, ended by Enter)")
END_OF_INPUT = "\x04"  # Ctrl-D
FOLLOWING_BYTES_SECONDS = 0.05  # the rest of an arrow's escape sequence arrives at once


def key_word(key: str) -> str | None:
    """The word a key (or an arrow's escape sequence) stands for, else None."""
    return KEY_WORDS.get(key if key.startswith("\x1b") else key.lower())


def read_key(fd: int, prompt: Callable[[], None]) -> str:
    """One key from the terminal ``fd`` (an arrow's whole escape sequence), in cbreak mode;
    ``prompt`` is shown once the mode is set, so that a key pressed after it is read as one."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        prompt()
        key = os.read(fd, 1)
        if key == b"\x1b":
            while select.select([fd], [], [], FOLLOWING_BYTES_SECONDS)[0] and len(key) < 8:
                key += os.read(fd, 1)
                if key[-1:].isalpha() or key[-1:] == b"~":
                    break
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return key.decode(errors="replace")


def key_reader(stream: TextIO | None = None, out: TextIO | None = None
               ) -> Callable[[str], str]:
    """A ``read(prompt)`` for ``play_interactive`` that answers one key at a time."""
    stream = stream or sys.stdin
    out = out or sys.stdout

    def read(prompt: str) -> str:
        def show() -> None:
            out.write(prompt)
            out.flush()

        key = read_key(stream.fileno(), show)
        if key in ("", END_OF_INPUT):
            raise EOFError
        word = key_word(key)
        if word is not None:
            out.write(word + "\n")
            return word
        if key in ("\r", "\n"):
            out.write("\n")
            return ""
        if key.startswith("\x1b"):
            out.write("\n")
            return key  # another special key: refused as a move, with the reason
        out.write(key)  # a line begins: the player types the rest
        out.flush()
        return key + input()

    return read
