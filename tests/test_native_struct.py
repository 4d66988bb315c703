"""Arrays handed to kernels as one struct: the kernels and Python see the very same arrays."""

from collections import namedtuple

import numpy as np
import pytest
from numba import njit
from numba.core import types
from numba.experimental import structref

from yipan.native_struct import ArrayStruct, define_array_struct

PairArrays = namedtuple("PairArrays", ["counts", "grid"])


@structref.register
class PairType(types.StructRef):
    pass


class Pair(ArrayStruct):
    pass


define_array_struct(PairType, Pair, PairArrays._fields)


@njit
def _pair_struct(arrays):
    return Pair(*arrays)


@njit
def bump(pair, i):
    pair.counts[i] += 1
    pair.grid[i, i] = pair.counts[i] * 10
    return pair.counts.sum()


def new_pair(size: int) -> Pair:
    arrays = PairArrays(np.zeros(size, np.int64), np.zeros((size, size), np.int32))
    return Pair.wrap(_pair_struct(arrays), arrays)


def test_a_kernel_writes_what_python_reads():
    pair = new_pair(4)
    assert bump(pair, 2) == 1 and bump(pair, 2) == 2 and bump(pair, 0) == 3
    assert pair.counts.tolist() == [1, 0, 2, 0]
    assert pair.grid[2, 2] == 20 and pair.grid[0, 0] == 10 and pair.grid.sum() == 30
    pair.counts[3] = 5  # and Python's writes reach the kernels
    assert bump(pair, 1) == 9


def test_every_field_is_read_by_name_and_the_arrays_are_the_namedtuples():
    pair = new_pair(3)
    for name in PairArrays._fields:
        assert getattr(pair, name) is getattr(pair.arrays, name)
    with pytest.raises(AttributeError):
        pair.missing  # noqa: B018 - reading it is the test


def test_the_struct_keeps_its_arrays_alive():
    """The struct holds a reference to each array: dropping Python's namedtuple does not free
    the memory the kernels write to."""
    pair = new_pair(5)
    pair.arrays = None
    assert bump(pair, 4) == 1
