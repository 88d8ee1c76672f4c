"""Execute the book's notebooks on every core, into the cache the book build reads.

    .venv/bin/python scripts/execute_notebooks.py [--jobs N] [NOTEBOOK ...]

`make book` runs this before `jupyter-book build`. Jupyter Book executes notebooks one after
the other; here they run side by side (default: one per core), each exactly as the build would
run it (jupyter-cache's `single_nb_execution`: nbclient, the notebook's folder as working
directory, `execute.timeout` of `_config.yml`, errors not allowed, widget state stored) and
the executed notebook goes into the jupyter-cache at `_build/.jupyter_cache`. The build
(`execute_notebooks: cache`) then finds every notebook there and executes nothing.

Every run first drops every cached notebook: the outputs always come from the library as it
is now (a cache keyed on the cells alone would keep outputs of an older library). A notebook
that fails prints its traceback and the script exits with status 1; the build then stops too.
"""
import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from check_book import toc_pages  # noqa: E402  (the one reader of _toc.yml)

CACHE = ROOT / "_build" / ".jupyter_cache"


def toc_notebooks():
    """The `.ipynb` files of `_toc.yml`, in reading order."""
    files = [ROOT / f"{d}.ipynb" for d in toc_pages(ROOT / "_toc.yml")]
    return [f for f in files if f.is_file()]


def execute(path, timeout):
    """Run one notebook; return (path, seconds, executed notebook or None, error text).

    The kernel talks to this process over Unix sockets in a directory of its own (transport
    "ipc"), not TCP ports: two kernels started at once could be given the same free port
    (jupyter_client picks one, the kernel binds it later), and one of them then dies at
    startup ("Address already in use"; seen in a fresh clone)."""
    from jupyter_cache.executors.utils import single_nb_execution
    from jupyter_client.manager import KernelManager
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="liedyn-kernel-") as sockets:
        km = KernelManager(kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
                           transport="ipc", ip=os.path.join(sockets, "kernel"))
        try:
            result = single_nb_execution(nb, cwd=str(path.parent), timeout=timeout,
                                         allow_errors=False, meta_override=True, km=km)
        finally:                        # nbclient stops only the kernels it started itself
            if km.has_kernel:
                km.shutdown_kernel(now=True)
    if result.err is not None:
        return path, result.time, None, result.exc_string
    return path, result.time, nb, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    notebooks = [p.resolve() for p in args.notebooks] or toc_notebooks()
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    timeout = config["execute"]["timeout"]

    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    cache = get_cache(str(CACHE))
    cache.clear_cache()
    start, failed = time.perf_counter(), []
    # the longest notebooks first, so that the last one to finish is a short one
    notebooks.sort(key=lambda p: -p.stat().st_size)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(execute, p, timeout) for p in notebooks]
        for future in futures:
            path, seconds, nb, error = future.result()
            name = path.relative_to(ROOT)
            if error is not None:
                failed.append(name)
                print(f"FAIL {name} ({seconds:.1f} s)\n{error}", flush=True)
                continue
            uri = str(path)
            cache.add_nb_to_project(uri)
            cache.cache_notebook_bundle(
                CacheBundleIn(nb, uri, data={"execution_seconds": seconds}),
                check_validity=False, overwrite=True)
            print(f"ok   {name} ({seconds:.1f} s)", flush=True)
    print(f"{len(notebooks) - len(failed)} of {len(notebooks)} notebooks executed in "
          f"{time.perf_counter() - start:.0f} s ({args.jobs} at a time) into "
          f"{CACHE.relative_to(ROOT)}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
