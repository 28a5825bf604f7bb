#!/usr/bin/env python3
"""Documentation coverage of the public modules, from the symbol graphs scripts/docs extracts.

    python3 scripts/doc-coverage.py .build/docs/symbol-graphs PDFCore PDFForms …

Prints, per module, its public symbols written in our sources and how many lack a doc comment,
then each one that lacks it as file:line and symbol; exits 1 when there is one.

The rule. A public symbol counts when the symbol graph gives it a source location in this
package's Sources/: it is a declaration we wrote, whatever it is (a type, a member, an enum case,
an implementation of `==`, `description` or `init(from:)`). Symbols with no source location are
exempt: the compiler made them (synthesized `Equatable`/`Hashable`/`Codable`/`RawRepresentable`
members, `!=`) or they are a protocol extension's default implementation inherited from another
module (the standard library's `...`, `<=`). A symbol is documented when a non-empty doc comment is
written at its declaration: one the symbol graph copies from the protocol requirement or the
overridden declaration it implements does not count (it says what the requirement means, not what
this declaration does).

docc's own measure (`docc convert --experimental-documentation-coverage`) is not the gate: it
counts the synthesized symbols above as lacking an abstract, counts articles and topic groups, and
names no file or line.
"""

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent

# What may stand between a doc comment and the declaration it documents.
ATTRIBUTE = re.compile(r"^\s*(@\w+(\(.*\))?\s*)*$")


def source_path(uri):
    """The path inside the package of a file:// URI, or None when it is not in Sources/."""
    if not uri or not uri.startswith("file://"):
        return None
    try:
        relative = Path(unquote(uri[len("file://") :])).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return relative.as_posix() if relative.parts[:1] == ("Sources",) else None


_lines = {}


def source_lines(path):
    if path not in _lines:
        _lines[path] = (ROOT / path).read_text(encoding="utf-8").split("\n")
    return _lines[path]


def own_doc_comment(symbol, path):
    """True when a non-empty doc comment is written at the symbol's declaration."""
    doc = symbol.get("docComment")
    if not doc or not any(line.get("text", "").strip() for line in doc.get("lines", [])):
        return False
    if source_path(doc.get("uri")) != path:
        return False  # copied from a requirement or an overridden declaration elsewhere
    last = doc["lines"][-1].get("range", {}).get("end", {}).get("line")
    declaration = symbol["location"]["position"]["line"]
    if last is None or last >= declaration:
        return False
    lines = source_lines(path)
    between = lines[last + 1 : declaration]
    # The declaration's own line may begin with attributes; the lines between may only hold them.
    return all(ATTRIBUTE.match(line) for line in between)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    graphs, modules = Path(sys.argv[1]), sys.argv[2:]
    offenders = []
    totals = defaultdict(int)
    print(f"{'module':<16}{'public':>8}{'undocumented':>14}{'exempt: synthesized':>21}")
    for module in modules:
        seen = set()
        counts = defaultdict(int)
        for graph in sorted((graphs / module).glob("*.symbols.json")):
            for symbol in json.loads(graph.read_text(encoding="utf-8"))["symbols"]:
                precise = symbol["identifier"]["precise"]
                if precise in seen:
                    continue
                seen.add(precise)
                path = source_path(symbol.get("location", {}).get("uri"))
                if path is None:
                    counts["synthesized"] += 1
                    continue
                components = symbol["pathComponents"]
                counts["public"] += 1
                if not own_doc_comment(symbol, path):
                    counts["undocumented"] += 1
                    line = symbol["location"]["position"]["line"] + 1
                    offenders.append((path, line, module, ".".join(components), symbol["kind"]["displayName"]))
        for key, value in counts.items():
            totals[key] += value
        print(f"{module:<16}{counts['public']:>8}{counts['undocumented']:>14}{counts['synthesized']:>21}")
    print(f"{'all':<16}{totals['public']:>8}{totals['undocumented']:>14}{totals['synthesized']:>21}")
    if offenders:
        print(f"doc-coverage: {len(offenders)} public declarations without a doc comment:")
        for path, line, module, name, kind in sorted(offenders):
            print(f"{path}:{line}: {module}.{name} ({kind})")
    if offenders:
        return 1
    print("doc-coverage: every public declaration written in Sources/ has a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
