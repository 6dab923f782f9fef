// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Comparing two interpreters, shrinking a disagreement, and showing it. Shared by the seeded test
// suite and the fuzzer; the interpreters themselves are passed in, so this module imports neither
// implementation.

/// An interpreter: a program in, its trace out.
public typealias Interpreter = (Program) -> [String]

/// A program on which the two implementations disagree, shrunk.
public struct Divergence: Sendable {
    public var original: Program
    public var shrunk: Program
    public var fastTrace: [String]
    public var referenceTrace: [String]
    /// The allow-list entry it matches, if it is a known divergence.
    public var known: KnownDivergence?

    /// The shrunk program as Swift and both traces side by side, first differing line marked.
    public var report: String {
        var out = "Program (shrunk from \(original.ops.count) operators / \(original.steps.count) steps):\n"
        out += shrunk.swift.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        out += "\n\nTraces (Sluice | SluiceReference):\n"
        let width = max(30, (fastTrace.map(\.count).max() ?? 0) + 2)
        let firstDiff =
            fastTrace.indices.first { $0 < referenceTrace.count && fastTrace[$0] != referenceTrace[$0] }
            ?? min(fastTrace.count, referenceTrace.count)
        for i in 0..<max(fastTrace.count, referenceTrace.count) {
            let a = i < fastTrace.count ? fastTrace[i] : ""
            let b = i < referenceTrace.count ? referenceTrace[i] : ""
            let mark = i == firstDiff ? ">>" : (a == b ? "  " : "!=")
            out += "\(mark) " + a + String(repeating: " ", count: max(0, width - a.count)) + "| " + b + "\n"
        }
        if let known { out += "Known divergence: \(known.name)\n" }
        return out
    }
}

public enum Differential {
    /// Runs both; nil when the traces are equal, else the shrunk divergence.
    public static func check(
        _ program: Program, fast: Interpreter, reference: Interpreter, shrinkBudget: Int = 2_000
    ) -> Divergence? {
        if KnownDivergence.trapping.contains(where: { $0.matches(program) }) { return nil }
        guard fast(program) != reference(program) else { return nil }
        let shrunk = program.shrunk(budget: shrinkBudget) { candidate in
            !KnownDivergence.trapping.contains { $0.matches(candidate) } && fast(candidate) != reference(candidate)
        }
        return Divergence(
            original: program, shrunk: shrunk, fastTrace: fast(shrunk), referenceTrace: reference(shrunk),
            known: KnownDivergence.all.first { $0.program == shrunk || $0.matches(shrunk) }
        )
    }
}

/// A divergence between the implementations that is written down and waiting for a decision
/// (see the differential report). The seeded suite and the fuzzer skip a mismatch whose shrunk
/// program is one of these: `program` exactly, or one `matches` recognises as the same defect
/// (random programs shrink to several equivalent minimal forms of one defect).
public struct KnownDivergence: Sendable {
    public var name: String
    /// The shrunk program as first found; the suite checks that it still diverges.
    public var program: Program
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

    public static let all: [KnownDivergence] = []
}
