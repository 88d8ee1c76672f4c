"""The book's schematic diagrams: SVG files in book/figures/, drawn by
scripts/draw_figures.py and shown by figure directives in the chapters.

Checked without a browser:
* every SVG is well-formed XML with a viewBox as wide as the text, a <title> and a
  <desc> for screen readers, text of at least 14 px, and nothing fetched from elsewhere
  (no <image>, no external link, no web font), so it reads offline and in JupyterLab;
* every SVG is shown by a figure directive (book/*.ipynb or book/intro.md) with a name,
  an :alt: text and a caption, and referenced with {numref}; every directive's file
  exists;
* the files are what the script draws now, and each <desc> is the :alt: of its
  directive;
* the tree diagram of chapter 4 is the tree that the chapter builds;
* the build copies them: no exclude pattern of _config.yml matches book/figures.
"""
import fnmatch
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import yaml

from common import ROOT, chapters, load_script

FIGURES = ROOT / "book" / "figures"
SVGS = sorted(FIGURES.glob("*.svg"))
NS = {"svg": "http://www.w3.org/2000/svg"}
DIRECTIVE = re.compile(r"^(:{3,})\{figure\} (?P<path>\S+)\n(?P<body>.*?)^\1\s*$",
                       re.M | re.S)
MIN_TEXT = 14          # px, at the 800 px width of the text


def sources():
    """(file name, markdown) of every page: intro.md, the chapters' markdown cells."""
    found = [("intro.md", (ROOT / "book" / "intro.md").read_text(encoding="utf-8"))]
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        found.append((path.name, "\n\n".join("".join(c["source"]) for c in cells
                                             if c["cell_type"] == "markdown")))
    return found


def directives():
    """Every figure directive of the book that shows a file: (page, path, options,
    caption)."""
    found = []
    for page, text in sources():
        for m in DIRECTIVE.finditer(text):
            lines = m["body"].splitlines()
            options = dict(re.match(r":(\w+):\s*(.*)", line).groups()
                           for line in lines if line.startswith(":"))
            caption = "\n".join(line for line in lines if not line.startswith(":"))
            found.append((page, m["path"], options, caption.strip()))
    return found


def svg(path):
    return ET.parse(path).getroot()


def test_there_are_the_diagrams():
    assert len(SVGS) >= 14, [p.name for p in SVGS]


def test_every_chapter_shows_a_diagram():
    shown = {page for page, target, _, _ in directives() if target.endswith(".svg")}
    bare = [name for name in (Path(d).name for d in chapters())
            if f"{name}.ipynb" not in shown]
    assert not bare, f"chapters without a diagram: {bare}"


@pytest.mark.parametrize("path", SVGS, ids=lambda p: p.name)
def test_svg_is_self_contained_and_accessible(path):
    root = svg(path)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    x, y, w, h = map(float, root.get("viewBox").split())
    assert (x, y, w) == (0, 0, 800) and h > 0, \
        f"{path.name}: viewBox {root.get('viewBox')}"
    for tag in ("title", "desc"):
        node = root.find(f"svg:{tag}", NS)
        assert node is not None and node.text.strip(), f"{path.name}: no <{tag}>"
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"<image|@import|@font-face|url\((?!#)|href=\"(?!#)", text), \
        f"{path.name} refers to something outside itself"
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', text)]
    assert sizes and min(sizes) >= MIN_TEXT, f"{path.name}: text of {min(sizes)} px"


@pytest.mark.parametrize("path", SVGS, ids=lambda p: p.name)
def test_svg_is_shown_in_the_book(path):
    shown = [(page, options, caption) for page, target, options, caption in directives()
             if target == f"figures/{path.name}"]
    assert shown, f"no figure directive shows figures/{path.name}"
    for page, options, caption in shown:
        name = options.get("name", "")
        assert name.startswith("fig-"), \
            f"{page}: figures/{path.name} has no :name: fig-..."
        assert len(options.get("alt", "")) > 40, f"{page}: {name} has no :alt: text"
        assert caption, f"{page}: {name} has no caption"
        assert f"{{numref}}`{name}`" in dict(sources())[page], \
            f"{page}: the text never refers to {name} with {{numref}}"


def test_every_figure_directive_shows_a_file_that_exists():
    found = directives()
    assert found
    missing = [(page, target) for page, target, _, _ in found
               if not (ROOT / "book" / target).is_file()]
    assert not missing


def draw_figures():
    return load_script(ROOT / "scripts" / "draw_figures.py")


def test_svgs_are_what_the_script_draws():
    script = draw_figures()
    drawn = {d.name: d.svg() for d in (draw() for draw in script.FIGURES)}
    assert sorted(drawn) == [p.stem for p in SVGS]
    stale = [name for name, text in drawn.items()
             if (FIGURES / f"{name}.svg").read_text(encoding="utf-8") != text]
    assert not stale, f"{stale}: run .venv/bin/python scripts/draw_figures.py"


@pytest.mark.parametrize("path", SVGS, ids=lambda p: p.name)
def test_desc_is_the_alt_text(path):
    desc = svg(path).find("svg:desc", NS).text.strip()
    alts = {options["alt"].strip() for _, target, options, _ in directives()
            if target == f"figures/{path.name}" and "alt" in options}
    assert desc in alts


def test_tree_diagram_is_the_tree_of_chapter_4():
    from liedyn.robots import random_tree
    chapter = ROOT / "book" / "04_multibody_models.ipynb"
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    seeded = next(i for i, c in enumerate(code)
                  if "rng = np.random.default_rng(2012)" in c)
    first_use = next(c for c in code[seeded + 1:] if "rng" in c)
    assert "tree = random_tree(8, rng, branching=0.6)" in first_use.splitlines()[0]
    tree = random_tree(8, np.random.default_rng(2012), branching=0.6)
    nodes = svg(FIGURES / "ch4-tree.svg").iter("{http://www.w3.org/2000/svg}circle")
    drawn = {int(n.get("data-body")): int(n.get("data-parent")) for n in nodes
             if n.get("data-body")}
    assert drawn == {i: tree.parent[i] for i in range(1, tree.nbodies + 1)}


def test_build_copies_the_figures():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    for pattern in config.get("exclude_patterns", []):
        for path in ("book/figures", "book/figures/ch1-twists.svg"):
            assert not fnmatch.fnmatch(path, pattern), f"_config.yml excludes {path}"


def test_the_running_example_is_drawn_where_its_examples_start():
    shown = {page for page, target, _, _ in directives() if target == "figures/two-link-arm.svg"}
    assert shown == {"04_multibody_models.ipynb", "05_inverse_dynamics.ipynb",
                     "06_equations_of_motion.ipynb", "07_forward_dynamics.ipynb",
                     "10_derivatives.ipynb"}
