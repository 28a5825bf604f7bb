#!/usr/bin/env python3
"""Generate the metrics of the standard 14 PDF fonts in Sources/PDFFonts/Standard: StandardFontData.swift
(descriptor values, the Unicode values of the Symbol and ZapfDingbats codes) and
StandardFontWidthData1.swift, StandardFontWidthData2.swift (widths).

The widths exist once, by glyph name. PDFFonts' `StandardFont` derives its widths by code from them
through the glyph names of its encodings (WinAnsiEncoding for the text fonts, the built-in encodings
of Symbol and ZapfDingbats; the names are `BaseEncoding`'s, generated once by gen-font-data.py, so
this script uses its own copy only to check), and PDFGraphics' font model looks glyph names up in them directly (for
standard fonts without /Widths). This script checks that the derived widths by code equal Adobe's
AFM widths of the same codes and stops otherwise.

Sources (all from PyPI or Debian, used at development time only):

* Metrics: Adobe's "Core 14 AFM Files" (the AFM files Adobe published for the PDF core fonts),
  read verbatim from matplotlib's wheel (mpl-data/fonts/pdfcorefonts/*.afm). The wheel is only
  downloaded, never installed: `pip download --no-deps matplotlib==VERSION`.
  From each AFM: Ascender, Descender, CapHeight, XHeight, ItalicAngle, StdVW (-> StemV),
  IsFixedPitch, FontBBox, and each glyph's C (code in the font's built-in encoding), WX and N.
* Widths of glyphs Adobe's AFMs lack (and of `.notdef`, drawn for codes without a glyph): the
  metric-compatible URW base35 AFMs of Debian's `fonts-urw-base35` (/usr/share/fonts/type1/urw-base35),
  with Adobe's width wherever both have the glyph. For the twelve text fonts only glyphs of Latin text
  and punctuation are kept, and each Adobe width is also given to the other Adobe Glyph List names of
  the same character (`middot` for `periodcentered`, `Gcedilla` for `Gcommaaccent`, ...).
* Glyph names and their Unicode values: the Adobe Glyph List (glyphlist.txt 2.0) as fontTools
  (PyPI `fonttools`) ships it, `fontTools.agl.LEGACY_AGL2UV`.
* WinAnsiEncoding code of each glyph name: pdfminer.six `pdfminer/latin_enc.py` (ISO 32000 Annex D).
* Unicode values of the Symbol and ZapfDingbats built-in encodings: pypdf `pypdf/_codecs/symbol.py`
  and `zapfding.py` (Adobe Glyph List and zapfdingbats.txt applied to these same AFMs' codes).
* Cross-check: the widths are compared with pdfminer.six `pdfminer/fontmetrics.py` FONT_METRICS
  (Adobe's older "Core 35" AFMs, keyed by Unicode) and the differences are printed to stderr.

Why not pdfminer's FONT_METRICS alone: it has no StemV, no codes for Symbol and ZapfDingbats (its
widths are keyed by Unicode), no Euro glyph, a Flags value of 64 (Italic) for the fixed-pitch fonts,
no Ascent/Descent/CapHeight/XHeight for Symbol and ZapfDingbats, and ZapfDingbats' space width is
overwritten (790 instead of 278) because glyph a32's key collides with the space character.

Regenerate (from the repository root):

    python3 -m venv /tmp/stdfont-venv
    /tmp/stdfont-venv/bin/pip install pdfminer.six==20260107 pypdf==7.1.1 fonttools==4.68.0
    /tmp/stdfont-venv/bin/pip download --no-deps --only-binary=:all: matplotlib==3.11.2 -d /tmp/stdfont-mpl
    /tmp/stdfont-venv/bin/python scripts/gen-standard-fonts.py /tmp/stdfont-mpl/matplotlib-3.11.2-*.whl
"""

import argparse
import importlib.metadata
import os
import re
import sys
import textwrap
import zipfile

# PostScript name -> (Swift case of StandardFont.Name, serif). The order is StandardFont.Name.allCases.
FONTS = [
    ("Courier", "courier", False),
    ("Courier-Bold", "courierBold", False),
    ("Courier-Oblique", "courierOblique", False),
    ("Courier-BoldOblique", "courierBoldOblique", False),
    ("Helvetica", "helvetica", False),
    ("Helvetica-Bold", "helveticaBold", False),
    ("Helvetica-Oblique", "helveticaOblique", False),
    ("Helvetica-BoldOblique", "helveticaBoldOblique", False),
    ("Times-Roman", "timesRoman", True),
    ("Times-Bold", "timesBold", True),
    ("Times-Italic", "timesItalic", True),
    ("Times-BoldItalic", "timesBoldItalic", True),
    ("Symbol", "symbol", False),
    ("ZapfDingbats", "zapfDingbats", False),
]
SYMBOLIC = {"Symbol", "ZapfDingbats"}

