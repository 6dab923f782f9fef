#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
"""Compares this run's deterministic counters with the committed baselines (see scripts/bench-check)."""
import csv
import json
import re
import sys

# Allocation counts are exact from run to run; a small slack absorbs one-off allocations of the
# runtime (metadata caches). Instruction counts vary by well under 0.1 % (TOOLING.md §7).
MALLOC_TOLERANCE = (0.01, 4)       # relative, absolute: the larger applies
INSTRUCTION_TOLERANCE = (0.02, 0)


def mallocs(path):
    counts = {}
    with open(path, newline="") as handle:
        rows = [row for row in csv.reader(handle) if row and not row[0].startswith("#")]
    header = rows[0]
    for row in rows[1:]:
        record = dict(zip(header, row))
        if record["metric"].replace(" ", "").lower() == "malloc(total)" and float(record["percentile"]) == 50.0:
            name = re.sub(r" Sluice$", "", record["test"])
            counts[name] = int(float(record["value"]))
    return counts


def instructions(path):
    counts = {}
    with open(path) as handle:
        for line in handle:
            name, _, total = line.strip().rpartition(" ")
            if name and total.isdigit():
                counts[name] = int(total)
    return counts


def compare(kind, unit, now, baseline, tolerance):
    failures, notes = [], []
    for name in sorted(set(now) | set(baseline)):
        if name not in baseline:
            notes.append(f"  new     {kind} {name}: {now[name]:,} {unit} (no baseline yet)")
            continue
        if name not in now:
            failures.append(f"  MISSING {kind} {name}: baseline {baseline[name]:,} {unit}, not measured in this run")
            continue
        old, new = baseline[name], now[name]
        slack = max(old * tolerance[0], tolerance[1])
        change = (new - old) / old * 100 if old else 0.0
        line = f"{kind} {name}: baseline {old:,} {unit}, now {new:,} ({change:+.2f} %)"
        if new > old + slack:
            failures.append("  REGRESSION  " + line)
        elif new < old - slack:
            notes.append("  improvement " + line + " — run scripts/bench-check --update and commit the baselines")
        else:
            notes.append("  ok          " + line)
    return failures, notes


def table(counts, scenarios_txt):
    """The per-unit table: each scenario's instructions per unit, its loop's, and their ratio."""
    lines = [
        "| scenario | units | Sluice | loop | Sluice / loop |",
        "|---|---:|---:|---:|---:|",
    ]
    with open(scenarios_txt) as handle:
        for row in handle:
            name, units, title = row.rstrip("\n").split("\t")
            sluice, loop = counts[name] / int(units), counts[name + "/loop"] / int(units)
            lines.append(f"| {title} | {int(units):,} | {sluice:,.1f} | {loop:,.1f} | {sluice / loop:,.2f}× |")
    return "\n".join(lines) + "\n"


def main():
    mode, malloc_csv, instruction_txt, directory, scenarios_txt, table_md = sys.argv[1:7]
    now = {"mallocs": mallocs(malloc_csv), "instructions": instructions(instruction_txt)}
    if not now["mallocs"] or not now["instructions"]:
        sys.exit("bench-check: no measurements found")
    if mode == "update":
        for kind, counts in now.items():
            with open(f"{directory}/{kind}.json", "w") as handle:
                json.dump(counts, handle, indent=2, sort_keys=True)
                handle.write("\n")
        with open(table_md, "w") as handle:
            handle.write(
                "Instructions per unit (element, send, subscription or lifecycle), counted by callgrind in\n"
                "the steady state (each run follows one uncounted run), for Sluice and for the same work as\n"
                "a hand-written loop. Written by `scripts/bench-check --update`.\n\n" + table(now["instructions"], scenarios_txt))
        print(f"bench-check: baselines written to {directory}/mallocs.json and {directory}/instructions.json;"
              f" the table to {table_md}")
        return
    failures, notes = [], []
    for kind, unit, tolerance in (("mallocs", "mallocs/run", MALLOC_TOLERANCE),
                                  ("instructions", "instructions", INSTRUCTION_TOLERANCE)):
        with open(f"{directory}/{kind}.json") as handle:
            baseline = json.load(handle)
        f, n = compare(kind, unit, now[kind], baseline, tolerance)
        failures += f
        notes += n
    print("\n".join(notes))
    if failures:
        print("\n".join(failures))
        print(f"bench-check: {len(failures)} regression(s)")
        sys.exit(1)
    print("bench-check: no regression")


if __name__ == "__main__":
    main()
