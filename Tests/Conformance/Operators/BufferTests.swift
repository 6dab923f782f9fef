// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

@Suite struct BufferTests {
    /// `.keepFull` asks upstream for `size` at subscription, `.byRequest` for everything; either
    /// way before downstream hears of the subscription.
    @Test(arguments: [(Publishers.PrefetchStrategy.keepFull, Subscribers.Demand.max(42)), (.byRequest, .unlimited)])
    func initialDemandUpstream(prefetch: Publishers.PrefetchStrategy, expected: Subscribers.Demand) {
        let upstream = TestPublisher<Int, TestError>()
        var seenAtSubscription: [TestPublisher<Int, TestError>.Event] = []
        var descriptions: [String] = []
        upstream.buffer(size: 42, prefetch: prefetch, whenFull: .dropOldest).subscribe(
            AnySubscriber<Int, TestError>(
                receiveSubscription: {
                    seenAtSubscription = upstream.events
                    descriptions.append(String(describing: $0))
                }))
        #expect(seenAtSubscription == [.subscribe, .request(expected)])
        #expect(upstream.events == [.subscribe, .request(expected)])
        #expect(descriptions == ["Buffer"])
    }

    /// Without demand, values wait in the buffer; what does not fit is dropped by the policy.
    @Test func dropNewestKeepsTheFirstValues() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).record(initialDemand: nil)
        for value in 1...5 { #expect(upstream.send(value) == .none) }
        #expect(recorder.events == [.subscription])
        recorder.request(.max(3))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func dropOldestKeepsTheLastValues() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).record(initialDemand: nil)
        for value in 1...5 { upstream.send(value) }
        recorder.request(.max(3))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .value(4), .value(5)])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// `.customError`: the overflow cancels upstream at once; the failure waits for downstream's
    /// next request and follows the values that request allows, even if some are left.
    @Test func customErrorCancelsUpstreamAndFailsOnTheNextRequest() {
        let upstream = TestPublisher<Int, TestError>()
        var made = 0
        let recorder = upstream.buffer(
            size: 3, prefetch: .byRequest,
            whenFull: .customError {
                made += 1
                return .other
            }
        ).record(initialDemand: nil)
        for value in 1...3 { upstream.send(value) }
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(4)
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(5)
        #expect(made == 1)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.other)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.other)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    /// `.keepFull` refills: after each request's values leave, upstream is asked for as many.
    @Test(arguments: [true, false])
    func keepFullAsksUpstreamForWhatLeft(dropNewest: Bool) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: .keepFull, whenFull: dropNewest ? .dropNewest : .dropOldest)
            .record(initialDemand: nil)
        // A misbehaving upstream sends 10 against 5 asked for.
        for value in 0..<10 { #expect(upstream.send(value) == .none) }
        recorder.request(.max(3))
        #expect(upstream.events == [.subscribe, .request(.max(5)), .request(.max(3))])
        recorder.request(.max(1))
        #expect(upstream.events == [.subscribe, .request(.max(5)), .request(.max(3)), .request(.max(1))])
        #expect(recorder.values == (dropNewest ? [0, 1, 2, 3] : [5, 6, 7, 8]))
    }

    /// After the overflow cancelled upstream, `.keepFull` does not ask it again (Combine does; a
    /// request after a cancel is meaningless, and Sluice sends nothing upstream after a cancel).
    @Test func keepFullCustomErrorAsksNothingAfterTheCancel() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .customError { .oops }).record(
            initialDemand: nil)
        for value in 0..<10 { upstream.sendKeepingSubscriber(value) }
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel])
        recorder.request(.max(3))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .failure(.oops)])
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel])
    }

    /// With demand and an empty buffer a value passes straight through; `.keepFull` returns
    /// `.max(1)` for it (its place is free again), `.byRequest` returns nothing.
    @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func unlimitedDemandPassesStraightThrough(prefetch: Publishers.PrefetchStrategy) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: prefetch, whenFull: .dropNewest).record()
        for value in 0..<10 {
            #expect(upstream.send(value) == (prefetch == .keepFull ? .max(1) : .none))
        }
        #expect(recorder.values == Array(0..<10))
        #expect(upstream.events == [.subscribe, .request(prefetch == .keepFull ? .max(5) : .unlimited)])
    }

    /// `.finished` waits until the buffer is empty and downstream has demand.
    @Test func finishedWaitsForTheBufferAndForDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).record(initialDemand: nil)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func finishedOnAnEmptyBufferWaitsForDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).record(initialDemand: nil)
        upstream.send(completion: .finished)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .finished])
    }

    /// An upstream failure is delivered at once, without demand, and the buffered values are dropped.
    @Test func failureIsDeliveredAtOnce() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).record(initialDemand: nil)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .failure(.oops)])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    /// Buffer asks upstream before downstream has its subscription; what upstream sends inside
    /// that first request (here a value and a failure) waits until downstream has it: the
    /// subscription first, then the failure (the buffered value is dropped with it).
    @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func failureInsideTheFirstRequestComesAfterTheSubscription(prefetch: Publishers.PrefetchStrategy) {
        let recorder = Fail<Int, TestError>(error: .oops).prepend(8)
            .buffer(size: 3, prefetch: prefetch, whenFull: .dropNewest).record(initialDemand: .unlimited)
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    /// A failure sent from inside `receive` while the buffer drains ends the stream there.
    /// (Combine goes on to deliver the rest of the buffer after the failure; Sluice delivers
    /// nothing after a completion.)
    @Test func failureDuringDrainEndsTheStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).record(initialDemand: nil)
        recorder.onValue = { _ in upstream.send(completion: .failure(.oops)) }
        for value in 1...5 { upstream.send(value) }
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    /// A request from inside `receive` keeps values flowing straight through.
    @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func reentrantRequest(prefetch: Publishers.PrefetchStrategy) {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: prefetch, whenFull: .customError { .oops }).record(
            initialDemand: .max(3))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        for value in 0..<10 {
            #expect(upstream.send(value) == (prefetch == .keepFull ? .max(1) : .none))
        }
        #expect(recorder.values == Array(0..<10))
        #expect(upstream.events == [.subscribe, .request(prefetch == .keepFull ? .max(5) : .unlimited)])
    }

    /// A value sent from inside `receive` (while the buffer drains) takes its turn after the
    /// ones already buffered.
    @Test func valueSentDuringDrainKeepsOrder() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).record(initialDemand: nil)
        recorder.onValue = { value in if value == 1 { upstream.send(100) } }
        for value in 1...3 { upstream.send(value) }
        recorder.request(.unlimited)
        upstream.send(4)
        #expect(recorder.values == [1, 2, 3, 100, 4])
    }

    /// Cancelling from inside `receive` reaches upstream and stops the drain.
    @Test func cancelMidStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).record(
            initialDemand: nil, cancelAfterValues: 2)
        for value in 1...5 { upstream.send(value) }
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel])
        upstream.sendKeepingSubscriber(6)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    /// A second subscription is cancelled, even the same one again.
    @Test func secondSubscriptionIsCancelled() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).record(initialDemand: nil)
        let extra = TestPublisher<Int, TestError>()
        extra.subscribe(AnySubscriber(upstream.subscriber!))
        #expect(extra.events == [.subscribe, .cancel])
        #expect(recorder.events == [.subscription])
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2)), .cancel])
    }

    /// As Combine's (OpenCombine's `BufferTests.test...CancelBeforeSubscription`): after a cancel
    /// that comes before upstream's subscription, the buffer still asks that late subscription for
    /// its prefetch, and drops what it sends.
    @Test(arguments: [(Publishers.PrefetchStrategy.keepFull, Subscribers.Demand.max(2)), (.byRequest, .unlimited)])
    func aSubscriptionAfterACancelIsAskedForThePrefetch(
        prefetch: Publishers.PrefetchStrategy, expected: Subscribers.Demand
    ) throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.buffer(size: 2, prefetch: prefetch, whenFull: .dropOldest).record()
        try #require(held.subscriberAsSubscription).cancel()
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(held.subscriber))
        #expect(late.events == [.subscribe, .request(expected)])
        late.send(1)
        late.send(completion: .finished)
        #expect(recorder.events == [])
    }

    /// As Combine's (OpenCombine's `BufferTests.testRecursion*`): `request(.none)` does not trap,
    /// and asks for nothing.
    @Test func requestingNoneAsksForNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).record(initialDemand: nil)
        upstream.send(1)
        recorder.request(.none)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(1))])
    }

    /// The ring wraps around and grows without losing order.
    @Test func manyValuesThroughTheRingKeepOrder() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.buffer(size: 1000, prefetch: .byRequest, whenFull: .dropOldest).record(
            initialDemand: nil)
        var expected: [Int] = []
        var next = 0
        for round in 1...20 {
            for _ in 0..<(round * 7) {
                upstream.send(next)
                expected.append(next)
                next += 1
            }
            recorder.request(.max(round * 5))
        }
        recorder.request(.unlimited)
        #expect(recorder.values == expected)
        // Over capacity: only the newest 1000 of 1500 survive, oldest first.
        let recorder2 = upstream.buffer(size: 1000, prefetch: .byRequest, whenFull: .dropOldest).record(
            initialDemand: nil)
        for value in 0..<1500 { upstream.send(value) }
        recorder2.request(.unlimited)
        #expect(recorder2.values == Array(500..<1500))
    }

    @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func laws(prefetch: Publishers.PrefetchStrategy) {
        OperatorLaws.check { $0.buffer(size: 3, prefetch: prefetch, whenFull: .dropOldest) }
    }

    /// One thread sends values through a large buffer while others request one at a time: every
    /// value arrives once, in order, with no overlapping calls, then one completion.
    @Test func requestsFromManyThreadsWhileUpstreamSends() {
        let total = 50_000
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = OrderedRecorder()
        upstream.buffer(size: .max, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        let box = SendableBox(subject: upstream, subscription: recorder.subscription!)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for value in 1...total { box.subject.send(value) }
                box.subject.send(completion: .finished)
            } else {
                for _ in 0..<(total / 3 + 1) { box.subscription.request(.max(1)) }
            }
        }
        #expect(recorder.received.load(ordering: .relaxed) == total)
        #expect(recorder.broken.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
    }
}

private final class OrderedRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let received = Atomic<Int>(0)
    let broken = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    private let inFlight = Atomic<Bool>(false)
    /// Set during `subscribe`, before other threads start.
    private(set) var subscription: (any Subscription)?
    private var last = 0

    func receive(subscription: any Subscription) { self.subscription = subscription }

    func receive(_ input: Int) -> Subscribers.Demand {
        if inFlight.exchange(true, ordering: .acquiring) { broken.add(1, ordering: .relaxed) }
        if input != last + 1 || completions.load(ordering: .relaxed) > 0 { broken.add(1, ordering: .relaxed) }
        last = input
        received.add(1, ordering: .relaxed)
        inFlight.store(false, ordering: .releasing)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        if inFlight.exchange(true, ordering: .acquiring) { broken.add(1, ordering: .relaxed) }
        completions.add(1, ordering: .relaxed)
        inFlight.store(false, ordering: .releasing)
    }
}

private struct SendableBox: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>
    let subscription: any Subscription
}
