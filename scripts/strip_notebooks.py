"""Store the chapters as the book expects them: no outputs, no execution counts, no widget
state, and the plain python3 kernelspec (a Jupyter session that saved a chapter is undone).

A cell that the page folds or removes (by its tags) is stored collapsed, so that JupyterLab,
Notebook 7 and Colab hide it too until the reader opens it: ``jupyter.source_hidden`` for
the code, ``jupyter.outputs_hidden`` for the output.

Usage: python scripts/strip_notebooks.py [--check]
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}
# the tags of myst-nb that fold or remove a cell's code, or its output, on the page
HIDES = {"source_hidden": {"hide-input", "hide-cell", "remove-input", "remove-cell"},
         "outputs_hidden": {"hide-output", "hide-cell", "remove-output", "remove-cell"}}


def collapse(cell):
    """Collapse in Jupyter what the page hides, and only that."""
    tags = set(cell["metadata"].get("tags", []))
    jupyter = cell["metadata"].pop("jupyter", {})
    for key, hiding in HIDES.items():
        jupyter.pop(key, None)
        if tags & hiding:
            jupyter[key] = True
    if jupyter:
        cell["metadata"]["jupyter"] = jupyter


def strip(nb):
    for cell in nb["cells"]:
        cell.setdefault("metadata", {}).pop("execution", None)
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            collapse(cell)
    nb["metadata"] = {**{k: v for k, v in nb["metadata"].items()
                         if k not in ("kernelspec", "language_info", "widgets")}, **METADATA}
    return nb


def main():
    check = "--check" in sys.argv
    dirty = []
    for path in sorted(ROOT.glob("book/*.ipynb")):
        text = path.read_text()
        clean = json.dumps(strip(json.loads(text)), indent=1, ensure_ascii=False) + "\n"
        if clean != text:
            dirty.append(path.name)
            if not check:
                path.write_text(clean)
    for name in dirty:
        print(f"{name}: {'not clean' if check else 'stripped'}")
    return 1 if dirty and check else 0


if __name__ == "__main__":
    sys.exit(main())
