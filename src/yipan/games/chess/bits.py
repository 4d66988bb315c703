"""Bit tricks the chess kernels need, as LLVM instructions (numba has no portable popcount).

``popcount`` (population count), ``lowest_square`` (index of the lowest set bit: count
trailing zeros) and ``byte_swap`` (reverse the eight bytes: on a board numbered as in
``board``, the vertical mirror, rank 1 <-> rank 8). Each is one machine instruction where the
processor has it. Bitboards are int64; bit 63 (h8) is the sign bit, so arithmetic on them
wraps as on unsigned words and right shifts are masked by the caller.
"""

from __future__ import annotations

from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, value):  # noqa: ARG001 - numba's signature for intrinsics
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@intrinsic
def _cttz(typingctx, value):  # noqa: ARG001
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return signature, codegen


@intrinsic
def _bswap(typingctx, value):  # noqa: ARG001
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.bswap(args[0])

    return signature, codegen


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    """The number of set bits."""
    return _ctpop(bits)


@njit(cache=True, inline="always")
def lowest_square(bits: int) -> int:
    """The index of the lowest set bit (64 for an empty board)."""
    return _cttz(bits)


@njit(cache=True, inline="always")
def byte_swap(bits: int) -> int:
    """The board mirrored top to bottom (a1 <-> a8): its eight bytes reversed."""
    return _bswap(bits)
