#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
"""Compares this run's deterministic counters with the committed baselines (see scripts/bench-check)."""
import collections
import csv
import glob
import json
import os
import re
import sys

# Allocation counts are exact from run to run; a small slack absorbs one-off allocations of the
# runtime (metadata caches). Instruction counts vary by well under 0.1 % (TOOLING.md §7).
MALLOC_TOLERANCE = (0.01, 4)       # relative, absolute: the larger applies
INSTRUCTION_TOLERANCE = (0.02, 0)
# Calls into the runtime's type lookups are exact in the steady state but for a rare cache miss.
LOOKUP_TOLERANCE = (0.0, 4)
# A value scenario whose lookups per unit reach this has a lookup on its value path.
VALUE_PATH_LIMIT = 0.05

# The Swift runtime's entry points that look up or instantiate type metadata, witness tables or key
# paths: a call to one from the program's code (rather than from inside the runtime) is what the
# gate counts. Generic code that is not specialised calls them on every value.
LOOKUP = re.compile(
    r"^swift_(getGenericMetadata|getTypeByMangledName\w*|getTupleTypeMetadata\w*|getFunctionTypeMetadata\w*"
    r"|getAssociatedTypeWitness|getAssociatedConformanceWitness|getWitnessTable|conformsToProtocol\w*"
    r"|getKeyPath\w*|getExistentialTypeMetadata|getExistentialMetatypeMetadata|getMetatypeMetadata"
    r"|getOpaqueTypeMetadata\w*|getOpaqueTypeConformance\w*|getForeignTypeMetadata"
    r"|getCanonicalSpecializedMetadata\w*|getCanonicalPrespecializedGenericMetadata|checkMetadataState)$")


def call_edges(path):
    """Callgrind's call counts of one run: (caller, callee) → calls, names uncompressed."""
    names, edges = {}, collections.Counter()

    def name(field):
        match = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not match:
            return field
        number, spelled = match.groups()
        if spelled is not None:
            names[number] = spelled
        return names.get(number, "?")

    caller = callee = None
    with open(path, errors="replace") as handle:
        for line in handle:
            if line.startswith("fn="):
                caller, callee = name(line[3:].rstrip("\n")), None
            elif line.startswith("cfn="):
                callee = name(line[4:].rstrip("\n"))
            elif line.startswith("calls=") and callee is not None:
                edges[(caller, callee)] += int(line[6:].split()[0])
    return edges


def is_accessor(name):
    """A metadata accessor (`…Ma`) or the compiler's instantiation helper: it says which type was
    looked up, not who needed it."""
    return name.startswith("__swift_instantiate") or re.search(r"Ma$", name) is not None


def lookup_calls(path):
    """The calls into the runtime's lookups from outside the runtime (its C++ and its own entry
    points excluded, so that a lookup counts once however it is served), by callee and by the first
    caller up the stack that is not a metadata accessor (the code that needed the type)."""
    edges = call_edges(path)
    callers = collections.defaultdict(collections.Counter)
    for (caller, callee), calls in edges.items():
        callers[callee][caller] += calls

    def needers(name, depth=0):
        """Who needed what `name` looked up, as shares of its calls (split as its callers called it)."""
        if depth > 4 or not is_accessor(name) or not callers[name]:
            return {name: 1.0}
        total = sum(callers[name].values())
        shares = collections.Counter()
        for caller, calls in callers[name].items():
            for needer, share in needers(caller, depth + 1).items():
                shares[needer] += share * calls / total
        return shares

    found = collections.Counter()
    for (caller, callee), calls in edges.items():
        if LOOKUP.match(callee) and not LOOKUP.match(caller) and "::" not in caller and not caller.startswith("_swift"):
            for needer, share in needers(caller).items():
                found[(callee, needer)] += calls * share
    return collections.Counter({key: round(calls) for key, calls in found.items() if round(calls)})


def lookups(out):
    counts, where = {}, {}
    for path in sorted(glob.glob(f"{out}/callgrind.*.out")):
        key = os.path.basename(path)[len("callgrind."):-len(".out")]
        if key.endswith(".loop"):
            continue
        calls = lookup_calls(path)
        counts[key] = sum(calls.values())
        where[key] = calls
    return counts, where


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


def scenarios(scenarios_txt):
    """name → (units, title, path): path is "values" or "lifecycles" (what a unit goes through)."""
    table = {}
    with open(scenarios_txt) as handle:
        for row in handle:
            name, units, title, path = row.rstrip("\n").split("\t")
            table[name] = (int(units), title, path)
    return table


