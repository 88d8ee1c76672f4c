"""One hash of everything the book is built from, so that `make test` can reuse a fresh build.

    .venv/bin/python scripts/book_inputs.py                # print the hash of the inputs now
    .venv/bin/python scripts/book_inputs.py --built DIR    # exit 0 if DIR was built from them

`make html` (and so `make book`) prints the hash into `_build/.book-inputs` before it executes
the notebooks and moves it into `_build/html/` when the build has passed. `make test` then
rebuilds the book only if `--built _build/html` fails: when anything changed since (a chapter,
the library, the configuration, a script, the pinned requirements), when the last build failed
or never ran, or outside a git checkout. A build that `make book` has just made from the same
files is the same test: every notebook executed without an error, warnings as errors.

The inputs are every file git lists in the working tree, tracked or untracked but not ignored
(`git ls-files --cached --others --exclude-standard`), with their contents as they are now,
and the Python version.
"""
import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAMP = ".book-inputs"


def inputs_hash(root=ROOT):
    """The hash of the inputs under `root`, or None outside a git checkout."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    h = hashlib.sha256(sys.version.encode())
    for name in sorted(set(listed.decode().split("\0")) - {""}):
        path = root / name
        if path.is_file():                      # a tracked file deleted in the work tree: skip
            h.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def built_from_inputs(html_dir, root=ROOT):
    """Whether `html_dir` holds a passed build of the inputs under `root` as they are now."""
    stamp = Path(html_dir) / STAMP
    now = inputs_hash(root)
    return now is not None and stamp.is_file() and stamp.read_text().strip() == now


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--built", type=Path, metavar="DIR",
                        help=f"exit 0 if DIR/{STAMP} holds the hash of the inputs now")
    args = parser.parse_args()
    if args.built is None:
        now = inputs_hash()
        if now is None:
            sys.exit("book_inputs: not a git checkout, the inputs cannot be listed")
        print(now)
        return 0
    return 0 if built_from_inputs(args.built) else 1


if __name__ == "__main__":
    sys.exit(main())
