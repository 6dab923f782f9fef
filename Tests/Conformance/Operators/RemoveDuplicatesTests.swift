// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveDuplicatesOnly() {
        // Apple's example: 0 1 2 2 3 3 3 4 4 4 4 0 prints 0 1 2 3 4 0 (R97: A A B A gives A B A).
        let recorder = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 0].publisher.removeDuplicates().record()
        #expect(
            recorder.events == [
                .subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .value(0), .finished,
            ])
    }

    @Test func aDuplicateIsReplacedByARequestForOneMore() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.removeDuplicates().record(initialDemand: .max(2), demandPerValue: .max(4))
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(4))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func predicateGetsPreviouslyPublishedThenCurrentAndFirstValueSkipsIt() {
        var calls: [String] = []
        let recorder = [1, 2, 2, 50, 30, 10, -1, 51].publisher.removeDuplicates { previous, current in
            calls.append("\(previous)>=\(current)")
            return previous >= current
        }.record()
        #expect(recorder.values == [1, 2, 50, 51])
        // A dropped element does not become the one compared against (Apple: "the current and
        // previously published elements").
        #expect(calls == ["1>=2", "2>=2", "2>=50", "50>=30", "50>=10", "50>=-1", "50>=51"])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.removeDuplicates().record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = [1, 1, 2, 2, 3].publisher.removeDuplicates().record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completions.isEmpty)
    }

    @Test func eachSubscriptionStartsWithNoMemory() {
        let publisher = [7, 7].publisher.removeDuplicates()
        #expect(publisher.record().values == [7])
        #expect(publisher.record().values == [7])
    }

    @Test func cancelMidStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.removeDuplicates(by: ==).record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func laws() {
        OperatorLaws.check(input: [1, 1, 2]) { $0.removeDuplicates() }
    }
}

@Suite struct TryRemoveDuplicatesTests {
    @Test func dropsConsecutiveDuplicates() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryRemoveDuplicates(by: ==).record(initialDemand: .max(3), demandPerValue: .max(10))
        #expect(upstream.send(1) == .max(10))
        #expect(upstream.send(2) == .max(10))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(1) == .max(10))
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "value(1)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.max(3))])
    }

    @Test func throwCancelsUpstreamThenFailsAndNoValueIsSent() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryRemoveDuplicates { previous, current in
            if current == 42 { throw TestError.oops }
            return previous == current
        }.record(initialDemand: .max(3))
        upstream.send(1)
        #expect(upstream.send(42) == .none)
        _ = upstream.lastSubscriber?.receive(43)
        #expect(recorder.trace == ["subscription", "value(1)", "failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
    }

    @Test func tryOperatorLaw() {
        TryOperatorLaws.check {
            $0.tryRemoveDuplicates { _, current in
                if current == 2 { throw TestError.other }
                return false
            }
        }
    }

    @Test func laws() {
        OperatorLaws.check(input: [1, 1, 2]) { $0.tryRemoveDuplicates(by: ==) }
    }
}
