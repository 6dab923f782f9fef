// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct HandleEventsTests {
    /// Builds `upstream.handleEvents(...)` with every closure logging its event, together with
    /// how far the event had got when the closure ran: how many events downstream had seen and
    /// how many upstream had, so the log shows each closure runs *before* its event is passed on.
    private static func logged(
        _ upstream: TestPublisher<Int, TestError>, _ recorder: RecordingSubscriber<Int, TestError>, into log: Log
    ) -> Publishers.HandleEvents<TestPublisher<Int, TestError>> {
        upstream.handleEvents(
            receiveSubscription: { _ in log.add("subscription", recorder, upstream) },
            receiveOutput: { log.add("output(\($0))", recorder, upstream) },
            receiveCompletion: { log.add("completion(\($0))", recorder, upstream) },
            receiveCancel: { log.add("cancel", recorder, upstream) },
            receiveRequest: { log.add("request(\($0))", recorder, upstream) })
    }

    @Test func closuresRunInLifecycleOrderJustBeforeTheirEvent() {
        let upstream = TestPublisher<Int, TestError>()
        let log = Log()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: { .max($0) })
        Self.logged(upstream, recorder, into: log).subscribe(recorder)
        #expect(upstream.send(0) == .none)
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .finished)
        // T10: the subscription comes first, then the request (the seed's order is reversed).
        #expect(
            log.entries == [
                "subscription [down 0, up 1]",
                "request(max(2)) [down 1, up 1]",
                "output(0) [down 1, up 2]",
                "output(1) [down 2, up 2]",
                "request(max(1)) [down 3, up 2]",
                "completion(finished) [down 3, up 2]",
            ])
        #expect(recorder.events == [.subscription, .value(0), .value(1), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
        #expect(recorder.subscriptionDescriptions == ["HandleEvents"])
    }

    @Test func failureIsReportedThenPassedOn() {
        let upstream = TestPublisher<Int, TestError>()
        let log = Log()
        let recorder = RecordingSubscriber<Int, TestError>()
        Self.logged(upstream, recorder, into: log).subscribe(recorder)
        upstream.send(completion: .failure(.oops))
        #expect(log.entries.last == "completion(failure(oops)) [down 1, up 2]")
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func explicitRequestsAreReportedBeforeGoingUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let log = Log()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: nil)
        Self.logged(upstream, recorder, into: log).subscribe(recorder)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(14))
        recorder.request(.unlimited)
        #expect(
            log.entries == [
                "subscription [down 0, up 1]", "request(max(14)) [down 1, up 1]", "request(unlimited) [down 1, up 2]",
            ])
        #expect(upstream.events == [.subscribe, .request(.max(14)), .request(.unlimited)])
    }

    @Test func cancelIsReportedOnceAndReachesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let log = Log()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(2))
        Self.logged(upstream, recorder, into: log).subscribe(recorder)
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.request(.max(1))
        subscription?.cancel()
        upstream.sendKeepingSubscriber(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(
            log.entries == ["subscription [down 0, up 1]", "request(max(2)) [down 1, up 1]", "cancel [down 1, up 2]"])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .cancel])
        #expect(recorder.events == [.subscription])
    }

    @Test func cancelFromInsideReceive() {
        let upstream = TestPublisher<Int, TestError>()
        let log = Log()
        let recorder = RecordingSubscriber<Int, TestError>(cancelAfterValues: 1)
        Self.logged(upstream, recorder, into: log).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        upstream.sendKeepingSubscriber(2)
        #expect(
            log.entries == [
                "subscription [down 0, up 1]", "request(unlimited) [down 1, up 1]", "output(1) [down 1, up 2]",
                "cancel [down 2, up 2]",
            ])
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func zeroDemandReturnedFromReceiveIsNotReported() {
        let upstream = TestPublisher<Int, TestError>()
        var requests: [Subscribers.Demand] = []
        let recorder = upstream.handleEvents(receiveRequest: { requests.append($0) }).record(
            initialDemand: .max(1), demandPerValue: .none)
        upstream.send(1)
        #expect(requests == [.max(1)])
        #expect(recorder.values == [1])
    }

    @Test func withoutClosuresEverythingPassesThrough() {
        let recorder = [1, 2, 3].publisher.handleEvents().record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func onlyReceiveOutputObservesOnlyData() {
        var outputs: [Int] = []
        let recorder = [4, 5].publisher.handleEvents(receiveOutput: { outputs.append($0) }).record()
        #expect(outputs == [4, 5])
        #expect(recorder.values == [4, 5])
    }

    @Test func closuresArePublicVariables() {
        let upstream = TestPublisher<Int, TestError>()
        var handle = Publishers.HandleEvents(upstream: upstream, receiveRequest: nil)
        #expect(handle.receiveOutput == nil)
        var seen: [Int] = []
        handle.receiveOutput = { seen.append($0) }
        _ = handle.record()
        upstream.send(8)
        #expect(seen == [8])
    }

    @Test func activityIndicatorPattern() {
        // The seeds' use: on at subscription, off at completion or cancel.
        var active: [Bool] = []
        let finishing = TestPublisher<Int, TestError>()
        _ = finishing.handleEvents(
            receiveSubscription: { _ in active.append(true) }, receiveCompletion: { _ in active.append(false) },
            receiveCancel: { active.append(false) }
        ).record()
        finishing.send(completion: .finished)
        let cancelled = TestPublisher<Int, TestError>()
        let recorder = cancelled.handleEvents(
            receiveSubscription: { _ in active.append(true) }, receiveCompletion: { _ in active.append(false) },
            receiveCancel: { active.append(false) }
        ).record()
        recorder.cancel()
        #expect(active == [true, false, true, false])
    }

    @Test func laws() {
        OperatorLaws.check { $0.handleEvents() }
        OperatorLaws.check {
            $0.handleEvents(
                receiveSubscription: { _ in }, receiveOutput: { _ in }, receiveCompletion: { _ in }, receiveCancel: {},
                receiveRequest: { _ in })
        }
    }

    final class Log {
        private(set) var entries: [String] = []

        func add(
            _ event: String, _ recorder: RecordingSubscriber<Int, TestError>, _ upstream: TestPublisher<Int, TestError>
        ) {
            entries.append("\(event) [down \(recorder.events.count), up \(upstream.events.count)]")
        }
    }
}
