// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Thousands of seeded random programs, run on both implementations; their traces must be equal.
//   DIFF_SEED=<n>      replay a run (printed on failure); 1 by default; DIFF_SEED=random for a new one
//   DIFF_PROGRAMS=<n>  how many programs (default 5000)
//   DIFF_ECHO=1        print each program before running it (to find one that traps)
//   DIFF_COLLECT=1     do not stop at the first divergence: report every distinct shrunk one

import DifferentialReference
import DifferentialSluice
import Foundation
import SluicePrograms
import Testing

@Suite("Differential: Sluice vs SluiceReference")
struct DifferentialTests {
    static let environment = ProcessInfo.processInfo.environment

    @Test("seeded random programs produce identical traces")
    func seededPrograms() {
        // A fixed seed by default, so that `swift test` (and CI) is deterministic; exploration is
        // the fuzzer's job (scripts/fuzz), or DIFF_SEED=random here.
        let seed =
            Self.environment["DIFF_SEED"] == "random"
            ? .random(in: 0...UInt64.max) : Self.environment["DIFF_SEED"].flatMap { UInt64($0) } ?? 1
        let count = Self.environment["DIFF_PROGRAMS"].flatMap { Int($0) } ?? 5_000
        var rng = SeededRandom(seed: seed)
        var known = 0
        let collect = Self.environment["DIFF_COLLECT"] == "1"
        var seen: Set<Program> = []
        let echo = Self.environment["DIFF_ECHO"] == "1"
        for index in 0..<count {
            let program = ProgramGenerator.generate(using: &rng)
            if echo {
                print("program #\(index):\n\(program.swift)")
                fflush(nil)
            }
            guard
                let divergence = Differential.check(
                    program, fast: DifferentialSluice.interpret, reference: DifferentialReference.interpret)
            else { continue }
            if divergence.known != nil {
                known += 1
                continue
            }
            if collect {
                if seen.insert(divergence.shrunk).inserted {
                    print("DIVERGENCE #\(seen.count) at program #\(index):\n\(divergence.report)")
                }
                continue
            }
            Issue.record(
                """
                Sluice and SluiceReference disagree on program #\(index) of DIFF_SEED=\(seed) \
                (reproduce: DIFF_SEED=\(seed) swift test --filter DifferentialTests)
                \(divergence.report)
                """)
            return
        }
        if collect && !seen.isEmpty { Issue.record("\(seen.count) distinct divergences (DIFF_SEED=\(seed))") }
        print("Differential: \(count) programs agreed (DIFF_SEED=\(seed), \(known) known divergences skipped)")
    }

    /// A concurrent scheduler may run the actions due at one instant in any order; `delay`,
    /// `receive(on:)` and `subscribe(on:)` keep their order all the same (issue 54). The scheduler
    /// here runs them in seeded random orders: what each subscriber sees, and when, must not change
    /// in either implementation. (How the two subscribers' events, and upstream's requests,
    /// interleave may: their actions are independent of each other.)
    @Test("programs that hop to the scheduler trace the same when its same-instant actions run in any order")
    func hoppingProgramsIgnoreTheOrderOfSameInstantActions() {
        var rng = SeededRandom(seed: 54)
        var checked = 0
        for _ in 0..<60_000 where checked < 400 {
            let program = ProgramGenerator.generate(using: &rng)
            guard program.onlyHopsOnTheScheduler,
                !KnownDivergence.trapping.contains(where: { $0.matches(program) })
            else { continue }
            checked += 1
            let interpreters: [(String, (Program) -> [String], (Program, UInt64) -> [String])] = [
                (
                    "Sluice", DifferentialSluice.interpret,
                    DifferentialSluice.interpret(_:shufflingSameInstantActionsWith:)
                ),
                (
                    "SluiceReference", DifferentialReference.interpret,
                    DifferentialReference.interpret(_:shufflingSameInstantActionsWith:)
                ),
            ]
            for (name, serial, shuffled) in interpreters {
                let expected = Self.subscribersView(serial(program))
                for seed in 1...3 as ClosedRange<UInt64> {
                    let trace = Self.subscribersView(shuffled(program, seed))
                    guard trace == expected else {
                        Issue.record(
                            """
                            \(name): the trace changed with the order of same-instant actions (seed \(seed)):
                            \(program.swift)
                            serial:   \(expected)
                            shuffled: \(trace)
                            """)
                        return
                    }
                }
            }
        }
        #expect(checked >= 100, "only \(checked) programs hop on the scheduler")
    }

