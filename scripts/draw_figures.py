"""Draw the book's schematic diagrams as SVG files in book/figures/.

Run `.venv/bin/python scripts/draw_figures.py` after changing a diagram; the SVG files
are committed with this script. Every diagram is drawn on a viewBox 800 px wide (the
book's text width) with one stroke width, one palette and text of at least 14 px, and
carries a <title> and a <desc> for screen readers. Labels are plain text with a small
markup: ``_x`` or ``_{...}`` is a subscript, ``^x`` or ``^{...}`` a superscript (nested
groups allowed; a subscript and a superscript in a row are stacked); ``\\_`` and ``\\^``
are the characters themselves. The files need no math renderer and no font beyond the
system's sans-serif.

The colours mean the same in every diagram: blue for motion (twists, accelerations, the
outward pass), orange for forces (wrenches, the inward pass), green for inertia and for
sets of bodies, ink and grey for bodies and frames.
"""
import collections
import functools
import json
import math
import re
from html import escape
from pathlib import Path

import matplotlib
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parents[1] / "book" / "figures"
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
INK, GREY, BLUE, ORANGE, GREEN = "#222222", "#8a8a8a", "#1f5fa8", "#c4511a", "#2e7d4f"
TINT = {INK: "#ffffff", GREY: "#f1f1f1", BLUE: "#eaf1fa", ORANGE: "#fbefe7",
        GREEN: "#e7f4ec"}
STROKE = 2
SIZE, NOTE, MIN_SIZE = 18, 15, 14          # label, note and smallest text size (px)
EM = "\u2003"                              # a gap that SVG does not collapse
LITERAL = "\ue000\ue001"                   # stand-ins for an escaped _ and ^
Run = collections.namedtuple("Run", "text size shift dx")


# ------------------------------------------------------------------------ text markup
@functools.cache
def _advances():
    """Advance widths of DejaVu Sans (shipped with matplotlib) per code point, in em."""
    font = TTFont(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf")
    em, metrics = font["head"].unitsPerEm, font["hmtx"].metrics
    return {c: metrics[g][0] / em for c, g in font.getBestCmap().items()}


def width(run):
    """Width of a run on the page, its leading shift ``dx`` included."""
    return run.dx + sum(_advances().get(ord(c), 0.6) for c in run.text) * run.size


def _group(s, i):
    """The group that starts at s[i]: a balanced ``{...}`` or one character."""
    if s[i] != "{":
        return s[i], i + 1
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return s[i + 1:j], j + 1
    raise ValueError(f"unbalanced braces in label {s!r}")


def runs(markup, size, shift=0.0):
    """The label ``markup`` as runs: text, font size, baseline shift (downwards) and
    horizontal shift. A backslash before ``_`` or ``^`` keeps it as a character."""
    if LITERAL[0] in markup or LITERAL[1] in markup:
        raise ValueError(f"label {markup!r} holds a private-use character")
    markup = markup.replace("\\_", LITERAL[0]).replace("\\^", LITERAL[1])
    out, i = [], 0
    while i < len(markup):
        if markup[i] in "_^" and i + 1 < len(markup):
            scripts = {}
            while i + 1 < len(markup) and markup[i] in "_^" \
                    and markup[i] not in scripts:
                scripts[markup[i]], i = _group(markup, i + 1)
            out += _scripts(scripts, size, shift)
        else:
            j = i + 1
            while j < len(markup) and markup[j] not in "_^":
                j += 1
            text = markup[i:j].replace(LITERAL[0], "_").replace(LITERAL[1], "^")
            out.append(Run(text, size, shift, 0.0))
            i = j
    return out


def _scripts(scripts, size, shift):
    """A subscript, a superscript, or both stacked: the second starts where the first
    did, and an empty run then moves on past the wider of the two."""
    small = max(MIN_SIZE, round(size * 0.78))
    groups = [runs(g, small, shift + (0.3 if k == "_" else -0.6) * size)
              for k, g in scripts.items()]
    if len(groups) == 1:
        return groups[0]
    (first, second), (w1, w2) = groups, [sum(map(width, g)) for g in groups]
    second[0] = second[0]._replace(dx=second[0].dx - w1)
    return first + second + [Run("", small, shift, max(w1 - w2, 0.0))]


def tspans(markup, size):
    """SVG content of a text element: one tspan per run, moved by ``dx`` and ``dy``."""
    parts, baseline, dx = [], 0.0, 0.0
    for run in runs(markup, size):
        dx += run.dx
        if not run.text:
            continue
        attrs = "" if run.size == size else f' font-size="{run.size}"'
        attrs += f' dx="{dx:.1f}"' if abs(dx) > 0.05 else ""
        if run.shift != baseline:
            attrs += f' dy="{run.shift - baseline:.1f}"'
            baseline = run.shift
        parts.append(f"<tspan{attrs}>{escape(run.text)}</tspan>" if attrs
                     else escape(run.text))
        dx = 0.0
    return "".join(parts)


# ------------------------------------------------------------------------ drawing
def polar(p, angle, r):
    """The point at distance r from p in the direction ``angle`` (degrees, counter-
    clockwise on the page, whose y axis points down)."""
    a = math.radians(angle)
    return (p[0] + r * math.cos(a), p[1] - r * math.sin(a))


def on_ellipse(centre, rx, ry, angle):
    a = math.radians(angle)
    return (centre[0] + rx * math.cos(a), centre[1] - ry * math.sin(a))


def _xy(p):
    return f"{p[0]:.1f},{p[1]:.1f}"


class Drawing:
    """An SVG document in the house style, built element by element."""

    def __init__(self, name, height):
        self.name, self.height, self.items = name, height, []

    def _stroke(self, color, dash, arrow):
        s = f'stroke="{color}" stroke-width="{STROKE}"'
        s += ' stroke-dasharray="7 5"' if dash else ""
        marker = f' marker-end="url(#{self.name}-arrow-{color[1:]})"'
        return s + (marker if arrow else "")

    def line(self, p, q, color=INK, arrow=False, dash=False):
        self.items.append(f'<path d="M{_xy(p)} L{_xy(q)}" fill="none" '
                          f'{self._stroke(color, dash, arrow)}/>')

    def curve(self, p, c, q, color=INK, dash=False):
        """A quadratic Bezier arrow from p to q, pulled towards c."""
        self.items.append(f'<path d="M{_xy(p)} Q{_xy(c)} {_xy(q)}" fill="none" '
                          f'{self._stroke(color, dash, True)}/>')

    def arc(self, centre, r, start, end, color=INK):
        """A circular arc arrow about ``centre`` from angle ``start`` to ``end``."""
        p, q = polar(centre, start, r), polar(centre, end, r)
        large, sweep = int(abs(end - start) > 180), int(end < start)
        self.items.append(f'<path d="M{_xy(p)} A{r},{r} 0 {large} {sweep} {_xy(q)}" '
                          f'fill="none" {self._stroke(color, False, True)}/>')

    def box(self, x, y, w, h, color=INK, fill=None, dash=False, r=10):
        fill = TINT[color] if fill is None else fill
        self.items.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" '
                          f'fill="{fill}" {self._stroke(color, dash, False)}/>')

    def body(self, centre, rx, ry, angle=0.0, color=GREY, fill=None):
        """A body: an ellipse turned by ``angle``, tinted in its colour."""
        fill = TINT[color] if fill is None else fill
        self.items.append(f'<ellipse cx="{centre[0]:.1f}" cy="{centre[1]:.1f}" '
                          f'rx="{rx}" ry="{ry}" transform="rotate({-angle:.1f} '
                          f'{_xy(centre)})" fill="{fill}" '
                          f'{self._stroke(color, False, False)}/>')

    def outline(self, d, color=GREY):
        self.items.append(f'<path d="{d}" fill="{TINT[color]}" '
                          f'{self._stroke(color, False, False)}/>')

    def circle(self, p, r, color=INK, fill="#ffffff", extra=""):
        self.items.append(f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="{r}" '
                          f'fill="{fill}" {self._stroke(color, False, False)}{extra}/>')

    def text(self, p, markup, size=SIZE, color=INK, anchor="start", bold=False):
        weight = ' font-weight="bold"' if bold else ""
        self.items.append(f'<text x="{p[0]:.1f}" y="{p[1]:.1f}" font-size="{size}" '
                          f'fill="{color}" text-anchor="{anchor}"{weight}>'
                          f'{tspans(markup, size)}</text>')

    def lines(self, p, markups, step=27, **kw):
        for k, markup in enumerate(markups):
            self.text((p[0], p[1] + k * step), markup, **kw)

    def frame(self, p, angle, name, name_at, color=INK, dash=False, length=62):
        """A planar coordinate frame: its x and y axes as arrows and its name."""
        for k, axis in enumerate("xy"):
            self.line(p, polar(p, angle + 90 * k, length), color, arrow=True, dash=dash)
            self.text(polar(p, angle + 90 * k, length + 13), axis, NOTE, color,
                      "middle")
        self.circle(p, 3.5, color, fill=color)
        self.text(name_at, name, SIZE, color, "middle", bold=True)

    def axis(self, p, label, label_at):
        """A joint axis perpendicular to the page: a dot in a circle."""
        self.circle(p, 10)
        self.circle(p, 3, fill=INK)
        self.text(label_at, label, SIZE, INK, "middle")

    def ground(self, p, w=56):
        """The ground: a line with hatching below it."""
        self.line((p[0] - w / 2, p[1]), (p[0] + w / 2, p[1]))
        for k in range(6):
            x = p[0] - w / 2 + 6 + k * 10
            self.line((x, p[1]), (x - 9, p[1] + 11), GREY)

    def svg(self):
        title, desc = TITLE[self.name], alt_texts().get(self.name)
        if desc is None:
            raise SystemExit(f"no figure directive with an :alt: text shows "
                             f"figures/{self.name}.svg: write it in the chapter first")
        markers = "".join(
            f'<marker id="{self.name}-arrow-{c[1:]}" viewBox="0 0 10 10" refX="9" '
            f'refY="5" markerWidth="11" markerHeight="11" markerUnits="userSpaceOnUse" '
            f'orient="auto"><path d="M0,1 L10,5 L0,9 z" fill="{c}"/></marker>'
            for c in (INK, GREY, BLUE, ORANGE, GREEN))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="800" '
                f'height="{self.height}" viewBox="0 0 800 {self.height}" role="img" '
                f'aria-labelledby="{self.name}-title {self.name}-desc" '
                f'font-family="{FONT}">\n'
                f'<title id="{self.name}-title">{escape(title)}</title>\n'
                f'<desc id="{self.name}-desc">{escape(desc)}</desc>\n'
                f'<defs>{markers}</defs>\n'
                f'<rect width="800" height="{self.height}" fill="#ffffff"/>\n'
                + "\n".join(self.items) + "\n</svg>\n")


