// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Chains of one-to-one operators over an upstream that is not synchronous. Sluice runs such a
/// chain as one subscription with the stages composed; these pin down that it behaves exactly
/// like one subscription per operator (which is what the reference does).
@Suite struct StageChainTests {
    @Test func dropsAnywhereInTheChainAskUpstreamForOneMore() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { $0 * 2 }.filter { $0 % 4 == 0 }.compactMap { $0 == 8 ? nil : $0 }.map { $0 + 1 }
            .record(initialDemand: .max(3))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(4) == .max(1))
        #expect(upstream.send(6) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(5), .value(13), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(3))])
    }

    @Test func aStageInTheMiddleFinishingCancelsUpstreamAndFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { $0 + 1 }.prefix { $0 < 4 }.map { $0 * 10 }.record()
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(20), .value(30), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(9)
        #expect(recorder.events.count == 4)
    }

    @Test func aThrowInTheMiddleIsMappedByTheStagesAfterIt() {
        struct Wrapped: Error, CustomStringConvertible {
            let inner: String
            var description: String { "wrapped(\(inner))" }
        }
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { $0 }.tryMap { value -> Int in
            if value == 2 { throw TestError.other }
            return value
        }.mapError { Wrapped(inner: "\($0)") }.filter { _ in true }.record()
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.trace == ["subscription", "value(1)", "failure(wrapped(other))"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func anUpstreamFailureIsMappedByEveryStage() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { $0 }.mapError { _ in TestError.other }.map { $0 + 1 }.record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    @Test func prefixAfterOtherStagesCompletesRightAfterItsLastValue() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.filter { $0 > 0 }.map { $0 * 2 }.prefix(2).record()
        upstream.send(-1)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(2), .value(4), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func statefulStagesStartOverForEachSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        let chain = subject.scan(0, +).removeDuplicates().map { $0 * 10 }
        let first = chain.record()
        subject.send(1)
        subject.send(0)
        let second = chain.record()
        subject.send(2)
        #expect(first.values == [10, 30])
        #expect(second.values == [20])
    }

    @Test func thirteenStagesOverASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let a = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.map { $0 &* 2 }.filter { $0 >= 0 }
        let b = a.map { $0 &- 1 }.filter { $0 >= -1 }.map { $0 &+ 1 }.filter { $0 >= 0 }
        let recorder = b.map { $0 / 2 }.filter { $0 >= 0 }.map { $0 &+ 0 }.filter { $0 >= 0 }.map { $0 &- 1 }.record()
        for i in 0..<5 { subject.send(i) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.map { $0 + 1 }.filter { $0 != 3 }.compactMap { $0 }.scan(0, +) }
    }
}

/// Found by the differential suite: a bounded operator completes on a value that a later operator
/// drops. The stream must still finish there, and upstream must be cancelled.
@Suite struct BoundedStageFollowedByADropTests {
    @Test func prefixThenFilterFinishesWhenThePrefixIsDone() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(1).filter { $0 % 2 == 0 }.record()
        // Combine's filter answers `.max(1)` for the value it drops, and prefix passes that on.
        #expect(upstream.send(-1) == .max(1))
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func outputInRangeThenFilterFinishesAfterTheRange() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.output(in: 0...2).filter { _ in false }.record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.subscription])
        subject.send(3)
        #expect(recorder.events == [.subscription, .finished])
    }
}
