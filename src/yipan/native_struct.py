"""A kernel's arrays handed over as one struct (a numba ``StructRef``): one pointer a call.

numba passes a namedtuple of arrays field by field, and each array as seven to eleven machine
values (the owner of its memory, the data pointer, sizes, shape and strides). The Gomoku
engine's board and search context are 29 arrays, so every call between its kernels passed
about 250 values and counted references on 29 owners, and numba typed and lowered all of them
at every call site. A ``StructRef`` is one pointer to a struct that holds the arrays; a kernel
reads ``board.cells`` through it as before::

    numba:   board ──> [ cells | keys | shapes | ... ]    one pointer; each field an array
    Python:  board.cells, board.keys, ...                 read from ``board.arrays``, the
                                                          namedtuple of the same arrays

Measured on the Gomoku engine, nothing else changed (the same nodes and moves): its cold
compile 9.8 s -> 4.8 s, its search 262,000 -> 402,000 nodes per CPU-second
(``benchmarks/first_move.py``, ``benchmarks/gomoku.py``).

A struct is declared once, beside its namedtuple of arrays::

    BoardArrays = namedtuple("BoardArrays", ["cells", "keys", ...])

    @structref.register
    class BoardType(StructRef): ...                # numba's type (module level: it is pickled
                                                   # into numba's cache with every kernel)
    class Board(ArrayStruct): ...                  # Python's side
    define_array_struct(BoardType, Board, BoardArrays._fields)

    @njit(cache=True)
    def _board_struct(arrays):                     # the struct made in compiled code, so
        return Board(*arrays)                      # that numba's cache keeps its constructor

    board = Board.wrap(_board_struct(arrays), arrays)

The constructor is compiled inside a cached kernel on purpose: called from Python, a
``StructRefProxy`` compiles its constructor anew in every process (0.3 s a struct).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any, TypeVar

from numba.core.types.containers import StructRef
from numba.experimental import structref

S = TypeVar("S", bound="ArrayStruct")


class ArrayStruct(structref.StructRefProxy):
    """Python's side of a struct of arrays: the kernels' handle, and the arrays by name."""

    arrays: Any  # the namedtuple of the very arrays the struct holds

    @classmethod
    def wrap(cls: type[S], struct: S, arrays: Any) -> S:
        """``struct`` (made by a kernel from ``arrays``) with the arrays readable by name."""
        struct.arrays = arrays
        return struct


def define_array_struct(struct_type: type[StructRef], proxy: type[ArrayStruct],
                        fields: Sequence[str]) -> None:
    """Tie numba's type and Python's class of one struct of arrays with ``fields``: a
    constructor ``proxy(*arrays)`` in compiled code, boxing, and a property a field."""
    structref.define_constructor(proxy, struct_type, fields)
    structref.define_boxing(struct_type, proxy)
    for name in fields:
        setattr(proxy, name, property(attrgetter(f"arrays.{name}")))
