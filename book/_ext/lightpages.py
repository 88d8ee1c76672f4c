"""Sphinx extension: light pages. What a browser fetches when it opens a page of the HTML book
is what the first screen needs; the rest comes when the reader scrolls to it, from the same
server (nothing from the web). The reader sees the same book:

* 3D scenes (liedyn.teach.scene: an iframe whose srcdoc is a whole document, the viewer's
  script included) and matplotlib animations (``to_jshtml``: a player with every frame inline)
  become files of their own, ``_scenes/<hash>.html`` in the build, and each output an iframe
  whose ``data-src`` names its file; book/_static/scene-lazy.js sets its ``src`` when it comes
  near the screen. The scene files share one copy of the viewer's script
  (``_static/meshcat-viewer.js``), which the browser then loads once. An animation's file tells
  the page its height, so its frame fits the player.
* Images load when they come near the screen (``loading="lazy"``).
* The widget scripts (``nb_ipywidgets_js``; the embed script is 3 MB) are on a page only when
  it shows a widget (myst-nb adds them to any page with widget state), and load when the first
  widget comes near the screen (book/_static/widgets-lazy.js).
* Icons: the theme draws its icons (header buttons, search, admonitions...) with the Font
  Awesome webfonts of its stylesheet. Its ``fontawesome.js`` (every Font Awesome icon as SVG,
  for icons added by users) is not loaded (templates/layout.html), and the webfonts are
  replaced by subsets with only the icons the pages use, ``_static/icons/*.woff`` (fontTools;
  ``_static/icons.css`` declares them after the theme's faces, so the browser takes them).
* Sphinx's search scripts and index load on the search page only (the theme loads them on
  every page for its search-as-you-type, which the book does not turn on).

Only the pages of the HTML builder change: in Jupyter the notebooks show their outputs inline,
and the one-page build that `make pdf` prints keeps every scene, widget and image in the page.
tests/browser/test_book_pages.py measures the bytes of a page's first load (test_first_load).
"""
import base64
import hashlib
import html
import json
import re
import struct
from pathlib import Path, PurePosixPath

from docutils import nodes
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
FILES = "_scenes"                     # the scenes' and animations' documents, in the outdir
VIEWER = "_static/meshcat-viewer.js"  # the scenes' shared viewer script, in the outdir
SCENE = re.compile(r'<iframe class="liedyn-scene"(?P<before>[^>]*?) srcdoc="(?P<doc>[^"]*)"'
                   r'(?P<after>[^>]*)>')
ANIMATION = re.compile(r'<div class="animation">.*new Animation\(', re.S)
FIRST_FRAME = re.compile(r'frames\[0\] = "data:image/png;base64,(?P<png>[A-Za-z0-9+/=\\\n]{44})')
ANIMATION_CONTROLS_PX = 110            # slider, buttons and loop options below the frames
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# An animation's document reports its height to the page (book/_static/scene-lazy.js sizes its
# frame); a message works from a file:// page too, where the page cannot read the frame.
HEIGHT_JS = """<script>
(function () {
  const tell = () => parent.postMessage(
    {liedynFrameHeight: document.documentElement.scrollHeight}, "*");
  addEventListener("load", tell);
  if (window.ResizeObserver) new ResizeObserver(tell).observe(document.body);
})();
</script>"""


# ---- scenes and animations as files ------------------------------------------------------

def viewer_script():
    """The scenes' viewer script (liedyn.teach.scene), or None where liedyn is missing."""
    try:
        from liedyn.teach.scene import viewer_script as script
        return script()
    except ImportError:
        return None


def scene_file(doc, viewer_url):
    """The document of a scene, with its inline viewer script replaced by a reference to
    ``viewer_url`` (when it holds exactly one copy of it).

    >>> scene_file("<p></p><script>V</script><script>go()</script>", None)
    '<p></p><script>V</script><script>go()</script>'
    """
    script = viewer_script() if viewer_url else None
    inline = f"<script>{script}</script>" if script else None
    if inline and doc.count(inline) == 1:
        return doc.replace(inline, f'<script src="{viewer_url}"></script>')
    return doc


def png_size(b64):
    """(width, height) of a PNG from the start of its base64 text (its IHDR chunk).

    >>> png_size(base64.b64encode(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8)
    ...                           + struct.pack(">II", 640, 480)).decode())
    (640, 480)
    """
    head = base64.b64decode(b64.replace("\\", "").replace("\n", "")[:32])
    return struct.unpack(">II", head[16:24])


