// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The equivalence check: a user's operator against a specification written with operators that
// exist, over programs of the SluicePrograms language (sources, subscribers' demand scripts,
// steps that drive the source, a second subject and a virtual clock), the first mismatch shrunk
// to the smallest program that still shows it. The project's differential suite compares its two
// implementations with the same programs, run (ProgramRun) and comparison (Differential.compare).
// Written once and compiled against each implementation (see VirtualTime.swift).

import SluicePrograms

#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// What the operator under check and its specification are applied to, in each program.
public struct EquivalenceInput {
    /// The program's source, with its failure type set to `any Error`: a sequence, `Just`,
    /// `Empty`, `Fail`, a subject, a `Future`, a `Deferred` one, or a test upstream that logs the
    /// demand and cancel traffic it gets (so that two operators asking upstream for different
    /// demand differ). The values are small integers.
    public let upstream: AnyPublisher<Int, any Error>
    private let run: ProgramRun
    private let uses: Uses

    fileprivate init(upstream: AnyPublisher<Int, any Error>, run: ProgramRun, uses: Uses) {
        self.upstream = upstream
        self.run = run
        self.uses = uses
    }

    /// A second publisher, for an operator that combines two: a subject the program drives
    /// (values, a finish or a failure, between the other steps). Programs drive it only when an
    /// operator uses it.
    public var other: AnyPublisher<Int, any Error> {
        uses.other = true
        return run.other.eraseToAnyPublisher()
    }

    /// The program's virtual clock, for an operator that runs on a scheduler. Programs advance it
    /// (by 0 to 50 milliseconds, between the other steps, then a second at the end) only when an
    /// operator uses it.
    public var scheduler: VirtualTimeScheduler {
        uses.scheduler = true
        return run.scheduler
    }
}

/// What the two operators were seen to use; the programs drive only that.
private final class Uses {
    var other = false
    var scheduler = false
}

/// What `checkEquivalence` found.
public struct EquivalenceReport: CustomStringConvertible {
    /// How many programs ran (up to the first that told the two apart).
    public let programs: Int
    /// The seed the programs were generated from: the same seed runs the same programs (`nil`:
    /// the programs were given).
    public let seed: UInt64?
    /// The first program on which the two differed, shrunk to the smallest that still shows the
    /// difference, with both traces (`nil`: they agreed on every program).
    public let divergence: Divergence?

    /// Whether the two agreed on every program.
    public var isEquivalent: Bool { divergence == nil }

    /// "equivalent" and how many programs, or the shrunk program as Swift (`operatorUnderTest`
    /// stands for each operator in turn) and the two traces side by side, the first difference
    /// marked `>>`.
    public var description: String {
        let origin = seed.map { " (seed \($0))" } ?? ""
        guard let divergence else { return "equivalent on \(programs) programs\(origin)" }
        return "NOT equivalent: program \(programs)\(origin) tells them apart. In the program below "
            + "`operatorUnderTest` is the candidate (left trace) and then the specification (right trace).\n"
            + divergence.report
    }
}

/// Checks that `candidate`, an operator written by hand, behaves as `specification`, the same
/// operator written with operators that exist, on `programs` generated programs.
///
/// Each program subscribes one or two scripted subscribers (each asks its own demand up front and
/// from each `receive`, may cancel, may request from inside `receive`) to the operator applied to
/// a source, then runs steps: values, a finish or a failure into the source, requests and a cancel
/// from the subscriber, and, when an operator uses them, values into `EquivalenceInput/other` and
/// moves of `EquivalenceInput/scheduler`'s clock. Everything observable goes into a trace: each
/// subscriber's events, the test upstream's demand and cancel traffic, each step, the instant of
/// each event when the clock is used, and whether the run was freed at the end. The two operators
/// must leave the same trace.
///
/// The first program that tells them apart is shrunk (fewer steps, simpler source and demand
/// scripts) while it still does, and reported as Swift with both traces:
///
/// ```swift
/// let report = checkEquivalence(
///     of: { $0.upstream.runningTotal() },
///     to: { $0.upstream.scan(0, +) }
/// )
/// #expect(report.isEquivalent, "\(report)")
/// ```
///
/// - Parameters:
///   - candidate: Applies the operator under check to the program's input.
///   - specification: Applies what it should behave as to the same input.
///   - programs: How many programs to run.
///   - seed: Where the programs come from; the same seed gives the same programs.
public func checkEquivalence<Candidate: Publisher, Specification: Publisher>(
    of candidate: @escaping (EquivalenceInput) -> Candidate,
    to specification: @escaping (EquivalenceInput) -> Specification,
    programs: Int = 500, seed: UInt64 = 1
) -> EquivalenceReport where Candidate.Output == Specification.Output {
    let sides = Sides(candidate, specification)
    var random = SeededRandom(seed: seed)
    return sides.compare(count: max(1, programs), seed: seed) { _ in
        ProgramGenerator.generate(using: &random, applying: sides.operatorUnderTest)
    }
}

