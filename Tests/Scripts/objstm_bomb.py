#!/usr/bin/env python3
"""Writes a small PDF whose one object stream inflates to just under SIZE bytes (an object-stream bomb).

    objstm_bomb.py OUTPUT [--size BYTES] [--place first|last]

The catalog (1 0), the page tree (2 0) and its page (3 0) live in object stream 5 0, which a
cross-reference stream (6 0) lists. The stream's data is spaces with the three objects either
before them (`first`: reading the objects needs only the start of the stream) or after them
(`last`, the default: the catalog is SIZE bytes into the decoded stream). The Flate data is one
raw deflate piece of 1 MiB of spaces, compressed once and repeated: each piece refers only to
itself, so the copies join into one valid zlib stream of about SIZE / 1000 bytes.
It measures how a reader bounds object streams (`/usr/bin/time -v autograph info OUTPUT`); the
Swift tests make the same file in memory (Tests/PDFCoreTests/ObjectStreamBudgetTests.swift).
"""
import argparse
import zlib

PIECE = 1 << 20


def raw_piece(data, final):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("output")
    arguments.add_argument("--size", type=int, default=1 << 30)
    arguments.add_argument("--place", choices=["first", "last"], default="last")
    options = arguments.parse_args()

    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>\n",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>\n",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\n",
    ]
    # Whole pieces of spaces, leaving room for the header and the objects within SIZE.
    pieces = max(1, (options.size - 4096) // PIECE)
    padding = pieces * PIECE if options.place == "last" else 0
    offsets, position = [], padding
    for item in objects:
        offsets.append(position)
        position += len(item)
    header = b" ".join(b"%d %d" % (number, offset) for number, offset in zip((1, 2, 3), offsets)) + b"\n"
    body = b"".join(objects)

    spaces = raw_piece(b" " * PIECE, final=False)
    adler = zlib.adler32(header)
    parts = [b"\x78\xda"]
    if options.place == "first":
        parts.append(raw_piece(header + body, final=False))
        adler = zlib.adler32(body, adler)
    else:
        parts.append(raw_piece(header, final=False))
    block = b" " * PIECE
    for _ in range(pieces):
        parts.append(spaces)
        adler = zlib.adler32(block, adler)
    if options.place == "last":
        parts.append(raw_piece(body, final=True))
        adler = zlib.adler32(body, adler)
    else:
        parts.append(raw_piece(b"", final=True))
    parts.append(adler.to_bytes(4, "big"))
    data = b"".join(parts)

    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    stream_offset = len(out)
    out += b"5 0 obj\n<< /Type /ObjStm /N 3 /First %d /Filter /FlateDecode /Length %d >>\nstream\n" % (
        len(header),
        len(data),
    )
    out += data + b"\nendstream\nendobj\n"
    xref_offset = len(out)
    rows = b"\x00\x00\x00\x00\x00\xff\xff"
    for index in range(3):
        rows += b"\x02" + (5).to_bytes(4, "big") + index.to_bytes(2, "big")
    rows += b"\x00\x00\x00\x00\x00\x00\x00"
    rows += b"\x01" + stream_offset.to_bytes(4, "big") + b"\x00\x00"
    rows += b"\x01" + xref_offset.to_bytes(4, "big") + b"\x00\x00"
    out += b"6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % len(rows)
    out += rows + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_offset
    with open(options.output, "wb") as file:
        file.write(out)


if __name__ == "__main__":
    main()
