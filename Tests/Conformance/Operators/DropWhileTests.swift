// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct DropWhileTests {
    @Test func dropsWhileTheClosureHoldsThenPassesEverythingWithoutAskingAgain() {
        var calls = 0
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.drop {
            calls += 1; return $0.isMultiple(of: 2)
        }.record()
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(4) == .max(1))
        #expect(upstream.send(7) == .none)
        #expect(upstream.send(8) == .none)
        #expect(upstream.send(9) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(7), .value(8), .value(9), .finished])
        #expect(calls == 3)
    }

    @Test func demandPassesStraightUpstreamAndEachDropIsReplaced() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.drop { $0 < 3 }.record(initialDemand: .max(42), demandPerValue: .max(4))
        #expect(upstream.events == [.subscribe, .request(.max(42))])
        #expect(upstream.send(1) == .max(1))
        recorder.request(.max(5))
        #expect(upstream.send(3) == .max(4))
        #expect(upstream.events == [.subscribe, .request(.max(42)), .request(.max(5))])
        #expect(recorder.values == [3])
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = [1, 2, 3, 4].publisher.drop { $0 < 2 }.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .value(2), .value(3)])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.drop { _ in true }.record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func cancelFromInsideReceiveReachesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.drop { $0 == 0 }.record(cancelAfterValues: 1)
        upstream.send(0)
        upstream.send(1)
        upstream.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func eachSubscriptionHasItsOwnSwitch() {
        let upstream = TestPublisher<Int, TestError>()
        let publisher = upstream.drop { $0 < 2 }
        let first = publisher.record()
        for value in [1, 2, 1] { upstream.send(value) }
        let second = publisher.record()
        for value in [1, 2, 1] { upstream.send(value) }
        #expect(first.values == [2, 1])
        #expect(second.values == [2, 1])
    }

    @Test func publisherKeepsItsParts() {
        let upstream = TestPublisher<Int, TestError>()
        let dropWhile = Publishers.DropWhile(upstream: upstream) { $0 > 5 }
        #expect(dropWhile.upstream === upstream)
        #expect(dropWhile.predicate(6))
        #expect(!dropWhile.predicate(5))
    }

    @Test func laws() {
        OperatorLaws.check { $0.drop { $0 < 2 } }
        OperatorLaws.check { $0.drop { _ in true } }
    }
}

@Suite struct TryDropWhileTests {
    @Test func dropsWhileTheClosureHoldsThenPassesEverything() {
        var calls = 0
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryDrop {
            calls += 1; return $0.isMultiple(of: 2)
        }.record(initialDemand: .max(2))
        #expect(upstream.send(0) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.send(4) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(3)", "value(4)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
        #expect(calls == 2)
    }

    @Test func aThrownErrorCancelsUpstreamAndFails() {
        var calls = 0
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryDrop { value in
            calls += 1
            if value == 100 { throw TestError.other }
            return true
        }.record()
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(100) == .none)
        upstream.sendKeepingSubscriber(4)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.trace == ["subscription", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(calls == 2)
    }

    @Test func afterTheSwitchTheClosureIsNoLongerAskedEvenIfItWouldThrow() {
        let recorder = [1, 5, 100].publisher.tryDrop { value in
            if value == 100 { throw TestError.other }
            return value < 5
        }.record()
        #expect(recorder.trace == ["subscription", "value(5)", "value(100)", "finished"])
    }

    @Test func upstreamFailurePassesThroughAsAnyError() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryDrop { _ in true }.record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "failure(oops)"])
        #expect(recorder.completions.count == 1)
    }

    @Test func zeroDemandDeliversNothing() {
        let recorder = [1, 2].publisher.tryDrop { $0 < 2 }.record(initialDemand: nil)
        #expect(recorder.trace == ["subscription"])
        recorder.request(.max(1))
        #expect(recorder.values == [2])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryDrop { $0 < 2 } }
        OperatorLaws.check {
            $0.tryDrop { value in
                if value == 2 { throw TestError.other }
                return true
            }
        }
    }
}
