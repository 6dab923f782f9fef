#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
"""Turns a package-benchmark influx export into the comparison: perf/results.md and perf/results.svg.

Benchmark names are "<scenario> [n=<units per run>] <implementation>" (see
Benchmarks/SluiceBenchmarks/SluiceBenchmarks.swift). Every figure is per unit: per element, per
subscription or per send, as the scenario says. All figures come from the one run in the export.
"""
import csv
import datetime
import math
import re
import sys
from collections import defaultdict

IMPLEMENTATIONS = ["loop", "Sluice", "SluiceReference", "OpenCombine", "AsyncSequence"]
COLORS = {"loop": "#888888", "Sluice": "#1f77b4", "SluiceReference": "#9467bd",
          "OpenCombine": "#d62728", "AsyncSequence": "#2ca02c"}


def read(path):
    """Returns {(scenario, n, implementation): {metric: {percentile: value}}} and machine info.

    The influx export gives times in nanoseconds whatever its unit column says (that is the display unit).
    """
    results = defaultdict(lambda: defaultdict(dict))
    machine = {}
    with open(path, newline="") as handle:
        rows = [row for row in csv.reader(handle) if row and not row[0].startswith("#")]
    header = rows[0]
    for row in rows[1:]:
        record = dict(zip(header, row))
        match = re.match(r"(.*) \[n=(\d+)\] (\S+)$", record["test"])
        if not match:
            continue
        key = (match.group(1), int(match.group(2)), match.group(3))
        value = float(record["value"])
        metric = record["metric"].replace(" ", "")
        results[key][metric][float(record["percentile"])] = value
        machine = {k: record[k] for k in ("hostName", "processoryType", "processors", "memory", "kernelVersion")}
    return results, machine


def metric(entry, name, percentile=50.0):
    name = name.replace(" ", "").lower()
    for key, values in entry.items():
        if name in key.lower():
            return values.get(percentile)
    return None


def summarise(results):
    """{scenario: {"n": n, implementation: {"p50": ns/unit, "p90": ..., "mallocs": per unit}}}"""
    table = defaultdict(dict)
    for (scenario, n, implementation), entry in results.items():
        p50 = metric(entry, "wall clock", 50.0)
        p90 = metric(entry, "wall clock", 90.0)
        mallocs = metric(entry, "Malloc (total)", 50.0)
        rss = metric(entry, "resident peak", 50.0)
        table[scenario]["n"] = n
        table[scenario][implementation] = {
            "p50": p50 / n if p50 is not None else None,
            "p90": p90 / n if p90 is not None else None,
            "mallocs": mallocs / n if mallocs is not None else None,
            "rss": rss,
        }
    return dict(sorted(table.items(), key=lambda item: scenario_order(item[0])))


def scenario_order(name):
    """The app pipelines (A1, A2, ...) first, then the numbered scenarios in order."""
    app = re.match(r"A(\d+)", name)
    if app:
        return (-1, int(app.group(1)), "")
    match = re.match(r"(\d+)(\w*)", name)
    return (int(match.group(1)), 0, match.group(2)) if match else (99, 0, name)


