"""Arrays handed to kernels as one struct: the kernels and Python see the very same arrays."""

import copy
import gc
import pickle
import weakref
from collections import namedtuple

import numpy as np
import pytest
from numba import njit

from yipan.native_struct import ArrayStruct, array_struct

PairArrays = namedtuple("PairArrays", ["counts", "grid"])


class Pair(ArrayStruct):
    pass


@array_struct(Pair, PairArrays._fields)
@njit
def _pair_struct(arrays):
    return Pair(*arrays)


@njit
def bump(pair, i):
    pair.counts[i] += 1
    pair.grid[i, i] = pair.counts[i] * 10
    return pair.counts.sum()


@njit
def same(pair):
    return pair


def new_pair(size: int) -> Pair:
    return Pair.of(PairArrays(np.zeros(size, np.int64), np.zeros((size, size), np.int32)))


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
    with pytest.raises(AttributeError):
        pair.counts = np.zeros(3, np.int64)  # a field is not replaced behind the struct's back


def test_a_struct_made_without_its_arrays_says_how_to_make_one():
    returned = same(new_pair(2))  # boxed anew by numba: the kernels' handle alone
    with pytest.raises(AttributeError, match=r"Pair.of\(arrays\)"):
        returned.counts  # noqa: B018


def test_the_struct_keeps_its_arrays_alive():
    """The struct holds a reference to each array: dropping Python's namedtuple does not free
    the memory the kernels write to."""
    pair = new_pair(5)
    counts = weakref.ref(pair.arrays.counts)
    pair.arrays = None
    gc.collect()
    assert counts() is not None and bump(pair, 4) == 1
    del pair
    gc.collect()
    assert counts() is None  # (and freed with the struct)


def test_a_struct_pickles_and_copies_as_its_arrays():
    pair = new_pair(3)
    bump(pair, 1)
    again = pickle.loads(pickle.dumps(pair))
    assert again.counts.tolist() == [0, 1, 0] and again.counts is not pair.counts
    shallow = copy.copy(pair)
    assert shallow.counts is pair.counts and bump(shallow, 0) == 2
    deep = copy.deepcopy(pair)
    assert bump(deep, 2) == 3 and pair.counts.tolist() == [1, 1, 0]


def test_the_type_of_a_struct_is_known_without_making_one():
    """What a process compiling kernels from their signatures uses: the very type numba gives
    a struct of such arrays, so the kernel it compiles is the one a real struct calls."""
    from numba import typeof

    arrays = PairArrays(np.zeros(2, np.int64), np.zeros((2, 2), np.int32))
    assert Pair.type_of(arrays) == typeof(Pair.of(arrays))
    other = PairArrays(np.zeros(2, np.int32), np.zeros((2, 2), np.int32))
    assert Pair.type_of(other) != Pair.type_of(arrays)
    signature = (Pair.type_of(arrays), typeof(0))
    bump.compile(signature)
    versions = len(bump.overloads)
    assert bump(Pair.of(arrays), 1) == 1
    assert len(bump.overloads) == versions  # the real struct's call found that version
