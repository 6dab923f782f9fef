// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// A subscriber for thread tests: counts what arrives, checks order and that no two calls into it
/// overlap, and lets another thread drive its subscription.
private final class ThreadedRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = any Error

    let inFlight = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    let outOfOrder = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)
    private let initialDemand: Subscribers.Demand
    /// Only touched inside `receive`, which must never overlap.
    private var last = 0
    /// Set during `subscribe`, on the test's thread, before any other thread starts.
    private(set) var subscription: (any Subscription)?

    init(initialDemand: Subscribers.Demand) { self.initialDemand = initialDemand }

    private func enter() {
        if inFlight.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
    }

    private func leave() { inFlight.store(false, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        enter()
        self.subscription = subscription
        leave()
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter()
        defer { leave() }
        if completions.load(ordering: .relaxed) > 0 { afterCompletion.add(1, ordering: .relaxed) }
        if input != last + 1 { outOfOrder.add(1, ordering: .relaxed) }
        last = input
        received.add(1, ordering: .relaxed)
        return .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        enter()
        completions.add(1, ordering: .relaxed)
        leave()
    }
}

/// Subscriptions are not `Sendable` in Combine's API; these tests hand one to other threads on purpose.
private struct Handle: @unchecked Sendable {
    let subscription: any Subscription
    func request(_ demand: Subscribers.Demand) { subscription.request(demand) }
    func cancel() { subscription.cancel() }
}

@Suite struct SynchronousSourceThreadTests {
    /// `tryMap` keeps the chain an operator chain (no eager overload), so Sluice runs it fused.
    static func source(_ count: Int) -> some Publisher<Int, any Error> {
        (1...count).publisher.tryMap { $0 }
    }

    @Test func requestsFromManyThreadsWhileTheSourceEmits() {
        let total = 200_000
        let recorder = ThreadedRecorder(initialDemand: .none)
        Self.source(total).subscribe(recorder)
        let subscription = Handle(subscription: recorder.subscription!)
        let threads = 4
        let requestsPerThread = total / threads / 5
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<requestsPerThread { subscription.request(.max(5)) }
        }
        // Every unit of demand was used exactly once, in order, with no overlapping calls.
        #expect(recorder.received.load(ordering: .relaxed) == total)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0)
    }

    @Test func neverMoreThanRequested() {
        let recorder = ThreadedRecorder(initialDemand: .none)
        Self.source(1_000_000).subscribe(recorder)
        let subscription = Handle(subscription: recorder.subscription!)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 { subscription.request(.max(1)) }
        }
        #expect(recorder.received.load(ordering: .relaxed) == 40_000)
        #expect(recorder.completions.load(ordering: .relaxed) == 0)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
    }

    @Test func cancelFromAnotherThreadStopsTheDrain() {
        for round in 0..<20 {
            let total = 2_000_000
            let recorder = ThreadedRecorder(initialDemand: .none)
            Self.source(total).subscribe(recorder)
            let subscription = Handle(subscription: recorder.subscription!)
            let started = DispatchSemaphore(value: 0)
            let emitter = DispatchGroup()
            DispatchQueue.global().async(group: emitter) {
                started.signal()
                subscription.request(.unlimited)
            }
            started.wait()
            while recorder.received.load(ordering: .relaxed) < 1_000 * (round + 1) {}
            subscription.cancel()
            let atCancel = recorder.received.load(ordering: .relaxed)
            emitter.wait()
            let after = recorder.received.load(ordering: .relaxed)
            // At most the one value already being delivered when cancel() returned.
            #expect(after - atCancel <= 1, "round \(round): \(after - atCancel) values after cancel")
            #expect(after < total)
            #expect(recorder.completions.load(ordering: .relaxed) == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        }
    }

    @Test func requestAndCancelRaceEndsCleanly() {
        for _ in 0..<200 {
            let recorder = ThreadedRecorder(initialDemand: .none)
            Self.source(10_000).subscribe(recorder)
            let subscription = Handle(subscription: recorder.subscription!)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 {
                    subscription.cancel()
                } else {
                    for _ in 0..<100 { subscription.request(.max(10)) }
                }
            }
            let received = recorder.received.load(ordering: .relaxed)
            #expect(received <= 2_000)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
            #expect(recorder.completions.load(ordering: .relaxed) == 0)
        }
    }
}
