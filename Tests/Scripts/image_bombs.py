#!/usr/bin/env python3
"""Writes images whose headers lie about the image decoded, to measure how a reader checks them.

    image_bombs.py png OUTPUT [--width W] [--height H]
        IHDR 1x1, then IHDR WxH (16000x16000 by default: 747 KB) with black RGB image data for
        that size. A reader that checks the first header and decodes with the last decodes
        W x H pixels (768 MB of samples for the default).
    image_bombs.py jpeg OUTPUT JPEG [--width W] [--height H]
        JPEG (a baseline file) with its start-of-frame segment written twice: its own size first,
        then WxH (60000x60000 by default).

The Swift tests make the same files in memory (Sources/PDFTestSupport/HostileImages.swift).
"""
import argparse
import struct
import zlib

PIECE = 1 << 20


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def zeros_zlib(count):
    """zlib data inflating to `count` zero bytes: one raw piece of 1 MiB deflated once and repeated."""
    def raw(data, final):
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)

    piece = raw(bytes(PIECE), final=False)
    parts = [b"\x78\xda"] + [piece] * (count // PIECE) + [raw(bytes(count % PIECE), final=True)]
    adler = 1
    block = bytes(PIECE)
    for _ in range(count // PIECE):
        adler = zlib.adler32(block, adler)
    adler = zlib.adler32(bytes(count % PIECE), adler)
    return b"".join(parts) + struct.pack(">I", adler)


def png(width, height):
    def ihdr(w, h):
        return chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))

    data = zeros_zlib((width * 3 + 1) * height)
    idat = b"".join(chunk(b"IDAT", data[i : i + PIECE]) for i in range(0, len(data), PIECE))
    return b"\x89PNG\r\n\x1a\n" + ihdr(1, 1) + ihdr(width, height) + idat + chunk(b"IEND", b"")


def jpeg(original, width, height):
    start = original.index(b"\xff\xc0")
    length = struct.unpack(">H", original[start + 2 : start + 4])[0]
    segment = original[start : start + 2 + length]
    huge = bytearray(segment)
    huge[5:9] = struct.pack(">HH", height, width)
    return original[:start] + segment + bytes(huge) + original[start + 2 + length :]


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("kind", choices=["png", "jpeg"])
    arguments.add_argument("output")
    arguments.add_argument("source", nargs="?")
    arguments.add_argument("--width", type=int)
    arguments.add_argument("--height", type=int)
    options = arguments.parse_args()
    if options.kind == "png":
        data = png(options.width or 16000, options.height or 16000)
    else:
        data = jpeg(open(options.source, "rb").read(), options.width or 60000, options.height or 60000)
    with open(options.output, "wb") as file:
        file.write(data)


if __name__ == "__main__":
    main()
