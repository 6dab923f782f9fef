// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct PrefixWhileTests {
    @Test func republishesWhileTheClosureHoldsThenCancelsUpstreamAndFinishes() {
        var calls = 0
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix {
            calls += 1; return $0 < 4
        }.record(initialDemand: .max(3), demandPerValue: .max(4))
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(2) == .max(4))
        #expect(upstream.send(4) == .none)
        upstream.sendKeepingSubscriber(3)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(calls == 3)
    }

    @Test func demandPassesStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix { _ in true }.record(initialDemand: .max(3), demandPerValue: .max(2))
        #expect(upstream.send(1) == .max(2))
        recorder.request(.max(15))
        recorder.request(.unlimited)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(15)), .request(.unlimited)])
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = (1...10).publisher.prefix { $0 < 5 }.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func upstreamCompletionsPassThrough() {
        let finishing = TestPublisher<Int, TestError>()
        let finished = finishing.prefix { _ in true }.record()
        finishing.send(1)
        finishing.send(completion: .finished)
        #expect(finished.events == [.subscription, .value(1), .finished])

        let failing = TestPublisher<Int, TestError>()
        let failed = failing.prefix { _ in true }.record()
        failing.send(completion: .failure(.oops))
        #expect(failed.events == [.subscription, .failure(.oops)])
        #expect(failing.events == [.subscribe, .request(.unlimited)])
    }

    @Test func cancelFromInsideReceiveReachesUpstreamWithoutACompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix { _ in true }.record(cancelAfterValues: 2)
        upstream.send(1)
        upstream.send(2)
        upstream.sendKeepingSubscriber(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publisherKeepsItsParts() {
        let upstream = TestPublisher<Int, TestError>()
        let prefixWhile = Publishers.PrefixWhile(upstream: upstream) { $0 < 5 }
        #expect(prefixWhile.upstream === upstream)
        #expect(prefixWhile.predicate(4))
        #expect(!prefixWhile.predicate(5))
    }

    @Test func laws() {
        OperatorLaws.check { $0.prefix { $0 < 3 } }
        OperatorLaws.check { $0.prefix { _ in true } }
    }
}

@Suite struct TryPrefixWhileTests {
    @Test func republishesWhileTheClosureHoldsThenFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryPrefix { $0 < 3 }.record()
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.send(3) == .none)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aThrownErrorCancelsUpstreamAndFails() {
        var calls = 0
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryPrefix { value in
            calls += 1
            if value == 5 { throw TestError.other }
            return value.isMultiple(of: 2)
        }.record(initialDemand: .max(3), demandPerValue: .max(42))
        let subscription = recorder.subscription
        #expect(upstream.send(2) == .max(42))
        #expect(upstream.send(4) == .max(42))
        #expect(upstream.send(5) == .none)
        upstream.sendKeepingSubscriber(6)
        upstream.sendKeepingSubscriber(completion: .finished)
        subscription?.request(.max(1000))
        #expect(recorder.trace == ["subscription", "value(2)", "value(4)", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(calls == 3)
    }

    @Test func upstreamFailurePassesThroughAsAnyError() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryPrefix { _ in true }.record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "failure(oops)"])
    }

    @Test func zeroDemandDeliversNothing() {
        let recorder = [1, 2].publisher.tryPrefix { _ in true }.record(initialDemand: nil)
        #expect(recorder.trace == ["subscription"])
        recorder.request(.max(1))
        #expect(recorder.values == [1])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryPrefix { $0 < 3 } }
        OperatorLaws.check {
            $0.tryPrefix { value in
                if value == 2 { throw TestError.other }
                return true
            }
        }
    }
}
