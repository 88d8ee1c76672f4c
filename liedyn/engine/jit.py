"""How the kernels of :mod:`liedyn.engine.kernels` get compiled.

Decorated with :func:`kernel` they stay ordinary Python functions (a plain call runs
them on numbers, which chapter 11 uses to count their operations), and numba
compiles them into the drivers that call them. The elementary functions they need
(``sin``, ``cos``, ``sqrt``, ...) are here too: numpy's on numbers, each with a
compiled twin.

numba is optional (``pip install liedyn[fast]``). Without it, or with the
environment variable ``LIEDYN_DISABLE_JIT=1`` (or numba's own
``NUMBA_DISABLE_JIT=1``), :data:`ENABLED` is False and every public function runs
its reference implementation. Of numba it uses ``njit`` with explicit signatures
(with ``nogil=True``: the drivers run side by side on threads),
``register_jitable``, ``overload``, ``intrinsic`` (a non-temporal store, x86-64's
``movnti`` in inline assembly, and a fence: :func:`stream`), its cache folder
(``numba.config.CACHE_DIR``, set while a driver is compiled; ``NUMBA_CACHE_DIR``
moves it, :data:`CACHE_DIR`) and one option that is not part of its documented
API, ``_nrt=False`` for the kernels (:func:`kernel`) and the drivers
(:class:`Driver`), which allocate nothing; ``tests/unit/test_kernels.py`` fails if
a release of numba drops it.

numba's on-disk cache checks only the file of the compiled function, a driver, not
the kernels it inlines from other files nor the modules it reads constants from:
the drivers' machine code is cached in a folder named by a digest of every source
it depends on (:data:`CACHE_DIR`), so that an edited kernel or tolerance is
compiled again instead of running stale code.
"""
import contextlib
import hashlib
import os
import shutil
import tempfile
import warnings

import numpy as np

from .. import dexp, joint, joints, lie

try:
    import numba
    from numba.extending import overload, register_jitable
except ImportError:                                          # pragma: no cover
    numba = None                                   # type: ignore[assignment]

