// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CreateTests {
    /// A callback-based source the tests drive: it knows nothing of demand.
    final class Source {
        var subscriber: Publishers.Create<Int, TestError>.Subscriber?
        var starts = 0
        var stops = 0
    }

    func publisher(over source: Source) -> AnyPublisher<Int, TestError> {
        AnyPublisher { subscriber in
            source.subscriber = subscriber
            source.starts += 1
            return AnyCancellable { source.stops += 1 }
        }
    }

    @Test func whatTheSourceSendsWaitsForDemandInOrder() {
        let source = Source()
        let recorder = publisher(over: source).record(initialDemand: .max(1))
        #expect(recorder.subscriptionDescriptions == ["Create"])
        for value in 1...4 { source.subscriber?.send(value) }
        source.subscriber?.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        #expect(source.stops == 0, "the completion waits behind a value")
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
        #expect(source.stops == 1, "the source is stopped when the stream ends")
    }

    @Test func aSynchronousSourceIsServedAndStoppedOnce() {
        var stops = 0
        let publisher = AnyPublisher<Int, TestError>.create { subscriber in
            subscriber.send(1)
            subscriber.send(2)
            subscriber.send(completion: .failure(.oops))
            subscriber.send(3)
            return AnyCancellable { stops += 1 }
        }
        #expect(publisher.record().events == [.subscription, .value(1), .value(2), .failure(.oops)])
        #expect(stops == 1)
        #expect(publisher.record().events == [.subscription, .value(1), .value(2), .failure(.oops)])
        #expect(stops == 2, "each subscriber starts the source again")
    }

    @Test func aCancelStopsTheSourceAndIgnoresWhatFollows() {
        let source = Source()
        weak var released: RecordingSubscriber<Int, TestError>?
        do {
            let recorder = publisher(over: source).record(initialDemand: .max(1))
            released = recorder
            source.subscriber?.send(1)
            source.subscriber?.send(2)
            recorder.cancel()
            #expect(source.stops == 1)
            source.subscriber?.send(3)
            source.subscriber?.send(completion: .finished)
            #expect(recorder.events == [.subscription, .value(1)])
        }
        #expect(released == nil, "the subscriber is let go of at the cancel")
        #expect(source.stops == 1)
    }

    @Test func aCompletionDoesNotNeedDemand() {
        let source = Source()
        let recorder = publisher(over: source).record(initialDemand: nil)
        source.subscriber?.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func aSendFromInsideReceiveFollowsTheValueInHand() {
        let source = Source()
        let recorder = RecordingSubscriber<Int, TestError>()
        var depth = 0
        var deepest = 0
        recorder.onValue = { value in
            depth += 1
            deepest = max(deepest, depth)
            if value < 3 { source.subscriber?.send(value + 1) }
            depth -= 1
        }
        publisher(over: source).subscribe(recorder)
        source.subscriber?.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(deepest == 1)
    }

    @Test func sendsFromManyThreadsAreAllDeliveredOnce() {
        nonisolated(unsafe) let source = Source()
        let recorder = RecordingSubscriber<Int, TestError>()
        publisher(over: source).subscribe(recorder)
        nonisolated(unsafe) let subscriber = source.subscriber!
        onThreads(4) { thread in
            for value in 0..<500 { subscriber.send(thread * 1_000 + value) }
        }
        subscriber.send(completion: .finished)
        #expect(recorder.values.count == 2_000)
        #expect(Set(recorder.values).count == 2_000)
        for thread in 0..<4 {
            let own = recorder.values.filter { $0 / 1_000 == thread }
            #expect(own == own.sorted(), "each thread's values in the order it sent them")
        }
        #expect(recorder.completions.count == 1)
    }
}