# Adobe's Symbol and ZapfDingbats AFMs have no Ascender, Descender, CapHeight or XHeight. Ascent
# and descent are taken from the FontBBox; cap height and x-height from glyph tops (the B field):
# Symbol's Alpha (673) and alpha (500); ZapfDingbats' a20 (the check mark at 0x34, 705, the top of
# 100 of its 202 glyphs), and no x-height (0, the default of /XHeight in ISO 32000-2 Table 120).
HEIGHT_GLYPHS = {"Symbol": ("Alpha", "alpha"), "ZapfDingbats": ("a20", None)}

# The Adobe Glyph List maps Symbol's Delta and Omega to the math signs U+2206 and U+2126; Adobe's
# Symbol-to-Unicode table (unicode.org Public/MAPPINGS/VENDORS/ADOBE/symbol.txt) and text use the Greek
# letters. The Swift side also accepts U+2206, U+2126 and U+00B5 (micro sign, for mu) when encoding.
SYMBOL_GREEK = {0x44: 0x0394, 0x57: 0x03A9}

# ISO 32000-2 Annex D.2, note: WinAnsiEncoding also encodes space at 0xA0 and hyphen at 0xAD.
# (pdfminer's latin_enc lists "space" at 0xAD instead of hyphen; this table overrides it.)
WIN_ANSI_DUPLICATES = {0xA0: "space", 0xAD: "hyphen"}

# The URW base35 font of each standard font (the metric-compatible clones Ghostscript substitutes).
URW_FILES = {
    "Courier": "NimbusMonoPS-Regular", "Courier-Bold": "NimbusMonoPS-Bold",
    "Courier-Oblique": "NimbusMonoPS-Italic", "Courier-BoldOblique": "NimbusMonoPS-BoldItalic",
    "Helvetica": "NimbusSans-Regular", "Helvetica-Bold": "NimbusSans-Bold",
    "Helvetica-Oblique": "NimbusSans-Italic", "Helvetica-BoldOblique": "NimbusSans-BoldItalic",
    "Times-Roman": "NimbusRoman-Regular", "Times-Bold": "NimbusRoman-Bold",
    "Times-Italic": "NimbusRoman-Italic", "Times-BoldItalic": "NimbusRoman-BoldItalic",
    "Symbol": "StandardSymbolsPS", "ZapfDingbats": "D050000L",
}

# Flag bits of a font descriptor (ISO 32000-2 Table 121).
FIXED_PITCH, SERIF, SYMBOLIC_FLAG, NONSYMBOLIC, ITALIC = 1, 2, 4, 32, 64


def read_afms(wheel_path):
    """Returns {PostScript name: AFM text} and the matplotlib version of the wheel."""
    afms = {}
    version = None
    with zipfile.ZipFile(wheel_path) as wheel:
        for member in wheel.namelist():
            match = re.search(r"mpl-data/fonts/pdfcorefonts/([A-Za-z-]+)\.afm$", member)
            if match:
                afms[match.group(1)] = wheel.read(member).decode("latin-1")
            match = re.match(r"matplotlib-([^/]+)\.dist-info/METADATA$", member)
            if match:
                version = match.group(1)
    missing = [name for name, _, _ in FONTS if name not in afms]
    if missing:
        sys.exit(f"{wheel_path}: no AFM for {missing}")
    return afms, version


def parse_afm(text):
    header = {}
    glyphs = []  # (code, width, name, bbox top)
    in_metrics = False
    for line in text.splitlines():
        if line.startswith("StartCharMetrics"):
            in_metrics = True
        elif line.startswith("EndCharMetrics"):
            in_metrics = False
        elif in_metrics:
            fields = dict(
                (part.split(None, 1) + [""])[:2] for part in (p.strip() for p in line.split(";")) if part
            )
            bbox = [int(v) for v in fields["B"].split()]
            glyphs.append((int(fields["C"]), int(fields["WX"]), fields["N"], bbox[3]))
        else:
            key, _, value = line.partition(" ")
            if key in ("FontName", "Version", "Ascender", "Descender", "CapHeight", "XHeight", "ItalicAngle",
                       "StdVW", "IsFixedPitch", "FontBBox", "Notice"):
                header[key] = value.strip()
    return header, glyphs