    /// Each subscriber's events with their instants, the first subscriber's then the second's.
    static func subscribersView(_ trace: [String]) -> [String] {
        trace.filter { $0.contains(" sub: ") } + trace.filter { $0.contains(" sub2: ") }
    }

    @Test("every known divergence still diverges, so the allow-list cannot hide a fix")
    func knownDivergencesStillDiverge() {
        for entry in KnownDivergence.all {
            if Self.environment["DIFF_SHOW_KNOWN"] == "1",
                let d = Differential.check(
                    entry.program, fast: DifferentialSluice.interpret, reference: DifferentialReference.interpret)
            {
                print("\(entry.name):\n\(d.report)")
            }
            #expect(
                DifferentialSluice.interpret(entry.program) != DifferentialReference.interpret(entry.program),
                "\(entry.name) no longer diverges: remove it from KnownDivergence.all")
        }
    }

    @Test("a run leaves nothing alive behind it, in either implementation")
    func runsReleaseEverything() {
        // One class of program may keep its chain alive, as it would in Combine: an inner failure
        // ends a `flatMap` without cancelling its upstream, so an upstream that still has values
        // (a sequence waiting for demand) and the stages between it and the flatMap hold each
        // other, and nobody is left to cancel them.
        func mayKeepUpstream(_ p: Program) -> Bool {
            p.ops.contains {
                if case .flatMap(_, .fail) = $0 { true } else if case .flatMap(_, .other) = $0 { true } else { false }
            }
        }
        var rng = SeededRandom(seed: 3)
        var checked = 0
        for _ in 0..<3_000 {
            let program = ProgramGenerator.generate(using: &rng)
            if mayKeepUpstream(program) || KnownDivergence.trapping.contains(where: { $0.matches(program) }) {
                continue
            }
            checked += 1
            for (name, run) in [
                ("Sluice", DifferentialSluice.interpretCheckingRelease),
                ("SluiceReference", DifferentialReference.interpretCheckingRelease),
            ]
            where !run(program).released {
                let shrunk = program.shrunk(budget: 500) { !run($0).released }
                Issue.record(
                    "\(name) keeps a run alive after it ended (a reference cycle or a pending action):\n\(shrunk.swift)"
                )
                return
            }
        }
        #expect(checked > 2_000)
    }

    @Test("normalization is idempotent and printing is deterministic")
    func normalization() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let p = ProgramGenerator.generate(using: &rng)
            #expect(p.normalized() == p)
            #expect(p.swift == p.normalized().swift)
        }
    }

    @Test("the interpreter sees what a hand-written chain does")
    func interpreterSmokeTest() {
        let program = Program(
            source: .sequence([1, 2, 3, 4], .never),
            ops: [.erase, .map(.double), .handleEvents, .filter(.greaterThanThree)],
            subscriber: SubscriberScript(initial: .max(1), perValue: .none),
            steps: [.request(.max(2))]
        )
        let trace = DifferentialReference.interpret(program)
        #expect(trace.contains("sub: value(4)"))
        #expect(trace.contains("h2: request(.max(1))"))
        #expect(DifferentialSluice.interpret(program) == trace)
    }

    @Test("two subscribers of one subject are served in subscription order, in one trace")
    func twoSubscribers() {
        let program = Program(
            source: .replay(1), ops: [.map(.double)],
            subscriber: SubscriberScript(initial: .unlimited, perValue: .none),
            secondSubscriber: SubscriberScript(initial: .max(1), perValue: .none),
            steps: [.send(1), .send(2), .request(.max(1)), .finish]
        )
        let trace = DifferentialReference.interpret(program)
        let deliveries = trace.filter { $0.hasPrefix("sub") }
        #expect(
            deliveries == [
                "sub: subscription", "sub2: subscription", "sub: value(2)", "sub2: value(2)", "sub: value(4)",
                "sub: finished",
            ], "the second subscriber has no demand for 4, so the completion waits behind it")
        #expect(DifferentialSluice.interpret(program) == trace)
        #expect(program.swift.contains("pipeline.subscribe(recorder2)"))
    }
}