# ------------------------------------------------------------------------ chapter 1
def ch1_twists():
    d = Drawing("ch1-twists", 490)
    O, p = (70, 390), (330, 230)
    # a planar motion drawn to scale: omega = 0.5 counter-clockwise, p-dot = (30, 70),
    # and the body point at O moves with p-dot - omega x p = (30 + 80, 70 - 130)
    dp, vO = (30, 70), (110, -60)
    d.body(polar(p, 20, 50), 120, 62, 20)
    d.frame(O, 0, "{0}", (48, 425))
    d.frame(p, 20, "{B}", (366, 266))
    d.curve((82, 370), (150, 220), (316, 226))
    d.text((150, 330), "T = T_{0b} = (R, p)")
    d.arc(p, 40, 145, 240, BLUE)
    d.text((272, 214), "ω", SIZE, BLUE, "middle")
    d.line(p, (p[0] + dp[0], p[1] - dp[1]), BLUE, arrow=True)
    d.text((p[0] + dp[0] + 8, p[1] - dp[1] - 4), "ṗ", SIZE, BLUE)
    d.line(O, (O[0] + vO[0], O[1] - vO[1]), BLUE, arrow=True, dash=True)
    d.lines((196, 452), ["ṗ − ω × p: the velocity of the body point",
                         "passing through the origin of {0}"], 22, size=NOTE,
            color=BLUE)
    for y, kind, s, rule, w, v, axes in (
            (36, "body", "b", "V̂_b = T^{−1}Ṫ", "R^Tω", "R^Tṗ", "{B}"),
            (268, "spatial", "s", "V̂_s = ṪT^{−1}", "ω", "ṗ − ω × p", "{0}")):
        d.box(500, y, 285, 134, BLUE)
        d.text((515, y + 30), f"{kind} twist V_{s} = (w_{s}, v_{s})", bold=True)
        d.lines((515, y + 64), [rule, f"w_{s} = {w},{EM}v_{s} = {v}",
                                f"in the axes of {axes}"], 28)
    d.line((630, 174), (630, 262), arrow=True)
    d.text((642, 224), "V_s = Ad_T V_b")
    return d


def ch1_wrench():
    d = Drawing("ch1-wrench", 440)
    A, B, P = (70, 390), (290, 250), (420, 215)
    d.body((340, 225), 150, 80, 10)
    d.line(polar(P, 80, -110), polar(P, 80, 190), GREY, dash=True)
    d.text((420, 345), "line of action", NOTE, GREY)
    d.line(A, P, GREY, dash=True)
    d.line(B, P, GREY, dash=True)
    d.text((222, 346), "r_a", color=GREY)
    d.text((352, 262), "r_b", color=GREY)
    d.frame(A, 0, "{A}", (48, 425))
    d.frame(B, -45, "{B}", (280, 292))
    d.curve((84, 372), (150, 250), (276, 246))
    d.text((150, 230), "T_{ab}", anchor="end")
    d.line(P, polar(P, 80, 100), ORANGE, arrow=True)
    d.circle(P, 4.5, ORANGE, fill=ORANGE)
    d.text((446, 126), "f", SIZE, ORANGE)
    d.box(530, 24, 258, 250, ORANGE)
    d.lines((544, 56), ["in {A}: F_a = (m_a, f_a)", "m_a = r_a × f_a", "",
                        "in {B}: F_b = (m_b, f_b)", "m_b = r_b × f_b", "",
                        "F_b = Ad^*_{T_{ab}} F_a"], 30)
    d.lines((530, 318), ["a twist goes the other way:", "V_b = Ad_{T_{ba}} V_a",
                         "the same power:", "F_a^T V_a = F_b^T V_b"], 28, size=NOTE)
    return d


