#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target (run by scripts/fuzz).

    scripts/fuzz-seeds.py OUT [CORPUS]

OUT/<Target>/ receives inputs in the layout of the target's entry (the selector byte first; see
`ImageFuzzInput`, `FontFuzzInput`, `ContentFuzzInput`, `DataFuzzInput`, `CodecFuzzInput` and the
FuzzCore and FuzzWeb sources). Seeds come from the test fixtures and, when CORPUS is a folder and
pikepdf is installed, from the streams of its PDFs: images (DCT, JPX, JBIG2), embedded fonts, CMaps,
content streams, functions, shadings and signatures. At most MAX_PER_KIND seeds of a kind, each at
most MAX_BYTES long, so that a run starts quickly.
"""
import glob
import hashlib
import os
import sys

MAX_PER_KIND = 150
MAX_BYTES = 1 << 20
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
counts = {}


def seed(out, target, kind, data):
    """Writes one seed (named by its hash, so that reruns do not duplicate it)."""
    if len(data) > MAX_BYTES or counts.get((target, kind), 0) >= MAX_PER_KIND:
        return
    counts[(target, kind)] = counts.get((target, kind), 0) + 1
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    name = f"{kind}-{hashlib.sha1(data).hexdigest()[:16]}"
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data)


def fixtures(out):
    """Seeds from Tests/Fixtures and a few made here."""
    fixture = os.path.join(ROOT, "Tests", "Fixtures")
    for path in sorted(glob.glob(os.path.join(fixture, "**", "*"), recursive=True)):
        if not os.path.isfile(path) or "/fuzz/" in path:
            continue
        data = open(path, "rb").read()
        name = path.lower()
        if name.endswith(".pdf"):
            seed(out, "FuzzCore", "fixture", b"\x00" + data)
        elif name.endswith(".png"):
            seed(out, "FuzzImages", "png", b"\x03" + data)
        elif name.endswith((".jpg", ".jpeg")):
            seed(out, "FuzzImages", "dct", b"\x00" + data)
            seed(out, "FuzzImages", "dct-scaled", b"\x05" + data)
        elif name.endswith(".pem"):
            seed(out, "FuzzData", "pem", b"\x01" + data)
            seed(out, "FuzzData", "crl-pem", b"\x02" + data)
            for block in pem_blocks(data):
                seed(out, "FuzzData", "der", b"\x01" + block)
                seed(out, "FuzzData", "walk", b"\x05" + block)
        elif name.endswith((".xfdf", ".xml")):
            seed(out, "FuzzData", "xfdf", b"\x06" + data)
        elif name.endswith(".json"):
            seed(out, "FuzzData", "json", b"\x07" + data)
        elif name.endswith(".codecseed"):
            # FuzzCodecs inputs as they are (CodecFuzzInput), made by the tests' JBIG2 encoder.
            seed(out, "FuzzCodecs", "made", data)
    seed(out, "FuzzCore", "object", b"\x02<< /A [1 2 0 R (s\\051) <41> /N#20 3.5] >>")
    seed(out, "FuzzCore", "filters", b"\x03\x00x\x9c\x03\x00\x00\x00\x00\x01")
    xfdf = (b'<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">'
            b'<fields><field name="name"><value>Ada &amp; Grace</value></field><field name="a">'
            b'<field name="b"><value>x</value></field></field><field name="list"><value>1</value>'
            b'<value>2</value></field></fields><ids original="0A" modified="0B"/></xfdf>')
    seed(out, "FuzzData", "xfdf", b"\x06" + xfdf)
    for text in [b'{"name": "Ada", "check": true, "list": ["a", "b"], "n": -1.5e3, "u": "\\u00e9\\ud83d\\ude00"}',
                 b'[1, 2.5, null, {"a": {}}, [], "x"]', b'{"fields": {"a": "b"}}']:
        seed(out, "FuzzData", "json", b"\x07" + text)
    content = (b"q 1 0 0 1 10 10 cm 0.5 g 0 0 50 50 re f Q BT /F1 12 Tf 10 100 Td (Hello) Tj /F3 20 Tf (AA) Tj ET "
               b"/G1 gs /CS1 cs 0.5 scn 20 20 30 30 re f /P1 cs 60 60 20 20 re f /Sh1 sh /Im1 Do /Fm1 Do "
               b"/OC /OC1 BDC 0 0 m 100 100 l S EMC /G2 gs 1 0 0 rg 0 0 10 10 re W n "
               b"BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\x80\x40 EI")
    for selector in (0, 1, 2):
        seed(out, "FuzzContent", "made", bytes([selector]) + content)
    seed(out, "FuzzContent", "function-ps", b"\x03\x02{ dup 0.5 gt { pop 1 } { 2 mul } ifelse dup sin exch }")
    seed(out, "FuzzContent", "function-dict",
         b"\x03\x01<< /FunctionType 3 /Domain [0 1] /Functions [<< /FunctionType 2 /Domain [0 1] /C0 [0 0 0] "
         b"/C1 [1 1 1] /N 2 >> << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 1 0] /N 1 >>] "
         b"/Bounds [0.5] /Encode [0 1 0 1] >>")
    seed(out, "FuzzContent", "function-sampled", b"\x03\x00\x03\x03\x03" + bytes(range(0, 256, 3)))
    mesh = bytes([0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255, 0, 255, 0, 0, 255, 0, 0])
    seed(out, "FuzzContent", "mesh", b"\x03\x03\x00" + mesh)
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Fuzz def "
            b"1 begincodespacerange <0000> <FFFF> endcodespacerange 2 begincidrange <0000> <00ff> 0 "
            b"<0100> <ffff> 256 endcidrange 2 beginbfchar <0041> <0041> <0042> <D83DDE00> endbfchar "
            b"1 beginbfrange <0043> <0045> [<0043> <0044> <00660066>] endbfrange endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")
    seed(out, "FuzzFonts", "cmap", b"\x06" + cmap)
    seed(out, "FuzzFonts", "cmap-usecmap", b"\x06/UniCNS-UTF16-H usecmap " + cmap)
    for path in glob.glob("/usr/share/fonts/**/*", recursive=True):
        if counts.get(("FuzzFonts", "system"), 0) >= 12:
            break
        if path.endswith((".ttf", ".otf")) and os.path.getsize(path) < 200_000:
            data = open(path, "rb").read()
            kind = b"\x05" if path.endswith(".otf") else b"\x00"
            seed(out, "FuzzFonts", "system", kind + data)
            seed(out, "FuzzFonts", "system", b"\x07" + data)
        elif path.endswith((".t1", ".pfb")) and os.path.getsize(path) < 200_000:
            seed(out, "FuzzFonts", "system", b"\x01" + open(path, "rb").read())


def pem_blocks(data):
    import base64
    blocks = []
    for part in data.split(b"-----BEGIN ")[1:]:
        body = part.split(b"-----", 1)[1].split(b"-----END", 1)[0]
        try:
            blocks.append(base64.b64decode(b"".join(body.split())))
        except Exception:
            pass
    return blocks


def corpus(out, root):
    """Seeds from the corpus's PDFs (whole files and their streams)."""
    try:
        import pikepdf
    except ImportError:
        print("fuzz-seeds: pikepdf is not installed; the corpus's streams are not used")
        return
    Name = pikepdf.Name
    for path in sorted(glob.glob(os.path.join(root, "**", "*.pdf"), recursive=True)):
        data = open(path, "rb").read()
        seed(out, "FuzzCore", "corpus", b"\x00" + data)
        try:
            pdf = pikepdf.open(path)
        except Exception:
            continue
        try:
            streams(out, pdf, Name)
        except Exception:
            pass


