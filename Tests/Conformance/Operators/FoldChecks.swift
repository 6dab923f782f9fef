// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The behaviour every operator that folds its upstream into at most one value shares with
/// Combine's reducers (`collect()`, `reduce`, `count`, `min`/`max`, `allSatisfy`, `contains`,
/// `first`, `last`): it asks upstream for `.unlimited` right after handing downstream its
/// subscription, never passes downstream's demand on, holds its value until downstream has asked
/// for something, and sends a completion without a value (`.finished` with nothing to publish, or
/// a failure) at once, demand or not.
///
/// `input` is sent, then `.finished`. `result` is what the operator publishes for `input` (`nil`:
/// nothing), `emptyResult` what it publishes for an empty upstream. `finishesEarly` says that the
/// operator knows its answer before the end of `input`, and so cancels upstream.
enum FoldChecks {
    static func check<P: Publisher>(
        input: [Int], result: P.Output?, emptyResult: P.Output?, finishesEarly: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (TestPublisher<Int, TestError>) -> P
    ) where P.Output: Equatable {
        let expectedTraffic: [TestPublisher<Int, TestError>.Event] =
            finishesEarly ? [.subscribe, .request(.unlimited), .cancel] : [.subscribe, .request(.unlimited)]

        // Downstream gets the subscription before upstream is asked for anything.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let probe = SubscriptionOrderProbe<P.Output, P.Failure> { upstream.events }
            make(upstream).subscribe(probe)
            #expect(probe.upstreamEventsAtSubscription == [.subscribe], sourceLocation: sourceLocation)
            #expect(upstream.events == [.subscribe, .request(.unlimited)], sourceLocation: sourceLocation)
        }

        // Downstream's demand stays with the operator: upstream only ever sees `.unlimited`.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: .max(1))
            recorder.request(.max(3))
            #expect(upstream.events == [.subscribe, .request(.unlimited)], sourceLocation: sourceLocation)
        }

        // Without demand, the value waits; the first request delivers it and `.finished`.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: nil)
            for value in input { #expect(upstream.send(value) == .none, sourceLocation: sourceLocation) }
            upstream.send(completion: .finished)
            #expect(upstream.events == expectedTraffic, sourceLocation: sourceLocation)
            // As Combine's reducers, the finish waits for demand, with a value or without one
            // (OpenCombine's ReduceTests.testUpstreamFinishesImmediatelyWithoutDemand).
            #expect(
                recorder.events == [.subscription], "the finish must wait for demand", sourceLocation: sourceLocation)
            recorder.request(.max(1))
            let expected: [RecordingSubscriber<P.Output, P.Failure>.Event] =
                result.map { [.subscription, .value($0), .finished] } ?? [.subscription, .finished]
            #expect(recorder.events == expected, sourceLocation: sourceLocation)
            #expect(upstream.events == expectedTraffic, sourceLocation: sourceLocation)
        }

        // With limited demand already there, the value goes out as soon as it is known.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: .max(1))
            for value in input { upstream.send(value) }
            upstream.send(completion: .finished)
            let expected: [RecordingSubscriber<P.Output, P.Failure>.Event] =
                result.map { [.subscription, .value($0), .finished] } ?? [.subscription, .finished]
            #expect(recorder.events == expected, sourceLocation: sourceLocation)
        }

        // An empty upstream, with unlimited demand and with none.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: .unlimited)
            upstream.send(completion: .finished)
            let expected: [RecordingSubscriber<P.Output, P.Failure>.Event] =
                emptyResult.map { [.subscription, .value($0), .finished] } ?? [.subscription, .finished]
            #expect(recorder.events == expected, sourceLocation: sourceLocation)
        }
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: nil)
            upstream.send(completion: .finished)
            #expect(
                recorder.events == [.subscription], "the finish must wait for demand", sourceLocation: sourceLocation)
            recorder.request(.unlimited)
            let expected: [RecordingSubscriber<P.Output, P.Failure>.Event] =
                emptyResult.map { [.subscription, .value($0), .finished] } ?? [.subscription, .finished]
            #expect(recorder.events == expected, sourceLocation: sourceLocation)
            #expect(upstream.events == [.subscribe, .request(.unlimited)], sourceLocation: sourceLocation)
        }

        // A failure drops whatever was folded and arrives without demand.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: nil)
            upstream.send(completion: .failure(.oops))
            #expect(recorder.trace == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
            recorder.request(.max(1))
            #expect(recorder.trace == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
            #expect(upstream.events == [.subscribe, .request(.unlimited)], sourceLocation: sourceLocation)
        }

        // A cancel before the end reaches upstream once and stops everything.
        do {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: nil)
            let subscription = recorder.subscription
            recorder.cancel()
            for value in input { upstream.sendKeepingSubscriber(value) }
            upstream.sendKeepingSubscriber(completion: .finished)
            subscription?.request(.max(1))
            subscription?.cancel()
            #expect(recorder.events == [.subscription], sourceLocation: sourceLocation)
            #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel], sourceLocation: sourceLocation)
        }

        // A cancel from inside `receive(_:)` of the one value: the completion that would follow it
        // in the same delivery does not come (a departure: Combine sends it), and nothing more goes
        // upstream.
        if let result {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: .unlimited, cancelAfterValues: 1)
            for value in input { upstream.send(value) }
            upstream.send(completion: .finished)
            #expect(recorder.events == [.subscription, .value(result)], sourceLocation: sourceLocation)
            #expect(upstream.events == expectedTraffic, sourceLocation: sourceLocation)
        }

        OperatorLaws.check(input: input, sourceLocation: sourceLocation, make)
    }
}

/// Notes what upstream had seen at the moment the subscription reached downstream.
final class SubscriptionOrderProbe<Input, Failure: Error>: Subscriber {
    private let upstreamEvents: () -> [TestPublisher<Int, TestError>.Event]
    private(set) var upstreamEventsAtSubscription: [TestPublisher<Int, TestError>.Event]?

    init(upstreamEvents: @escaping () -> [TestPublisher<Int, TestError>.Event]) {
        self.upstreamEvents = upstreamEvents
    }

    func receive(subscription: any Subscription) {
        upstreamEventsAtSubscription = upstreamEvents()
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}
}
