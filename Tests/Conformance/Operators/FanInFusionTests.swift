// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// `flatMap`, `switchToLatest` and the merges over synchronous upstreams, seen by a consumer that
/// asks for `.unlimited` at once (`sink`, the folds). Sluice runs such a chain as one loop; whatever
/// an implementation does, every closure call and every event must be what the operators do over
/// subscribed upstreams: each case states that log as a fixed trace, and both the chain and the same
/// chain with its sources behind `eraseToAnyPublisher()` (subscribed, never fused) must write it. The
/// sources write each pull in the log, peeks included, so a cursor made at another moment than the
/// subscription would be shows too. (The traces are Combine's order, as OpenCombine's suite and the
/// differential suite pin it; under the reference both runs are subscribed.)
@Suite struct FanInFusionTests {
    final class Log {
        var lines: [String] = []

        func callAsFunction(_ line: String) { lines.append(line) }
    }

    /// A source that logs every element taken from it.
    static func source(_ name: String, _ values: [Int], _ log: Log)
        -> Publishers.Sequence<LazyMapSequence<[Int], Int>, TestError>
    {
        Publishers.Sequence(
            sequence: values.lazy.map { value in
                log("\(name) \(value)")
                return value
            })
    }

    /// A source that fails after its values (or finishes, if not `fails`).
    static func failing(_ name: String, _ values: [Int], _ log: Log, fails: Bool = true)
        -> Publishers.Concatenate<Publishers.Sequence<LazyMapSequence<[Int], Int>, TestError>, Record<Int, TestError>>
    {
        source(name, values, log).append(Record(output: [], completion: fails ? .failure(.oops) : .finished))
    }

    /// What `sink` and a fold (`collect()`) see of the chain `make` builds, with the log of its closures.
    static func run<P: Publisher>(_ make: (Log) -> P) -> [String] where P.Output == Int {
        let log = Log()
        let token = make(log).sink(receiveCompletion: { log("sink \($0)") }, receiveValue: { log("sink \($0)") })
        log("returned")
        token.cancel()
        let foldToken = make(log).collect().sink(
            receiveCompletion: { log("fold \($0)") }, receiveValue: { log("fold \($0)") })
        log("returned")
        foldToken.cancel()
        return log.lines
    }

    /// Expects the fused chain and the erased one each to log `trace` (one event a line: what the
    /// chain does in Combine, subscribed), and returns the fused log.
    @discardableResult
    static func expectSame<P: Publisher, Q: Publisher>(
        _ fused: (Log) -> P, _ erased: (Log) -> Q, trace: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] where P.Output == Int, Q.Output == Int {
        let expected = trace.split(separator: "\n").map(String.init)
        let fast = run(fused)
        let oracle = run(erased)
        #expect(fast == expected, "fused", sourceLocation: sourceLocation)
        #expect(oracle == expected, "erased", sourceLocation: sourceLocation)
        return fast
    }

    // MARK: flatMap

