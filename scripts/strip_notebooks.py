"""Store the chapters as the book expects them: no outputs, no execution counts, no widget
state, and the plain python3 kernelspec (a Jupyter session that saved a chapter is undone).

Usage: python scripts/strip_notebooks.py [--check]
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}


def strip(nb):
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        cell.get("metadata", {}).pop("execution", None)
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