def win_ansi_names():
    from pdfminer.latin_enc import ENCODING

    names = {}
    for name, _std, _mac, win, _pdf in ENCODING:
        if win is not None and win not in WIN_ANSI_DUPLICATES:
            assert win not in names, f"two glyphs at WinAnsi {win:#04x}"
            names[win] = name
    names.update(WIN_ANSI_DUPLICATES)
    return names


def number(value):
    return str(int(value)) if float(value) == int(float(value)) else str(float(value))


def latin(name):
    """True for a glyph of Latin text or punctuation (the glyphs kept for the twelve text fonts)."""
    from fontTools import agl

    values = agl.LEGACY_AGL2UV.get(name)
    if not values:
        return name in ("fi", "fl", "dotlessi")
    v = values[0]
    return (v < 0x180 or v == 0x192 or 0x2C6 <= v <= 0x2DD or 0x2010 <= v <= 0x2044
            or v in (0x20AC, 0x2122, 0x2202, 0x2206, 0x2211, 0x2212, 0x221A, 0x2260, 0x2264, 0x2265, 0x25CA,
                     0xFB01, 0xFB02))


def urw_widths(path):
    """[(name, width)] of a URW AFM's glyphs."""
    glyphs = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            match = re.match(r"C (-?\d+) ; WX (\d+) ; N (\S+)", line)
            if match:
                glyphs.append((match.group(3), int(match.group(2))))
    return glyphs


def glyph_widths(postscript_name, adobe_glyphs, urw_path):
    """{glyph name: width} of one font: URW's glyphs, then Adobe's widths over them."""
    from fontTools import agl

    symbolic = postscript_name in SYMBOLIC
    table = {}
    for name, width in urw_widths(urw_path):
        if symbolic or latin(name) or name == ".notdef":
            table[name] = width
    if symbolic:
        for _code, width, name, _top in adobe_glyphs:
            table[name] = width
        return table
    # Each Adobe width goes to every AGL name of the glyph's character that is kept.
    aliases = {}
    for name, values in agl.LEGACY_AGL2UV.items():
        if len(values) == 1:
            aliases.setdefault(values[0], []).append(name)
    for _code, width, name, _top in adobe_glyphs:
        values = agl.LEGACY_AGL2UV.get(name)
        if values and len(values) == 1:
            for alias in aliases[values[0]]:
                if alias in table or latin(alias):
                    table[alias] = width
    return table


def wrap(items, width=112):
    """Items separated by spaces, wrapped into lines of at most `width` characters."""
    lines, line = [], ""
    for item in items:
        if line and len(line) + 1 + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(line)
    return lines


def literal(items, indent):
    """A Swift multi-line string literal of `items` separated by spaces and newlines."""
    body = "\n".join(indent + line for line in wrap(items, 120 - len(indent)))
    return f'"""\n{body}\n{indent}"""'