def animation_file(fragment, title):
    """A standalone document of a matplotlib animation (the HTML of ``to_jshtml``)."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{html.escape(title)}</title><style>body {{ margin: 0; }}</style></head>'
            f'<body>\n{fragment}\n{HEIGHT_JS}\n</body></html>\n')


def externalize(text, page_uri):
    """Scenes and animations of the HTML ``text`` of one output as separate documents.

    Returns (the text with a lazy iframe for each, {path in the outdir: document}); paths are
    ``_scenes/<hash of the document>.html``, linked relative to the page ``page_uri``. The
    iframes keep their class (`liedyn-scene`, or `liedyn-animation`) and get ``data-src``.
    """
    files = {}

    def place(doc):
        path = f"{FILES}/{hashlib.sha256(doc.encode()).hexdigest()[:24]}.html"
        files[path] = doc
        return relative_uri(page_uri, path)

    def scene(match):
        viewer = relative_uri(f"{FILES}/x.html", VIEWER)
        doc = scene_file(html.unescape(match["doc"]), viewer)
        return (f'<iframe class="liedyn-scene"{match["before"]} '
                f'data-src="{place(doc)}"{match["after"]}>')

    text = SCENE.sub(scene, text)
    if ANIMATION.search(text):
        first = FIRST_FRAME.search(text)
        height = (png_size(first["png"])[1] if first else 480) + ANIMATION_CONTROLS_PX
        src = place(animation_file(text, "animation"))
        text = (f'<iframe class="liedyn-animation" title="animation" data-src="{src}" '
                f'style="width: 100%; height: {height}px; border: 0;" loading="lazy">'
                f'</iframe>')
    return text, files


def lazy_outputs(app, doctree, docname):
    """Scenes and animations to files, images lazy: on the pages of the HTML builder."""
    if app.builder.name != "html":
        return
    for image in doctree.findall(nodes.image):
        image["loading"] = "lazy"
    page_uri = app.builder.get_target_uri(docname)
    for raw in doctree.findall(nodes.raw):
        if "html" not in raw.get("format", "").split():
            continue
        text, files = externalize(raw.astext(), page_uri)
        if not files:
            continue
        for path, doc in files.items():
            target = Path(app.outdir, *PurePosixPath(path).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(doc, encoding="utf-8")
        raw.children = [nodes.Text(text)]


def write_viewer(app, exception):
    if exception is None and app.builder.name == "html" and viewer_script():
        if (Path(app.outdir) / FILES).is_dir():
            target = Path(app.outdir, *PurePosixPath(VIEWER).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(viewer_script(), encoding="utf-8")


# ---- widget scripts on the pages that show a widget, loaded near the first one ------------

def static(script):
    """The path of a page's script under _static/ (as configured), or None."""
    name = str(getattr(script, "filename", "") or "")
    return name[len("_static/"):] if name.startswith("_static/") else None


def lazy_widgets(app, pagename, templatename, context, doctree):
    """Replace the widget scripts of a page (nb_ipywidgets_js) by widgets-lazy.js, which
    loads them when a widget comes near the screen; drop them, and the widget state, from a
    page without a widget view."""
    if app.builder.name != "html" or "script_files" not in context:
        return
    widget_js = list(getattr(app.config, "nb_ipywidgets_js", {}) or {})
    scripts = list(context["script_files"])
    ours = [js for js in scripts if static(js) in widget_js]
    if not ours:
        return
    shown = WIDGET_VIEW in (context.get("body") or "")
    state = [js for js in scripts if getattr(js, "attributes", {}).get("type") == WIDGET_STATE]
    kept = [js for js in scripts if js not in ours and (shown or js not in state)]
    if shown:
        loader = type(ours[0])("_static/widgets-lazy.js", priority=ours[0].priority,
                               **{"data-scripts": json.dumps([static(js) for js in ours])})
        kept.append(loader)
    context["script_files"] = kept


# ---- icons: subsets of the theme's Font Awesome webfonts -----------------------------------

FONT_FACE = re.compile(r"@font-face\s*\{(?P<body>[^}]*)\}")
RULE = re.compile(r"(?P<selectors>[^{}]+)\{(?P<body>[^{}]*)\}")
ICON_SELECTOR = re.compile(r"\.(?P<name>fa-[\w-]+):{1,2}before")
CODEPOINT = re.compile(r"\\(?P<hex>[0-9a-fA-F]{4,6})\s?|(?P<char>[\ue000-\uf8ff])")
ICON_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
NOT_THEME_ASSETS = ("mathjax", "widgets", "icons")


def codepoints(text):
    """Private-use code points written in CSS text (escaped or literal).

    >>> sorted(hex(c) for c in codepoints('content: "\\\\f0c9"; --x: "\\uf002"'))
    ['0xf002', '0xf0c9']
    """
    found = set()
    for m in CODEPOINT.finditer(text):
        c = int(m["hex"], 16) if m["hex"] else ord(m["char"])
        if 0xE000 <= c <= 0xF8FF:
            found.add(c)
    return found


