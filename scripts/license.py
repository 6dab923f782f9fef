# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
"""The licence header of every source: `scripts/format` adds it where it is missing (after a
script's `#!` line or a manifest's tools version), `scripts/format --check` fails where it is missing.

    python3 scripts/license.py (--check | "") FILE...
"""
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0"
COPYRIGHT = "Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE)."


def header(path):
    """The header's two lines in the file's comment syntax."""
    mark = "//" if path.endswith((".swift", ".c", ".h")) else "#"
    return f"{mark} {SPDX}\n{mark} {COPYRIGHT}\n"


def main(argv):
    # scripts/format passes its own first argument through: "--check" or "".
    check, paths = argv[0] == "--check", argv[1:]
    missing = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if SPDX in "\n".join(text.splitlines()[:3]):
            continue
        missing.append(path)
        if check:
            continue
        lines = text.splitlines(keepends=True)
        # A script's `#!` and a manifest's `// swift-tools-version` must stay the first line.
        shebang = lines.pop(0) if lines and lines[0].startswith(("#!", "// swift-tools-version")) else ""
        # Swift and C keep a blank line between the header and the code; a script's header joins
        # the comment block it opens.
        gap = "\n" if path.endswith((".swift", ".c", ".h")) else ""
        with open(path, "w", encoding="utf-8") as f:
            f.write(shebang + header(path) + gap + "".join(lines))
    if check and missing:
        for path in missing:
            print(f"{path}: no licence header ({SPDX}); run scripts/format", file=sys.stderr)
        sys.exit(1)
    if check:
        print(f"license: {len(paths)} sources carry the header")


main(sys.argv[1:])
