"""Memory reuse for large batched calls: an opt-in setting of the C allocator.

A batched call (``q`` of shape (10^4, nq)) makes a few hundred temporary arrays of a
few hundred kilobytes to a few megabytes each. glibc's ``malloc`` serves blocks
above a threshold (128 KiB at start, adjusted as the program runs) with a fresh
``mmap`` and returns them with ``munmap`` when numpy frees them, so every temporary
is new memory that the kernel must page in and zero: on the machine of chapter
:ref:`sec-real-robots` that page-fault traffic, not arithmetic, was most of the time
of a batched RNEA or ABA. :func:`reuse_freed_memory` raises the thresholds so that
freed blocks stay in the heap and the next temporary of the same size reuses them.

It changes the allocator of the whole process (numpy's and everything else's), and
the process then keeps its peak heap instead of handing freed memory back to the
system. That is why liedyn never calls it by itself: call it once, at the start of a
program that pushes large batches through liedyn. It does nothing on a C library
without ``mallopt`` (macOS, Windows, musl) and returns ``False`` there.
"""
import ctypes
import ctypes.util

__all__ = ["reuse_freed_memory"]

# mallopt parameters of glibc's <malloc.h>
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3


def reuse_freed_memory(mmap_threshold=1 << 30, top_pad=64 << 20):
    """Keep freed memory in the heap for reuse instead of returning it to the system
    (glibc).

    Sets glibc's ``M_MMAP_THRESHOLD`` (blocks below it come from the heap, not from
    a fresh ``mmap``), ``M_TRIM_THRESHOLD`` (free memory at the top of the heap is
    kept up to this size) and ``M_TOP_PAD`` (the heap grows in steps of this size)
    with ``mallopt``. No equation: an engineering setting for batched calls (see the
    module docstring and the benchmark discussion of chapter
    :ref:`sec-real-robots`).

    Parameters
    ----------
    mmap_threshold : int
        bytes; blocks up to this size are served from the heap (at most 32 MiB on
        32-bit glibc; 1 GiB by default)
    top_pad : int
        bytes requested from the system beyond each heap growth

    Returns
    -------
    bool
        ``True`` if every setting was accepted, ``False`` if the C library has no
        ``mallopt``

    Examples
    --------
    >>> isinstance(reuse_freed_memory(), bool)    # True on Linux with glibc
    True
    """
    for name, value in (("mmap_threshold", mmap_threshold), ("top_pad", top_pad)):
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"argument '{name}': expected a positive int (bytes), "
                             f"got {value!r}")
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    trim = min(2 * mmap_threshold, 2**31 - 1)
    settings = [(_M_MMAP_THRESHOLD, mmap_threshold), (_M_TRIM_THRESHOLD, trim),
                (_M_TOP_PAD, top_pad)]
    return all(mallopt(param, min(value, 2**31 - 1)) == 1 for param,
               value in settings)