def streams(out, pdf, Name):
    import pikepdf
    for page in pdf.pages:
        try:
            contents = page.obj.Contents
            parts = [contents] if isinstance(contents, pikepdf.Stream) else list(contents)
            data = b"\n".join(part.read_bytes() for part in parts)
        except Exception:
            continue
        seed(out, "FuzzContent", "page", b"\x01" + data[:200_000])
        seed(out, "FuzzContent", "parse", b"\x00" + data[:200_000])
    for obj in pdf.objects:
        try:
            one(out, obj, Name)
        except Exception:
            continue


def one(out, obj, Name):
    import pikepdf
    if isinstance(obj, pikepdf.Dictionary) and obj.get("/FT") == Name.Sig and "/V" in obj:
        contents = bytes(obj.V.get("/Contents", b""))
        seed(out, "FuzzData", "signature", b"\x00" + contents.rstrip(b"\x00"))
        return
    if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == Name.Sig and "/Contents" in obj:
        contents = bytes(obj.Contents).rstrip(b"\x00")
        seed(out, "FuzzData", "signature", b"\x00" + contents)
        seed(out, "FuzzData", "walk", b"\x05" + contents)
        return
    if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == Name.FontDescriptor:
        for key, selectors in (("/FontFile2", [0, 4, 7]), ("/FontFile", [1])):
            if key in obj:
                data = obj[key].read_bytes()
                for selector in selectors:
                    seed(out, "FuzzFonts", key[1:].lower(), bytes([selector]) + data)
        if "/FontFile3" in obj:
            subtype = obj.FontFile3.get("/Subtype")
            selector = {Name.Type1C: 2, Name.CIDFontType0C: 3, Name.OpenType: 5}.get(subtype, 2)
            seed(out, "FuzzFonts", "fontfile3", bytes([selector]) + obj.FontFile3.read_bytes())
        return
    if not isinstance(obj, pikepdf.Stream):
        return
    if obj.get("/Type") == Name.CMap or "/CMapName" in obj:
        seed(out, "FuzzFonts", "cmap", b"\x06" + obj.read_bytes())
        return
    filters = obj.get("/Filter")
    filters = list(filters) if isinstance(filters, pikepdf.Array) else [filters]
    images = {Name.DCTDecode, Name.JPXDecode, Name.JBIG2Decode, Name.CCITTFaxDecode}
    if not any(name in images for name in filters) and b"begincmap" in obj.read_bytes()[:4096]:
        seed(out, "FuzzFonts", "tounicode", b"\x06" + obj.read_bytes())
        return
    if Name.DCTDecode in filters and len(filters) == 1:
        raw = obj.read_raw_bytes()
        seed(out, "FuzzImages", "dct", b"\x00" + raw)
        seed(out, "FuzzImages", "dct-scaled", b"\x05" + raw)
    elif Name.JPXDecode in filters and len(filters) == 1:
        seed(out, "FuzzImages", "jpx", b"\x02" + obj.read_raw_bytes())
    elif Name.JBIG2Decode in filters:
        params = obj.get("/DecodeParms")
        globals_ = b""
        if params is not None and "/JBIG2Globals" in params:
            globals_ = params.JBIG2Globals.read_bytes()
        data = obj.read_raw_bytes()
        seed(out, "FuzzCodecs", "jbig2", bytes([3, len(globals_) >> 8 & 255, len(globals_) & 255]) + globals_ + data)
    elif obj.get("/FunctionType") == 4:
        seed(out, "FuzzContent", "function-ps", b"\x03\x02" + obj.read_bytes())
    elif obj.get("/FunctionType") == 0:
        seed(out, "FuzzContent", "function-sampled", b"\x03\x00\x03\x03\x03" + obj.read_bytes())
    elif obj.get("/ShadingType") in (4, 5, 6, 7):
        seed(out, "FuzzContent", "mesh", b"\x03\x03" + bytes([int(obj.ShadingType) - 4]) + obj.read_bytes())
    elif obj.get("/Subtype") == Name.Form:
        seed(out, "FuzzContent", "form", b"\x02" + obj.read_bytes()[:200_000])


def main():
    out = sys.argv[1]
    fixtures(out)
    if len(sys.argv) > 2 and os.path.isdir(sys.argv[2]):
        corpus(out, sys.argv[2])
    for (target, kind), count in sorted(counts.items()):
        print(f"fuzz-seeds: {target} {kind}: {count}")


if __name__ == "__main__":
    main()