ENABLED = (
    numba is not None
    and os.environ.get("LIEDYN_DISABLE_JIT", "0") in ("", "0")
    and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0"))
"""True when the compiled engine is available and not disabled."""

__all__ = ["ENABLED", "CACHE_DIR", "kernel", "compiled", "Driver", "sin", "cos",
           "sincos", "SINCOS_REACH", "sqrt", "normalise_quaternion",
           "exp_coefficients", "stream", "fence", "sources_digest"]


def kernel(f=None, *, inline=False):
    """Mark a kernel: plain Python when called directly, compiled inside a driver.

    ``@kernel(inline=True)``: numba inlines it into its callers before compiling
    them (for an operator too large for LLVM to inline into a loop over the states,
    which a call inside it would keep from being vectorised). A kernel is compiled
    without numba's reference counts (its option ``_nrt=False``), as the drivers
    are: it never allocates and only reads and writes the arrays it gets, whose
    owners outlive the call, and the counts would cost an atomic operation per array
    and call, a fixed cost of every call that single states feel. A kernel that
    returns a view of an array it gets (the parts of the scratch memory,
    :func:`~liedyn.engine.drivers.workspaces`) is inlined: a caller compiled with
    reference counts (a test, a reader's own ``numba.njit`` function) then counts
    the view it gets; from a kernel compiled without them, the caller would release
    it once too often, freeing memory still in use.
    """
    if f is None:
        return lambda g: kernel(g, inline=inline)
    if numba is None:
        return f
    options = {"_nrt": False}
    if inline:
        options["inline"] = "always"
    return register_jitable(**options)(f)


_OPTIONS = {"error_model": "numpy", "nogil": True, "fastmath": {"contract"},
            "cache": True, "_nrt": False}


def sources_digest(paths):
    """A short digest of the contents of the files ``paths``, in order."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


SOURCES = (lie, dexp, joint, joints)
"""The modules outside the engine that the drivers read from: the series of the
exponential (:mod:`liedyn.lie`, :mod:`liedyn.dexp`) and the tolerances
(:mod:`liedyn.joint`, :mod:`liedyn.joints`)."""


def _cache_dir():
    """``<base>/numba-<digest of the engine's sources and of SOURCES>``; other
    digests' folders there are removed. ``base`` is ``liedyn`` in numba's cache
    folder if the environment sets one (``NUMBA_CACHE_DIR``), else the engine's
    ``__pycache__`` (in the temporary folder if that is not writable)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sources = sorted(os.path.join(here, f) for f in os.listdir(here)
                     if f.endswith(".py"))
    sources += [module.__file__ for module in SOURCES]
    base = os.path.join(here, "__pycache__")
    if os.environ.get("NUMBA_CACHE_DIR"):
        base = os.path.join(os.environ["NUMBA_CACHE_DIR"], "liedyn")
    elif not os.access(here, os.W_OK) or (os.path.isdir(base)
                                          and not os.access(base, os.W_OK)):
        base = os.path.join(tempfile.gettempdir(), "liedyn-numba")
    name = "numba-" + sources_digest(sources)
    if os.path.isdir(base):
        for old in os.listdir(base):
            if old.startswith("numba-") and old != name:
                shutil.rmtree(os.path.join(base, old), ignore_errors=True)
    return os.path.join(base, name)


CACHE_DIR = _cache_dir() if numba is not None else None
"""Where the compiled drivers are cached (see the module's docstring)."""


@contextlib.contextmanager
def _caching_in(folder):
    """numba's cache folder set to ``folder`` while a driver is compiled (it is
    read when the driver is made), restored after."""
    before = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = folder
    try:
        yield
    finally:
        numba.config.CACHE_DIR = before
_IR_WARNING = numba.errors.NumbaIRAssumptionWarning if numba else Warning


class Driver:
    """A driver (the loop over a flattened batch), compiled for one tuple of
    argument types at a time.

    ``compiled(args)`` is the machine code for the types of ``args``: compiled the
    first time it sees them (or loaded from numba's disk cache); ``run(*args)``
    calls it. The dispatch gives a driver only C-contiguous writable float64 or
    complex128 arrays. ``fast(*args)`` is the float64 machine code alone, for the
    common case of the public functions: being compiled for an explicit signature,
    it raises ``TypeError`` for arguments of any other type (a list, a strided or
    read-only array, another dtype or number of dimensions) instead of compiling
    them, and so does ``fast`` before the float64 code exists; the public function
    then takes its general path. The machine code releases the GIL
    (``nogil=True``): threads run it side by side.

    ``error_model="numpy"`` makes a division by zero give inf/nan (as numpy does)
    instead of raising; the drivers report non-finite results and the public
    function runs the reference path, which raises the clear error.
    ``fastmath={"contract"}`` lets LLVM fuse a product and a sum into one
    multiply-add (rounded once instead of twice) and takes no other liberty: NaN and
    inf keep their meaning, which the checks of the drivers need. ``_nrt=False``:
    a driver allocates nothing (its caller gives it its scratch memory), so numba
    neither counts references to its arrays nor wraps each in a record of its own
    when it is called, a fixed cost of every call.
    """

    def __init__(self, f):
        self.f = f
        self.by_types = {}
        self.fast = self._not_yet
        self.twin = None            # of the engine for one state (dispatch)

    @staticmethod
    def _not_yet(*args):
        raise TypeError("the float64 driver is not compiled yet")

    def compiled(self, args):
        types = tuple(numba.typeof(a) for a in args)
        driver = self.by_types.get(types)
        if driver is None:
            with warnings.catch_warnings():
                # numba's inliner versions a variable rebound in a loop of an
                # inlined kernel without adding it to the caller's scope, and its
                # pedantic check warns; the tests check the compiled results
                warnings.simplefilter("ignore", _IR_WARNING)
                with _caching_in(self.folder):
                    driver = numba.njit(types, **_OPTIONS)(self.f)
            self.by_types[types] = driver
            if types[2].dtype == numba.float64:           # q: a float64 state
                self.fast = driver
        return driver

    def run(self, *args):
        return self.compiled(args)(*args)

    @property
    def folder(self):
        """Where the machine code is cached: :data:`CACHE_DIR` and the name of the
        driver's module (numba names cached code by file and function, which the
        one-state engine's drivers share with these: :mod:`~.one_state`)."""
        return os.path.join(CACHE_DIR, self.f.__module__)

    @property
    def signatures(self):
        """The argument types the driver has machine code for."""
        return list(self.by_types)


def compiled(f):
    """The :class:`Driver` of a batch loop ``f``; ``None`` if numba is disabled."""
    return Driver(f) if ENABLED else None


def sin(x):
    """``sin`` of a float or complex number."""
    return np.sin(x)


def cos(x):
    """``cos`` of a float or complex number."""
    return np.cos(x)


SINCOS_REACH = 1e5
"""The angles ``|t| < SINCOS_REACH`` for which :func:`sincos` is exact to an ulp or
two; beyond it (and for NaN) its compiled form gives NaN."""


def sincos(t):
    """``(sin t, cos t)`` of a float or complex number.

    Compiled for a float, a polynomial that numba compiles into packed vector
    instructions, as the library functions it replaces are not: ``t = n pi/2 + r``
    with ``|r| <= pi/4`` (Cody and Waite's reduction, ``pi/2`` in three parts of 33
    bits, exact for ``|n| < 2^20``), then fdlibm's polynomials for ``sin r`` and
    ``cos r`` on that interval (Sun Microsystems (1993), ``__kernel_sin``,
    ``__kernel_cos``) and the quadrant ``n mod 4``. For ``|t|`` not below
    :data:`SINCOS_REACH` it gives NaN: the kernels then call :func:`sin` and
    :func:`cos`. On complex numbers and uncompiled: numpy's ``sin`` and ``cos``.

    >>> s, c = sincos(0.5)
    >>> bool(abs(s - np.sin(0.5)) < 1e-16 and abs(c - np.cos(0.5)) < 1e-16)
    True
    """
    return np.sin(t), np.cos(t)


def sqrt(x):
    """``sqrt`` of a float or complex number."""
    return np.sqrt(x)


def normalise_quaternion(w, x, y, z):
    """``(w, x, y, z) / |(w, x, y, z)|``.

    Quaternions reach the kernels already checked to be unit to within ``QUAT_TOL``
    (:mod:`liedyn.joints`); normalising removes that small error, as
    ``Joint.transform`` does.
    """
    n = np.sqrt(w * w + x * x + y * y + z * z)
    return w / n, x / n, y / n, z / n


def exp_coefficients(t2):
    """The coefficients of the exponential of SO(3) and of its right Jacobian at
    ``t2 = |phi|^2``: ``(A, B, C, dB, dC)`` with ``exp([phi]) = 1 + A [phi] +
    B [phi]^2``, ``J_r(phi) = 1 - B [phi] + C [phi]^2`` (From (2012), eq. (29)) and
    ``dB, dC`` the derivatives of ``B, C`` in ``t2``.

    ``A = sin t / t``, ``B = (1 - cos t) / t^2``, ``C = (t - sin t) / t^3``,
    ``dB = E - C/2``, ``dC = -G`` (:func:`liedyn.dexp.dexp_so3_dot`), each by its
    Taylor series in ``t2`` below ``t = 0.5`` (where the closed forms lose digits
    to cancellation), as :mod:`liedyn.lie` evaluates them; compiled, a branch on
    the number.
    """
    A, B, C = lie.coef_A(t2), lie.coef_B(t2), lie.coef_C(t2)
    E, G = dexp.coef_E(t2), dexp.coef_G(t2)
    return A, B, C, E - C / 2, -G


def stream(out, i, j, x):
    """``out[i, j] = x``; compiled, a non-temporal store: the number goes to memory
    without the cache line being read first and kept in the cache.

    For results far larger than the caches, which the next store would evict
    anyway: written plainly, each line of them is read from memory before it is
    written (to be written back later), which doubles the traffic. ``out`` is a
    2-d array of floats or complex numbers; :func:`fence` after the last store
    makes them visible to every later access, also from other threads.
    """
    out[i, j] = x


def fence():
    """Make the stores of :func:`stream` visible before every later store (compiled:
    ``sfence`` on x86, a sequentially consistent fence elsewhere; plain:
    nothing)."""


if numba is not None:
    from llvmlite import binding as llvm
    from llvmlite import ir
    from numba.core import cgutils
    from numba.core import types as nbtypes
    from numba.extending import intrinsic

    _TRIPLE = llvm.get_process_triple()
    _X86 = _TRIPLE.startswith(("x86_64", "i386", "i686"))
    _X86_64 = _TRIPLE.startswith("x86_64")
    if _X86_64:
        llvm.initialize_native_asmparser()       # for the inline assembly below

    @intrinsic
    def _store_nontemporal(_typingctx, out, i, j, x):
        """A non-temporal store of ``x`` into ``out[i, j]``. x86-64: SSE2's
        ``movnti`` of the number's 64-bit words (one, or two for a complex
        number), written as an instruction (inline assembly): a lone double has a
        non-temporal store only on AMD's CPUs (SSE4a's ``movntsd``), and LLVM drops
        the mark of a double's store on the others, turning a store of its bits as
        an integer back into one of a double first. Elsewhere LLVM's ``store`` with
        the ``!nontemporal`` mark (LLVM Language Reference, "store" instruction)."""
        if not (isinstance(out, nbtypes.Array) and out.ndim == 2
                and out.dtype in (nbtypes.float64, nbtypes.complex128)):
            return None

        def codegen(context, builder, sig, args):
            a, i, j, x = args
            aty = sig.args[0]
            ary = context.make_array(aty)(context, builder, a)
            inds = [context.cast(builder, v, t, nbtypes.intp)
                    for v, t in ((i, sig.args[1]), (j, sig.args[2]))]
            ptr = cgutils.get_item_pointer(context, builder, aty, ary, inds,
                                           wraparound=False)
            x = context.cast(builder, x, sig.args[3], aty.dtype)
            if _X86_64:
                i64 = ir.IntType(64)
                words = builder.bitcast(ptr, i64.as_pointer())
                parts = [x] if aty.dtype == nbtypes.float64 else [
                    builder.extract_value(x, 0), builder.extract_value(x, 1)]
                movnti = ir.InlineAsm(
                    ir.FunctionType(ir.VoidType(), [i64.as_pointer(), i64]),
                    "movntiq $1, ($0)", "r,r,~{memory}", side_effect=True)
                for k, part in enumerate(parts):
                    builder.call(movnti, [builder.gep(words, [ir.Constant(i64, k)]),
                                          builder.bitcast(part, i64)])
            else:                                            # pragma: no cover
                data = context.data_model_manager[aty.dtype].as_data(builder, x)
                store = builder.store(data, ptr)
                store.set_metadata("nontemporal", builder.module.add_metadata(
                    [ir.Constant(ir.IntType(32), 1)]))
            return context.get_dummy_value()
        return nbtypes.void(out, i, j, x), codegen

    @intrinsic
    def _fence(_typingctx):
        """x86: ``sfence``, the fence Intel prescribes between code that writes
        weakly ordered (non-temporal) stores and code that reads them (IA-32
        Intel Architecture Optimization Reference Manual, "The sfence
        Instruction"); LLVM's sequentially consistent fence becomes a locked
        instruction there instead. Elsewhere that fence."""
        def codegen(context, builder, sig, args):
            if _X86:
                sfence = cgutils.get_or_insert_function(
                    builder.module, ir.FunctionType(ir.VoidType(), []),
                    "llvm.x86.sse.sfence")
                builder.call(sfence, [])
            else:                                            # pragma: no cover
                builder.fence("seq_cst")
            return context.get_dummy_value()
        return nbtypes.void(), codegen

    @overload(stream)
    def _stream(out, i, j, x):
        return lambda out, i, j, x: _store_nontemporal(out, i, j, x)

    @overload(fence)
    def _fence_overload():
        return lambda: _fence()

    @overload(sin, jit_options={"error_model": "numpy"})
    def _sin(x):
        return lambda x: np.sin(x)

    @overload(cos, jit_options={"error_model": "numpy"})
    def _cos(x):
        return lambda x: np.cos(x)

    @overload(sqrt, jit_options={"error_model": "numpy"})
    def _sqrt(x):
        return lambda x: np.sqrt(x)

    @overload(normalise_quaternion, jit_options={"error_model": "numpy"})
    def _normalise_quaternion(w, x, y, z):
        def impl(w, x, y, z):
            n = np.sqrt(w * w + x * x + y * y + z * z)
            return w / n, x / n, y / n, z / n
        return impl

    _PIO2 = (1.57079632673412561417e+00,        # pi/2 in three parts of 33 bits
             6.07710050630396597660e-11, 2.02226624871116645580e-21)
    _SIN = (-1.66666666666666324348e-01, 8.33333333332248946124e-03,
            -1.98412698298579493134e-04, 2.75573137070700676789e-06,
            -2.50507602534068634195e-08, 1.58969099521155010221e-10)
    _COS = (4.16666666666666019037e-02, -1.38888888888741095749e-03,
            2.48015872894767294178e-05, -2.75573143513906633035e-07,
            2.08757232129817482790e-09, -1.13596475577881948265e-11)

    @overload(sincos, jit_options={"error_model": "numpy"})
    def _sincos(t):
        if isinstance(t, numba.types.Complex):
            return lambda t: (np.sin(t), np.cos(t))
        P1, P2, P3 = _PIO2
        S1, S2, S3, S4, S5, S6 = _SIN
        C1, C2, C3, C4, C5, C6 = _COS

        def impl(t):
            n = np.rint(t * 0.63661977236758134308)            # 2 / pi
            r = ((t - n * P1) - n * P2) - n * P3
            z = r * r
            s = r + r * z * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (
                S5 + z * S6)))))
            c = 1.0 - 0.5 * z + z * z * (C1 + z * (C2 + z * (C3 + z * (
                C4 + z * (C5 + z * C6)))))
            k = np.int64(n)                     # the quadrant: k mod 4, branch-free
            odd = (k & 1) == 1
            a, b = (c if odd else s), (s if odd else c)
            sign_a, sign_b = 1 - (k & 2), 1 - ((k + 1) & 2)
            near = abs(t) < SINCOS_REACH
            return ((sign_a * a) if near else np.nan,
                    (sign_b * b) if near else np.nan)
        return impl

    _SERIES = tuple(tuple(float(c) for c in series) for series in (
        lie.A_SERIES, lie.B_SERIES, lie.C_SERIES, dexp.E_SERIES, dexp.G_SERIES))
    _SMALL_T2 = lie.SMALL_T2

    @register_jitable
    def _horner(series, t2):
        out = series[-1] + 0 * t2
        for k in range(len(series) - 2, -1, -1):
            out = out * t2 + series[k]
        return out

    @overload(exp_coefficients, jit_options={"error_model": "numpy"})
    def _exp_coefficients(t2):
        sA, sB, sC, sE, sG = _SERIES

        def impl(t2):
            if t2.real < _SMALL_T2:
                A, B, C = _horner(sA, t2), _horner(sB, t2), _horner(sC, t2)
                E, G = _horner(sE, t2), _horner(sG, t2)
            else:
                t = np.sqrt(t2)
                s, c, h = np.sin(t), np.cos(t), np.sin(t / 2)
                A, B, C = s / t, 2 * h * h / t2, (t - s) / (t2 * t)
                E = (t2 + 2 * c - 2) / (2 * t2 * t2)
                G = (2 * t - 3 * s + t * c) / (2 * t2 * t2 * t)
            return A, B, C, E - C / 2, -G
        return impl
