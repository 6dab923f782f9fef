# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
"""Compares the public API of two modules from their symbol graphs (see scripts/api-check).

A symbol is its kind, its path (`Publishers.Map.upstream`) and its declaration, with what may
differ between two implementations of one API taken out: attributes (`@inlinable`, `@frozen`),
the module's name, a stored `let` against a read-only computed `var`, and generic requirements on
underscored machinery. Publishers' `receive(subscriber:)` is left out: `Publisher` requires it of
every publisher, and the graph lists it or not depending on where its implementation comes from. Symbols
with an underscored name anywhere in their path are machinery, not API, and are left out. The
symbols both modules have must have the same doc comment too.
"""
import glob
import json
import os
import re
import sys


def declaration(symbol, module):
    text = "".join(f["spelling"] for f in symbol.get("declarationFragments", []) if f["kind"] != "attribute")
    text = re.sub(r"\s+", " ", text).strip().replace(module + ".", "")
    text = re.sub(r"^(static )?let ", r"\1var ", text)
    text = re.sub(r" \{ get \}$", "", text)
    head, sep, clause = text.partition(" where ")
    if sep:
        kept = [r for r in clause.split(", ") if not re.search(r"\b_\w", r)]
        text = head + (" where " + ", ".join(kept) if kept else "")
    return text


def doc(symbol):
    """The doc comment's text, lines joined, spacing normalised."""
    lines = [line["text"] for line in symbol.get("docComment", {}).get("lines", [])]
    return re.sub(r"\s+", " ", " ".join(lines)).strip()


def api(directory, module):
    """The module's public API: each symbol (kind, path, declaration) with its doc comment."""
    symbols = {}
    for path in glob.glob(os.path.join(directory, f"{module}.symbols.json")) + \
            glob.glob(os.path.join(directory, f"{module}@*.symbols.json")):
        for symbol in json.load(open(path))["symbols"]:
            components = symbol["pathComponents"]
            if any(c.startswith("_") for c in components):
                continue
            # Every publisher has it (the `Publisher` requirement); whether the graph lists it
            # depends on whether a default implementation in an underscored protocol provides it.
            if components[-1] == "receive(subscriber:)" and symbol["kind"]["identifier"] == "swift.method":
                continue
            key = (symbol["kind"]["identifier"], ".".join(components), declaration(symbol, module))
            # A symbol declared in the module and seen again through an extension keeps its comment.
            symbols[key] = symbols.get(key) or doc(symbol)
    return symbols


def machinery(directory, module):
    """Counts the module's public underscored symbols (declared, not inherited) from a graph
    extracted at the internal access level: the machinery that `@inlinable` code makes public."""
    symbols = []
    for path in glob.glob(os.path.join(directory, f"{module}*.symbols.json")):
        symbols += json.load(open(path))["symbols"]
    public = [s for s in symbols if s["accessLevel"] == "public" and "::SYNTHESIZED::" not in s["identifier"]["precise"]
              and any(c.startswith("_") for c in s["pathComponents"])]
    top = sorted({s["pathComponents"][0] for s in public if s["pathComponents"][0].startswith("_")})
    members = [s for s in public if not s["pathComponents"][0].startswith("_")]
    print(f"api-check: {module}'s public machinery: {len(public)} underscored symbols; top-level names: "
          f"{', '.join(top)}; underscored members of its public types: {len(members)}")


def undocumented(directory, module):
    """Fails when one of the module's own public, non-underscored symbols has no doc comment."""
    symbols = json.load(open(os.path.join(directory, f"{module}.symbols.json")))["symbols"]
    own = [s for s in symbols if "::SYNTHESIZED::" not in s["identifier"]["precise"]
           and not any(c.startswith("_") for c in s["pathComponents"])]
    missing = sorted({".".join(s["pathComponents"]) + f" ({s['kind']['identifier']})" for s in own if not s.get("docComment")})
    for name in missing:
        print(f"  no doc comment: {name}")
    print(f"docs: {module}: {len(own)} public symbols, {len(missing)} without a doc comment")
    sys.exit(1 if missing else 0)


def main():
    if sys.argv[1] == "--undocumented":
        undocumented(*sys.argv[2:4])
        return
    if sys.argv[1] == "--machinery":
        machinery(*sys.argv[2:4])
        return
    directory, first, second = sys.argv[1:4]
    a, b = api(os.path.join(directory, first), first), api(os.path.join(directory, second), second)
    if not a or not b:
        print(f"api-check: no symbols read for {first if not a else second}: was the symbol graph extracted?")
        sys.exit(1)
    only_first, only_second = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    for kind, path, text in only_first:
        print(f"  only in {first}: {path} ({kind}): {text}")
    for kind, path, text in only_second:
        print(f"  only in {second}: {path} ({kind}): {text}")
    # One API, one description: the doc comments of the symbols both have must match.
    drifted = sorted(key for key in a.keys() & b.keys() if a[key] != b[key])
    for kind, path, text in drifted:
        print(f"  doc comments differ: {path} ({kind}): {text}\n    {first}: {a[(kind, path, text)]!r}\n"
              f"    {second}: {b[(kind, path, text)]!r}")
    verdict = "the same" if not (only_first or only_second or drifted) else "different"
    print(f"api-check: {first} and {second}: {len(a)} and {len(b)} public symbols, {len(drifted)} doc comments "
          f"that differ, {verdict}")
    sys.exit(1 if only_first or only_second or drifted else 0)


main()