    static func flatMapJust<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream.flatMap { value in
            Just(value * 10).setFailureType(to: TestError.self).map { inner in
                log("inner \(inner)")
                return inner
            }
        }
    }

    @Test func flatMapOverJust() {
        Self.expectSame(
            { Self.flatMapJust(Self.source("a", [1, 2, 3], $0), $0) },
            { Self.flatMapJust(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                inner 10
                sink 10
                a 3
                inner 20
                sink 20
                inner 30
                sink 30
                sink finished
                returned
                a 1
                a 2
                inner 10
                a 3
                inner 20
                inner 30
                fold [10, 20, 30]
                fold finished
                returned
                """)
        #if !SLUICE_REFERENCE
        let log = Log()
        #expect(type(of: Self.flatMapJust(Self.source("a", [], log), log))._isFusable)
        #endif
    }

    static func flatMapSequences<U: Publisher>(
        _ upstream: U, _ log: Log, failAt: Int? = nil, maxPublishers: Subscribers.Demand = .unlimited
    )
        -> some Publisher<Int, TestError> where U.Output == Int, U.Failure == TestError
    {
        upstream.flatMap(maxPublishers: maxPublishers) { Self.inner($0, log, failAt: failAt) }
    }

    /// The inner publisher of `value`: two values, failing at `failAt`.
    static func inner(_ value: Int, _ log: Log, failAt: Int?) -> some Publisher<Int, TestError> {
        Self.source("inner\(value)", [value * 10, value * 10 + 1], log).tryMap { inner -> Int in
            if inner == failAt { throw TestError.other }
            return inner
        }.mapError { $0 as! TestError }
    }

    @Test func flatMapOverSequences() {
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0), $0) },
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink 21
                inner3 30
                inner3 31
                sink 30
                sink 31
                sink finished
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                inner3 30
                inner3 31
                fold [10, 11, 20, 21, 30, 31]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0), $0).prefix(3) },
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0).prefix(3) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink finished
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                fold [10, 11, 20]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [], $0), $0) },
            { Self.flatMapSequences(Self.source("a", [], $0).eraseToAnyPublisher(), $0) },
            trace: """
                sink finished
                returned
                fold []
                fold finished
                returned
                """)
        // Empty inners.
        Self.expectSame(
            { log in Self.source("a", [0, 1, 0], log).flatMap { Self.source("inner", $0 == 0 ? [] : [$0], log) } },
            { log in
                Self.source("a", [0, 1, 0], log).eraseToAnyPublisher().flatMap {
                    Self.source("inner", $0 == 0 ? [] : [$0], log)
                }
            },
            trace: """
                a 0
                a 1
                a 0
                inner 1
                sink 1
                sink finished
                returned
                a 0
                a 1
                a 0
                inner 1
                fold [1]
                fold finished
                returned
                """)
    }

    @Test func flatMapFailures() {
        let inner = Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0), $0, failAt: 21) },
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0, failAt: 21) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink failure(other)
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                fold failure(other)
                returned
                """)
        #expect(inner.contains("sink failure(other)"))
        // As Combine's, flatMap leaves upstream be when an inner publisher fails.
        let onward = Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3, 4], $0), $0, failAt: 21) },
            { Self.flatMapSequences(Self.source("a", [1, 2, 3, 4], $0).eraseToAnyPublisher(), $0, failAt: 21) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink failure(other)
                a 4
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                fold failure(other)
                a 4
                returned
                """)
        #expect((onward.firstIndex(of: "a 4") ?? 0) > (onward.firstIndex(of: "sink failure(other)") ?? .max))
        let upstream = Self.expectSame(
            { Self.flatMapSequences(Self.failing("a", [1, 2], $0), $0) },
            { Self.flatMapSequences(Self.failing("a", [1, 2], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                inner2 20
                inner2 21
                sink 20
                sink 21
                sink failure(oops)
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                inner2 20
                inner2 21
                fold failure(oops)
                returned
                """)
        #expect(upstream.contains("sink failure(oops)"))
        Self.expectSame(
            { Self.flatMapJust(Self.failing("a", [], $0), $0) },
            { Self.flatMapJust(Self.failing("a", [], $0).eraseToAnyPublisher(), $0) },
            trace: """
                sink failure(oops)
                returned
                fold failure(oops)
                returned
                """)
    }

    @Test func flatMapWithMaxPublishers() {
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0), $0, maxPublishers: .max(1)) },
            {
                Self.flatMapSequences(
                    Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0, maxPublishers: .max(1))
            },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink 21
                inner3 30
                inner3 31
                sink 30
                sink 31
                sink finished
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                inner3 30
                inner3 31
                fold [10, 11, 20, 21, 30, 31]
                fold finished
                returned
                """)
        // Asking upstream for nothing, the stream never starts, fused or not.
        let starved = Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0), $0, maxPublishers: .none) },
            { Self.flatMapSequences(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0, maxPublishers: .none) },
            trace: """
                a 1
                returned
                a 1
                returned
                """)
        #expect(!starved.contains { $0.hasPrefix("sink") || $0.hasPrefix("fold") })
    }

    @Test(arguments: [false, true])
    func aStarvedSinkKeepsItsClosuresUntilCancelled(stagesOnTop: Bool) {
        final class Witness {}
        weak var witness: Witness?
        var token: AnyCancellable?
        var received = 0
        do {
            let object = Witness()
            witness = object
            let starved = [1, 2].publisher.flatMap(maxPublishers: .none) { Just($0) }
            let receive: (Int) -> Void = { _ in withExtendedLifetime(object) { received += 1 } }
            // Stages on top pass the starved chain's answer up through their own `_forEach`.
            token =
                stagesOnTop
                ? starved.map { $0 &+ 1 }.filter { _ in true }.sink(receiveValue: receive)
                : starved.sink(receiveValue: receive)
        }
        #expect(witness != nil)
        token?.cancel()
        #expect(witness == nil)
        #expect(received == 0)
    }

    // MARK: switchToLatest

    static func switching<U: Publisher>(_ upstream: U, _ log: Log, failAt: Int? = nil) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream.map { Self.inner($0, log, failAt: failAt) }.switchToLatest()
    }

    @Test func switchToLatestOverSynchronousInners() {
        Self.expectSame(
            { Self.switching(Self.source("a", [1, 2, 3], $0), $0) },
            { Self.switching(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink 21
                inner3 30
                inner3 31
                sink 30
                sink 31
                sink finished
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                inner3 30
                inner3 31
                fold [10, 11, 20, 21, 30, 31]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.switching(Self.source("a", [1, 2, 3], $0), $0).prefix(4) },
            { Self.switching(Self.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0).prefix(4) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink 20
                sink 21
                sink finished
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                fold [10, 11, 20, 21]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.switching(Self.source("a", [1, 2, 3, 4], $0), $0, failAt: 20) },
            { Self.switching(Self.source("a", [1, 2, 3, 4], $0).eraseToAnyPublisher(), $0, failAt: 20) },
            trace: """
                a 1
                a 2
                inner1 10
                inner1 11
                sink 10
                sink 11
                a 3
                inner2 20
                inner2 21
                sink failure(other)
                returned
                a 1
                a 2
                inner1 10
                inner1 11
                a 3
                inner2 20
                inner2 21
                fold failure(other)
                returned
                """)
        Self.expectSame(
            { Self.switching(Self.failing("a", [1], $0), $0) },
            { Self.switching(Self.failing("a", [1], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                inner1 10
                inner1 11
                sink 10
                sink 11
                sink failure(oops)
                returned
                a 1
                inner1 10
                inner1 11
                fold failure(oops)
                returned
                """)
        Self.expectSame(
            { Self.switching(Self.source("a", [], $0), $0) },
            { Self.switching(Self.source("a", [], $0).eraseToAnyPublisher(), $0) },
            trace: """
                sink finished
                returned
                fold []
                fold finished
                returned
                """)
        let just = Self.expectSame(
            { log in Self.source("a", [1, 2], log).map { Just($0).setFailureType(to: TestError.self) }.switchToLatest()
            },
            { log in
                Self.source("a", [1, 2], log).eraseToAnyPublisher().map { Just($0).setFailureType(to: TestError.self) }
                    .switchToLatest()
            },
            trace: """
                a 1
                a 2
                sink 1
                sink 2
                sink finished
                returned
                a 1
                a 2
                fold [1, 2]
                fold finished
                returned
                """)
        #expect(just.prefix(6) == ["a 1", "a 2", "sink 1", "sink 2", "sink finished", "returned"])
        #if !SLUICE_REFERENCE
        let log = Log()
        #expect(type(of: Self.switching(Self.source("a", [], log), log))._isFusable)
        #endif
    }

    // MARK: merge

    @Test func mergeOfOneType() {
        Self.expectSame(
            { Self.source("a", [1, 2], $0).merge(with: Self.source("b", [3], $0), Self.source("c", [4, 5], $0)) },
            {
                Self.source("a", [1, 2], $0).eraseToAnyPublisher().merge(
                    with: Self.source("b", [3], $0), Self.source("c", [4, 5], $0))
            },
            trace: """
                a 1
                a 2
                sink 1
                sink 2
                b 3
                sink 3
                c 4
                c 5
                sink 4
                sink 5
                sink finished
                returned
                a 1
                a 2
                b 3
                c 4
                c 5
                fold [1, 2, 3, 4, 5]
                fold finished
                returned
                """)
        let many = Self.expectSame(
            {
                Publishers.MergeMany([
                    Self.source("a", [1], $0), Self.source("b", [], $0), Self.source("c", [2, 3], $0),
                ])
            },
            {
                Publishers.MergeMany(
                    [Self.source("a", [1], $0), Self.source("b", [], $0), Self.source("c", [2, 3], $0)].map {
                        $0.eraseToAnyPublisher()
                    })
            },
            trace: """
                a 1
                sink 1
                c 2
                c 3
                sink 2
                sink 3
                sink finished
                returned
                a 1
                c 2
                c 3
                fold [1, 2, 3]
                fold finished
                returned
                """)
        #expect(many.contains("sink 3"))
        Self.expectSame(
            { Publishers.MergeMany([Self.source("a", [1], $0)]).prefix(0) },
            { Publishers.MergeMany([Self.source("a", [1], $0).eraseToAnyPublisher()]).prefix(0) },
            trace: """
                a 1
                sink finished
                returned
                a 1
                fold []
                fold finished
                returned
                """)
        Self.expectSame(
            { _ in Publishers.MergeMany([Publishers.Sequence<[Int], TestError>]()) },
            { _ in Publishers.MergeMany([AnyPublisher<Int, TestError>]()) },
            trace: """
                sink finished
                returned
                fold []
                fold finished
                returned
                """)
        #if !SLUICE_REFERENCE
        #expect(Publishers.MergeMany<Publishers.Sequence<[Int], Never>>._isFusable)
        #endif
    }

    /// Eight upstreams of three types: `a`, a `Just`, and six sources of which the one at `failing`
    /// fails after its value.
    static func mergeOfEight<P: Publisher>(_ a: P, _ log: Log, failing: Int? = nil) -> some Publisher<Int, TestError>
    where P.Output == Int, P.Failure == TestError {
        func side(_ index: Int)
            -> Publishers.Concatenate<
                Publishers.Sequence<LazyMapSequence<[Int], Int>, TestError>, Record<Int, TestError>
            >
        {
            Self.failing("u\(index)", [index * 10], log, fails: index == failing)
        }
        return Publishers.Merge8(
            a, Just(99).setFailureType(to: TestError.self), side(2), side(3), side(4), side(5), side(6), side(7))
    }

    @Test func mergeOfSeveralTypes() {
        let two = Self.expectSame(
            { Self.source("a", [1, 2], $0).merge(with: Just(3).setFailureType(to: TestError.self)) },
            {
                Self.source("a", [1, 2], $0).eraseToAnyPublisher().merge(
                    with: Just(3).setFailureType(to: TestError.self))
            },
            trace: """
                a 1
                a 2
                sink 1
                sink 2
                sink 3
                sink finished
                returned
                a 1
                a 2
                fold [1, 2, 3]
                fold finished
                returned
                """)
        #expect(two.prefix(6) == ["a 1", "a 2", "sink 1", "sink 2", "sink 3", "sink finished"])
        let eight = Self.expectSame(
            { Self.mergeOfEight(Self.source("a", [1], $0), $0) },
            { Self.mergeOfEight(Self.source("a", [1], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                sink 1
                sink 99
                u2 20
                sink 20
                u3 30
                sink 30
                u4 40
                sink 40
                u5 50
                sink 50
                u6 60
                sink 60
                u7 70
                sink 70
                sink finished
                returned
                a 1
                u2 20
                u3 30
                u4 40
                u5 50
                u6 60
                u7 70
                fold [1, 99, 20, 30, 40, 50, 60, 70]
                fold finished
                returned
                """)
        #expect(
            eight.filter { $0.hasPrefix("sink") } == ["sink 1", "sink 99"] + (2...7).map { "sink \($0 * 10)" } + [
                "sink finished"
            ])
        #if !SLUICE_REFERENCE
        let log = Log()
        #expect(type(of: Self.mergeOfEight(Self.source("a", [1], log), log))._isFusable)
        #endif
    }

    @Test func aMergeEndedEarlyStillSubscribesItsLaterUpstreams() {
        // A failure in the middle: the upstreams after it are subscribed (and peek) after the failure.
        let failure = Self.expectSame(
            { Self.source("a", [1], $0).merge(with: Self.failing("b", [2], $0), Self.source("c", [3], $0)) },
            {
                Self.source("a", [1], $0).eraseToAnyPublisher().merge(
                    with: Self.failing("b", [2], $0), Self.source("c", [3], $0))
            },
            trace: """
                a 1
                sink 1
                b 2
                sink 2
                sink failure(oops)
                c 3
                returned
                a 1
                b 2
                fold failure(oops)
                c 3
                returned
                """)
        #expect(failure.prefix(7) == ["a 1", "sink 1", "b 2", "sink 2", "sink failure(oops)", "c 3", "returned"])
        // Cut by `prefix`: likewise.
        let cut = Self.expectSame(
            { Self.source("a", [1, 2], $0).merge(with: Self.source("b", [3], $0)).prefix(1) },
            { Self.source("a", [1, 2], $0).eraseToAnyPublisher().merge(with: Self.source("b", [3], $0)).prefix(1) },
            trace: """
                a 1
                a 2
                sink 1
                sink finished
                b 3
                returned
                a 1
                a 2
                fold [1]
                fold finished
                b 3
                returned
                """)
        #expect(cut.prefix(5) == ["a 1", "a 2", "sink 1", "sink finished", "b 3"])
        Self.expectSame(
            {
                Publishers.MergeMany([
                    Self.failing("a", [1], $0, fails: false), Self.failing("b", [2], $0), Self.failing("c", [3], $0),
                ])
            },
            {
                Publishers.MergeMany(
                    [Self.failing("a", [1], $0, fails: false), Self.failing("b", [2], $0), Self.failing("c", [3], $0)]
                        .map { $0.eraseToAnyPublisher() })
            },
            trace: """
                a 1
                sink 1
                b 2
                sink 2
                sink failure(oops)
                c 3
                returned
                a 1
                b 2
                fold failure(oops)
                c 3
                returned
                """)
        Self.expectSame(
            { Self.mergeOfEight(Self.source("a", [1], $0), $0, failing: 3) },
            { Self.mergeOfEight(Self.source("a", [1], $0).eraseToAnyPublisher(), $0, failing: 3) },
            trace: """
                a 1
                sink 1
                sink 99
                u2 20
                sink 20
                u3 30
                sink 30
                sink failure(oops)
                u4 40
                u5 50
                u6 60
                u7 70
                returned
                a 1
                u2 20
                u3 30
                fold failure(oops)
                u4 40
                u5 50
                u6 60
                u7 70
                returned
                """)
    }

    // MARK: zip

    static func zipped<U: Publisher>(_ a: U, _ log: Log, bFails: Bool = false) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        a.zip(Self.failing("b", [10, 20, 30], log, fails: bFails)).map { $0 + $1 }
    }

    @Test func zipOfSynchronousUpstreams() {
        let lines = Self.expectSame(
            { Self.zipped(Self.source("a", [1, 2], $0), $0) },
            { Self.zipped(Self.source("a", [1, 2], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                b 10
                a 2
                b 20
                b 30
                sink 11
                sink 22
                sink finished
                returned
                a 1
                b 10
                a 2
                b 20
                b 30
                fold [11, 22]
                fold finished
                returned
                """)
        // Each upstream runs to its end (into its queue) before the first tuple.
        #expect(lines.firstIndex(of: "b 30")! < lines.firstIndex(of: "sink 11")!)
        #if !SLUICE_REFERENCE
        let log = Log()
        #expect(type(of: Self.zipped(Self.source("a", [], log), log))._isFusable)
        #endif
    }

    @Test(arguments: [0, 1, 4])
    func zipOfUpstreamsOfEachLength(count: Int) {
        let values = Array((1...4).prefix(count))
        let traces = Self.zipTraces[count]!
        Self.expectSame(
            { Self.zipped(Self.source("a", values, $0), $0) },
            { Self.zipped(Self.source("a", values, $0).eraseToAnyPublisher(), $0) }, trace: traces[0])
        Self.expectSame(
            { Self.zipped(Self.failing("a", values, $0), $0) },
            { Self.zipped(Self.failing("a", values, $0).eraseToAnyPublisher(), $0) }, trace: traces[1])
        Self.expectSame(
            { Self.zipped(Self.failing("a", values, $0), $0, bFails: true) },
            { Self.zipped(Self.failing("a", values, $0).eraseToAnyPublisher(), $0, bFails: true) }, trace: traces[2])
        Self.expectSame(
            { Self.zipped(Self.source("a", values, $0), $0, bFails: true).prefix(1) },
            { Self.zipped(Self.source("a", values, $0).eraseToAnyPublisher(), $0, bFails: true).prefix(1) },
            trace: traces[3])
        Self.expectSame(
            { Self.zipped(Self.source("a", values, $0).append(Self.source("s", [5], $0)), $0) },
            {
                Self.zipped(
                    Self.source("a", values, $0).append(Self.source("s", [5], $0)).eraseToAnyPublisher(), $0)
            }, trace: traces[4])
    }

    /// What zip over upstreams of each length logs (0, 1 and 4 values for `a`, 3 for `b`), in five
    /// endings: both finish, `a` fails, `b` fails, `prefix(1)` with `b` failing, `a` appended to.
    static let zipTraces: [Int: [String]] = [
        0: [
            """
            b 10
            b 20
            b 30
            sink finished
            returned
            b 10
            b 20
            b 30
            fold []
            fold finished
            returned
            """,
            """
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            s 5
            b 10
            b 20
            b 30
            sink 15
            sink finished
            returned
            s 5
            b 10
            b 20
            b 30
            fold [15]
            fold finished
            returned
            """,
        ],
        1: [
            """
            a 1
            b 10
            b 20
            b 30
            sink 11
            sink finished
            returned
            a 1
            b 10
            b 20
            b 30
            fold [11]
            fold finished
            returned
            """,
            """
            a 1
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            s 5
            b 20
            b 30
            sink 11
            sink 25
            sink finished
            returned
            a 1
            b 10
            s 5
            b 20
            b 30
            fold [11, 25]
            fold finished
            returned
            """,
        ],
        4: [
            """
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            sink 11
            sink 22
            sink 33
            sink finished
            returned
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            fold [11, 22, 33]
            fold finished
            returned
            """,
            """
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            sink failure(oops)
            returned
            a 1
            b 10
            a 2
            a 3
            a 4
            b 20
            b 30
            fold failure(oops)
            returned
            """,
            """
            a 1
            b 10
            a 2
            a 3
            a 4
            s 5
            b 20
            b 30
            sink 11
            sink 22
            sink 33
            sink finished
            returned
            a 1
            b 10
            a 2
            a 3
            a 4
            s 5
            b 20
            b 30
            fold [11, 22, 33]
            fold finished
            returned
            """,
        ],
    ]

    @Test func zipOfThreeAndFour() {
        Self.expectSame(
            { log in
                Self.source("a", [1, 2], log).zip(
                    Just(7).setFailureType(to: TestError.self), Self.failing("c", [3], log, fails: false)
                ).map { $0 + $1 + $2 }
            },
            { log in
                Self.source("a", [1, 2], log).eraseToAnyPublisher().zip(
                    Just(7).setFailureType(to: TestError.self), Self.failing("c", [3], log, fails: false)
                ).map { $0 + $1 + $2 }
            },
            trace: """
                a 1
                c 3
                a 2
                sink 11
                sink finished
                returned
                a 1
                c 3
                a 2
                fold [11]
                fold finished
                returned
                """)
        Self.expectSame(
            { log in
                Self.source("a", [1, 2], log).zip(
                    Self.source("b", [4, 5], log), Self.failing("c", [3], log), Self.source("d", [6], log)
                ).map { $0 + $1 + $2 + $3 }
            },
            { log in
                Self.source("a", [1, 2], log).eraseToAnyPublisher().zip(
                    Self.source("b", [4, 5], log), Self.failing("c", [3], log), Self.source("d", [6], log)
                ).map { $0 + $1 + $2 + $3 }
            },
            trace: """
                a 1
                b 4
                c 3
                d 6
                a 2
                b 5
                sink failure(oops)
                returned
                a 1
                b 4
                c 3
                d 6
                a 2
                b 5
                fold failure(oops)
                returned
                """)
        Self.expectSame(
            { log in
                Self.source("a", [1, 2], log).zip(
                    Self.source("b", [4, 5], log), Self.source("c", [3, 9], log), Self.source("d", [6, 8, 0], log)
                ) { $0 * $1 + $2 * $3 }
            },
            { log in
                Self.source("a", [1, 2], log).eraseToAnyPublisher().zip(
                    Self.source("b", [4, 5], log), Self.source("c", [3, 9], log), Self.source("d", [6, 8, 0], log)
                ) { $0 * $1 + $2 * $3 }
            },
            trace: """
                a 1
                b 4
                c 3
                d 6
                a 2
                b 5
                c 9
                d 8
                d 0
                sink 22
                sink 82
                sink finished
                returned
                a 1
                b 4
                c 3
                d 6
                a 2
                b 5
                c 9
                d 8
                d 0
                fold [22, 82]
                fold finished
                returned
                """)
    }

    @Test func aConcatenationStartsItsSuffixOnceThePrefixLastValueIsDelivered() {
        Self.expectSame(
            { Just(1).setFailureType(to: TestError.self).append(Self.source("s", [2], $0)) },
            { Just(1).setFailureType(to: TestError.self).eraseToAnyPublisher().append(Self.source("s", [2], $0)) },
            trace: """
                sink 1
                s 2
                sink 2
                sink finished
                returned
                s 2
                fold [1, 2]
                fold finished
                returned
                """)
        // A prefix cut by `prefix(_:)` never starts the suffix.
        Self.expectSame(
            { Self.source("a", [1, 2], $0).append(Self.source("s", [3], $0)).prefix(1) },
            { Self.source("a", [1, 2], $0).eraseToAnyPublisher().append(Self.source("s", [3], $0)).prefix(1) },
            trace: """
                a 1
                a 2
                sink 1
                sink finished
                returned
                a 1
                a 2
                fold [1]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.source("a", [1], $0).prefix(1).append(Self.source("s", [3], $0)) },
            { Self.source("a", [1], $0).eraseToAnyPublisher().prefix(1).append(Self.source("s", [3], $0)) },
            trace: """
                a 1
                sink 1
                s 3
                sink 3
                sink finished
                returned
                a 1
                s 3
                fold [1, 3]
                fold finished
                returned
                """)
    }

    @Test func fanInsNestInOneAnother() {
        // A fan-in over another fan-in is not fused (only its outermost level could be), but runs the same.
        Self.expectSame(
            { Self.flatMapJust(Self.source("a", [1, 2], $0).merge(with: Self.source("b", [3], $0)), $0) },
            {
                Self.flatMapJust(
                    Self.source("a", [1, 2], $0).eraseToAnyPublisher().merge(with: Self.source("b", [3], $0)), $0)
            },
            trace: """
                a 1
                a 2
                inner 10
                sink 10
                inner 20
                sink 20
                b 3
                inner 30
                sink 30
                sink finished
                returned
                a 1
                a 2
                inner 10
                inner 20
                b 3
                inner 30
                fold [10, 20, 30]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.flatMapJust(Self.source("a", [1], $0), $0).merge(with: Self.source("b", [3], $0)) },
            {
                Self.flatMapJust(Self.source("a", [1], $0).eraseToAnyPublisher(), $0).merge(
                    with: Self.source("b", [3], $0))
            },
            trace: """
                a 1
                inner 10
                sink 10
                b 3
                sink 3
                sink finished
                returned
                a 1
                inner 10
                b 3
                fold [10, 3]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.source("p", [0], $0).append(Self.flatMapJust(Self.source("a", [1], $0), $0)) },
            { Self.source("p", [0], $0).eraseToAnyPublisher().append(Self.flatMapJust(Self.source("a", [1], $0), $0)) },
            trace: """
                p 0
                sink 0
                a 1
                inner 10
                sink 10
                sink finished
                returned
                p 0
                a 1
                inner 10
                fold [0, 10]
                fold finished
                returned
                """)
        Self.expectSame(
            { Self.flatMapJust(Self.source("a", [1], $0), $0).append(Self.source("s", [0], $0)) },
            { Self.flatMapJust(Self.source("a", [1], $0).eraseToAnyPublisher(), $0).append(Self.source("s", [0], $0)) },
            trace: """
                a 1
                inner 10
                sink 10
                s 0
                sink 0
                sink finished
                returned
                a 1
                inner 10
                s 0
                fold [10, 0]
                fold finished
                returned
                """)
        // An inner publisher of two values: upstream's end is looked at after the second.
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1], $0).append(Self.source("s", [2], $0)), $0) },
            {
                Self.flatMapSequences(
                    Self.source("a", [1], $0).append(Self.source("s", [2], $0)).eraseToAnyPublisher(), $0)
            },
            trace: """
                a 1
                inner1 10
                inner1 11
                sink 10
                sink 11
                s 2
                inner2 20
                inner2 21
                sink 20
                sink 21
                sink finished
                returned
                a 1
                inner1 10
                inner1 11
                s 2
                inner2 20
                inner2 21
                fold [10, 11, 20, 21]
                fold finished
                returned
                """)
        // An inner failure cancels upstream before its suffix starts.
        Self.expectSame(
            { Self.flatMapSequences(Self.source("a", [1], $0).append(Self.source("s", [2], $0)), $0, failAt: 11) },
            {
                Self.flatMapSequences(
                    Self.source("a", [1], $0).append(Self.source("s", [2], $0)).eraseToAnyPublisher(), $0, failAt: 11)
            },
            trace: """
                a 1
                inner1 10
                inner1 11
                sink 10
                sink failure(other)
                s 2
                returned
                a 1
                inner1 10
                inner1 11
                fold failure(other)
                s 2
                returned
                """)
        Self.expectSame(
            { log in
                Self.source("a", [1], log).append(Self.source("s", [2], log)).flatMap { _ in Self.failing("i", [], log)
                }
            },
            { log in
                Self.source("a", [1], log).append(Self.source("s", [2], log)).eraseToAnyPublisher().flatMap { _ in
                    Self.failing("i", [], log)
                }
            },
            trace: """
                a 1
                sink failure(oops)
                s 2
                returned
                a 1
                fold failure(oops)
                s 2
                returned
                """)
    }

    #if !SLUICE_REFERENCE
    /// Which chains Sluice drives by their cursor: a publisher's `_isFusable` is its cursor's
    /// `fusable` trait, which an operator's cursor has when what it runs can be driven under any
    /// demand. A zip or a merge needs unlimited demand, so it fuses as the whole chain but not as
    /// the upstream of a `flatMap`; `Zip3`'s first part is the zip of two, which it runs itself.
    @Test func fusabilityFollowsTheCursorsTraits() {
        typealias Numbers = Publishers.Sequence<[Int], Never>
        typealias Pair = Publishers.Merge<Numbers, Numbers>
        #expect(Numbers._isFusable && Just<Int>._isFusable && Record<Int, Never>._isFusable)
        #expect(!Empty<Int, Never>._isFusable && !PassthroughSubject<Int, Never>._isFusable)
        #expect(Publishers.Map<Numbers, Int>._isFusable)
        #expect(!Publishers.Map<PassthroughSubject<Int, Never>, Int>._isFusable)
        #expect(Pair._isFusable && Publishers.Merge3<Numbers, Numbers, Just<Int>>._isFusable)
        #expect(!Publishers.Merge<Numbers, PassthroughSubject<Int, Never>>._isFusable)
        #expect(!Publishers.Merge<Pair, Numbers>._isFusable)
        #expect(Publishers.Zip3<Numbers, Numbers, Numbers>._isFusable)
        #expect(!Publishers.Zip<Publishers.Zip<Numbers, Numbers>, Numbers>._isFusable)
        #expect(Publishers.Concatenate<Pair, Numbers>._isFusable)
        #expect(!Publishers.Concatenate<Numbers, Pair>._isFusable)
        #expect(Publishers.FlatMap<Just<Int>, Numbers>._isFusable)
        #expect(!Publishers.FlatMap<Just<Int>, Pair>._isFusable)
        #expect(Publishers.SwitchToLatest<Just<Int>, Publishers.Map<Numbers, Just<Int>>>._isFusable)
        #expect(Publishers.MergeMany<Numbers>._isFusable && !Publishers.MergeMany<Pair>._isFusable)
    }
    #endif
}
