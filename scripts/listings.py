"""Write the library listings of the chapters from the liedyn source.

A listing in a chapter is a markdown cell (or part of one) of the form

    **Listing** `liedyn.lie.Ad`: optional text after the name

    ```python
    def Ad(T):
        ...
    ```

The caption names the function; the fenced block below it holds the function's source with its
docstring removed. This script rewrites every fenced block from the current source, so a
listing cannot drift from the code it shows (tests/book/test_book_source.py fails when one is
stale). Plain markdown shows the code in JupyterLab, Jupyter Notebook, Colab and the HTML book
alike; in the HTML book, book/_ext/listings.py links the caption to the API entry and the source.

Usage: python scripts/listings.py [--check]
"""
import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAPTION = re.compile(r"^\*\*Listing\*\* `(liedyn(?:\.\w+)+)`[^\n]*\n\n```python\n"
                     r"(.*?)^```$", re.M | re.S)


def locate(name):
    """Split a dotted name into (file, qualified name inside the file)."""
    parts = name.split(".")
    for k in range(len(parts) - 1, 0, -1):
        path = ROOT.joinpath(*parts[:k]).with_suffix(".py")
        if path.is_file():
            return path, parts[k:]
    raise LookupError(f"listing {name!r}: no module file under {ROOT / 'liedyn'}")


def find(body, qualname, name):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and \
                node.name == qualname[0]:
            return node if len(qualname) == 1 else find(node.body, qualname[1:], name)
    raise LookupError(f"listing {name!r}: {'.'.join(qualname)} is not defined there")


def source_of(name):
    """The source of a function or class without its docstring(s), dedented."""
    path, qualname = locate(name)
    text = path.read_text()
    node = find(ast.parse(text).body, qualname, name)
    lines = text.splitlines()
    first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
    drop = set()
    for inner in ast.walk(node):
        if isinstance(inner, (ast.FunctionDef, ast.ClassDef)) and \
                ast.get_docstring(inner, clean=False) is not None:
            doc = inner.body[0]
            drop.update(range(doc.lineno - 1, doc.end_lineno))
    kept = [lines[i] for i in range(first, node.end_lineno) if i not in drop]
    indent = len(kept[0]) - len(kept[0].lstrip())
    return "\n".join(line[indent:] for line in kept) + "\n"


def render(text):
    def block(match):
        name, head = match.group(1), match.group(0).split("\n", 1)[0]
        return f"{head}\n\n```python\n{source_of(name)}```"
    return CAPTION.sub(block, text)


def chapters():
    return sorted(ROOT.glob("book/*.ipynb"))


def update(path, check):
    nb = json.loads(path.read_text())
    stale = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        old = "".join(cell["source"])
        new = render(old)
        if new != old:
            stale += CAPTION.findall(old)
            cell["source"] = new.splitlines(keepends=True)
    if stale and not check:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return stale


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report stale listings; exit 1 if there are any")
    args = parser.parse_args()
    stale = {p.name: update(p, args.check) for p in chapters()}
    stale = {k: v for k, v in stale.items() if v}
    for name, found in stale.items():
        print(f"{name}: {len(found)} listing(s) {'stale' if args.check else 'rewritten'}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
