// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Laws that every operator with one upstream obeys, whatever it does to the values.
///
/// `make` builds the operator on top of the given test publisher. The laws send the values in
/// `input` and then `.finished`, so they suit any operator that completes when its upstream
/// finishes (operators that re-subscribe on failure are covered as well, since only `.finished`
/// is sent).
enum OperatorLaws {
    static func check<P: Publisher>(
        input: [Int] = [1, 2, 3],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (TestPublisher<Int, TestError>) -> P
    ) {
        nothingAfterCompletion(input: input, sourceLocation: sourceLocation, make)
        cancelStopsEverything(input: input, sourceLocation: sourceLocation, make)
        subscriptionReleasedAfterCompletion(input: input, sourceLocation: sourceLocation, make)
        // Failure is left out: an operator that re-subscribes on failure (`retry`, `catch`) is
        // still live after it. Each operator's own lifetime test covers failure, with closures.
        LifetimeLaws.check(
            input: input, endings: [.cancel, .cancelInsideReceive, .finished], sourceLocation: sourceLocation
        ) {
            upstream, _ in make(upstream)
        }
    }

    /// The laws of an operator that, as in Combine, hands its subscriber its upstream's own
    /// subscription and passes on every signal it gets, whenever it comes (`map`, `filter`, `scan`,
    /// `mapError`, `setFailureType`, `assertNoFailure`, `breakpoint`, ...): so the subscriber's
    /// requests and cancel go straight upstream, even after a cancel, and what a misbehaving upstream
    /// sends after the end is passed on too. OpenCombine's Apple-validated suite records it:
    /// `FilterTests.testFilterBasicBehavior`, `MapTests.testError`, `BreakpointTests.testCancelAlreadyCancelled`.
    /// `requestsOnSubscription`: what the operator itself asks for once subscribed (`ignoreOutput`).
    static func checkPassThrough<P: Publisher>(
        input: [Int] = [1, 2, 3],
        requestsOnSubscription: Subscribers.Demand? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (TestPublisher<Int, TestError>) -> P
    ) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = make(upstream).record(initialDemand: nil)
        let subscription = recorder.subscription
        subscription?.request(.max(2))
        subscription?.cancel()
        subscription?.request(.max(3))
        let own: [TestPublisher<Int, TestError>.Event] = requestsOnSubscription.map { [.request($0)] } ?? []
        #expect(
            upstream.events == [.subscribe] + own + [.request(.max(2)), .cancel, .request(.max(3))],
            "requests and cancel go straight upstream: \(upstream.events)", sourceLocation: sourceLocation)

        let misbehaving = TestPublisher<Int, TestError>()
        let passed = make(misbehaving).record()
        for value in input { misbehaving.send(value) }
        misbehaving.sendKeepingSubscriber(completion: .finished)
        misbehaving.sendKeepingSubscriber(completion: .finished)
        #expect(
            passed.completions.count == 2, "every completion passed on: \(passed.trace)", sourceLocation: sourceLocation
        )
        LifetimeLaws.check(
            input: input, endings: [.cancel, .cancelInsideReceive, .finished], sourceLocation: sourceLocation
        ) {
            upstream, _ in make(upstream)
        }
    }

    /// Once the operator has delivered its completion, nothing else reaches the subscriber, even
    /// from an upstream that misbehaves and sends more.
    static func nothingAfterCompletion<P: Publisher>(
        input: [Int], sourceLocation: SourceLocation, _ make: (TestPublisher<Int, TestError>) -> P
    ) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = make(upstream).record()
        for value in input { upstream.send(value) }
        upstream.sendKeepingSubscriber(completion: .finished)
        let terminal = recorder.events.count
        #expect(
            recorder.completions.count == 1, "exactly one completion: \(recorder.trace)", sourceLocation: sourceLocation
        )
        upstream.send(99)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(
            recorder.events.count == terminal, "events after completion: \(recorder.trace)",
            sourceLocation: sourceLocation)
    }

    /// A cancel reaches upstream, and nothing is delivered after it.
    static func cancelStopsEverything<P: Publisher>(
        input: [Int], sourceLocation: SourceLocation, _ make: (TestPublisher<Int, TestError>) -> P
    ) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = make(upstream).record()
        let subscription = recorder.subscription
        recorder.cancel()
        #expect(
            upstream.events.contains(.cancel), "cancel should reach upstream: \(upstream.events)",
            sourceLocation: sourceLocation)
        let before = recorder.events.count
        let traffic = upstream.events.count
        for value in input { upstream.sendKeepingSubscriber(value) }
        upstream.sendKeepingSubscriber(completion: .finished)
        subscription?.request(.max(1))
        subscription?.cancel()
        #expect(
            recorder.events.count == before, "events after cancel: \(recorder.trace)", sourceLocation: sourceLocation)
        #expect(
            upstream.events.count == traffic, "upstream traffic after cancel: \(upstream.events)",
            sourceLocation: sourceLocation)
    }

    /// After the stream completes, neither the upstream nor the operator keeps the operator's
    /// subscription alive.
    static func subscriptionReleasedAfterCompletion<P: Publisher>(
        input: [Int], sourceLocation: SourceLocation, _ make: (TestPublisher<Int, TestError>) -> P
    ) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = make(upstream).record()
        for value in input { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(
            recorder.completions.count == 1, "exactly one completion: \(recorder.trace)", sourceLocation: sourceLocation
        )
        #expect(
            recorder.firstSubscription == nil, "the subscription outlived its stream", sourceLocation: sourceLocation)
    }
}

extension TestPublisher {
    /// Sends a value even if the subscriber has cancelled: a misbehaving upstream.
    func sendKeepingSubscriber(_ value: Output) {
        _ = lastSubscriber?.receive(value)
    }
}