# ------------------------------------------------------------------------ chapter 2
def ch2_inertia():
    d = Drawing("ch2-generalized-inertia", 470)
    O, B, c, r = (54, 440), (140, 290), (290, 226), (344, 318)
    d.body((250, 262), 186, 100, 12)
    d.frame(O, 0, "{0}", (26, 462), GREY, dash=True, length=52)
    d.curve((66, 424), (70, 330), (126, 298))
    d.text((84, 406), "T = (R, p)")
    d.frame(B, 12, "{B}", (178, 338), length=66)
    d.arc(B, 34, 110, 215, BLUE)
    d.text(polar(B, 160, 52), "w", SIZE, BLUE, "middle")
    d.line(B, polar(B, 62, 96), BLUE, arrow=True)
    d.text(polar(B, 66, 112), "v", SIZE, BLUE, "middle")
    d.line(B, c, GREY, dash=True)
    d.text((212, 242), "c", SIZE, GREY, "middle")
    d.circle(c, 8, GREEN, fill=GREEN)
    d.text((c[0] + 14, c[1] - 14), "centre of mass", NOTE, GREEN)
    d.line(B, r, GREY, dash=True)
    d.text((262, 298), "r", SIZE, GREY, "middle")
    d.circle(r, 5, INK, fill=INK)
    d.text((r[0] - 6, r[1] - 16), "dm", SIZE, INK, "middle")
    d.line(r, polar(r, -35, 80), BLUE, arrow=True)
    d.text((r[0] + 30, r[1] + 78), "v + w × r", SIZE, BLUE)
    d.text((24, 36), "the twist of {B}: V = (w, v), in the axes of {B}", NOTE, BLUE)
    d.lines((490, 36), ["e = ½ ∫ ‖v + w × r‖² dm", f"{EM}= ½ V^T ℐ V"], 30)
    x0, y0, w, h = 490, 110, 150, 86
    blocks = (("∫[r]^T[r] dm", "= I_c + m[c]^T[c]"), ("∫[r] dm", "= m[c]"),
              ("∫[r]^T dm", "= m[c]^T"), ("m 1", ""))
    for k, (integral, closed) in enumerate(blocks):
        x, y = x0 + w * (k % 2), y0 + h * (k // 2)
        d.box(x, y, w, h, GREEN, r=4)
        d.text((x + w / 2, y + 36), integral, SIZE, INK, "middle")
        d.text((x + w / 2, y + 66), closed, NOTE, GREEN, "middle")
    d.text((x0 - 10, y0 + h + 6), "ℐ =", SIZE, INK, "end")
    d.lines((490, 312), ["upper left: the rotational inertia",
                         "about the origin of {B}",
                         "off the diagonal: zero when {B}",
                         "sits at the centre of mass c",
                         "I_c: the rotational inertia about c,",
                         "in axes parallel to those of {B}"], 24, size=NOTE)
    return d


# ------------------------------------------------------------------------ chapter 3
def ch3_quasi_velocities():
    d = Drawing("ch3-quasi-velocities", 450)
    C, R = (250, 470), 220                                 # the group, drawn as a circle
    Qb = polar(C, 90, R)
    d.items.append(f'<path d="M{_xy(polar(C, 160, R))} A{R},{R} 0 0 1 '
                   f'{_xy(polar(C, 25, R))}" fill="none" stroke="{GREY}" '
                   f'stroke-width="{STROKE * 3}"/>')
    d.text(polar(C, 150, R - 70), "the group G", NOTE, GREY, "middle")
    d.line((50, Qb[1]), (470, Qb[1]), BLUE)
    d.text((60, Qb[1] - 14), "the chart at Q̄: coordinates φ", NOTE, BLUE)
    s = 160                                                # |phi|, drawn to scale
    phi, Q = (Qb[0] + s, Qb[1]), polar(C, 90 - math.degrees(s / R), R)
    d.line(Qb, (phi[0] - 6, phi[1]), INK, arrow=True)
    d.text(((Qb[0] + phi[0]) / 2, Qb[1] - 12), "φ", SIZE, INK, "middle")
    d.line(phi, (phi[0] + 70, phi[1]), BLUE, arrow=True)
    d.text((phi[0] + 76, phi[1] - 12), "φ̇", SIZE, BLUE, "middle")
    d.curve((phi[0], phi[1] + 8), (phi[0] + 14, (phi[1] + Q[1]) / 2), polar(Q, 80, 8),
            GREY, dash=True)
    d.text((phi[0] + 22, (phi[1] + Q[1]) / 2 + 14), "exp", NOTE, GREY)
    d.circle(Qb, 6, INK, fill=INK)
    d.text((Qb[0], Qb[1] + 32), "Q̄ (φ = 0)", SIZE, INK, "middle")
    d.circle(Q, 6, INK, fill=INK)
    d.text((Q[0] - 12, Q[1] + 30), "Q = Q̄ e^{φ̂}", SIZE, INK, "end")
    tangent = 90 - math.degrees(s / R) - 90
    d.line(Q, polar(Q, tangent, 80), BLUE, arrow=True)
    d.text((Q[0] - 40, Q[1] + 70), "v = S(φ) φ̇", SIZE, BLUE, "middle")
    d.lines((24, 36), ["The configuration Q stays on the group. The chart",
                       "is moved to the current configuration Q̄ at every",
                       "instant, so the equations are needed at φ = 0 only,",
                       "where S(0) = 1 and v = φ̇."], 24, size=NOTE)
    for k, (title, rows, color) in enumerate((
            ("Lagrange's equations", ["coordinates x and rates ẋ;",
                                      "every chart of a rotation is",
                                      "singular somewhere"], GREY),
            ("Boltzmann-Hamel, From (26)", ["quasi-velocities v = S(x) ẋ:",
                                            "Lagrange's equations",
                                            "rewritten in v"], BLUE),
            ("on the group, at φ = 0", ["M v̇ + C(v) v = τ:",
                                        "Newton-Euler, Kim's eq. (31),",
                                        "no singularity"], BLUE))):
        y = 14 + 152 * k
        d.box(512, y, 276, 116, color, r=8)
        d.text((526, y + 26), title, NOTE, INK, bold=True)
        d.lines((526, y + 52), rows, 21, size=NOTE)
        if k:
            d.line((650, y - 34), (650, y - 2), arrow=True)
    return d


# ------------------------------------------------------------------------ chapter 4
def ch4_joint():
    d = Drawing("ch4-joint-frames", 450)
    P, J, rot, q = (100, 320), (420, 290), -20, 55
    d.outline("M60,304 L424,268 Q452,290 428,314 L64,350 Q40,327 60,304 z")
    d.body(polar(J, rot + q, 100), 120, 28, rot + q)
    d.frame(P, 0, "{λ(i)}", (90, 380))
    d.frame(J, rot, "joint frame", (560, 352), GREY, dash=True, length=80)
    d.frame(J, rot + q, "{i}", (398, 220), BLUE, length=80)
    d.arc(J, 58, rot, rot + q, BLUE)
    d.text(polar(J, rot + q / 2, 74), "q_i", SIZE, BLUE, "middle")
    d.axis(J, "a", polar(J, 158, 30))
    d.curve((112, 336), (250, 440), (410, 304))
    d.text((260, 414), "X_i: fixed placement", anchor="middle")
    d.text((40, 40), "T_{λ(i),i}(q_i) = X_i Φ_i(q_i)", bold=True)
    d.text((40, 72), "parent body frame → joint frame → child body frame {i}", NOTE)
    d.text((40, 110), "a: the joint axis, out of the page", NOTE)
    d.lines((500, 395), ["Φ_i(q_i): the joint motion,", "here a turn by q_i about a"],
            22, size=NOTE, color=BLUE)
    d.lines((560, 50), ["S_i = (a, 0): the twist", "of {i} relative to its",
                        "parent per unit q̇_i, in {i}"], 22, size=NOTE)
    return d


def ch4_body_jacobian():
    d = Drawing("ch4-body-jacobian", 470)
    O, q1, q2, l1, l2 = (70, 420), 25, 60, 300, 190
    E = polar(O, q1, l1)                                       # the elbow, origin of {2}
    for start, angle, length in ((O, q1, l1 + 16), (E, q1 + q2, l2)):
        a, b = polar(start, angle + 90, 12), polar(start, angle - 90, 12)
        e = polar(start, angle, length)
        d.outline(f"M{_xy(a)} L{_xy(polar(e, angle + 90, 12))} "
                  f"L{_xy(polar(e, angle - 90, 12))} L{_xy(b)} z")
    d.ground((O[0], O[1] + 22), 70)
    d.line((O[0], O[1] + 10), (O[0], O[1] + 22))
    d.axis(O, "", O)
    d.axis(E, "", E)
    d.arc(O, 70, -10, q1 + 20, BLUE)
    d.text(polar(O, -22, 86), "q̇_1 = 1", SIZE, BLUE, "middle")
    d.line(E, polar(E, q1, 90), GREY, dash=True)
    d.arc(E, 48, q1, q1 + q2, GREY)
    d.text(polar(E, q1 + q2 / 2, 68), "q_2", SIZE, GREY, "middle")
    mid = polar(polar(O, q1, l1 / 2), q1 - 90, 34)
    d.text((mid[0], mid[1] + 6), "l_1", SIZE, GREY, "middle")
    d.frame(E, q1 + q2, "{2}", polar(E, -55, 46), INK, length=170)
    v = l1 / 2                                                  # l_1, drawn at half scale
    tip = polar(E, q1 + 90, v)
    d.line(E, tip, BLUE, arrow=True)
    d.text(polar(tip, q1 + 90, 22), "l_1 along y_1", SIZE, BLUE, "middle")
    on_x = polar(E, q1 + q2, v * math.sin(math.radians(q2)))
    on_y = polar(E, q1 + q2 + 90, v * math.cos(math.radians(q2)))
    d.line(tip, on_x, BLUE, dash=True)
    d.line(tip, on_y, BLUE, dash=True)
    d.text((on_x[0] + 22, on_x[1] + 6), "l_1 sin q_2", NOTE, BLUE)
    d.text((on_y[0] - 12, on_y[1] - 12), "l_1 cos q_2", NOTE, BLUE, "end")
    for y, title, rows in (
            (20, "column of joint 1 (q̇_1 = 1)",
             ["turns link 2 at unit rate and", "swings the elbow at speed l_1:",
              "(e_z,  l_1 sin q_2,  l_1 cos q_2,  0)"]),
            (200, "column of joint 2 (q̇_2 = 1)",
             ["turns link 2 about the elbow,", "which stays at rest:",
              "(e_z,  0,  0,  0)"])):
        d.box(450, y, 340, 148, BLUE)
        d.text((464, y + 30), title, bold=True)
        d.lines((464, y + 62), rows, 28, size=NOTE)
    d.text((450, 400), "J_2: the two columns, in the axes of {2}", NOTE)
    return d


CH4_TREE = (None, 0, 0, 1, 3, 4, 1, 6, 7)   # the parents of chapter 4's random tree


def tree_layout(parent):
    """Positions of the bodies of a tree: the leaves left to right in depth-first
    order, each parent above the middle of its children."""
    children = {i: [k for k in range(1, len(parent)) if parent[k] == i]
                for i in range(len(parent))}
    place, leaves = {}, []

    def visit(i, depth):
        for k in children[i]:
            visit(k, depth + 1)
        xs = [place[k][0] for k in children[i]] or [len(leaves)]
        leaves.extend([] if children[i] else [i])
        place[i] = (sum(xs) / len(xs), depth)

    visit(0, 0)
    return {i: (70 + 150 * x, 54 + 82 * y) for i, (x, y) in place.items()}


def support(parent, i):
    """The bodies on the path from the ground to body i."""
    return [] if i == 0 else support(parent, parent[i]) + [i]


def ch4_tree(parent=CH4_TREE, leaf=5, root=6):
    d = Drawing("ch4-tree", 440)
    at, path = tree_layout(parent), support(parent, leaf)
    sub = [k for k in range(1, len(parent)) if root in support(parent, k)]
    xs, ys = [at[k][0] for k in sub], [at[k][1] for k in sub]
    d.box(min(xs) - 34, min(ys) - 34, max(xs) - min(xs) + 68, max(ys) - min(ys) + 68,
          GREEN, dash=True, r=30)
    for i in range(1, len(parent)):
        d.line(at[parent[i]], at[i], BLUE if i in path else GREY)
    for i in range(1, len(parent)):
        color = BLUE if i in path else GREEN if i in sub else INK
        d.circle(at[i], 19, color, TINT[color],
                 extra=f' data-body="{i}" data-parent="{parent[i]}"')
        d.text((at[i][0], at[i][1] + 6), str(i), SIZE, color, "middle", bold=True)
    x0, y0 = at[0]
    d.box(x0 - 17, y0 - 17, 34, 34, INK, fill=INK, r=3)
    d.text((x0, y0 + 6), "0", SIZE, "#ffffff", "middle", bold=True)
    d.text((x0 + 30, y0 + 6), "ground")
    kids = [k for k in range(1, len(parent)) if parent[k] == 1]
    d.lines((450, 60), [f"parent λ({leaf}) = {parent[leaf]}",
                        f"children μ(1) = {{{', '.join(map(str, kids))}}}",
                        "numbering: λ(i) < i"], 30)
    for y, color, name, members, what in (
            (196, BLUE, f"support({leaf})", path, f"the joints that move body {leaf}"),
            (290, GREEN, f"subtree({root})", sub,
             f"the bodies whose weight joint {root} carries")):
        d.text((450, y), f"{name} = {{{', '.join(map(str, members))}}}", SIZE, color,
               bold=True)
        d.text((450, y + 26), what, NOTE, color)
    return d


# ------------------------------------------------------------------------ chapter 5
def ch5_free_body():
    d = Drawing("ch5-free-body", 520)
    C, rx, ry = (400, 245), 170, 85
    Ji = (C[0] - rx, C[1])
    d.line((46, 350), (140, 300), GREY, dash=True)
    d.line((140, 300), Ji, GREY)
    d.ground((46, 352))
    d.lines((20, 392), ["ground 0:", "V_0 = 0, V̇_0 = (0, −g)"], 24, size=NOTE)
    d.text((150, 330), "λ(i)", SIZE, GREY, "middle")
    d.body(C, rx, ry, color=INK, fill="#ffffff")
    d.text((C[0] + 20, C[1] + 8), "body i", SIZE, INK, "middle", bold=True)
    for s in (1, -1):
        J = on_ellipse(C, rx, ry, 35 * s)
        d.line(J, polar(J, 20 * s, 120), GREY)
        d.text(polar(J, 20 * s, 128), "k ∈ μ(i)" if s > 0 else "k", SIZE, GREY)
        d.circle(J, 9)
        d.line(polar(J, 80 * s, 80), polar(J, 80 * s, 14), ORANGE, arrow=True)
        d.text((J[0] + 30, J[1] - s * 86), "−Ad^*_{T_{i,k}^{−1}} F_k", color=ORANGE)
    d.axis(Ji, "S_i", (Ji[0] + 26, Ji[1] + 40))
    d.line(polar(Ji, 125, 90), polar(Ji, 125, 14), ORANGE, arrow=True)
    d.text((40, 150), "F_i (from λ(i))", color=ORANGE)
    d.line((350, 70), (368, 156), ORANGE, arrow=True)
    d.text((320, 62), "F_i^{ext}", color=ORANGE)
    d.arc(C, 52, 220, 120, BLUE)
    d.text((C[0] - 62, C[1] + 2), "V_i, V̇_i", SIZE, BLUE, "end")
    d.text((Ji[0] + 10, Ji[1] + 110), "τ_i = S_i^T F_i", anchor="middle")
    d.box(150, 440, 630, 56, ORANGE)
    d.text((465, 476), "F_i + F_i^{ext} − Σ_{k∈μ(i)} Ad^*_{T_{i,k}^{−1}} F_k"
           f"{EM}={EM}ℐ_i V̇_i − ad^*_{{V_i}} ℐ_i V_i", anchor="middle")
    return d


def ch5_passes():
    d = Drawing("ch5-rnea-passes", 560)
    d.box(10, 10, 780, 106, BLUE)
    d.text((24, 40), "outward pass, i = 1, …, N (base to tips)", color=BLUE, bold=True)
    d.text((560, 40), "writing T for T_{λ(i),i}", NOTE, BLUE)
    d.lines((24, 72), ["V_i = Ad_{T^{−1}} V_{λ(i)} + S_i q̇_i",
                       "V̇_i = Ad_{T^{−1}} V̇_{λ(i)} + ad_{V_i} S_i q̇_i "
                       "+ Ṡ_i q̇_i + S_i q̈_i"], 32)
    d.box(10, 440, 780, 110, ORANGE)
    d.text((24, 470), "inward pass, i = N, …, 1 (tips to base)", color=ORANGE,
           bold=True)
    d.lines((24, 502), ["F_i = ℐ_i V̇_i − ad^*_{V_i} ℐ_i V_i − F_i^{ext} "
                        "+ Σ_{k∈μ(i)} Ad^*_{T_{i,k}^{−1}} F_k",
                        "τ_i = S_i^T F_i"], 32)
    at = {0: (60, 278), 1: (240, 278), 2: (420, 278), 3: (660, 178), 4: (660, 378)}
    for i, lam in ((1, 0), (2, 1), (3, 2), (4, 2)):
        pass_arrows(d, at[lam], at[i], lam, i, flip=i == 4)
    for i, p in at.items():
        if i:
            d.circle(p, 20)
            d.text((p[0], p[1] + 6), str(i), SIZE, INK, "middle", bold=True)
    d.ground((at[0][0], at[0][1] + 2))
    d.text((at[0][0], at[0][1] + 40), "0", SIZE, INK, "middle", bold=True)
    return d


def pass_arrows(d, p, q, lam, i, flip=False):
    """The two arrows along the joint from body ``lam`` to body ``i``: what the parent
    passes out (blue, on the left seen from the parent, or on the right if ``flip``)
    and what the child passes in (orange, on the other side)."""
    angle = math.degrees(math.atan2(p[1] - q[1], q[0] - p[0]))
    side, gap, length = -90 if flip else 90, 38, math.dist(p, q)
    d.line(p, q, GREY)
    ends = (gap, length - gap)
    d.line(*[polar(polar(p, angle, s), angle + side, 11) for s in ends], BLUE,
           arrow=True)
    d.line(*[polar(polar(p, angle, s), angle - side, 11) for s in ends[::-1]], ORANGE,
           arrow=True)
    mid = polar(p, angle, length / 2)
    label = "V_0 = 0, V̇_0 = (0, −g)" if lam == 0 else f"V_{lam}, V̇_{lam}"
    d.text(polar(polar(mid, angle + side, 26), -90, 6), label,
           NOTE if lam == 0 else SIZE, BLUE, "middle")
    d.text(polar(polar(mid, angle - side, 26), -90, 6), f"F_{i}", SIZE, ORANGE,
           "middle")


# ------------------------------------------------------------------------ chapter 6
CH6_TREE = (None, 0, 1, 2, 3, 3, 1)   # bodies 3, 4, 5 form the subtree of joint 3


def ch6_crba(parent=CH6_TREE, i=3):
    d = Drawing("ch6-crba", 600)
    at = {0: (60, 318), 1: (190, 318), 2: (340, 318), 3: (500, 318), 4: (690, 236),
          5: (690, 400), 6: (250, 430)}
    path, sub = support(parent, i), [k for k in at if k and i in support(parent, k)]
    d.box(10, 10, 780, 112, GREEN)
    d.text((24, 40), "composite inertias, i = N, …, 1 (tips to base)", color=GREEN,
           bold=True)
    d.text((24, 78), "ℐ^c_i = ℐ_i + Σ_{k∈μ(i)} Ad^*_{T_{i,k}^{−1}} ℐ^c_k "
           "Ad_{T_{i,k}^{−1}}")
    d.text((24, 106), "the subtree of joint i locked into one rigid body", NOTE, GREEN)
    d.box(450, 168, 330, 294, GREEN, fill="#f6fbf8", dash=True, r=30)
    d.lines((466, 194), [f"subtree of {i}, locked:", f"one body, ℐ^c_{i}"], 22,
            size=NOTE, color=GREEN)
    for k in range(1, len(parent)):
        p, q = at[parent[k]], at[k]
        d.line(p, q, INK if k in path or k in sub else GREY)
        if k in sub and k != i:                       # the child's I^c comes inwards
            a = math.degrees(math.atan2(p[1] - q[1], q[0] - p[0]))
            s = 1 if q[1] < p[1] else -1              # on the outer side of the edge
            ends = [polar(polar(p, a, t), a + 90 * s, 13) for t in (166, 40)]
            d.line(*ends, GREEN, arrow=True)
            d.text(polar(polar(p, a, 104), a + 90 * s, 36), f"ℐ^c_{k}", SIZE, GREEN,
                   "middle")
    for j in path:                                    # F carried towards the root
        if parent[j] > 0:
            p, q = at[parent[j]], at[j]
            d.line((q[0] - 36, q[1] - 13), (p[0] + 36, p[1] - 13), ORANGE, arrow=True)
            d.text(((p[0] + q[0]) / 2, p[1] - 22), "Ad^*F", NOTE, ORANGE, "middle")
        d.text((at[j][0], at[j][1] - 50), f"M_{{{j}{i}}} = S_{j}^T F", SIZE, ORANGE,
               "middle")
    d.text((at[i][0], at[i][1] + 56), f"F = ℐ^c_{i} S_{i}", SIZE, ORANGE, "middle")
    for k, p in at.items():
        if k:
            color = INK if k in path or k in sub else GREY
            d.circle(p, 20, color)
            d.text((p[0], p[1] + 6), str(k), SIZE, color, "middle", bold=True)
    d.ground((at[0][0], at[0][1] + 2))
    d.text((at[0][0], at[0][1] + 40), "0", SIZE, INK, "middle", bold=True)
    d.lines((at[6][0] - 32, at[6][1] - 6), [f"M_{{6{i}}} = 0: body 6 is not",
                                             f"on the path from {i} to 0"],
            20, size=NOTE, color=GREY, anchor="end")
    d.box(10, 480, 780, 110, ORANGE)
    d.text((24, 510), f"column i of M (here i = {i}), walking to the root",
           color=ORANGE, bold=True)
    d.lines((24, 544), [f"F = ℐ^c_i S_i,{EM}M_{{ii}} = S_i^T F",
                        f"then for j = i, λ(i), … while λ(j) > 0:{EM}"
                        f"F ← Ad^*_{{T_{{λ(j),j}}^{{−1}}}} F,{EM}"
                        "M_{λ(j),i} = S_{λ(j)}^T F"], 32)
    return d


# ------------------------------------------------------------------------ chapter 7
def ch7_articulated():
    d = Drawing("ch7-articulated-body", 510)
    C, rx, ry = (340, 200), 130, 64
    Ji = (C[0] - rx, C[1])
    d.box(182, 30, 600, 320, GREEN, fill="#f6fbf8", dash=True, r=40)
    d.lines((770, 194), ["articulated body i", "= subtree(i),", "its joints free"], 20,
            size=NOTE, color=GREEN, anchor="end")
    d.line((40, 240), Ji, GREY)
    d.text((60, 220), "λ(i)", SIZE, GREY, "middle")
    d.body(C, rx, ry, color=INK, fill="#ffffff")
    d.lines((C[0] + 10, C[1] - 4), ["body i", "(the handle)"], 22, anchor="middle")
    for s in (1, -1):
        child(d, on_ellipse(C, rx, ry, 40 * s), s)
    d.axis(Ji, "S_i", (Ji[0] + 30, Ji[1] + 6))
    d.line((Ji[0] - 8, Ji[1] + 22), (70, 300), GREEN, arrow=True)
    d.lines((20, 328), ["Π_i, β_i", "to λ(i)"], 24, color=GREEN)
    d.line((110, 120), (Ji[0] - 8, Ji[1] - 12), ORANGE, arrow=True)
    d.text((20, 104), "F_i = Î_i V̇_i + B̂_i", color=ORANGE)
    d.box(10, 370, 780, 130, GREEN)
    d.lines((24, 406), [f"Î_i = ℐ_i + Σ_{{k∈μ(i)}} A_k^T Π_k A_k,{EM}"
                        "B̂_i = −ad^*_{V_i} ℐ_i V_i − F_i^{ext} + Σ_{k∈μ(i)} A_k^T β_k",
                        f"Π_i = Î_i − Î_i S_i Ψ_i S_i^T Î_i,{EM}"
                        f"Ψ_i = (S_i^T Î_i S_i)^{{−1}},{EM}"
                        "A_i = Ad_{T^{−1}_{λ(i),i}}",
                        "Π_i S_i = 0: the free joint i gives way along S_i"], 36)
    return d


def child(d, J, s):
    """Child k of body i at joint J (above the handle if s = 1, below if s = -1): its
    link, the rest of its subtree, and the arrow of what it passes to body i."""
    d.body(polar(J, 25 * s, 85), 85, 22, 25 * s)
    d.text(polar(J, 25 * s, 85), "k", SIZE, INK, "middle")
    tip = polar(J, 25 * s, 170)
    d.line(tip, polar(tip, -10 * s, 80), GREY)
    d.circle(tip, 8)
    d.circle(J, 9)
    side = 115 * s
    d.line(polar(polar(J, 25 * s, 110), side, 28), polar(polar(J, 25 * s, 8), side, 28),
           GREEN, arrow=True)
    d.text(polar(polar(J, 25 * s, 70), side, 50 if s > 0 else 64), "Π_k, β_k", SIZE,
           GREEN, "middle")


# ------------------------------------------------------------------------ chapter 8
def ch8_hybrid_split():
    d = Drawing("ch8-hybrid-split", 590)
    C, rx, ry = (400, 82), 120, 38
    d.line((C[0], C[1] - ry), (C[0], 10), GREY)
    d.text((C[0] + 12, 24), "to the parent of λ", NOTE, GREY)
    d.body(C, rx, ry, color=INK, fill="#ffffff")
    d.text((C[0], C[1] + 7), "body λ", SIZE, INK, "middle", bold=True)
    for s, kind in ((-1, "u"), (1, "v")):
        hybrid_child(d, on_ellipse(C, rx, ry, 270 + 55 * s), s, kind)
    for y, color, kind, given, note in (
            (326, BLUE, "u", ("prescribed joint, k ∈ u: q̈_k given, τ_k computed",
                              f"passes Π_k = Î_k,{EM}β_k = B̂_k + Î_k(η_k + S_k q̈_k)"),
             "the whole articulated body, as through a rigid joint"),
            (422, ORANGE, "v", ("torque-given joint, k ∈ v: τ_k given, q̈_k computed",
                                f"passes Π_k = Î_k − Î_k S_k Ψ_k S_k^T Î_k,{EM}"
                                "Π_k S_k = 0"),
             "the joint gives way along S_k: λ feels no inertia along it, as in the ABA")):
        d.box(10, y, 780, 86, color)
        joint_mark(d, (34, y + 23), kind)
        d.text((56, y + 29), given[0], SIZE, color, bold=True)
        d.text((56, y + 56), given[1], SIZE, GREEN)
        d.text((56, y + 78), note, NOTE)
    d.text((400, 560), "body λ adds both kinds alike: "
           "Î_λ = ℐ_λ + Σ_{k∈μ(λ)} A_k^T Π_k A_k,"
           f"{EM}B̂_λ = … + Σ_{{k∈μ(λ)}} A_k^T β_k", SIZE, INK, "middle")
    return d


def joint_mark(d, p, kind):
    """A joint of kind ``u`` (prescribed: a blue square) or ``v`` (torque given: an
    orange circle)."""
    if kind == "u":
        d.box(p[0] - 10, p[1] - 10, 20, 20, BLUE, r=2)
        d.circle(p, 3, BLUE, fill=BLUE)
    else:
        d.circle(p, 10, ORANGE, fill=TINT[ORANGE])
        d.circle(p, 3, ORANGE, fill=ORANGE)


def hybrid_child(d, J, s, kind):
    """Child k of body λ at joint J, on the left (s = -1) or the right (s = 1): its
    link, a grandchild on a joint of the other kind, the dashed outline of its
    articulated body, the arrow of what it passes to λ, and what its joint is given."""
    angle = 270 + 45 * s                     # down and outwards
    E = polar(J, angle, 130)
    F = polar(E, 270, 66)
    xs = (min(J[0], E[0]) - 42, max(J[0], E[0]) + 42)
    d.box(xs[0], J[1] + 12, xs[1] - xs[0], F[1] - J[1] + 12, GREEN, fill="none",
          dash=True, r=24)
    d.body(polar(J, angle, 65), 65, 20, angle)
    d.text(polar(J, angle, 65), "k", SIZE, INK, "middle")
    d.line(E, F, GREY)
    d.circle(F, 5, GREY, fill=GREY)
    joint_mark(d, E, "v" if kind == "u" else "u")
    joint_mark(d, J, kind)
    d.text((xs[0] - 8 if s < 0 else xs[1] + 8, F[1] + 12), "articulated", NOTE, GREEN,
           "end" if s < 0 else "start")
    d.text((xs[0] - 8 if s < 0 else xs[1] + 8, F[1] + 32), "body k", NOTE, GREEN,
           "end" if s < 0 else "start")
    inner = angle - 90 * s
    d.line(polar(polar(J, angle, 112), inner, 24), polar(polar(J, angle, 16), inner, 24),
           GREEN, arrow=True)
    d.text(polar(polar(J, angle, 92), inner, 58), "Π_k, β_k", SIZE, GREEN, "middle")
    color, anchor = (BLUE if kind == "u" else ORANGE), ("end" if s < 0 else "start")
    at = (J[0] + 40 * s, J[1] - 52)
    d.text(at, f"k ∈ {kind}", SIZE, color, anchor, bold=True)
    lines = (("q̈_k given", BLUE), ("τ_k computed", ORANGE)) if kind == "u" \
        else (("τ_k given", ORANGE), ("q̈_k computed", BLUE))
    for n, (text, c) in enumerate(lines):
        d.text((at[0], at[1] + 22 * (n + 1)), text, NOTE, c, anchor)


# ------------------------------------------------------------------------ chapter 9
def ch9_cut_loop():
    d = Drawing("ch9-cut-loop", 480)
    O, D = (80, 420), (480, 420)                            # the two ground pivots
    B = polar(O, 75, 150)                                   # joint 2, crank to coupler
    a = polar(B, 5, 195)                                    # the coupler's tip: {a}
    b = polar(D, 100, 150)                                  # the rocker's tip: {b}
    for start, end, label, at in ((O, B, "1 crank", (150, 380)),
                                  (B, a, "2 coupler", (200, 240)),
                                  (D, b, "3 rocker", (540, 350))):
        angle = math.degrees(math.atan2(start[1] - end[1], end[0] - start[0]))
        e = [polar(start, angle + s, 12) for s in (90, -90)]
        f = [polar(end, angle + s, 12) for s in (90, -90)]
        d.outline(f"M{_xy(e[0])} L{_xy(f[0])} L{_xy(f[1])} L{_xy(e[1])} z")
        d.text(at, label, SIZE, INK, "middle", bold=True)
    for p in (O, D):
        d.ground((p[0], p[1] + 22), 60)
        d.line((p[0], p[1] + 10), (p[0], p[1] + 22))
        d.text((p[0] + 46, p[1] + 30), "0", SIZE, INK, "middle", bold=True)
    for p in (O, B, D):
        d.circle(p, 9)
    coupler = math.degrees(math.atan2(B[1] - a[1], a[0] - B[0]))
    rocker = math.degrees(math.atan2(D[1] - b[1], b[0] - D[0]))
    d.frame(a, coupler, "{a}", polar(a, -40, 40), length=44)
    d.frame(b, rocker, "{b}", polar(b, -20, 46), length=44)
    top = ((a[0] + b[0]) / 2, min(a[1], b[1]) - 95)
    d.curve(polar(a, 60, 12), top, polar(b, 120, 12), dash=True)
    d.text((top[0], top[1] + 30), "T_{ab}", SIZE, INK, "middle")
    for p, toward, label, anchor in ((b, 55, "P^Tλ", "start"),
                                     (a, 235, "−Ad^*_{T_{ba}} P^Tλ", "end")):
        d.line(polar(p, toward, 86), polar(p, toward, 12), ORANGE, arrow=True)
        d.text(polar(p, toward, 98), label, SIZE, ORANGE, anchor)
    d.lines((24, 36), ["the joint between coupler and rocker, cut open:",
                       "f(q) = 0 asks T_{ab} = 1 in the constrained directions",
                       "(four-bar: the origins meet, the turn stays free)"], 24,
            size=NOTE)
    at = {0: (700, 420), 1: (640, 320), 2: (640, 200), 3: (765, 280)}
    for i, j in ((0, 1), (1, 2), (0, 3)):
        d.line(at[i], at[j], GREY)
    d.line(at[2], at[3], ORANGE, dash=True)
    d.text(((at[2][0] + at[3][0]) / 2 + 10, (at[2][1] + at[3][1]) / 2 - 14), "cut",
           NOTE, ORANGE, "middle")
    for i, p in at.items():
        if i:
            d.circle(p, 19)
            d.text((p[0], p[1] + 6), str(i), SIZE, INK, "middle", bold=True)
    x0, y0 = at[0]
    d.box(x0 - 17, y0 - 17, 34, 34, INK, fill=INK, r=3)
    d.text((x0, y0 + 6), "0", SIZE, "#ffffff", "middle", bold=True)
    d.lines((610, 120), ["the tree that", "remains: 0-1-2, 0-3"], 22, size=NOTE)
    return d

# ------------------------------------------------------------------------ chapter 10
def ch10_derivative_chain():
    d = Drawing("ch10-derivative-chain", 540)
    d.box(10, 10, 780, 112, BLUE)
    d.text((24, 40), "outward pass, i = 1, …, N: the twists' derivatives", color=BLUE,
           bold=True)
    d.text((560, 40), "writing A_i for Ad_{T^{−1}_{λ(i),i}}", NOTE, BLUE)
    d.lines((24, 74), ["V_i′ = A_i V_{λ(i)}′ − ad_{h_i′} A_i V_{λ(i)} + …",
                       "V̇_i′ = A_i V̇_{λ(i)}′ − ad_{h_i′} A_i V̇_{λ(i)} + …"], 32)
    d.box(10, 416, 780, 112, ORANGE)
    d.text((24, 446), "inward pass, i = N, …, 1: the wrenches' derivatives",
           color=ORANGE, bold=True)
    d.lines((24, 480), ["F_i′ = ℐ_i V̇_i′ − … + Σ_{k∈μ(i)} A_k^T (F_k′ − "
                        "ad^*_{h_k′} F_k)", "τ_i′ = S_i^T F_i′ + …"], 32)
    d.lines((400, 160), ["along p = q_2 only joint 2 turns, h_2′ = S_2:",
                         f"A_2′ = −ad_{{S_2}} A_2,{EM}(A_2^T)′ = −A_2^T ad^*_{{S_2}}"],
            28, anchor="middle")
    at = {0: (50, 318), 1: (180, 318), 2: (460, 318), 3: (610, 318), 4: (745, 318)}
    labels = {1: (["0"], "F_1′"),
              2: (["−ad_{S_2} A_2 V_1", "−ad_{S_2} A_2 V̇_1"],
                  "A_2^T (F_2′ − ad^*_{S_2} F_2)"),
              3: (["V_2′, V̇_2′"], "F_3′"), 4: (["V_3′, V̇_3′"], "F_4′")}
    for i, (out, back) in labels.items():
        p, q = at[i - 1], at[i]
        d.line(p, q, BLUE if i == 2 else GREY)
        gap = 36
        d.line((p[0] + gap, p[1] - 11), (q[0] - gap, q[1] - 11), BLUE, arrow=True)
        d.line((q[0] - gap, q[1] + 11), (p[0] + gap, p[1] + 11), ORANGE, arrow=True)
        mid = (p[0] + q[0]) / 2
        for k, line in enumerate(reversed(out)):
            d.text((mid, p[1] - 26 - 26 * k), line, SIZE, BLUE, "middle")
        d.text((mid, p[1] + 44), back, SIZE, ORANGE, "middle")
    for i, p in at.items():
        if i:
            d.circle(p, 20)
            d.text((p[0], p[1] + 6), str(i), SIZE, INK, "middle", bold=True)
    d.ground((at[0][0], at[0][1] + 2))
    d.text((at[0][0], at[0][1] + 40), "0", SIZE, INK, "middle", bold=True)
    d.text(((at[1][0] + at[2][0]) / 2, at[2][1] - 80), "joint 2", NOTE, BLUE, "middle")
    return d


# ------------------------------------------------------------------------ chapter 11
URDF_ELEMENTS = (  # (kind, name, attributes) of the chapter's two-joint arm, in file order
    ("link", "base", "no <inertial>"), ("joint", "shoulder", "revolute: <origin>, <axis>"),
    ("link", "upper", "<inertial>: origin, mass, inertia"),
    ("joint", "elbow", "revolute: <origin>, <axis>"),
    ("link", "fore", "<inertial>: origin, mass, inertia"),
    ("joint", "tool\\_mount", "fixed: <origin>"),
    ("link", "tool", "<inertial>: origin, mass, inertia"))


def ch11_urdf():
    d = Drawing("ch11-urdf-to-model", 600)
    d.text((20, 30), "the URDF file", NOTE, INK, bold=True)
    d.text((470, 30), "Kim's model (liedyn)", NOTE, INK, bold=True)
    at = {}
    for k, (kind, name, attrs) in enumerate(URDF_ELEMENTS):
        y = 48 + 76 * k
        color = GREEN if kind == "link" and attrs.startswith("<inertial>") else \
            BLUE if kind == "joint" and attrs.startswith("revolute") else GREY
        d.box(20 if kind == "link" else 44, y, 300 if kind == "link" else 276, 60,
              color, r=6)
        d.text((32 if kind == "link" else 56, y + 24), f"<{kind} {name}>", NOTE, INK,
               bold=True)
        d.text((32 if kind == "link" else 56, y + 48), attrs, NOTE, INK)
        at[name] = (320, y + 30)
    d.box(470, 48, 318, 60, GREY, r=6)
    d.text((484, 72), "body 0: the ground", NOTE, INK, bold=True)
    d.text((484, 96), "a root link without a joint", NOTE)
    for y, i, name, joint, link, extra in (
            (134, 1, "upper", "shoulder", "upper", []),
            (338, 2, "fore", "elbow", "fore",
             ["+ Ad^*_{T_{ℓb}} ℐ_{tool} Ad_{T_{ℓb}} (Kim's eq. (21))",
              "tool frame T_{bℓ}: link\\_frames[\"tool\"]"])):
        h = 176 if extra else 128
        d.box(470, y, 318, h, INK, r=6)
        d.text((484, y + 26), f"body {i}: \"{name}\"", NOTE, INK, bold=True)
        rows = [(f"X_{i}: the joint's <origin>", BLUE),
                (f"Φ_{i}(q_{i}): a turn about the <axis>", BLUE),
                (f"ℐ_{i}: Kim's eq. (22) from <inertial>", GREEN)]
        rows += [(text, GREEN) for text in extra]
        for n, (text, color) in enumerate(rows):
            d.text((484, y + 54 + 26 * n), text, NOTE, color)
        d.line(at[joint], (468, y + 62), BLUE, arrow=True)
        d.line(at[link], (468, y + 106), GREEN, arrow=True)
    d.line(at["base"], (468, 78), GREY, arrow=True)
    d.line(at["tool"], (468, 470), GREEN, arrow=True, dash=True)
    d.line(at["tool\\_mount"], (468, 492), GREY, arrow=True, dash=True)
    d.lines((470, 540), ["a fixed joint makes no body: the welded",
                         "link's inertia joins its parent's, and",
                         "its frame is kept"], 21, size=NOTE, color=GREEN)
    return d


# ------------------------------------------------------------------------ chapter 12
def ch12_control_loop():
    d = Drawing("ch12-control-loop", 380)
    boxes = {"reference": (10, 50, 132, 110), "error": (168, 50, 136, 110),
             "controller": (332, 30, 308, 150), "robot": (672, 30, 118, 150),
             "model": (332, 222, 308, 80)}
    for name, (x, y, w, h) in boxes.items():
        d.box(x, y, w, h, GREEN if name == "model" else INK, r=8)
    d.text((76, 82), "reference", NOTE, INK, "middle", bold=True)
    d.lines((76, 112), ["q_d(t), q̇_d(t),", "q̈_d(t)"], 24, size=NOTE, color=BLUE,
            anchor="middle")
    d.text((236, 82), "tracking error", NOTE, INK, "middle", bold=True)
    d.lines((236, 112), ["e = q − q_d", "ė = q̇ − q̇_d"], 24, anchor="middle")
    d.text((486, 58), "controller: computed torque", NOTE, INK, "middle", bold=True)
    d.lines((486, 90), ["a = q̈_d − K_d ė − K_p e", "τ = M(q) a + C(q, q̇) q̇ + g(q)",
                        "= rnea(q, q̇, a)"], 28, anchor="middle")
    d.text((731, 58), "robot", NOTE, INK, "middle", bold=True)
    d.lines((731, 90), ["q̈ =", "aba(q, q̇, τ),", "integrated"], 24, size=NOTE,
            anchor="middle")
    d.text((486, 252), "the model", NOTE, GREEN, "middle", bold=True)
    d.text((486, 280), "M(q), C(q, q̇) q̇ + g(q): one RNEA call", NOTE, GREEN, "middle")
    d.line((142, 105), (166, 105), BLUE, arrow=True)
    d.line((304, 105), (330, 105), BLUE, arrow=True)
    d.line((640, 105), (670, 105), ORANGE, arrow=True)
    d.text((655, 94), "τ", SIZE, ORANGE, "middle")
    d.line((486, 222), (486, 182), GREEN, arrow=True)
    d.items.append(f'<path d="M731,180 L731,340 L236,340 L236,162" fill="none" '
                   f'{d._stroke(BLUE, False, True)}/>')
    d.line((600, 340), (600, 304), BLUE, arrow=True)
    d.circle((600, 340), 4, BLUE, fill=BLUE)
    d.text((470, 364), "(q, q̇) measured, fed back", NOTE, BLUE, "middle")
    d.lines((14, 212), ["with an exact model", "the error obeys",
                        "ë + K_d ė + K_p e = 0,", "whatever the arm"], 24, size=NOTE)
    return d


# ------------------------------------------------------------------------ the running example
def two_link_arm():
    d = Drawing("two-link-arm", 470)
    O, q1, q2, l1, l2, r = (110, 400), 30, 45, 300, 230, (130, 120)
    E = polar(O, q1, l1)                                       # the elbow, joint 2
    for start, angle, length in ((O, q1, l1 + 20), (E, q1 + q2, l2)):
        a, b = polar(start, angle + 90, 13), polar(start, angle - 90, 13)
        e = polar(start, angle, length)
        d.outline(f"M{_xy(a)} L{_xy(polar(e, angle + 90, 13))} "
                  f"L{_xy(polar(e, angle - 90, 13))} L{_xy(b)} z")
    d.ground((O[0], O[1] + 22), 70)
    d.line((O[0], O[1] + 10), (O[0], O[1] + 22))
    d.frame(O, 0, "{0}", (O[0] - 40, O[1] + 50), GREY, dash=True, length=110)
    d.frame(O, q1, "{1}", polar(O, 150, 64), BLUE, length=80)
    d.frame(E, q1 + q2, "{2}", polar(E, 135, 62), BLUE, length=80)
    d.axis(O, "", O)
    d.axis(E, "", E)
    d.arc(O, 230, 0, q1, BLUE)
    d.text(polar(O, q1 / 2, 250), "q_1", SIZE, BLUE, "middle")
    d.line(E, polar(E, q1, 190), GREY, dash=True)
    d.arc(E, 170, q1, q1 + q2, BLUE)
    d.text(polar(E, q1 + q2 / 2, 190), "q_2", SIZE, BLUE, "middle")
    dims = ((O, q1, r[0], 34, "r_1"), (O, q1, l1, 64, "l_1"),
            (E, q1 + q2, r[1], -34, "r_2"))
    for start, angle, length, off, label in dims:
        ends = [polar(polar(start, angle, s), angle + 90, off) for s in (0, length)]
        d.line(*ends, GREY)
        for e in ends:
            d.line(polar(e, angle + 90, 6), polar(e, angle - 90, 6), GREY)
        at = polar(polar(start, angle, length / 2), angle + 90, off + (16 if off > 0
                                                                       else -20))
        d.text((at[0], at[1] + 6), label, SIZE, GREY, "middle")
    for start, angle, k, side in ((O, q1, 1, -90), (E, q1 + q2, 2, 90)):
        c = polar(start, angle, r[k - 1])
        d.circle(c, 8, GREEN, fill=GREEN)
        d.text(polar(c, angle + side, 34), f"m_{k}, I_{k}", SIZE, GREEN, "middle")
    d.line((720, 300), (720, 420), INK, arrow=True)
    d.text((736, 372), "g", SIZE, INK)
    d.lines((520, 40), ["{i} at joint i: x along link i,", "z out of the page (the axis);",
                        "gravity along −y of {0}"], 24, size=NOTE)
    return d


# ------------------------------------------------------------------------ intro
CHAPTERS = {1: ("Rigid-body motion", "SE(3), twists, wrenches, Ad"),
            2: ("Rigid-body dynamics", "inertia, Newton-Euler"),
            3: ("Lagrangian mechanics", "optional on a first reading"),
            4: ("Multibody models", "trees, joints, S_i, kinematics"),
            5: ("Inverse dynamics", "RNEA (Kim's Table 2)"),
            6: ("Equations of motion", "M(q), b(q, q̇), CRBA"),
            7: ("Forward dynamics", "ABA (Table 3), simulation"),
            8: ("Hybrid dynamics", "Table 4"),
            9: ("Constrained systems", "closed loops"),
            10: ("Derivatives", "Tables 5-7"),
            11: ("Real robots", "URDF, Pinocchio"),
            12: ("Control", "computed torque, PD, OSC")}
# what each chapter assumes (its opening), less what its prerequisites assume
NEEDS = {2: [1], 3: [2], 4: [1], 5: [2, 4], 6: [5], 7: [6], 8: [7], 9: [8], 10: [8],
         11: [7], 12: [11]}
OPTIONAL = {3: 6}                            # chapter 6's closed form uses chapter 3
PLACE = {1: (400, 44), 2: (265, 124), 4: (545, 124), 3: (135, 204), 5: (400, 204),
         6: (400, 284), 7: (400, 364), 8: (265, 444), 11: (610, 444), 9: (135, 524),
         10: (400, 524), 12: (660, 524)}
W, H = 250, 56                               # a chapter's box


def intro_map():
    d = Drawing("intro-chapter-map", 620)
    for b, needs in NEEDS.items():
        for a in needs:
            (xa, ya), (xb, yb) = PLACE[a], PLACE[b]
            lean = max(-W / 4, min(W / 4, (xb - xa) / 2))
            d.line((xa + lean, ya + H / 2), (xb - lean, yb - H / 2 - 1), arrow=True)
    for a, b in OPTIONAL.items():
        d.curve((PLACE[a][0], PLACE[a][1] + H / 2), (PLACE[a][0], PLACE[b][1]),
                (PLACE[b][0] - W / 2 - 2, PLACE[b][1]), GREY, dash=True)
    for n, (x, y) in PLACE.items():
        title, what = CHAPTERS[n]
        color = GREY if n in OPTIONAL else BLUE
        d.box(x - W / 2, y - H / 2, W, H, color, dash=n in OPTIONAL, r=8)
        d.text((x, y - 5), f"{n}{EM}{title}", 16, INK, "middle", bold=True)
        d.text((x, y + 17), what, MIN_SIZE, GREY if n in OPTIONAL else INK, "middle")
    d.box(580, 176, 206, 172, GREY, r=8)
    d.text((596, 204), "Appendices", bold=True)
    d.lines((596, 232), ["for reference from", "any chapter: notation,",
                         "glossary, errata,", "equation map, API,",
                         "errors, bibliography"], 24, size=NOTE)
    d.text((20, 600), "An arrow leads from a chapter to one that builds on it; "
           "dashed: used, but optional.", NOTE, GREY)
    return d


# ------------------------------------------------------------------------ the texts
TITLE = {"ch1-twists": "Body twist and spatial twist of a moving frame",
         "ch1-wrench": "One wrench seen from two frames",
         "ch2-generalized-inertia": "The generalized inertia as the kinetic energy of a "
                                    "body seen from a frame away from its centre of "
                                    "mass",
         "ch3-quasi-velocities": "Quasi-velocities: a chart re-centred on the group at "
                                 "every instant, and the chain from Lagrange's "
                                 "equations to Newton-Euler",
         "ch4-joint-frames": "The joint transform as a chain of frames",
         "ch4-tree": "A tree of eight bodies, numbered from the ground",
         "ch4-body-jacobian": "The two columns of the two-link arm's body Jacobian",
         "ch5-free-body": "Free-body diagram of link i",
         "ch5-rnea-passes": "The two passes of the recursive Newton-Euler algorithm",
         "ch6-crba": "The composite-rigid-body algorithm: one column of the mass matrix",
         "ch7-articulated-body": "The articulated body i and what it passes on",
         "ch8-hybrid-split": "Hybrid dynamics: what a prescribed joint and a "
                             "torque-given joint pass on to their parent",
         "ch9-cut-loop": "A closed loop cut open into a tree, with the two frames and the "
                         "constraint wrench at the cut",
         "ch10-derivative-chain": "Table 5 along one joint coordinate: where -ad_S enters "
                                  "the outward pass and where its transpose comes back",
         "ch11-urdf-to-model": "From the links and joints of a URDF file to the bodies, "
                               "placements, joint motions and inertias of Kim's model",
         "ch12-control-loop": "The control loop of computed torque: reference, error, "
                              "controller with the model, robot, feedback",
         "intro-chapter-map": "Map of the chapters",
         "two-link-arm": "The two-link arm of the worked examples"}
DIRECTIVE = re.compile(r"^:::\{figure\} figures/(?P<name>[\w-]+)\.svg\n"
                       r"(?:^:(?!alt:).*\n)*^:alt: (?P<alt>.+)$", re.M)


@functools.cache
def alt_texts():
    """The ``:alt:`` text of each figure directive of the book, by file name: the
    description of the picture is written once, in the chapter that shows it."""
    book = OUT.parent
    texts = [(book / "intro.md").read_text(encoding="utf-8")]
    for path in sorted(book.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return {m["name"]: m["alt"].strip() for t in texts for m in DIRECTIVE.finditer(t)}


FIGURES = [ch1_twists, ch1_wrench, ch2_inertia, ch3_quasi_velocities, ch4_joint, ch4_tree,
           ch4_body_jacobian, ch5_free_body, ch5_passes, ch6_crba, ch7_articulated,
           ch8_hybrid_split, ch9_cut_loop,
           ch10_derivative_chain, ch11_urdf, ch12_control_loop, two_link_arm, intro_map]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for draw in FIGURES:
        d = draw()
        (OUT / f"{d.name}.svg").write_text(d.svg(), encoding="utf-8")
        print(f"wrote book/figures/{d.name}.svg")


if __name__ == "__main__":
    main()
