// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Chains of every one-to-one operator over a synchronous source, seen by the consumers that ask for
/// `.unlimited` at once: `sink`, the folds (including the ones that stop early: `first(where:)`,
/// `contains`, `allSatisfy`) and `assign`. Sluice runs such a chain as one loop in the consumer;
/// every closure call, source pull and event must be what the operators do over a subscribed
/// upstream. The oracle is the same chain over the source behind `eraseToAnyPublisher()`.
@Suite struct StageChainConsumerTests {
    final class Log {
        var lines: [String] = []

        func callAsFunction(_ line: String) { lines.append(line) }
    }

    /// A source that logs every element taken from it, peeks included.
    static func source(_ values: [Int], _ log: Log) -> Publishers.Sequence<LazyMapSequence<[Int], Int>, TestError> {
        Publishers.Sequence(
            sequence: values.lazy.map { value in
                log("pull \(value)")
                return value
            })
    }

    /// What each consumer sees of the chain `make` builds, with the log of its closures.
    static func run<P: Publisher>(_ make: (Log) -> P) -> [String] where P.Output == Int {
        let log = Log()
        func consume<Q: Publisher>(_ name: String, _ publisher: Q) {
            let token = publisher.sink(
                receiveCompletion: { log("\(name) \($0)") }, receiveValue: { log("\(name) \($0)") })
            log("returned")
            token.cancel()
        }
        consume("sink", make(log))
        consume("collect", make(log).collect())
        consume(
            "reduce",
            make(log).reduce(0) {
                log("reduce \($1)"); return $0 + $1
            })
        consume(
            "first",
            make(log).first {
                log("first? \($0)"); return $0 > 4
            })
        consume(
            "contains",
            make(log).contains {
                log("contains? \($0)"); return $0 == 5
            })
        consume(
            "allSatisfy",
            make(log).allSatisfy {
                log("allSatisfy? \($0)"); return $0 < 6
            })
        consume("count", make(log).count())
        consume("last", make(log).last())
        return log.lines
    }

    /// Expects the fused chain to log what the erased one does.
    static func expectSame<P: Publisher, Q: Publisher>(
        _ fused: (Log) -> P, _ erased: (Log) -> Q, sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Output == Int, Q.Output == Int {
        let fast = run(fused)
        let oracle = run(erased)
        #expect(fast == oracle, sourceLocation: sourceLocation)
        #expect(fast.count > 40, "the consumers ran the chain", sourceLocation: sourceLocation)
    }

    // MARK: Chains

    /// Stateful stages, a skip and a throw: the throw ends the stream, and no closure runs after it.
    static func throwing<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, any Error>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .compactMap { value -> Int? in
                log("compactMap \(value)"); return value == 3 ? nil : value
            }
            .scan(0) { total, value in
                log("scan \(value)"); return total + value
            }
            .removeDuplicates {
                log("removeDuplicates \($0) \($1)"); return $0 == $1
            }
            .tryMap { value -> Int in
                log("tryMap \(value)")
                if value > 20 { throw TestError.other }
                return value
            }
            .map { value in
                log("map \(value)"); return value % 10
            }
    }

    @Test func aThrowEndsTheStream() {
        Self.expectSame(
            { Self.throwing(Self.source(Array(1...9), $0), $0) },
            { Self.throwing(Self.source(Array(1...9), $0).eraseToAnyPublisher(), $0) })
    }

