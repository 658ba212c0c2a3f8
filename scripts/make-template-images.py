#!/usr/bin/env python3
"""Generate the PNG images of the templates in PassTemplates/ and OrderTemplates/.

Every image is drawn in points and rendered at @1x, @2x and @3x with exact
pixel sizes (points x scale), 8-bit RGBA, optimized. The output is
deterministic: no randomness without a fixed seed, no timestamps, no metadata.

Requirements: Pillow (`pip install pillow`) and the DejaVu fonts
(`apt-get install fonts-dejavu-core`, or set TESSERA_FONT / TESSERA_FONT_REGULAR
to TTF files).

Order templates (OrderTemplates/) get one image per file, at the pixel size
given: order.json names each image by its file name, with no @2x/@3x variants.

Usage:  python3 scripts/make-template-images.py [--out PassTemplates] [--orders-out OrderTemplates]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SCALES = (1, 2, 3)
SUPERSAMPLE = 4  # draw at 4x the target size, then downsample (anti-aliasing)

# Sizes in points, from Apple's Wallet image guidelines.
SIZES = {
    "icon": (29, 29),
    "logo": (160, 50),
    "footer": (286, 15),
    "strip": (375, 144),
    "background": (180, 220),
    "thumbnail": (90, 90),
}

FONT_CANDIDATES_BOLD = [
    os.environ.get("TESSERA_FONT", ""),
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/Library/Fonts/DejaVuSans-Bold.ttf",
]
FONT_CANDIDATES_REGULAR = [
    os.environ.get("TESSERA_FONT_REGULAR", ""),
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
]


def find_font(candidates: list[str]) -> str:
    for path in candidates:
        if path and Path(path).is_file():
            return path
    sys.exit("error: DejaVu fonts not found; apt-get install fonts-dejavu-core or set TESSERA_FONT")


FONT_BOLD = find_font(FONT_CANDIDATES_BOLD)
FONT_REGULAR = find_font(FONT_CANDIDATES_REGULAR)


# --------------------------------------------------------------------------
# Canvas: coordinates in points, rendered at scale x SUPERSAMPLE
# --------------------------------------------------------------------------

class Canvas:
    def __init__(self, size_pt: tuple[int, int], scale: int, fill=(0, 0, 0, 0)):
        self.w_pt, self.h_pt = size_pt
        self.scale = scale
        self.k = scale * SUPERSAMPLE
        self.img = Image.new("RGBA", (self.w_pt * self.k, self.h_pt * self.k), fill)

    # conversion helpers
    def p(self, x: float, y: float) -> tuple[int, int]:
        return (round(x * self.k), round(y * self.k))

    def box(self, x0, y0, x1, y1):
        return [round(x0 * self.k), round(y0 * self.k), round(x1 * self.k) - 1, round(y1 * self.k) - 1]

    def layer(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        lay = Image.new("RGBA", self.img.size, (0, 0, 0, 0))
        return lay, ImageDraw.Draw(lay)

    def merge(self, lay: Image.Image) -> None:
        self.img = Image.alpha_composite(self.img, lay)

    # primitives (each on its own layer so translucent colours blend)
    def polygon(self, pts, fill):
        lay, d = self.layer()
        d.polygon([self.p(x, y) for x, y in pts], fill=fill)
        self.merge(lay)

    def ellipse(self, x0, y0, x1, y1, fill=None, outline=None, width_pt=0.0):
        lay, d = self.layer()
        d.ellipse(self.box(x0, y0, x1, y1), fill=fill, outline=outline,
                  width=max(1, round(width_pt * self.k)) if outline else 0)
        self.merge(lay)

    def rounded(self, x0, y0, x1, y1, r_pt, fill=None, outline=None, width_pt=0.0):
        lay, d = self.layer()
        d.rounded_rectangle(self.box(x0, y0, x1, y1), radius=round(r_pt * self.k), fill=fill,
                            outline=outline, width=max(1, round(width_pt * self.k)) if outline else 0)
        self.merge(lay)

    def line(self, pts, fill, width_pt):
        lay, d = self.layer()
        d.line([self.p(x, y) for x, y in pts], fill=fill, width=max(1, round(width_pt * self.k)), joint="curve")
        # round caps
        r = width_pt / 2
        for x, y in (pts[0], pts[-1]):
            d.ellipse(self.box(x - r, y - r, x + r, y + r), fill=fill)
        self.merge(lay)

    def text(self, xy_pt, s, size_pt, fill, bold=True, anchor="lm"):
        lay, d = self.layer()
        font = ImageFont.truetype(FONT_BOLD if bold else FONT_REGULAR, max(1, round(size_pt * self.k)))
        d.text(self.p(*xy_pt), s, font=font, fill=fill, anchor=anchor)
        self.merge(lay)

    def gradient(self, c0, c1, direction="horizontal", box=None):
        """Linear gradient from c0 to c1 (RGBA tuples) over box (points) or the whole canvas."""
        x0, y0, x1, y1 = box or (0, 0, self.w_pt, self.h_pt)
        size = (round((x1 - x0) * self.k), round((y1 - y0) * self.k))
        mask = Image.linear_gradient("L")  # 256x256, black at top, white at bottom
        if direction == "horizontal":
            mask = mask.rotate(90, expand=True).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        mask = mask.resize(size, Image.Resampling.BILINEAR)
        a = Image.new("RGBA", size, c0)
        b = Image.new("RGBA", size, c1)
        grad = Image.composite(b, a, mask)
        lay = Image.new("RGBA", self.img.size, (0, 0, 0, 0))
        lay.paste(grad, (round(x0 * self.k), round(y0 * self.k)))
        self.merge(lay)

    def render(self) -> Image.Image:
        out = self.img.resize((self.w_pt * self.scale, self.h_pt * self.scale), Image.Resampling.LANCZOS)
        return out.convert("RGBA")


def text_width_pt(s: str, size_pt: float, bold=True) -> float:
    font = ImageFont.truetype(FONT_BOLD if bold else FONT_REGULAR, 400)
    return font.getlength(s) * size_pt / 400


def fit_size(s: str, max_w_pt: float, max_size_pt: float, bold=True) -> float:
    """Largest font size (points, 0.5 steps) at which s fits in max_w_pt."""
    size = max_size_pt
    while size > 4 and text_width_pt(s, size, bold) > max_w_pt:
        size -= 0.5
    return size


def transform(pts, cx, cy, size, angle_deg=0.0):
    """Map unit-square points (0..1, centred on 0.5) to points around (cx, cy), rotated."""
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    out = []
    for x, y in pts:
        ux, uy = (x - 0.5) * size, (y - 0.5) * size
        out.append((cx + ux * ca - uy * sa, cy + ux * sa + uy * ca))
    return out


# --------------------------------------------------------------------------
# Glyphs (brand marks), drawn in a size x size box centred on (cx, cy)
# --------------------------------------------------------------------------

def glyph_plane(c: Canvas, cx, cy, size, color, angle=-35.0):
    # fuselage as a capsule polygon, pointing right in unit space
    fus = []
    for i in range(13):  # nose (round)
        t = -math.pi / 2 + math.pi * i / 12
        fus.append((0.86 + 0.06 * math.cos(t), 0.5 + 0.055 * math.sin(t)))
    fus += [(0.14, 0.545), (0.10, 0.52), (0.10, 0.48), (0.14, 0.455)]
    wing_top = [(0.60, 0.46), (0.40, 0.10), (0.31, 0.10), (0.42, 0.46)]
    wing_bot = [(x, 1 - y) for x, y in wing_top]
    tail_top = [(0.24, 0.46), (0.15, 0.27), (0.09, 0.27), (0.14, 0.46)]
    tail_bot = [(x, 1 - y) for x, y in tail_top]
    for part in (fus, wing_top, wing_bot, tail_top, tail_bot):
        c.polygon(transform(part, cx, cy, size, angle), color)


def glyph_cup(c: Canvas, cx, cy, size, color, steam=True):
    s = size
    x0, y0 = cx - s / 2, cy - s / 2
    # saucer
    c.ellipse(x0 + 0.10 * s, y0 + 0.80 * s, x0 + 0.90 * s, y0 + 0.92 * s, fill=color)
    # handle ring
    c.ellipse(x0 + 0.62 * s, y0 + 0.44 * s, x0 + 0.90 * s, y0 + 0.70 * s, outline=color, width_pt=0.07 * s)
    # body: trapezoid with rounded bottom
    body = [(0.18, 0.40), (0.76, 0.40), (0.70, 0.76), (0.62, 0.84), (0.32, 0.84), (0.24, 0.76)]
    c.polygon([(x0 + x * s, y0 + y * s) for x, y in body], color)
    if steam:
        for dx in (0.34, 0.50, 0.62):
            pts = []
            for i in range(17):
                t = i / 16
                pts.append((x0 + (dx + 0.035 * math.sin(t * 2 * math.pi)) * s, y0 + (0.32 - 0.22 * t) * s))
            c.line(pts, color, 0.045 * s)


def glyph_note(c: Canvas, cx, cy, size, color):
    s = size
    x0, y0 = cx - s / 2, cy - s / 2
    # two note heads, stems and a beam
    c.ellipse(x0 + 0.14 * s, y0 + 0.66 * s, x0 + 0.42 * s, y0 + 0.86 * s, fill=color)
    c.ellipse(x0 + 0.56 * s, y0 + 0.58 * s, x0 + 0.84 * s, y0 + 0.78 * s, fill=color)
    c.polygon([(x0 + 0.35 * s, y0 + 0.76 * s), (x0 + 0.42 * s, y0 + 0.76 * s),
               (x0 + 0.42 * s, y0 + 0.24 * s), (x0 + 0.35 * s, y0 + 0.26 * s)], color)
    c.polygon([(x0 + 0.77 * s, y0 + 0.68 * s), (x0 + 0.84 * s, y0 + 0.68 * s),
               (x0 + 0.84 * s, y0 + 0.14 * s), (x0 + 0.77 * s, y0 + 0.16 * s)], color)
    c.polygon([(x0 + 0.35 * s, y0 + 0.26 * s), (x0 + 0.84 * s, y0 + 0.12 * s),
               (x0 + 0.84 * s, y0 + 0.24 * s), (x0 + 0.35 * s, y0 + 0.38 * s)], color)


def glyph_dumbbell(c: Canvas, cx, cy, size, color, angle=-30.0):
    parts = [
        [(0.22, 0.46), (0.78, 0.46), (0.78, 0.54), (0.22, 0.54)],  # bar
        [(0.14, 0.26), (0.24, 0.26), (0.24, 0.74), (0.14, 0.74)],  # inner plates
        [(0.76, 0.26), (0.86, 0.26), (0.86, 0.74), (0.76, 0.74)],
        [(0.06, 0.34), (0.14, 0.34), (0.14, 0.66), (0.06, 0.66)],  # outer plates
        [(0.86, 0.34), (0.94, 0.34), (0.94, 0.66), (0.86, 0.66)],
    ]
    for part in parts:
        c.polygon(transform(part, cx, cy, size, angle), color)


def coffee_bean(c: Canvas, cx, cy, length, angle, body, crease):
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)

    def rot(ux, uy):
        return (cx + ux * ca - uy * sa, cy + ux * sa + uy * ca)

    pts = [rot(length / 2 * math.cos(2 * math.pi * i / 40), length / 3.1 * math.sin(2 * math.pi * i / 40))
           for i in range(40)]
    c.polygon(pts, body)
    crease_pts = [rot(length / 2.4 * (2 * i / 16 - 1), length / 14 * math.sin(math.pi * (2 * i / 16 - 1)))
                  for i in range(17)]
    c.line(crease_pts, crease, length / 14)


# --------------------------------------------------------------------------
# Image kinds
# --------------------------------------------------------------------------

def icon(scale, bg, fg, glyph):
    c = Canvas(SIZES["icon"], scale, bg)
    glyph(c, 14.5, 14.5, 22, fg)
    return c.render()


def logo(scale, glyph, mark_bg, mark_fg, word, word_color):
    w, h = SIZES["logo"]
    c = Canvas((w, h), scale)
    c.ellipse(2, 7, 38, 43, fill=mark_bg)
    glyph(c, 20, 25, 26, mark_fg)
    size = fit_size(word, w - 46, 19)
    c.text((45, 25.5), word, size, word_color, anchor="lm")
    return c.render()


# -- boarding pass (Tessera Air) -------------------------------------------

AIR_BG = (18, 52, 99, 255)  # pass.json backgroundColor
AIR_ACCENT = (94, 178, 240, 255)
WHITE = (255, 255, 255, 255)


def air_footer(scale):
    w, h = SIZES["footer"]
    c = Canvas((w, h), scale)
    dash = (160, 200, 235, 200)
    x = 4.0
    while x < w / 2 - 18:
        c.line([(x, h / 2), (x + 5, h / 2)], dash, 1.2)
        c.line([(w - x - 5, h / 2), (w - x, h / 2)], dash, 1.2)
        x += 9
    glyph_plane(c, w / 2, h / 2, 14, (160, 200, 235, 255), angle=0)
    c.ellipse(w / 2 - 28, h / 2 - 2, w / 2 - 24, h / 2 + 2, fill=AIR_ACCENT)
    c.ellipse(w / 2 + 24, h / 2 - 2, w / 2 + 28, h / 2 + 2, fill=AIR_ACCENT)
    return c.render()


# -- coupon (Bean & Leaf Coffee) ---------------------------------------------

COFFEE_BG = (120, 72, 40, 255)  # pass.json backgroundColor
COFFEE_CREAM = (246, 226, 200, 255)


def coupon_strip(scale):
    w, h = SIZES["strip"]
    c = Canvas((w, h), scale)
    c.gradient((214, 136, 66, 255), (120, 66, 38, 255), "horizontal")
    rng = random.Random(20)  # fixed seed: deterministic layout
    for _ in range(14):
        x = rng.uniform(215, 372)
        y = rng.uniform(4, 140)
        coffee_bean(c, x, y, rng.uniform(18, 30), rng.uniform(0, 180), (70, 38, 22, 150), (160, 100, 60, 150))
    # perforated coupon edge
    for y in range(6, h, 12):
        c.ellipse(-3, y - 3, 3, y + 3, fill=(255, 255, 255, 90))
    return c.render()


# -- store card (Bean & Leaf Coffee rewards) --------------------------------

CARD_BG = (34, 85, 60, 255)  # pass.json backgroundColor


def card_strip(scale):
    w, h = SIZES["strip"]
    c = Canvas((w, h), scale)
    c.gradient((44, 110, 88, 255), (20, 56, 46, 255), "horizontal")
    # soft circles behind the cup
    c.ellipse(236, 6, 368, 138, fill=(255, 255, 255, 28))
    c.ellipse(256, 26, 348, 118, fill=(255, 255, 255, 30))
    glyph_cup(c, 302, 70, 92, (246, 226, 200, 235))
    # loyalty stamps along the bottom-left
    for i in range(8):
        x = 22 + i * 24
        filled = i < 5
        c.ellipse(x - 8, 112, x + 8, 128, fill=(246, 226, 200, 210) if filled else None,
                  outline=(246, 226, 200, 210), width_pt=1.6)
    return c.render()


# -- event ticket (The Midnight Echo at Tessera Arena) -------------------------

EVENT_BG = (44, 18, 82, 255)  # pass.json backgroundColor
EVENT_ACCENT = (255, 94, 168, 255)


def aurora_bands(c: Canvas, w, h, top, colors, amp, thickness):
    for i, col in enumerate(colors):
        base = top + i * thickness * 0.8
        pts_top = [(x, base + amp * math.sin(x / w * 2 * math.pi * 1.3 + i * 0.9)) for x in range(0, w + 1, 2)]
        pts_bot = [(x, y + thickness) for x, y in reversed(pts_top)]
        c.polygon(pts_top + pts_bot, col)


def event_background(scale):
    w, h = SIZES["background"]
    c = Canvas((w, h), scale)
    c.gradient((72, 28, 120, 255), (16, 10, 40, 255), "vertical")
    # a soft spotlight glow above the stage
    c.ellipse(40, -60, 140, 60, fill=(255, 255, 255, 18))
    c.ellipse(65, -35, 115, 35, fill=(255, 255, 255, 18))
    aurora_bands(c, w, h, 120, [(255, 94, 168, 90), (120, 90, 255, 90), (60, 220, 200, 80)], 10, 22)
    # crowd silhouette
    rng = random.Random(7)
    crowd = [(0, h)]
    for x in range(0, w + 1, 6):
        crowd.append((x, h - 22 - rng.uniform(0, 12)))
    crowd.append((w, h))
    c.polygon(crowd, (10, 6, 24, 230))
    return c.render()


def event_thumbnail(scale):
    w, h = SIZES["thumbnail"]
    c = Canvas((w, h), scale)
    c.gradient((26, 16, 64, 255), (72, 28, 120, 255), "vertical")
    c.ellipse(48, 10, 80, 42, fill=(255, 214, 120, 235))  # moon
    aurora_bands(c, w, h, 40, [(255, 94, 168, 170), (120, 90, 255, 170), (60, 220, 200, 160)], 6, 16)
    c.rounded(0, 0, w, h, 0, outline=(255, 255, 255, 120), width_pt=1.5)
    c.text((w / 2, 80), "THE MIDNIGHT ECHO", fit_size("THE MIDNIGHT ECHO", 80, 10), WHITE, anchor="mm")
    return c.render()


# -- generic (Tessera Fitness) ------------------------------------------------

FIT_BG = (24, 24, 30, 255)  # icon only; the pass itself is light
FIT_ACCENT = (255, 92, 57, 255)
FIT_TEXT = (20, 30, 40, 255)  # pass.json foregroundColor (on rgb(230, 236, 240))


def fitness_thumbnail(scale):
    w, h = SIZES["thumbnail"]
    c = Canvas((w, h), scale)
    c.rounded(0, 0, w, h, 10, fill=(196, 204, 212, 255))
    c.ellipse(31, 16, 59, 46, fill=(128, 138, 150, 255))  # head
    c.ellipse(14, 52, 76, 112, fill=(128, 138, 150, 255))  # shoulders
    c.rounded(0, 0, w, h, 10, outline=FIT_ACCENT, width_pt=2.5)
    return c.render()


# -- shop order (Tessera Shop) ----------------------------------------------

SHOP_BG = (24, 62, 96, 255)
SHOP_ACCENT = (255, 196, 87, 255)


def glyph_bag(c: Canvas, cx, cy, size, color):
    w = size * 0.72
    top = cy - size * 0.18
    c.rounded(cx - w / 2, top, cx + w / 2, cy + size * 0.42, size * 0.08, fill=color)
    handle = [(cx - w * 0.28 + i * w * 0.56 / 20, top - size * 0.26 * math.sin(math.pi * i / 20)) for i in range(21)]
    c.line(handle, color, size * 0.07)


def shop_logo(pixels):
    """A square merchant logo: the bag glyph on the shop's colour, drawn at 1 pt per pixel."""
    c = Canvas((pixels, pixels), 1, SHOP_BG)
    glyph_bag(c, pixels / 2, pixels / 2 + pixels * 0.04, pixels * 0.62, SHOP_ACCENT)
    return c.render()