def table(counts, lookup_counts, scenarios_txt):
    """The per-unit table: each scenario's instructions per unit, its loop's, their ratio, and the
    runtime lookups per unit."""
    lines = [
        "| scenario | units | Sluice | loop | Sluice / loop | lookups per unit |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, (units, title, _) in scenarios(scenarios_txt).items():
        sluice, loop = counts[name] / units, counts[name + "/loop"] / units
        found = lookup_counts.get(name, 0) / units
        lines.append(
            f"| {title} | {units:,} | {sluice:,.1f} | {loop:,.1f} | {sluice / loop:,.2f}× | {found:,.2f} |")
    return "\n".join(lines) + "\n"


def value_paths(lookup_counts, where, scenarios_txt, open_scenarios):
    """The rule on value paths: a scenario whose units are values makes no lookup per value, unless
    perf/baselines/lookups.json lists it as open, with the reason (a scenario in which subscribe and
    cancel paths weigh that much, or work in progress, issue by issue)."""
    failures, notes = [], []
    for name, (units, _, path) in scenarios(scenarios_txt).items():
        per_unit = lookup_counts.get(name, 0) / units
        if path != "values" or per_unit < VALUE_PATH_LIMIT:
            if name in open_scenarios:
                notes.append(f"  closed  lookups {name}: {per_unit:.2f} per value — remove it from the open list")
            continue
        top = ", ".join(f"{callee} ← {caller[:80]} ×{calls}" for (callee, caller), calls in where[name].most_common(3))
        line = f"lookups {name}: {per_unit:.2f} per value ({top})"
        (notes if name in open_scenarios else failures).append(
            ("  open    " if name in open_scenarios else "  VALUE PATH  ") + line)
    return failures, notes


def totals(path):
    with open(path, errors="replace") as handle:
        for line in handle:
            if line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"bench-check: no totals in {path}")


def apps(out, table_md):
    """perf/apps.md: each app pipeline's instructions and lookups per unit on every implementation,
    beside its callback twin (`scripts/bench-check --apps`)."""
    implementations = ["Sluice", "SluiceReference", "OpenCombine"]
    lines = [
        "Instructions per unit of the app pipelines (A1–A7, `Benchmarks/Scenarios/Apps.swift`), each beside\n"
        "the same logic written with callbacks (`Benchmarks/SluiceBenchmarks/Callbacks.swift`), counted by\n"
        "callgrind in the steady state (each run follows one uncounted run), with the calls per unit into\n"
        "the Swift runtime's type lookups in brackets. Written by `scripts/bench-check --apps`.\n",
        "| pipeline | units | callbacks | " + " | ".join(implementations) + " | Sluice / callbacks |",
        "|---|---:|---:|" + "---:|" * len(implementations) + "---:|",
    ]
    for name, (units, title, _) in scenarios(f"{out}/scenarios.txt").items():
        if not name.startswith("app."):
            continue
        cells, per_unit = [], {}
        for run in ["loop"] + implementations:
            path = f"{out}/callgrind.{name}.{run}.out"
            per_unit[run] = totals(path) / units
            found = sum(lookup_calls(path).values()) / units
            cells.append(f"{per_unit[run]:,.0f} ({found:,.2f})")
        lines.append(f"| {title} | {units:,} | " + " | ".join(cells) + f" | {per_unit['Sluice'] / per_unit['loop']:,.1f}× |")
    with open(table_md, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"bench-check: the app table written to {table_md}")


def main():
    if sys.argv[1] == "apps":
        return apps(sys.argv[2], sys.argv[3])
    mode, out, directory, scenarios_txt, table_md = sys.argv[1:6]
    lookup_counts, where = lookups(out)
    now = {
        "mallocs": mallocs(sorted(glob.glob(f"{out}/*.csv"))[0]),
        "instructions": instructions(f"{out}/instructions.txt"),
        "lookups": lookup_counts,
    }
    if not now["mallocs"] or not now["instructions"]:
        sys.exit("bench-check: no measurements found")
    with open(f"{directory}/lookups.json") as handle:
        open_scenarios = json.load(handle).get("open", {})
    if mode == "update":
        for kind, counts in now.items():
            if kind == "lookups":
                counts = {"open": open_scenarios, "calls": counts}
            with open(f"{directory}/{kind}.json", "w") as handle:
                json.dump(counts, handle, indent=2, sort_keys=True)
                handle.write("\n")
        with open(table_md, "w") as handle:
            handle.write(
                "Instructions per unit (element, send, subscription or lifecycle), counted by callgrind in\n"
                "the steady state (each run follows one uncounted run), for Sluice and for the same work as\n"
                "a hand-written loop (for the app pipelines A1–A7, the same logic written with callbacks);\n"
                "and the calls per unit into the Swift runtime's type lookups (`scripts/bench_check.py`'s\n"
                "`LOOKUP`). Written by `scripts/bench-check --update`.\n\n"
                + table(now["instructions"], lookup_counts, scenarios_txt))
        print(f"bench-check: baselines written to {directory}/mallocs.json, instructions.json and lookups.json;"
              f" the table to {table_md}")
        return
    failures, notes = value_paths(lookup_counts, where, scenarios_txt, open_scenarios)
    for kind, unit, tolerance in (("mallocs", "mallocs/run", MALLOC_TOLERANCE),
                                  ("instructions", "instructions", INSTRUCTION_TOLERANCE),
                                  ("lookups", "lookups/run", LOOKUP_TOLERANCE)):
        with open(f"{directory}/{kind}.json") as handle:
            baseline = json.load(handle)
        if kind == "lookups":
            baseline = baseline["calls"]
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
