#!/usr/bin/env python3
"""Lists the public and open declarations that have no doc comment of their own, or one
without a summary line.

    Scripts/check-doc-comments.py SYMBOL_GRAPH_DIR...

Each directory holds the symbol graphs (*.symbols.json) of one module, extracted with
`swift-symbolgraph-extract -skip-inherited-docs` (Scripts/docs.sh does it), so that a
declaration which only inherits its protocol requirement's comment counts as undocumented.

Counted: every symbol declared in this repository's Sources/ with public or open access,
including the engine's types that Salvo re-exports. Not counted: members the compiler
synthesizes or a type inherits (default implementations, `!=` from Equatable), symbols of
other modules, and extension blocks (`swift.extension`), which are not declarations of
their own.

A comment whose first line is a callout (`- Parameters:`, `- Returns:`, ...) has no summary
and counts as missing.

Exits 1 and prints `path:line: kind name` for each declaration lacking a comment, or 0.
"""

import glob
import json
import os
import sys


def undocumented(directory):
    """Yields (path, line, kind, name) for each public declaration without a comment."""
    seen = set()
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in precise or precise in seen:
                continue
            seen.add(precise)
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            kind = symbol["kind"]["identifier"]
            if kind == "swift.extension":
                continue
            location = symbol.get("location")
            if not location or "/Sources/" not in location.get("uri", ""):
                continue
            comment = [line.get("text", "").strip() for line in symbol.get("docComment", {}).get("lines", [])]
            comment = [text for text in comment if text]
            # A summary line first: a comment that opens with "- Parameters:" or another
            # callout says nothing of what the declaration is for.
            if comment and not comment[0].startswith("- "):
                continue
            source = "Sources/" + location["uri"].split("/Sources/", 1)[1]
            line = location["position"]["line"] + 1
            yield source, line, kind, ".".join(symbol["pathComponents"])


def main(directories):
    if not directories:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    missing = []
    for directory in directories:
        missing.extend(undocumented(directory))
    for source, line, kind, name in sorted(set(missing)):
        print(f"{source}:{line}: {kind} {name} has no doc comment with a summary line")
    if missing:
        print(f"check-doc-comments: {len(set(missing))} public declarations lack a doc comment",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
