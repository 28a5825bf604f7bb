#!/usr/bin/env python3
"""Compares Autograph's list of terminal form fields with what pypdf reads.

usage: compare_fields.py OURS.json FILE.pdf [PASSWORD]
OURS.json is the output of `autograph fields --json FILE.pdf`. Prints a JSON object
{"fields": N, "mismatches": [...]} and exits 1 when pypdf and Autograph disagree.
"""
import json
import sys

import pypdf


def kind(field):
    """The field kind from /FT and /Ff, as ISO 32000-2 §12.7.5 defines them."""
    ft = field.get("/FT")
    flags = int(field.get("/Ff", 0) or 0)
    if ft == "/Tx":
        return "text"
    if ft == "/Btn":
        if flags & (1 << 16):
            return "button"
        return "radio" if flags & (1 << 15) else "checkbox"
    if ft == "/Ch":
        return "combo" if flags & (1 << 17) else "list"
    if ft == "/Sig":
        return "signature"
    return "unknown"


def value(field, field_kind):
    v = field.get("/V")
    if field_kind == "signature":
        return v is not None and hasattr(v, "get_object") and isinstance(v.get_object(), dict) or isinstance(v, dict)
    if v is None:
        return None
    v = v.get_object() if hasattr(v, "get_object") else v
    if isinstance(v, list):
        items = [str(item.get_object() if hasattr(item, "get_object") else item) for item in v]
        if field_kind == "list" and len(items) == 1:
            return items[0]
        return items
    if isinstance(v, pypdf.generic.NameObject):
        return str(v)[1:]
    if isinstance(v, pypdf.generic.StreamObject):
        return v.get_data().decode("latin-1")
    return str(v)


def main():
    ours = {f["name"]: f for f in json.load(open(sys.argv[1]))}
    reader = pypdf.PdfReader(sys.argv[2])
    if reader.is_encrypted:
        reader.decrypt(sys.argv[3] if len(sys.argv) > 3 else "")
    theirs = reader.get_fields() or {}
    names = set(theirs)
    # pypdf lists every node; the terminal fields are those no other name extends.
    terminal = {n for n in names if not any(o.startswith(n + ".") for o in names)}
    mismatches = []
    for name in sorted(terminal | set(ours)):
        if name not in ours:
            mismatches.append({"field": name, "problem": "pypdf lists it, Autograph does not"})
            continue
        if name not in terminal:
            if name not in names:
                mismatches.append({"field": name, "problem": "Autograph lists it, pypdf does not"})
            continue
        field_kind = kind(theirs[name])
        if field_kind != ours[name]["type"]:
            mismatches.append({"field": name, "problem": "kind", "pypdf": field_kind, "autograph": ours[name]["type"]})
            continue
        theirs_value = value(theirs[name], field_kind)
        ours_value = ours[name]["value"]
        if field_kind == "signature":
            ours_value = bool(ours_value)
            theirs_value = bool(theirs_value)
        if theirs_value != ours_value and not (theirs_value in (None, "") and ours_value in (None, "")):
            mismatches.append({"field": name, "problem": "value", "pypdf": theirs_value, "autograph": ours_value})
    print(json.dumps({"fields": len(ours), "mismatches": mismatches}, ensure_ascii=False))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