ORDER_TEMPLATES = {
    "shop-order": {"logo.png": lambda: shop_logo(180)},
}

# --------------------------------------------------------------------------

TEMPLATES = {
    "boarding-pass": {
        "icon": lambda s: icon(s, AIR_BG, WHITE, glyph_plane),
        "logo": lambda s: logo(s, glyph_plane, AIR_ACCENT, AIR_BG, "Tessera Air", WHITE),
        "footer": air_footer,
    },
    "coupon": {
        "icon": lambda s: icon(s, COFFEE_BG, COFFEE_CREAM, glyph_cup),
        "logo": lambda s: logo(s, glyph_cup, COFFEE_CREAM, COFFEE_BG, "Bean & Leaf", WHITE),
        "strip": coupon_strip,
    },
    "event-ticket": {
        "icon": lambda s: icon(s, EVENT_BG, EVENT_ACCENT, glyph_note),
        "logo": lambda s: logo(s, glyph_note, EVENT_ACCENT, WHITE, "Tessera Arena", WHITE),
        "background": event_background,
        "thumbnail": event_thumbnail,
    },
    "store-card": {
        "icon": lambda s: icon(s, CARD_BG, COFFEE_CREAM, glyph_cup),
        "logo": lambda s: logo(s, glyph_cup, COFFEE_CREAM, CARD_BG, "Bean & Leaf", WHITE),
        "strip": card_strip,
    },
    "generic": {
        "icon": lambda s: icon(s, FIT_BG, FIT_ACCENT, glyph_dumbbell),
        "logo": lambda s: logo(s, glyph_dumbbell, FIT_ACCENT, WHITE, "Tessera Fitness", FIT_TEXT),
        "thumbnail": fitness_thumbnail,
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "PassTemplates"),
                        help="templates folder (default: PassTemplates next to scripts/)")
    parser.add_argument("--orders-out", default=str(Path(__file__).resolve().parent.parent / "OrderTemplates"),
                        help="order templates folder (default: OrderTemplates next to scripts/)")
    parser.add_argument("--only", action="append", help="generate only this template (repeatable)")
    args = parser.parse_args()

    for name, images in ORDER_TEMPLATES.items():
        if args.only and name not in args.only:
            continue
        folder = Path(args.orders_out) / name
        folder.mkdir(parents=True, exist_ok=True)
        for filename, draw in images.items():
            img = draw()
            img.save(folder / filename, format="PNG", optimize=True)
            print(f"{folder / filename}  {img.size[0]}x{img.size[1]}")

    root = Path(args.out)
    for name, images in TEMPLATES.items():
        if args.only and name not in args.only:
            continue
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        for kind, draw in images.items():
            w, h = SIZES[kind]
            for scale in SCALES:
                img = draw(scale)
                assert img.size == (w * scale, h * scale), (name, kind, scale, img.size)
                filename = f"{kind}.png" if scale == 1 else f"{kind}@{scale}x.png"
                img.save(folder / filename, format="PNG", optimize=True)
                print(f"{folder / filename}  {img.size[0]}x{img.size[1]}")


if __name__ == "__main__":
    main()