def fmt(value, digits=2):
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def markdown(table, machine, mode):
    lines = [
        "# Sluice benchmark results",
        "",
        f"Measured {datetime.date.today().isoformat()} by `scripts/bench{' --quick' if mode == 'quick' else ''}`, "
        f"in one run of package-benchmark (release build, jemalloc as the allocator). Machine: "
        f"{machine.get('processors', '?')} × {machine.get('processoryType', '?')}, {machine.get('memory', '?')} GB, "
        f"Linux {machine.get('kernelVersion', '?')}. Shared and noisy: read medians and ratios, not absolutes.",
        "",
        "Time is the median (p50) wall clock per unit — per element, subscription or send, whichever the "
        "scenario counts — with p90 in brackets; allocations are mallocs per unit (median run). "
        "`Sluice / loop` is how far Sluice is from the hand-written loop; `OpenCombine / Sluice` is how "
        "many times faster Sluice is than OpenCombine 0.14.0.",
        "",
        "| scenario | units/run | loop | Sluice | SluiceReference | OpenCombine | AsyncSequence | Sluice / loop | OpenCombine / Sluice |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for scenario, row in table.items():
        cells = []
        for implementation in IMPLEMENTATIONS:
            entry = row.get(implementation)
            if not entry or entry["p50"] is None:
                cells.append("–")
                continue
            cells.append(f"{fmt(entry['p50'])} ns ({fmt(entry['p90'])})")
        sluice = row.get("Sluice", {}).get("p50")
        loop = row.get("loop", {}).get("p50")
        opencombine = row.get("OpenCombine", {}).get("p50")
        lines.append(f"| {scenario} | {row['n']:,} | " + " | ".join(cells)
                     + f" | {fmt(ratio(sluice, loop))}× | {fmt(ratio(opencombine, sluice), 1)}× |")
    lines += ["", "Allocations per unit (median run):", "",
              "| scenario | " + " | ".join(IMPLEMENTATIONS) + " |",
              "|---|" + "---:|" * len(IMPLEMENTATIONS)]
    for scenario, row in table.items():
        cells = [fmt(row.get(implementation, {}).get("mallocs"), 3) for implementation in IMPLEMENTATIONS]
        lines.append(f"| {scenario} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def svg(table):
    """Grouped horizontal bars of ns per unit on a log scale, one group per scenario."""
    scenarios = list(table.keys())
    bar, gap, left, width = 9, 14, 330, 560
    implementations = [i for i in IMPLEMENTATIONS if any(i in table[s] for s in scenarios)]
    values = [table[s][i]["p50"] for s in scenarios for i in implementations
              if i in table[s] and table[s][i]["p50"]]
    low = 10 ** math.floor(math.log10(min(values)))
    high = 10 ** math.ceil(math.log10(max(values)))
    decades = math.log10(high) - math.log10(low)

    def x(value):
        return left + width * (math.log10(value) - math.log10(low)) / decades

    group = bar * len(implementations) + gap
    height = 60 + group * len(scenarios) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 40}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="18" font-size="13" font-weight="bold">Time per unit (p50, log scale; lower is faster)</text>']
    for power in range(int(math.log10(low)), int(math.log10(high)) + 1):
        position = x(10 ** power)
        out.append(f'<line x1="{position:.1f}" y1="30" x2="{position:.1f}" y2="{height - 35}" stroke="#ddd"/>')
        label = f"{10 ** power:g} ns" if power < 3 else (f"{10 ** (power - 3):g} µs" if power < 6 else f"{10 ** (power - 6):g} ms")
        out.append(f'<text x="{position:.1f}" y="{height - 22}" text-anchor="middle" fill="#555">{label}</text>')
    for index, scenario in enumerate(scenarios):
        top = 35 + index * group
        out.append(f'<text x="{left - 8}" y="{top + bar * len(implementations) / 2 + 4:.1f}" text-anchor="end">{scenario}</text>')
        for slot, implementation in enumerate(implementations):
            entry = table[scenario].get(implementation)
            if not entry or not entry["p50"]:
                continue
            y = top + slot * bar
            out.append(f'<rect x="{left}" y="{y}" width="{max(1.0, x(entry["p50"]) - left):.1f}" height="{bar - 1}" '
                       f'fill="{COLORS[implementation]}"/>')
    legend_y = height - 8
    for slot, implementation in enumerate(implementations):
        lx = left + slot * 110
        out.append(f'<rect x="{lx}" y="{legend_y - 9}" width="10" height="10" fill="{COLORS[implementation]}"/>')
        out.append(f'<text x="{lx + 14}" y="{legend_y}">{implementation}</text>')
    out.append("</svg>")
    return "\n".join(out)


def main():
    source, markdown_path, svg_path, mode = sys.argv[1:5]
    results, machine = read(source)
    if not results:
        sys.exit(f"no benchmark results in {source}")
    table = summarise(results)
    report = markdown(table, machine, mode)
    with open(markdown_path, "w") as handle:
        handle.write(report)
    with open(svg_path, "w") as handle:
        handle.write(svg(table))
    print(report)


if __name__ == "__main__":
    main()