    /// `drop(while:)`, then `prefix(while:)` ending the stream from the middle of the chain.
    static func prefixWhile<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .drop {
                log("drop? \($0)"); return $0 < 3
            }
            .filter {
                log("filter \($0)"); return $0 != 4
            }
            .prefix {
                log("prefix? \($0)"); return $0 < 8
            }
            .map { value in
                log("map \(value)"); return value
            }
            .replaceNil(with: 0)
    }

    @Test func prefixWhileEndsTheStream() {
        Self.expectSame(
            { Self.prefixWhile(Self.source(Array(1...12), $0), $0) },
            { Self.prefixWhile(Self.source(Array(1...12), $0).eraseToAnyPublisher(), $0) })
    }

    /// The `try` forms, `mapError` and a stage that completes after a value (`prefix(_:)`).
    static func tryForms<U: Publisher>(_ upstream: U, _ log: Log, limit: Int) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .tryFilter {
                log("tryFilter \($0)"); return $0 != 2
            }
            .tryCompactMap { value -> Int? in
                log("tryCompactMap \(value)"); return value
            }
            .tryScan(0) { total, value in
                log("tryScan \(value)"); return total + value
            }
            .tryRemoveDuplicates {
                log("tryRemoveDuplicates \($0) \($1)"); return $0 == $1
            }
            .tryDrop {
                log("tryDrop? \($0)"); return $0 < 4
            }
            .tryPrefix {
                log("tryPrefix? \($0)"); return $0 < 40
            }
            .mapError { _ in TestError.other }
            .prefix(limit)
            .map { value in
                log("map \(value)"); return value
            }
    }

    @Test(arguments: [0, 1, 3, 100])
    func tryFormsAndPrefix(limit: Int) {
        Self.expectSame(
            { Self.tryForms(Self.source(Array(1...10), $0), $0, limit: limit) },
            { Self.tryForms(Self.source(Array(1...10), $0).eraseToAnyPublisher(), $0, limit: limit) })
    }

    /// A source that fails after its values: the failure goes through each stage's conversion.
    static func failingSource(_ log: Log) -> some Publisher<Int, TestError> {
        source([1, 2, 3, 4, 5, 6], log).append(Record(output: [], completion: .failure(.oops)))
    }

    static func overFailure<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .output(in: 1...6)
            .tryMap { value -> Int in
                log("tryMap \(value)"); return value
            }
            .mapError {
                log("mapError \($0)"); return ($0 as? TestError) ?? .other
            }
            .map { value in
                log("map \(value)"); return value
            }
    }

    @Test func aSourceFailureGoesThroughTheStages() {
        Self.expectSame(
            { Self.overFailure(Self.failingSource($0), $0) },
            { Self.overFailure(Self.failingSource($0).eraseToAnyPublisher(), $0) })
    }

    // MARK: assign

    final class Target {
        let log: Log
        var value = 0 { didSet { log("assigned \(value)") } }

        init(log: Log) { self.log = log }
    }

    static func assigning<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, Never>
    where U.Output == Int, U.Failure == Never {
        upstream
            .compactMap { value -> Int? in
                log("compactMap \(value)"); return value.isMultiple(of: 3) ? nil : value
            }
            .prefix {
                log("prefix? \($0)"); return $0 < 8
            }
            .map { value in
                log("map \(value)"); return value * 2
            }
    }

    @Test func assignRunsTheChain() {
        func run<P: Publisher<Int, Never>>(_ make: (Log) -> P) -> [String] {
            let log = Log()
            weak var weakTarget: Target?
            do {
                let target = Target(log: log)
                weakTarget = target
                let token = make(log).assign(to: \.value, on: target)
                log("returned")
                token.cancel()
            }
            #expect(weakTarget == nil)
            return log.lines
        }
        let source: (Log) -> Publishers.Sequence<LazyMapSequence<[Int], Int>, Never> = { log in
            Publishers.Sequence(
                sequence: Array(1...10).lazy.map { value in
                    log("pull \(value)")
                    return value
                })
        }
        let fast = run { Self.assigning(source($0), $0) }
        let oracle = run { Self.assigning(source($0).eraseToAnyPublisher(), $0) }
        #expect(fast == oracle)
        #expect(fast.contains("assigned 14") && !fast.contains("map 8"))
    }

    // MARK: Sources without side effects

    /// An array and a range run as a plain loop in Sluice; what comes out is the same.
    @Test func arraysAndRanges() {
        func values<P: Publisher<Int, Never>>(_ publisher: P) -> [Int] {
            var values: [Int] = []
            _ = publisher.compactMap { $0.isMultiple(of: 3) ? nil : $0 }.prefix { $0 < 9 }.sink { values.append($0) }
            return values
        }
        let expected = [1, 2, 4, 5, 7, 8]
        #expect(values(Array(1...20).publisher) == expected)
        #expect(values(ContiguousArray(1...20).publisher) == expected)
        #expect(values(Array(0...20)[1...].publisher) == expected)
        #expect(values((1..<21).publisher) == expected)
        #expect(values((1...20).publisher) == expected)
        #expect(values((1...20).publisher.first { $0 > 4 }) == [5])
    }
}