def icon_css(css_texts):
    """(code points of each icon class, code points used by other rules) of stylesheets."""
    classes, other = {}, set()
    for text in css_texts:
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for rule in RULE.finditer(text):
            points = codepoints(rule["body"])
            if not points:
                continue
            selectors = [s.strip() for s in rule["selectors"].split(",")]
            names = [ICON_SELECTOR.fullmatch(s) for s in selectors]
            if all(names):
                for n in names:
                    classes.setdefault(n["name"], set()).update(points)
            elif not rule["selectors"].strip().startswith("@"):
                other |= points
    return classes, other


def font_faces(css_path):
    """The Font Awesome faces a stylesheet declares: (family, weight, style, font file)."""
    faces = []
    for face in FONT_FACE.finditer(css_path.read_text(encoding="utf-8")):
        props = dict((k.strip(), v.strip()) for k, _, v in
                     (p.partition(":") for p in face["body"].split(";")) if v)
        family = props.get("font-family", "").replace("\\ ", " ").strip("\"'")
        ttf = re.search(r"url\(([^)]+\.ttf)\)", props.get("src", ""))
        if family.startswith("Font Awesome") and ttf:
            path = (css_path.parent / ttf[1].strip("\"'")).resolve()
            faces.append((family, props.get("font-weight", "400"),
                          props.get("font-style", "normal"), path))
    return faces


def used_icon_classes(outdir):
    """`fa-*` names in the class attributes of the built pages and in the scripts the pages
    load (a script may add an icon)."""
    names = set()
    for page in outdir.rglob("*.html"):
        if page.parts[len(outdir.parts)] in (FILES, "_static", "_sources"):
            continue
        for attr in re.findall(r'class="([^"]*)"', page.read_text(encoding="utf-8",
                                                                    errors="replace")):
            names.update(ICON_CLASS.findall(attr))
    for script in (outdir / "_static").rglob("*.js"):
        rel = script.relative_to(outdir / "_static").parts
        if rel[0] in NOT_THEME_ASSETS or script.name in ("fontawesome.js", "meshcat-viewer.js"):
            continue
        names.update(ICON_CLASS.findall(script.read_text(encoding="utf-8", errors="replace")))
    return names


def subset_icons(app, exception):
    """Write _static/icons/*.woff (the theme's icon fonts cut to the icons the pages use) and
    _static/icons.css (their faces, with the code points each holds)."""
    if exception is not None or app.builder.format != "html":
        return
    from fontTools import subset
    from fontTools.ttLib import TTFont

    static = Path(app.outdir) / "_static"
    sheets = [p for p in static.rglob("*.css")
              if p.relative_to(static).parts[0] not in NOT_THEME_ASSETS]
    faces = [f for sheet in sheets for f in font_faces(sheet)]
    classes, wanted = icon_css(p.read_text(encoding="utf-8") for p in sheets)
    for name in used_icon_classes(Path(app.outdir)):
        wanted |= classes.get(name, set())
    rules = []
    for family, weight, style, ttf in faces:
        if not ttf.is_file():
            continue
        font = TTFont(ttf)
        present = sorted(wanted & set(font.getBestCmap()))
        if not present:
            continue
        options = subset.Options()
        options.flavor = "woff"
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=present)
        cutter.subset(font)
        out = static / "icons" / f"{ttf.stem}.woff"
        out.parent.mkdir(exist_ok=True)
        font.flavor = "woff"
        font.save(out)
        ranges = ",".join(f"U+{c:X}" for c in present)
        rules.append(f'@font-face {{ font-family: "{family}"; font-style: {style}; '
                     f'font-weight: {weight}; font-display: block; '
                     f'src: url(icons/{out.name}) format("woff"); unicode-range: {ranges}; }}')
    (static / "icons.css").write_text(
        "/* The theme's Font Awesome faces cut to the icons of the book's pages "
        "(book/_ext/lightpages.py). */\n" + "\n".join(rules) + "\n", encoding="utf-8")


# ---- setup -----------------------------------------------------------------------------------

def add_templates(app, config):
    config.templates_path = [*config.templates_path, str(HERE / "templates")]


def setup(app):
    app.connect("config-inited", add_templates)
    app.connect("doctree-resolved", lazy_outputs)
    app.connect("html-page-context", lazy_widgets, priority=950)  # after myst-nb's scripts
    app.connect("build-finished", write_viewer)
    app.connect("build-finished", subset_icons)
    app.add_css_file("icons.css", priority=900)    # after the theme's stylesheets
    return {"parallel_read_safe": True, "parallel_write_safe": True}
