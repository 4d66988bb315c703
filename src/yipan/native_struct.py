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

    class Board(ArrayStruct): ...                  # Python's side

    @array_struct(Board, BoardArrays._fields)      # numba's side: its type (``BoardType``,
    @njit(cache=True)                              # put in this module, where numba's cache
    def _board_struct(arrays):                     # finds it by name), the constructor this
        return Board(*arrays)                      # kernel calls, and boxing

    board = Board.of(arrays)

The constructor is compiled inside a cached kernel on purpose: called from Python, a
``StructRefProxy`` compiles its constructor anew in every process (0.3 s a struct). A struct
pickles and copies as its arrays (``copy.deepcopy`` gives one over copies of them).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from numba import typeof
from numba.core.types.containers import StructRef
from numba.experimental import structref

S = TypeVar("S", bound="ArrayStruct")
K = TypeVar("K", bound=Callable[..., Any])


class ArrayStruct(structref.StructRefProxy):
    """Python's side of a struct of arrays: the kernels' handle, and the arrays by name."""

    arrays: Any  # the namedtuple of the very arrays the struct holds
    pack: ClassVar[Callable[[Any], Any]]  # the class's constructor kernel (``array_struct``)
    numba_type: ClassVar[type[StructRef]]  # numba's type class of the struct (``array_struct``)
    fields: ClassVar[tuple[str, ...]]

    @classmethod
    def of(cls: type[S], arrays: Any) -> S:
        """The struct holding ``arrays`` (a namedtuple with the class's fields)."""
        struct = cls.pack(arrays)
        struct.arrays = arrays
        return struct

    @classmethod
    def type_of(cls, arrays: Any) -> StructRef:
        """numba's type of the struct that would hold ``arrays``, without making one: what a
        process compiling kernels from their signatures needs (nothing compiled or run)."""
        return cls.numba_type([(field, typeof(getattr(arrays, field))) for field in cls.fields])

    def __reduce__(self) -> tuple[Callable[[Any], Any], tuple[Any]]:
        return type(self).of, (self.arrays,)


def array_struct(proxy: type[ArrayStruct], fields: Sequence[str]) -> Callable[[K], K]:
    """Decorator of the cached kernel that makes ``proxy``'s struct (``proxy(*arrays)`` in
    it): defines numba's type of the struct (``<proxy>Type``, in the proxy's module: numba's
    cache pickles it with every kernel taking the struct, by that name), the constructor and
    boxing, a property a field on the proxy, and ``proxy.of`` calling the kernel."""
    module = sys.modules[proxy.__module__]
    name = f"{proxy.__name__}Type"
    struct_type = structref.register(type(name, (StructRef,), {
        "__module__": module.__name__, "__qualname__": name,
        "__doc__": f"numba's type of a ``{proxy.__name__}``: one pointer to its arrays."}))
    setattr(module, name, struct_type)
    proxy.numba_type, proxy.fields = struct_type, tuple(fields)
    structref.define_constructor(proxy, struct_type, fields)
    structref.define_boxing(struct_type, proxy)
    for field in fields:
        setattr(proxy, field, _field(field))

    def register(kernel: K) -> K:
        proxy.pack = staticmethod(kernel)
        return kernel
    return register


def _field(name: str) -> property:
    def read(self: ArrayStruct) -> Any:
        arrays = self.__dict__.get("arrays")
        if arrays is None:
            raise AttributeError(f"this {type(self).__name__} came without its arrays "
                                 f"(make one with {type(self).__name__}.of(arrays))")
        return getattr(arrays, name)
    return property(read, doc=f"the ``{name}`` array")
