#!/usr/bin/env python3
"""Render a terminal capture with colours (`tmux capture-pane -e -p`) to a PNG.

Usage: ansi_to_png.py CAPTURE.ansi OUT.png
Needs ImageMagick (`convert`) and the DejaVu Sans Mono font; nothing else.
Understands what tmux writes: SGR 0/1/2/3/4/7/22/23/24/27, 30-37/90-97, 38;5;N,
38;2;R;G;B, 39, and the same for backgrounds.
"""
import re
import subprocess
import sys

SIZE = 16                       # font size in pixels
CELL_W, CELL_H = 10, 20         # one terminal cell
FONT = "DejaVu-Sans-Mono"
FONT_BOLD = "DejaVu-Sans-Mono-Bold"
# The real ImageMagick (some machines put a stand-in earlier on PATH).
CONVERT = "/usr/bin/convert" if __import__("os").path.exists("/usr/bin/convert") else "convert"
DEFAULT_FG, DEFAULT_BG = (0xD0, 0xD0, 0xD0), (0x1C, 0x1C, 0x1C)
BASE16 = [
    (0x00, 0x00, 0x00), (0xCD, 0x31, 0x31), (0x0D, 0xBC, 0x79), (0xE5, 0xE5, 0x10),
    (0x24, 0x72, 0xC8), (0xBC, 0x3F, 0xBC), (0x11, 0xA8, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x66, 0x66, 0x66), (0xF1, 0x4C, 0x4C), (0x23, 0xD1, 0x8B), (0xF5, 0xF5, 0x43),
    (0x3B, 0x8E, 0xEA), (0xD6, 0x70, 0xD6), (0x29, 0xB8, 0xDB), (0xFF, 0xFF, 0xFF),
]


def palette(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    grey = 8 + (n - 232) * 10
    return (grey, grey, grey)


def parse(text):
    """Rows of cells: (char, fg, bg, bold)."""
    rows = []
    state = {"fg": None, "bg": None, "bold": False, "reverse": False}
    for line in text.split("\n"):
        cells = []
        for token in re.split(r"(\x1b\[[0-9;]*m)", line):
            if token.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in token[2:-1].split(";")]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        state = {"fg": None, "bg": None, "bold": False, "reverse": False}
                    elif c == 1:
                        state["bold"] = True
                    elif c == 22:
                        state["bold"] = False
                    elif c == 7:
                        state["reverse"] = True
                    elif c == 27:
                        state["reverse"] = False
                    elif 30 <= c <= 37 or 90 <= c <= 97:
                        state["fg"] = palette(c - 30 if c < 90 else c - 82)
                    elif 40 <= c <= 47 or 100 <= c <= 107:
                        state["bg"] = palette(c - 40 if c < 100 else c - 92)
                    elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                        state["fg" if c == 38 else "bg"] = palette(codes[i + 2])
                        i += 2
                    elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
                        state["fg" if c == 38 else "bg"] = tuple(codes[i + 2:i + 5])
                        i += 4
                    elif c == 39:
                        state["fg"] = None
                    elif c == 49:
                        state["bg"] = None
                    i += 1
                continue
            for ch in token:
                fg = state["fg"] or DEFAULT_FG
                bg = state["bg"] or DEFAULT_BG
                if state["reverse"]:
                    fg, bg = bg, fg
                cells.append((ch, fg, bg, state["bold"]))
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


# Box-drawing characters as lines from the cell's centre (left, right, up, down):
# the font's own glyphs come out shorter than a cell and leave gaps.
BOX = {
    "─": "lr", "│": "ud", "┌": "rd", "┐": "ld", "└": "ru", "┘": "lu",
    "├": "udr", "┤": "udl", "┬": "lrd", "┴": "lru", "┼": "lrud",
}


def box_lines(ch, x, y, fg):
    cx, cy = x * CELL_W + CELL_W // 2, y * CELL_H + CELL_H // 2
    ends = {"l": (x * CELL_W, cy), "r": (x * CELL_W + CELL_W, cy),
            "u": (cx, y * CELL_H), "d": (cx, y * CELL_H + CELL_H)}
    return [f"stroke {hexc(fg)} stroke-width 1 line {cx},{cy} {ex},{ey} stroke none"
            for ex, ey in (ends[side] for side in BOX[ch])]


def hexc(rgb):
    return "#%02x%02x%02x" % rgb


def mvg(rows, width):
    out = [f"viewbox 0 0 {width * CELL_W} {len(rows) * CELL_H}",
           f"fill {hexc(DEFAULT_BG)} rectangle 0,0 {width * CELL_W},{len(rows) * CELL_H}",
           f"font-size {SIZE}"]
    for y, row in enumerate(rows):
        for x, (ch, fg, bg, bold) in enumerate(row):
            if bg != DEFAULT_BG:
                out.append(f"fill {hexc(bg)} rectangle {x * CELL_W},{y * CELL_H} "
                           f"{(x + 1) * CELL_W - 1},{(y + 1) * CELL_H - 1}")
            if ch in BOX:
                out.extend(box_lines(ch, x, y, fg))
            elif ch != " ":
                escaped = ch.replace("\\", "\\\\").replace("'", "\\'")
                out.append(f"font {FONT_BOLD if bold else FONT} fill {hexc(fg)} "
                           f"text {x * CELL_W},{y * CELL_H + SIZE - 1} '{escaped}'")
    return "\n".join(out) + "\n"


def main():
    capture, png = sys.argv[1], sys.argv[2]
    with open(capture, encoding="utf-8") as f:
        rows = parse(f.read())
    width = max(len(r) for r in rows)
    script = mvg(rows, width)
    subprocess.run([CONVERT, "-size", f"{width * CELL_W}x{len(rows) * CELL_H}",
                    "mvg:-", png], input=script.encode("utf-8"), check=True)


if __name__ == "__main__":
    main()
