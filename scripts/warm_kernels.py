"""Compile the kernels once, into numba's on-disk cache, before anything else needs them.

    .venv/bin/python scripts/warm_kernels.py [GROUP ...]

The compiled drivers of `liedyn.engine.kernels` are cached next to the package (`__pycache__`). On
a fresh clone the cache is empty, and every process that calls a driver first (the unit tests,
each notebook's kernel under nbval, in the book build and in JupyterLab) would compile it
again, seconds per driver and dtype. `make book` and `make test` run this script first: one
call of each public function for each compiled dtype (float64 and complex128) compiles each
driver once; every later process loads it from the cache. First it drops cached drivers
that were compiled from other sources (`drop_stale_cache`: numba itself only notices edits
to `_kernels.py`).

A driver's signature depends on the dtype only (the model travels as arrays, inputs are made
C-contiguous), so a small model covers every robot. GROUPs (default: all) split the work
between processes; each group owns its drivers, so two processes never write the same cache
index. The drivers share their per-state kernels (joint transforms, spatial operators), which
a process compiles once: one process warming all groups uses about 170 CPU-seconds (measured
with the per-body steps inlined into the recursions, which doubled it), two processes
(`make book`, which has both cores to itself) more in all, in less wall time.
"""
import hashlib
import os
import sys
import time
from pathlib import Path

import numpy as np

import liedyn
from liedyn.engine import jit as _jit
from liedyn.forward_dynamics import aba
from liedyn.crba import mass_matrix
from liedyn.derivatives import aba_partials, rnea_partials
from liedyn.hybrid_dynamics import hybrid
from liedyn.inverse_dynamics import rnea
from liedyn.robots import double_pendulum

MODEL = double_pendulum()


def _rnea(x):
    rnea(MODEL, x, x, x)


def _mass_matrix(x):
    mass_matrix(MODEL, x)


def _aba(x):
    aba(MODEL, x, x, x)


def _hybrid(x):
    hybrid(MODEL, x, x, x, x, [True, False])


def _rnea_partials(x):
    rnea_partials(MODEL, x, x, x)


def _aba_partials(x):
    aba_partials(MODEL, x, x, x)


# two groups of about equal compile time
# (aba_partials runs ABA and the rnea partials: it compiles aba_state again)
GROUPS = {"rnea": [_rnea, _rnea_partials, _aba_partials],
          "aba": [_aba, _hybrid, _mass_matrix]}


# What the compiled drivers are built from. numba's cache notices edits to the file of
# a driver (_kernels.py) only, not to the overloads of _jit.py or to the constants the
# kernels import (lie.py's series, joints.py's tolerances): it would go on loading the
# machine code of the old source.
SOURCES = ("_kernels.py", "_jit.py", "lie.py", "joints.py")


def drop_stale_cache():
    """Delete the cached drivers if any file of ``SOURCES`` changed since they were
    compiled (a hash of them is kept beside the cache, in ``__pycache__``). Only
    for numba's default cache directory: with ``NUMBA_CACHE_DIR`` set, nothing is
    done. Two groups starting together may both delete: before either has
    compiled anything."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = Path(liedyn.__file__).parent
    digest = hashlib.sha256(
        b"".join((package / name).read_bytes() for name in SOURCES)).hexdigest()
    cache = package / "__pycache__"
    stamp = cache / "liedyn-kernels.sha256"
    if stamp.is_file() and stamp.read_text() == digest:
        return
    stale = list(cache.glob("_kernels.*.nb[ic]"))
    for f in stale:
        f.unlink(missing_ok=True)
    if stale:
        print(f"the kernels' sources changed: {len(stale)} cached files dropped")
    cache.mkdir(exist_ok=True)
    stamp.write_text(digest)


def main(groups):
    if not _jit.ENABLED:
        print("numba is not installed or is disabled: nothing to compile")
        return
    drop_stale_cache()
    for name in groups:
        for call in GROUPS[name]:
            for dtype in (np.float64, np.complex128):
                start = time.perf_counter()
                call(np.full(MODEL.nq, 0.1, dtype=dtype))
                print(f"{call.__name__[1:]} {np.dtype(dtype).name}: "
                      f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    unknown = set(sys.argv[1:]) - set(GROUPS)
    if unknown:
        sys.exit(f"unknown group(s) {sorted(unknown)}; groups: {sorted(GROUPS)}")
    main(sys.argv[1:] or list(GROUPS))
