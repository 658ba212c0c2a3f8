#!/usr/bin/env python3
"""Reads a PNG with Pillow for the preview tests: prints its size, then each requested pixel and region.

usage: pixels.py FILE.png [X,Y ...] [region:X,Y,W,H ...]
prints "size W H", then "pixel X Y R G B A" per point, and "region X Y W H DARK LIGHT" (pixels with luminance below
80 and above 180) per region.
"""
import sys
from PIL import Image

image = Image.open(sys.argv[1]).convert("RGBA")
print("size", image.width, image.height)
for spec in sys.argv[2:]:
    if spec.startswith("region:"):
        x, y, w, h = (int(v) for v in spec[len("region:"):].split(","))
        dark = light = 0
        for py in range(y, y + h):
            for px in range(x, x + w):
                r, g, b, _ = image.getpixel((px, py))
                luminance = 0.299 * r + 0.587 * g + 0.114 * b
                dark += luminance < 80
                light += luminance > 180
        print("region", x, y, w, h, dark, light)
    else:
        x, y = (int(v) for v in spec.split(","))
        print("pixel", x, y, *image.getpixel((x, y)))
