#!/usr/bin/env python3
"""Independent checks of PNG barcodes for Tessera's tests (zxing-cpp, Pillow and Python's zlib; nothing of Tessera's).

usage: decode.py [--modules SCALE] FILE.png ...

For each file, prints:
  chunks TYPE ...          every chunk, after checking its CRC with zlib.crc32 and inflating IDAT with zlib
  image WIDTH HEIGHT MODE  as Pillow reads it
  barcode FORMAT HEX       one line per symbol zxing-cpp decodes: its format and its exact bytes in hex
  row ##..#.               with --modules SCALE: the image sampled at the centre of every SCALE x SCALE block
Exits 1 when a chunk is corrupt, and 2 when zxing-cpp decodes nothing.
"""
import struct
import sys
import zlib

import zxingcpp
from PIL import Image


def check_chunks(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG signature")
    offset, types, idat = 8, [], b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        if zlib.crc32(kind + body) != crc:
            sys.exit(f"{path}: bad CRC in {kind.decode()}")
        types.append(kind.decode())
        if kind == b"IDAT":
            idat += body
        offset += 12 + length
    zlib.decompress(idat)
    print("chunks " + " ".join(types))


def main(arguments):
    scale = None
    if arguments[:1] == ["--modules"]:
        scale, arguments = int(arguments[1]), arguments[2:]
    found_all = True
    for path in arguments:
        check_chunks(path)
        image = Image.open(path)
        image.load()
        print(f"image {image.width} {image.height} {image.mode}")
        grey = image.convert("L")
        results = zxingcpp.read_barcodes(grey)
        for result in results:
            print(f"barcode {result.format.name} {result.bytes.hex()}")
        found_all = found_all and bool(results)
        if scale:
            for top in range(scale // 2, grey.height, scale):
                print("row " + "".join("#" if grey.getpixel((x, top)) < 128 else "."
                                       for x in range(scale // 2, grey.width, scale)))
    return 0 if found_all else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