/// Checks `candidate` against `specification` on the given programs (a divergence's shrunk
/// program, say, once the candidate is fixed), as `checkEquivalence(of:to:programs:seed:)` does.
public func checkEquivalence<Candidate: Publisher, Specification: Publisher>(
    of candidate: @escaping (EquivalenceInput) -> Candidate,
    to specification: @escaping (EquivalenceInput) -> Specification,
    on programs: [Program]
) -> EquivalenceReport where Candidate.Output == Specification.Output {
    Sides(candidate, specification).compare(count: programs.count, seed: nil) { programs[$0] }
}

/// The two operators as interpreters of programs.
private struct Sides {
    let left: Interpreter
    let right: Interpreter
    /// What the printed programs call them, and what they use.
    let operatorUnderTest: OperatorUnderTest

    init<Candidate: Publisher, Specification: Publisher>(
        _ candidate: @escaping (EquivalenceInput) -> Candidate,
        _ specification: @escaping (EquivalenceInput) -> Specification
    ) {
        let uses = Uses()
        left = interpreter(OperatorHole(make: candidate, uses: uses))
        right = interpreter(OperatorHole(make: specification, uses: uses))
        // One quiet run of each tells whether they use the second subject or the clock.
        let quiet = Program(
            source: .empty(.error), ops: [], subscriber: SubscriberScript(initial: .none, perValue: .none), steps: [])
        _ = (left(quiet), right(quiet))
        operatorUnderTest = OperatorUnderTest(
            name: "operatorUnderTest", usesOther: uses.other, usesScheduler: uses.scheduler,
            output: "\(Candidate.Output.self)", failure: swiftName(Candidate.Failure.self))
    }

    /// Runs `count` programs, `program(i)` for each i, up to the first the two disagree on.
    func compare(count: Int, seed: UInt64?, _ program: (Int) -> Program) -> EquivalenceReport {
        for index in 0..<count {
            let divergence = Differential.compare(program(index), left, right, titles: ("candidate", "specification"))
            if let divergence { return EquivalenceReport(programs: index + 1, seed: seed, divergence: divergence) }
        }
        return EquivalenceReport(programs: count, seed: seed, divergence: nil)
    }
}

/// Runs a program with `hole` as its chain: the trace, and a last line if the run was not freed.
private func interpreter(_ hole: some ProgramChain) -> Interpreter {
    { program in
        let (trace, released) = ProgramRun.run(program, hole)
        return released ? trace : trace + ["(the run was not freed: something still holds the subscriber)"]
    }
}

/// A user's operator in a program's hole.
private struct OperatorHole<Made: Publisher>: ProgramChain {
    let make: (EquivalenceInput) -> Made
    let uses: Uses

    func build<Head: Publisher>(on head: Head, in run: ProgramRun) where Head.Output == Int {
        run.subscribe(make(EquivalenceInput(upstream: failingWithAnyError(head), run: run, uses: uses)))
    }
}

/// A failure type as Swift writes it (`any Error` describes itself as `Error`).
private func swiftName<F: Error>(_ type: F.Type) -> String {
    type == (any Error).self ? "any Error" : "\(type)"
}

/// `head` as an `AnyPublisher<Int, any Error>`.
private func failingWithAnyError<Head: Publisher>(_ head: Head) -> AnyPublisher<Int, any Error>
where Head.Output == Int {
    if let failing = head as? any Publisher<Int, any Error> { return failing.eraseToAnyPublisher() }
    return head.mapError { $0 as any Error }.eraseToAnyPublisher()
}