def header(afms, matplotlib_version, afm_versions):
    """The provenance and licence comment every generated file starts with."""
    out = []
    out.append("// Generated by scripts/gen-standard-fonts.py. Do not edit; regenerate with:")
    for line in __doc__.split("Regenerate (from the repository root):\n\n")[1].strip("\n").splitlines():
        out.append("//   " + line[4:].replace("\\\\", "\\"))
    out.append("//")
    out.append("// Metrics: Adobe's Core 14 AFM files, read verbatim from matplotlib "
               f"{matplotlib_version}'s wheel")
    out.append("// (mpl-data/fonts/pdfcorefonts), AFM versions:")
    for start in range(0, len(afm_versions), 4):
        end = "," if start + 4 < len(afm_versions) else "."
        out.append("//   " + ", ".join(afm_versions[start:start + 4]) + end)
    prose = (
        "Widths by glyph name: Adobe's, given to every Adobe Glyph List name of the same character (fontTools "
        f"{importlib.metadata.version('fonttools')} fontTools.agl), completed by the URW base35 AFMs of Debian's "
        "fonts-urw-base35 for glyphs Adobe's lack and .notdef; the text fonts keep only glyphs of Latin text and "
        "punctuation. "
        f"WinAnsiEncoding codes of glyph names: pdfminer.six {importlib.metadata.version('pdfminer.six')} "
        "pdfminer/latin_enc.py (ISO 32000-2 Annex D.2), with space at 0xA0 and hyphen at 0xAD. Unicode values "
        f"of the Symbol and ZapfDingbats built-in encodings: pypdf {importlib.metadata.version('pypdf')} "
        "pypdf/_codecs/symbol.py and zapfding.py (Adobe Glyph List, zapfdingbats.txt), with the Greek letters "
        "Delta and Omega at Symbol's 0x44 and 0x57 (Adobe's symbol.txt). These AFMs carry no descriptor values "
        "for Symbol and ZapfDingbats: their ascent and descent are the FontBBox's; cap height and x-height are "
        "the tops of Alpha and alpha (Symbol) and of a20 (ZapfDingbats, no x-height). Flags follow ISO 32000-2 "
        "Table 121.\n\n"
        "Modified from Adobe's AFM files: the metrics above were extracted into the tables below. The AFM "
        "files' licence (Core 14 AFM Files - ReadMe):"
    )
    for paragraph in prose.split("\n\n"):
        out.extend("// " + line for line in textwrap.wrap(paragraph, 116))
        out.append("//")
    out.pop()
    out.append("//")
    licence = (
        "This file and the 14 PostScript(R) AFM files it accompanies may be used, copied, and distributed for "
        "any purpose and without charge, with or without modification, provided that all copyright notices are "
        "retained; that the AFM files are not distributed without this file; that all modifications to this "
        "file or any of the AFM files are prominently noted in the modified file(s); and that this paragraph is "
        "not modified. Adobe Systems has no responsibility or obligation to support the use of the AFM files."
    )
    line = "//   "
    for word in licence.split():
        if len(line) + len(word) + 1 > 118:
            out.append(line.rstrip())
            line = "//   "
        line += word + " "
    out.append(line.rstrip())
    notices = sorted({parse_afm(afms[name])[0].get("Notice", "") for name, _, _ in FONTS} - {""})
    out.append("//")
    out.append("// Copyright notices of the AFM files:")
    for notice in notices:
        words = notice.split()
        line = "//   "
        for word in words:
            if len(line) + len(word) + 1 > 118:
                out.append(line.rstrip())
                line = "//     "
            line += word + " "
        out.append(line.rstrip())
    out.append("")
    return out


