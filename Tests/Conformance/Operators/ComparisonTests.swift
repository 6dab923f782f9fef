// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ComparisonTests {
    @Test func minAndMaxOfComparableValues() {
        #expect([3, 1, 4, 1, 5].publisher.min().record().events == [.subscription, .value(1), .finished])
        #expect([3, 1, 4, 1, 5].publisher.max().record().events == [.subscription, .value(5), .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [3, 1, 2], result: 1, emptyResult: nil) { $0.min() }
        FoldChecks.check(input: [3, 1, 2], result: 3, emptyResult: nil) { $0.max() }
        FoldChecks.check(input: [3, 1, 2], result: 3, emptyResult: nil) { $0.min(by: >) }
        FoldChecks.check(input: [3, 1, 2], result: 1, emptyResult: nil) { $0.max(by: >) }
    }

    /// `max(by:)` asks `areInIncreasingOrder(current, new)` and keeps the new value when it says
    /// yes; equal values keep the first one.
    @Test func maxByComparesCurrentWithNew() {
        var calls: [String] = []
        let recorder = ["bb", "a", "ccc", "dd", "eee"].publisher.max { lhs, rhs in
            calls.append("\(lhs)<\(rhs)")
            return lhs.count < rhs.count
        }.record()
        #expect(calls == ["bb<a", "bb<ccc", "ccc<dd", "ccc<eee"])
        #expect(recorder.values == ["ccc"])
    }

    /// `min(by:)` asks `areInIncreasingOrder(new, current)`; equal values keep the first one.
    @Test func minByComparesNewWithCurrent() {
        var calls: [String] = []
        let recorder = ["bb", "a", "ccc", "d"].publisher.min { lhs, rhs in
            calls.append("\(lhs)<\(rhs)")
            return lhs.count < rhs.count
        }.record()
        #expect(calls == ["a<bb", "ccc<a", "d<a"])
        #expect(recorder.values == ["a"])
    }

    @Test func oneValueNeedsNoComparison() {
        var calls = 0
        let recorder = Just(9).max { _, _ in
            calls += 1
            return true
        }.record()
        #expect(recorder.values == [9])
        #expect(calls == 0)
    }

    @Test func publicShape() {
        let comparison = Publishers.Comparison(upstream: Just(1), areInIncreasingOrder: <)
        #expect(comparison.areInIncreasingOrder(1, 2))
        #expect(comparison.upstream == Just(1))
        #expect(comparison.record().subscriptionDescriptions == ["Comparison"])
        // `min(by:)` stores the reversed ordering.
        #expect(Just(1).min(by: <).areInIncreasingOrder(2, 1))
    }
}

@Suite struct TryComparisonTests {
    @Test func tryMinAndTryMax() {
        #expect([2, 7, 1].publisher.tryMin(by: <).record().trace == ["subscription", "value(1)", "finished"])
        #expect([2, 7, 1].publisher.tryMax(by: <).record().trace == ["subscription", "value(7)", "finished"])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [3, 1, 2], result: 1, emptyResult: nil) { $0.tryMin(by: <) }
        FoldChecks.check(input: [3, 1, 2], result: 3, emptyResult: nil) { $0.tryMax(by: <) }
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.tryMax { lhs, rhs in
            calls += 1
            if rhs == 3 { throw TestError.other }
            return lhs < rhs
        }.record(initialDemand: nil)
        for value in 1...5 { upstream.send(value) }
        #expect(recorder.trace == ["subscription", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(calls == 2)
    }

    @Test func publicShape() throws {
        let comparison = Publishers.TryComparison(upstream: Just(1), areInIncreasingOrder: <)
        #expect(try comparison.areInIncreasingOrder(1, 2))
        #expect(comparison.record().subscriptionDescriptions == ["TryComparison"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryMin { _, _ in throw TestError.oops } }
    }
}
