// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Comparing two interpreters of a program, shrinking a disagreement, and showing it: Sluice
// against SluiceReference in the project's differential suite and fuzzer, a user's operator
// against its specification in SluiceTesting's `checkEquivalence`. The interpreters are passed in,
// so this module imports no implementation.

/// An interpreter: a program in, its trace out.
public typealias Interpreter = (Program) -> [String]

/// A program on which two interpreters disagree, shrunk.
public struct Divergence: Sendable {
    /// The program as first found diverging.
    public var original: Program
    /// The smallest program found on which the traces still differ.
    public var shrunk: Program
    /// What the two interpreters are called, left first.
    public var titles: (left: String, right: String)
    /// The left interpreter's trace of the shrunk program.
    public var leftTrace: [String]
    /// The right interpreter's trace of the shrunk program.
    public var rightTrace: [String]
    /// The allow-list entry it matches, if it is a known divergence.
    public var known: KnownDivergence?

    /// The shrunk program as Swift and both traces side by side, first differing line marked.
    public var report: String {
        let operators = original.ops.isEmpty ? "" : "\(original.ops.count) operators / "
        var out = "Program (shrunk from \(operators)\(original.steps.count) steps):\n"
        out += shrunk.swift.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        out += "\n\nTraces (\(titles.left) | \(titles.right)):\n"
        let width = max(30, (leftTrace.map(\.count).max() ?? 0) + 2)
        let firstDiff =
            leftTrace.indices.first { $0 < rightTrace.count && leftTrace[$0] != rightTrace[$0] }
            ?? min(leftTrace.count, rightTrace.count)
        for i in 0..<max(leftTrace.count, rightTrace.count) {
            let a = i < leftTrace.count ? leftTrace[i] : ""
            let b = i < rightTrace.count ? rightTrace[i] : ""
            let mark = i == firstDiff ? ">>" : (a == b ? "  " : "!=")
            out += "\(mark) " + a + String(repeating: " ", count: max(0, width - a.count)) + "| " + b + "\n"
        }
        if let known { out += "Known divergence: \(known.name)\n" }
        return out
    }
}

/// Runs a program through two interpreters and, when their traces differ, shrinks it.
public enum Differential {
    /// Runs both interpreters; nil when their traces are equal, else the divergence shrunk to the
    /// smallest program on which they still differ. Programs `skip` holds for are not run, and the
    /// shrinker does not step onto them.
    public static func compare(
        _ program: Program, _ left: Interpreter, _ right: Interpreter, titles: (left: String, right: String),
        skipping skip: (Program) -> Bool = { _ in false }, known: [KnownDivergence] = [], shrinkBudget: Int = 2_000
    ) -> Divergence? {
        if skip(program) { return nil }
        guard left(program) != right(program) else { return nil }
        let shrunk = program.shrunk(budget: shrinkBudget) { candidate in
            !skip(candidate) && left(candidate) != right(candidate)
        }
        return Divergence(
            original: program, shrunk: shrunk, titles: titles, leftTrace: left(shrunk), rightTrace: right(shrunk),
            known: known.first { $0.program == shrunk || $0.matches(shrunk) }
        )
    }

    /// Sluice (`fast`) against SluiceReference, skipping the programs known to trap and naming the
    /// known divergences.
    public static func check(
        _ program: Program, fast: Interpreter, reference: Interpreter, shrinkBudget: Int = 2_000
    ) -> Divergence? {
        compare(
            program, fast, reference, titles: ("Sluice", "SluiceReference"),
            skipping: { p in KnownDivergence.trapping.contains { $0.matches(p) } }, known: KnownDivergence.all,
            shrinkBudget: shrinkBudget)
    }
}

/// A divergence between the implementations that is written down and waiting for a decision
/// (see the differential report). The seeded suite and the fuzzer skip a mismatch whose shrunk
/// program is one of these: `program` exactly, or one `matches` recognises as the same defect
/// (random programs shrink to several equivalent minimal forms of one defect).
public struct KnownDivergence: Sendable {
    /// What the defect is called in reports.
    public var name: String
    /// The shrunk program as first found; the suite checks that it still diverges.
    public var program: Program
    /// Whether a shrunk program is another form of the same defect.
    public var matches: @Sendable (Program) -> Bool

    /// Programs that trap (an API violation one implementation or both catch), so the process
    /// would die before any trace could be compared: programs that `matches` are not run at all.
    public static let trapping: [KnownDivergence] = [
        // Not a divergence: both implementations trap, as Combine does. `replaceEmpty` asks upstream
        // for `.unlimited` and passes values on regardless of downstream's demand (Combine's
        // behaviour), and `replaceError`, `catch` and `retry`, which count demand, trap on the overrun
        // ("ReplaceError received a value from upstream while downstream had no outstanding demand").
        // A trap ends the process, so such programs are not run.
        KnownDivergence(
            name: "replaceEmptyOverrunsADemandCounterInBoth",
            program: Program(
                source: .sequence([8], .never), ops: [.erase, .replaceEmpty(3), .replaceError(-1)],
                subscriber: SubscriberScript(initial: .none, perValue: .max(1)), steps: []),
            matches: { p in
                guard let first = p.ops.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } })
                else { return false }
                return p.ops[first...].contains {
                    switch $0 {
                    case .replaceError, .catchWith, .retry: true
                    default: false
                    }
                }
            }
        )
    ]

    /// The known divergences between Sluice and SluiceReference, which `check` names.
    public static let all: [KnownDivergence] = []
}