def write(directory, name, lines):
    with open(os.path.join(directory, name), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {name}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", help="a matplotlib wheel (only its pdfcorefonts/*.afm are read)")
    parser.add_argument("--urw", default="/usr/share/fonts/type1/urw-base35", help="the URW base35 AFM folder")
    parser.add_argument("--out", default="Sources/PDFFonts/Standard", help="the folder the Swift files go to")
    arguments = parser.parse_args()

    from pdfminer.encodingdb import name2unicode
    from pdfminer.fontmetrics import FONT_METRICS
    from pypdf._codecs.symbol import _symbol_encoding
    from pypdf._codecs.zapfding import _zapfding_encoding

    afms, matplotlib_version = read_afms(arguments.wheel)
    win_names = win_ansi_names()

    descriptors = []
    name_tables = []
    afm_versions = []
    unicode_tables = {}
    encoding_names = {}
    for postscript_name, case, serif in FONTS:
        header_fields, glyphs = parse_afm(afms[postscript_name])
        assert header_fields["FontName"] == postscript_name
        afm_versions.append(f"{postscript_name} {header_fields['Version']}")
        by_name = {name: (code, width, top) for code, width, name, top in glyphs}
        widths = glyph_widths(postscript_name, glyphs, os.path.join(arguments.urw, URW_FILES[postscript_name] + ".afm"))
        name_tables.append(widths)
        # Adobe's width of each code; StandardFont derives the same from `widths` through the names.
        table = [0] * 256
        names = [None] * 256
        if postscript_name in SYMBOLIC:
            for code, width, name, _top in glyphs:
                if code >= 0:
                    assert width > 0, f"{postscript_name} {name}: zero width"
                    table[code] = width
                    names[code] = name
            encoding = _symbol_encoding if postscript_name == "Symbol" else _zapfding_encoding
            values = [0] * 256
            for code in range(256):
                if table[code]:
                    value = ord(encoding[code])
                    assert value >= 0x20 and not 0x7F <= value <= 0x9F, f"{postscript_name} {code:#04x}: control"
                    values[code] = SYMBOL_GREEK.get(code, value) if postscript_name == "Symbol" else value
            unicode_tables[case] = values
            encoding_names[case] = names
        else:
            for code, name in win_names.items():
                assert name in by_name, f"{postscript_name}: no glyph {name} for WinAnsi {code:#04x}"
                table[code] = by_name[name][1]
                names[code] = name
                assert table[code] > 0
            assert encoding_names.setdefault("winAnsi", names) == names
        derived = [widths.get(name, 0) if name else 0 for name in names]
        for code in range(256):
            assert derived[code] == table[code], (
                f"{postscript_name} {code:#04x} {names[code]}: AFM {table[code]}, by name {derived[code]}")

        flags = SYMBOLIC_FLAG if postscript_name in SYMBOLIC else NONSYMBOLIC
        if header_fields["IsFixedPitch"] == "true":
            flags |= FIXED_PITCH
        if serif:
            flags |= SERIF
        if float(header_fields["ItalicAngle"]) != 0:
            flags |= ITALIC
        bbox = [int(v) for v in header_fields["FontBBox"].split()]
        if postscript_name in HEIGHT_GLYPHS:
            cap_glyph, x_glyph = HEIGHT_GLYPHS[postscript_name]
            ascent, descent = bbox[3], bbox[1]
            cap_height = by_name[cap_glyph][2]
            x_height = by_name[x_glyph][2] if x_glyph else 0
        else:
            ascent, descent = int(header_fields["Ascender"]), int(header_fields["Descender"])
            cap_height, x_height = int(header_fields["CapHeight"]), int(header_fields["XHeight"])
        descriptors.append(
            f'        StandardFontMetrics(\n'
            f'            postScriptName: "{postscript_name}", ascent: {ascent}, descent: {descent}, '
            f'capHeight: {cap_height}, xHeight: {x_height},\n'
            f'            italicAngle: {number(header_fields["ItalicAngle"])}, stemV: {int(header_fields["StdVW"])}, '
            f'flags: {flags}, bbox: [{", ".join(map(str, bbox))}]),'
        )

        # Cross-check with pdfminer's FONT_METRICS (keyed by the Unicode of each glyph name).
        _, old_widths = FONT_METRICS[postscript_name]
        for code, width, name, _top in glyphs:
            if postscript_name == "ZapfDingbats" and re.fullmatch(r"a\d+", name):
                key = chr(int(name[1:]))
            else:
                key = name2unicode(name)
            if old_widths.get(key) != width:
                print(f"note: {postscript_name} {name}: Adobe Core 14 AFM {width}, pdfminer "
                      f"{old_widths.get(key, 'absent')}", file=sys.stderr)

    top = header(afms, matplotlib_version, afm_versions)
    out = list(top)
    out.append("/// Metrics of the standard 14 fonts, in ``StandardFont/Name`` `allCases` order.")
    out.append("enum StandardFontData {")
    out.append("    /// The font descriptor values of each font (ISO 32000-2 §9.8), in glyph space units.")
    out.append("    static let metrics: [StandardFontMetrics] = [")
    out.extend(descriptors)
    out.append("    ]")
    for case, name in (("symbol", "Symbol"), ("zapfDingbats", "ZapfDingbats")):
        out.append("")
        out.append(f"    /// The Unicode value of each code of the {name} built-in encoding; 0 where no glyph.")
        out.append(f"    static let {case}Unicode: [UInt16] = [")
        values = unicode_tables[case]
        for row in range(0, 256, 8):
            out.append("        " + ", ".join(f"0x{v:04X}" for v in values[row:row + 8]) + f",  // 0x{row:02X}")
        out.append("    ]")
    out.append("}")
    write(arguments.out, "StandardFontData.swift", out)

    # The widths by glyph name, in two files of seven fonts to keep each file small.
    for part in (1, 2):
        out = list(top)
        out.append("extension StandardFontData {")
        first = "the first" if part == 1 else "the last"
        out.append(f"    /// Advance widths by glyph name of {first} seven fonts in ``metrics`` order, in glyph space")
        out.append("    /// units: `name=width` entries separated by white space.")
        out.append(f"    static let glyphWidthTexts{part}: [String] = [")
        for (postscript_name, _, _), table in list(zip(FONTS, name_tables))[(part - 1) * 7:part * 7]:
            entries = [f"{name}={width}" for name, width in sorted(table.items())]
            out.append(f"        // {postscript_name}")
            out.append(f"        {literal(entries, '        ')},")
        out.append("    ]")
        out.append("}")
        write(arguments.out, f"StandardFontWidthData{part}.swift", out)


if __name__ == "__main__":
    main()
