"""The numba toolkit shared by the games' kernels: one random generator, one bounded insertion
sort, and the guard that keeps numba's on-disk cache of a package's kernels up to date.

It imports nothing from yipan, only numpy and numba: it sits at the bottom of the layers beside
``yipan.core``, so any kernel may call it. Every kernel here keeps ``cache=True``.

Random numbers
--------------
One generator, xorshift64* (Marsaglia's xorshift, shifts 12, 25, 27, then Vigna's multiplier),
over a ``uint64`` state that the caller carries: a kernel takes a state and hands back the one
it ended with, so there is no global generator and a seeded search repeats itself. From a state
``s`` (never 0: 0 maps to 0), one step is, all arithmetic modulo 2**64::

    s ^= s >> 12;  s ^= s << 25;  s ^= s >> 27             the next state
    draw = (s * 0x2545F4914F6CDD1D) >> 32                  its top 32 bits: 0 <= draw < 2**32
    random_below(s, n) = (draw * n) >> 32                  an index: 0 <= index < n

The top bits because the low bits of xorshift64* are its weakest. An index below ``n`` is the
draw scaled by a multiplication (Lemire's method), not ``draw % n``: no division in the hot
loops (one per move cost a Connect Four playout 5 to 9% here), and the same bias, below
n / 2**32.
``seed_from(rng)`` turns an injected ``random.Random`` into a first state; ``random_below`` is
the one way the kernels pick among ``n`` things. A kernel taking a seed converts it once,
``state = np.uint64(seed)``, and uses ``state`` after: numba types a Python int as int64, and
a variable assigned both an int64 and a uint64 silently becomes a float.

Sorting
-------
``insert_key`` is one step of a bounded insertion sort, the move ordering of the search
kernels: candidates arrive one by one and the best ``capacity`` are kept in order of key.
Each key carries its item, so one array is shifted, not two.

The helpers are ``inline="always"``: numba copies them into each caller, so a call costs no
call and no reference counting of the arrays passed (measured on the Connect Four solver).

The kernel-cache guard
----------------------
Numba caches a kernel compiled together with every kernel it calls, but it checks only the
source of the kernel's *own* file: after ``board.py`` changes, a cached kernel of ``search.py``
would go on running the old board code (numba's documented limitation: "cache invalidation
fails to recognize changes in symbols defined in a different file"). ``drop_stale_cache``
records a digest of a package's kernel sources, of this file (its helpers are compiled into
every caller) and of ``native_struct.py`` (the structs' layout), beside the cache, and deletes
the package's cached kernels when the digest changes. A package calls it from its
``__init__``, before any kernel is loaded.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from pathlib import Path

import numba
import numpy as np
from numba import njit

# -- random numbers ------------------------------------------------------------------------------
MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_S12, _S25, _S27, _S32 = np.uint64(12), np.uint64(25), np.uint64(27), np.uint64(32)


def seed_from(rng: random.Random) -> np.uint64:
    """A first state for the kernels' generator, drawn from an injected ``random.Random``
    (64 random bits with the lowest set, so never 0)."""
    return np.uint64(rng.getrandbits(64) | 1)


@njit(cache=True, inline="always")
def next_random(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One step of xorshift64*: (the next state, a draw in [0, 2**32)); the stream is in the
    module docstring. ``state`` must not be 0; a signed one (numba's type for a Python int
    below 2**63) counts by its bits."""
    s = np.uint64(state)  # a new name: a variable both int64 and uint64 would become a float
    s ^= s >> _S12
    s ^= s << _S25
    s ^= s >> _S27
    return s, (s * MULTIPLIER) >> _S32


@njit(cache=True, inline="always")
def random_below(state: np.uint64, n: int) -> tuple[np.uint64, int]:
    """(the next state, an index in [0, n)) from one draw: ``(draw * n) >> 32``;
    ``1 <= n <= 2**32``."""
    after, draw = next_random(state)
    return after, int((draw * np.uint64(n)) >> _S32)


# -- sorting -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def insert_key(keys: np.ndarray, count: int, capacity: int, key: int) -> int:
    """Insert ``key`` into the first ``count`` entries of ``keys``; returns the new count.

    A key carries its item (as ``score * n + n - 1 - arrival``: ties then keep the order of
    arrival), so one array is shifted, not two: what a long move list spends its time on
    (``benchmarks/gomoku.py``). Contract (``0 <= count <= capacity <= len(keys)``): the
    entries stay in non-increasing order; at most ``capacity`` are kept: when they are full, a
    key not above the last is left out, else the last is dropped. Called once per candidate,
    it leaves the ``capacity`` largest keys sorted, as ``sorted(keys, reverse=True)[:capacity]``.
    """
    if count >= capacity:
        if capacity <= 0 or key <= keys[capacity - 1]:
            return capacity
        i = capacity - 1
    else:
        i = count
        count += 1
    while i > 0 and keys[i - 1] < key:
        keys[i] = keys[i - 1]
        i -= 1
    keys[i] = key
    return count


# -- the kernel-cache guard ----------------------------------------------------------------------
# compiled into every kernel that calls a helper above, or takes a struct (``native_struct``)
NATIVE_SOURCES = (Path(__file__), Path(__file__).with_name("native_struct.py"))
DIGEST_NAME = "kernels.digest"


def sources_digest(package: Path, modules: Sequence[str]) -> str:
    """A digest of the package's kernel modules (file names in ``package``) and of the
    toolkit's (``NATIVE_SOURCES``)."""
    digest = hashlib.sha256()
    for path in [Path(package, name) for name in modules] + list(NATIVE_SOURCES):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dir(package: Path) -> Path:
    """Where numba keeps the cache of kernels defined in ``package``'s files: a folder of
    ``NUMBA_CACHE_DIR`` when that is set (named as numba names it: the package folder's name
    and the SHA-1 of its absolute path), else the package's ``__pycache__``.

    Not covered: where ``__pycache__`` cannot be written, numba falls back to a user-wide folder;
    the guard cannot write its digest there and leaves that cache alone.
    """
    folder = os.path.abspath(package)
    cache_dir = getattr(numba.config, "CACHE_DIR", "")  # set from NUMBA_CACHE_DIR
    if cache_dir:
        hashed = hashlib.sha1(folder.encode()).hexdigest()
        return Path(cache_dir, f"{os.path.basename(folder)}_{hashed}")
    return Path(folder, "__pycache__")


def drop_stale_cache(package: Path, modules: Sequence[str]) -> bool:
    """Delete the package's cached kernels (every ``*.nbi`` and ``*.nbc`` of its cache folder)
    unless the digest of ``modules`` and of this file matches the one recorded with them; then
    record the new digest. Returns whether it deleted. Quietly does nothing where the folder
    cannot be written.

    ``modules`` names the files of ``package`` that define kernels: all of them (the tests
    check it), so that a kernel calling another file's is covered wherever it is.
    """
    digest = sources_digest(package, modules)
    cache = cache_dir(package)
    stamp = cache / DIGEST_NAME
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for path in cache.glob("*.nb[ic]"):
            path.unlink(missing_ok=True)
        temporary = stamp.with_suffix(f".{os.getpid()}.tmp")
        with open(temporary, "w") as record:
            record.write(digest)
            record.flush()
            os.fsync(record.fileno())
        os.replace(temporary, stamp)
    except OSError:
        return False
    return True
