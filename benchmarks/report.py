"""The tables of ``benchmarks/results.md``, written from the rows that
``benchmarks/run.py`` measures (or reads back from ``results.json`` with ``--render``).

A row holds one robot and one algorithm: ``liedyn_single`` / ``liedyn_batch`` (the
public function; batched: per state), ``reference_single`` / ``reference_batch``
(the reference ``*_pass`` implementation), ``pin_single``, ``pin_loop``,
``pin_parallel`` (Pinocchio: one call, a Python loop, its C++ loop), ``mr_single``,
``mr_batch`` (modern_robotics), ``direct_*`` (``hybrid_direct``), the overhead of the
checks: ``public_best``, ``bare_best`` (the compiled driver alone), ``overhead``; for
rnea and aba also ``liedyn_all_batch`` and ``pin_parallel_all`` (every core) and
``operations`` (the floating-point operations of one state).
"""
import os
import platform
from importlib.metadata import version

import numpy as np

OVERHEAD_REPEATS = 200          # blocks of a public call and of its driver alone
PARTIALS_STATES = 1000          # batched partials hold (states, nv, nv) arrays per body
PARTIALS = ("rnea partials", "aba partials")


def cpu_info():
    """The CPU's model name, its vector width in doubles (8 with AVX-512, 4 with AVX,
    2 with SSE2), whether it has fused multiply-add, and its clock in GHz, from
    /proc/cpuinfo (``None`` where it says nothing)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    flags = set(fields.get("flags", "").split())
    width = 8 if "avx512f" in flags else 4 if "avx" in flags else 2
    mhz = fields.get("cpu MHz")
    return {"cpu": fields.get("model name", platform.processor() or "unknown"),
            "vector_doubles": width, "fma": "fma" in flags,
            "clock_ghz": round(float(mhz) / 1000, 3) if mhz else None}


FMA_UNITS = 2
"""Fused multiply-add units per core assumed by the peak (Intel since Haswell on
256-bit vectors and Skylake-SP on 512-bit ones, AMD since Zen 2 on 256-bit ones and
Zen 5 on 512-bit ones)."""


def peak(info):
    """Double-precision operations per second of one core: doubles per vector, times
    FMA units, times 2 operations per multiply-add, times the clock; ``None`` if the
    clock is unknown."""
    if not info.get("clock_ghz"):
        return None
    fma = FMA_UNITS * 2 if info.get("fma", True) else 1
    return info["vector_doubles"] * fma * info["clock_ghz"] * 1e9


def machine_info(pin, liedyn):
    """The machine and the versions of the libraries timed."""
    import datetime
    cpu = cpu_info()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count()
    return {**cpu, "cores": cores, "python": platform.python_version(),
            "numpy": np.__version__, "pinocchio": pin.__version__,
            "modern_robotics": version("modern_robotics"),
            "liedyn": liedyn.__version__, "platform": platform.platform(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "date": datetime.date.today().isoformat()}


def fmt_time(t):
    if t is None:
        return "-"
    if t >= 1:
        return f"{t:.3g} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} us"


def fmt_ratio(a, b):
    return "-" if a is None or b is None else f"{a / b:.3g}"


TARGETS = [  # (what, liedyn's key, Pinocchio's key, algorithm, at most)
    ("batched, one thread, against rneaInParallel(1)", "liedyn_batch", "pin_parallel",
     "rnea", 0.5),
    ("batched, one thread, against abaInParallel(1)", "liedyn_batch", "pin_parallel",
     "aba", 0.5),
    ("batched, every core, against rneaInParallel(cores)", "liedyn_all_batch",
     "pin_parallel_all", "rnea", 0.5),
    ("batched, every core, against abaInParallel(cores)", "liedyn_all_batch",
     "pin_parallel_all", "aba", 0.5),
    ("batched rnea_partials into out=, against computeRNEADerivatives per state",
     "liedyn_out_batch", "pin_loop", "rnea partials", 0.5),
    ("batched aba_partials into out=, against computeABADerivatives per state",
     "liedyn_out_batch", "pin_loop", "aba partials", 0.5),
    ("batched rnea_partials, fresh arrays each call", "liedyn_batch", "pin_loop",
     "rnea partials", None),
    ("batched aba_partials, fresh arrays each call", "liedyn_batch", "pin_loop",
     "aba partials", None),
    ("one call of rnea, against pin.rnea", "liedyn_single", "pin_single", "rnea", 1.3),
    ("one call of aba, against pin.aba", "liedyn_single", "pin_single", "aba", 1.3),
    ("one call of rnea_partials", "liedyn_single", "pin_single", "rnea partials", 1.5),
    ("one call of aba_partials", "liedyn_single", "pin_single", "aba partials", 1.5),
]
TARGET_ROBOTS = ("Panda (7-DOF arm)", "Talos (floating)")


def target_ratio(rows, robot, ours, theirs, alg):
    """liedyn / Pinocchio of one target in ``rows``; ``None`` if not measured (an
    engine without threads ran on one core, one without ``out=`` wrote into fresh
    arrays: then its time of one thread, fresh arrays)."""
    r = {(x["robot"], x["algorithm"]): x for x in rows}.get((robot, alg))
    if r is None or theirs not in r:
        return None
    fallback = ours in ("liedyn_all_batch", "liedyn_out_batch")
    mine = r.get(ours, r.get("liedyn_batch") if fallback else None)
    return None if mine is None else mine / r[theirs]


def targets_table(rows, info, args, before=None):
    """The targets of the engine against Pinocchio, in one run: per robot, the
    times, the ratio, its bound, whether it holds, and the ratio of the earlier run
    ``before`` (its machine and rows); then the operations per state and the
    fraction of the peak of the cores used."""
    top = peak(info)
    lines = [
        "",
        f"**Targets** on {info['cpu']}, {info['cores']} cores, "
        f"{info.get('vector_doubles', '?')} doubles per vector"
        f"{', FMA' if info.get('fma') else ''}, {info.get('clock_ghz') or '?'} GHz "
        f"({'peak ' + format(top / 1e9, '.0f') + ' GFLOP/s per core, ' if top else ''}"
        f"{FMA_UNITS} FMA units assumed; {args.states} states batched, "
        f"{min(args.states, PARTIALS_STATES)} for the partials): liedyn / Pinocchio, "
        "below 1 liedyn is faster"
        + (f"; before: the engine of {before['machine'].get('date', '?')} on "
           f"{before['machine']['cpu']}, {before['machine'].get('cores', '?')} cores, "
           "which ran on one core only" if before else "") + ":",
        "",
        "| robot | target | liedyn | Pinocchio | liedyn / Pinocchio | at most | met "
        "| before |",
        "|---|---|---:|---:|---:|---:|---|---:|"]
    by = {(r["robot"], r["algorithm"]): r for r in rows}
    for robot in TARGET_ROBOTS:
        for what, ours, theirs, alg, bound in TARGETS:
            r = by.get((robot, alg), {})
            ratio = target_ratio(rows, robot, ours, theirs, alg)
            old = (target_ratio(before["rows"], robot, ours, theirs, alg)
                   if before else None)
            cells = [fmt_time(r.get(ours)), fmt_time(r.get(theirs)),
                     "-" if ratio is None else f"{ratio:.2f}",
                     "-" if bound is None else f"{bound:g}",
                     "-" if ratio is None or bound is None
                     else ("yes" if ratio <= bound else "no"),
                     "-" if old is None else f"{old:.2f}"]
            lines.append(f"| {robot} | {what} | " + " | ".join(cells) + " |")
    lines += ["", "**Operations per state and the peak** (the floating-point "
              "operations of one state of the kernels, counted; batched, the "
              "operations per second on one thread against one core's peak, on every "
              "core against all cores'):", "",
              "| robot | algorithm | operations per state | one thread: GFLOP/s "
              "| fraction of peak | every core: GFLOP/s | fraction of peak |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for robot in TARGET_ROBOTS:
        for alg in ("rnea", "aba"):
            r = by.get((robot, alg), {})
            ops = r.get("operations")
            if not ops:
                continue
            cells = [str(ops)]
            for key, cores in (("liedyn_batch", 1),
                               ("liedyn_all_batch", info["cores"])):
                t = r.get(key)
                rate = ops / t if t else None
                cells += ["-" if rate is None else f"{rate / 1e9:.1f}",
                          "-" if rate is None or not top
                          else f"{rate / (top * cores):.1%}"]
            lines.append(f"| {robot} | {alg} | " + " | ".join(cells) + " |")
    return lines


def markdown(rows, info, args, compiled, before=None):
    """results.md: the machine, the targets (beside the run ``before``), then the
    tables. ``compiled``: numba ran."""
    lines = [
        f"Measured on {info['cpu']} ({info['cores']} cores; one thread unless said), "
        "Python "
        f"{info['python']}, numpy {info['numpy']}, Pinocchio {info['pinocchio']}, "
        f"modern_robotics {info['modern_robotics']}, liedyn {info['liedyn']}, "
        f"{info['date']}, load average {info['load_average'][0]:.1f} at the start "
        "(a shared machine: ratios are more stable than absolute times)"
        f"{' (quick run)' if args.quick else ''}. Generated by `benchmarks/run.py`.",
        "",
        "Two ways to run: **liedyn** is what the public functions choose: for rnea, "
        "the mass matrix, aba, hybrid and the rnea partials the compiled kernels of "
        "`liedyn.engine.kernels` (numba"
        f"{'' if compiled else ': absent or disabled in this run'}; the aba partials "
        "are built from aba and the rnea partials, whose mass matrix a compiled "
        "sparse L^T D L factorisation inverts); **reference** is the reference "
        "implementation, the numpy `*_pass` functions the chapters list (what runs "
        "without numba, and for other dtypes)."]
    lines += targets_table(rows, info, args, before)
    for table in (single_table, overhead_table, batched_table, hybrid_table,
                  partials_table):
        lines += table(rows, args)
    return "\n".join(lines) + "\n"


def single_table(rows, args):
    lines = [
        "",
        "**Single call** (median over repeats of the time of one call, liedyn and "
        "Pinocchio timed in alternation; ratios: liedyn / Pinocchio and "
        "modern_robotics / liedyn):",
        "",
        "| robot | nv | algorithm | liedyn | reference | Pinocchio | modern_robotics "
        "| liedyn / Pinocchio | modern_robotics / liedyn |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ours = r["liedyn_single"]
        cells = [fmt_time(ours), fmt_time(r.get("reference_single")),
                 fmt_time(r.get("pin_single")), fmt_time(r.get("mr_single")),
                 fmt_ratio(ours, r.get("pin_single")),
                 fmt_ratio(r.get("mr_single"), ours)]
        lines.append(f"| {r['robot']} | {r['nv']} | {r['algorithm']} | "
                     + " | ".join(cells) + " |")
    return lines


def overhead_table(rows, args=None):
    """What one call costs beyond its compiled driver."""
    rows = [r for r in rows if r.get("bare_best") is not None]
    if not rows:
        return []
    lines = [
        "",
        "**Overhead of the checks** (single call): the public call, which validates "
        "its input (shapes, NaN and inf, unit quaternions, chart singularities, a "
        "finite result) and chooses the compiled path, against the same compiled "
        "driver called alone on inputs already validated, its checks off; the "
        "difference is what the checks and the dispatch cost. "
        f"{OVERHEAD_REPEATS} blocks of calls of each, in alternation. The overhead is "
        "the difference of the best blocks (the usual estimate of a cost without "
        "interference), and for comparison the median difference of adjacent blocks, "
        "which includes the phases when this shared machine runs slower, and then the "
        "Python code more so than the compiled:",
        "",
        "| robot | algorithm | public call | kernel alone | overhead | overhead / call "
        "| median of adjacent pairs |",
        "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        over = r["public_best"] - r["bare_best"]
        paired = r.get("overhead")
        lines.append(f"| {r['robot']} | {r['algorithm']} | "
                     f"{fmt_time(r['public_best'])} | {fmt_time(r['bare_best'])} | "
                     f"{over * 1e6:.2f} us | {over / r['public_best']:.0%} | "
                     + ("-" if paired is None else f"{paired * 1e6:.2f} us") + " |")
    return lines


def batched_table(rows, args):
    lines = [
        "",
        f"**Batched** (best of {args.batch_repeats} alternating rounds): time per "
        f"state when {args.states} states ({min(args.states, PARTIALS_STATES)} for the "
        "partials) go through liedyn in one call, through Pinocchio in a Python loop "
        "and in its C++ loop (`rneaInParallel` / `abaInParallel`, one thread), and "
        "through modern_robotics in a Python loop (on the number of states in "
        "brackets):",
        "",
        "| robot | algorithm | liedyn (batched) | reference (batched) "
        "| Pinocchio (loop) | Pinocchio (C++ loop) | modern_robotics (loop) "
        "| liedyn / Pinocchio loop | liedyn / Pinocchio C++ loop "
        "| reference / Pinocchio loop | modern_robotics / liedyn "
        "| every core: liedyn | every core: Pinocchio C++ loop | every core: ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ours, loop = r["liedyn_batch"], r.get("pin_loop")
        mr = (f"{fmt_time(r['mr_batch'])} ({r['mr_states']})" if "mr_batch" in r
              else "-")
        cells = [fmt_time(ours), fmt_time(r.get("reference_batch")),
                 fmt_time(loop), fmt_time(r.get("pin_parallel")), mr,
                 fmt_ratio(ours, loop), fmt_ratio(ours, r.get("pin_parallel")),
                 fmt_ratio(r.get("reference_batch"), loop),
                 fmt_ratio(r.get("mr_batch"), ours),
                 fmt_time(r.get("liedyn_all_batch")),
                 fmt_time(r.get("pin_parallel_all")),
                 fmt_ratio(r.get("liedyn_all_batch"), r.get("pin_parallel_all"))]
        lines.append(f"| {r['robot']} | {r['algorithm']} | " + " | ".join(cells)
                     + " |")
    return lines


def hybrid_table(rows, args=None):
    lines = [
        "",
        "**Hybrid dynamics** (no peer library: Kim's recursive Table 4 against "
        "liedyn's direct method, mass matrix + bias + a solve on the free joints; "
        "floating robots: base free, every joint prescribed; arms: every other joint "
        "prescribed):",
        "",
        "| robot | hybrid (single) | hybrid_direct (single) | direct / recursive "
        "| hybrid (batched, per state) | hybrid_direct (batched, per state) "
        "| direct / recursive |",
        "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if r["algorithm"] == "hybrid":
            cells = [fmt_time(r["liedyn_single"]), fmt_time(r["direct_single"]),
                     fmt_ratio(r["direct_single"], r["liedyn_single"]),
                     fmt_time(r["liedyn_batch"]), fmt_time(r["direct_batch"]),
                     fmt_ratio(r["direct_batch"], r["liedyn_batch"])]
            lines.append(f"| {r['robot']} | " + " | ".join(cells) + " |")
    return lines


def partials_table(rows, args):
    lines = [
        "",
        "**Derivatives** (`rnea_partials`: dtau/dq and dtau/dv; `aba_partials`: "
        "dddq/dq and dddq/dv; Pinocchio's `computeRNEADerivatives` / "
        "`computeABADerivatives`; batched on "
        f"{min(args.states, PARTIALS_STATES)} states): their cost in units of one "
        "rnea call of the same library in the same regime:",
        "",
        "| robot | nv | rnea partials / rnea: liedyn single | liedyn batched "
        "| Pinocchio | aba partials / rnea: liedyn single | liedyn batched "
        "| Pinocchio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|"]
    by = {(r["robot"], r["algorithm"]): r for r in rows}
    for r in rows:
        if r["algorithm"] != "rnea":
            continue
        cells = []
        for alg in PARTIALS:
            d = by[(r["robot"], alg)]
            cells += [fmt_ratio(d["liedyn_single"], r["liedyn_single"]),
                      fmt_ratio(d["liedyn_batch"], r["liedyn_batch"]),
                      fmt_ratio(d["pin_single"], r["pin_single"])]
        lines.append(f"| {r['robot']} | {r['nv']} | " + " | ".join(cells) + " |")
    return lines


def compile_markdown(times):
    lines = ["", "**Compilation** (numba, the Panda; first call in a fresh process "
             "with an empty cache, then in another process that loads what the first "
             "one cached on disk):", "",
             "| function (dtype) | first call, compiling "
             "| first call, from the cache |",
             "|---|---:|---:|"]
    for k, t in times["compile"].items():
        lines.append(f"| {k} | {fmt_time(t)} | "
                     f"{fmt_time(times['cache_load'].get(k))} |")
    return "\n".join(lines) + "\n"
