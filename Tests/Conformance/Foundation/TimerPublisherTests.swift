// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Synchronization
import Testing

// `Timer.publish` on a real run loop on a thread of its own: nothing before `connect()`, a date per
// fire at the interval to each subscriber with demand, nothing after the connection is cancelled,
// and subscriptions that let go of their subscriber. Every wait is bounded; timing bounds are
// generous (two busy cores).
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

@Suite(.serialized) struct TimerPublisherTests {
    typealias TimerPublisher = Timer.TimerPublisher

    /// Records the dates it receives, from whichever thread, with a scripted demand.
    private final class DateRecorder: Subscriber, @unchecked Sendable {
        typealias Input = Date
        typealias Failure = Never

        // An NSLock rather than a Mutex: the state holds the (non-Sendable) subscription.
        private let lock = NSLock()
        private var _dates: [Date] = []
        private var _offLoop = 0
        private var _completions = 0
        private var _subscription: (any Subscription)?
        private let initialDemand: Subscribers.Demand?
        private let demandPerValue: Subscribers.Demand
        private let loop: RunLoopThread?

        init(
            initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none,
            loop: RunLoopThread? = nil
        ) {
            self.initialDemand = initialDemand
            self.demandPerValue = demandPerValue
            self.loop = loop
        }

        func receive(subscription: any Subscription) {
            lock.withLock { _subscription = subscription }
            if let initialDemand { subscription.request(initialDemand) }
        }

        func receive(_ input: Date) -> Subscribers.Demand {
            let onLoop = loop?.isCurrent ?? true
            lock.withLock {
                _dates.append(input)
                if !onLoop { _offLoop += 1 }
            }
            return demandPerValue
        }

        func receive(completion: Subscribers.Completion<Never>) {
            lock.withLock { _completions += 1 }
        }

        var dates: [Date] { lock.withLock { _dates } }
        var count: Int { lock.withLock { _dates.count } }
        var offLoop: Int { lock.withLock { _offLoop } }
        var completions: Int { lock.withLock { _completions } }
        var subscription: (any Subscription)? { lock.withLock { _subscription } }

        func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
        /// Cancels, and keeps the subscription: what lets go of the subscriber must be the publisher.
        func cancel() { subscription?.cancel() }
    }

    @Test func publishKeepsItsParametersButNotTheTolerance() {
        let mode = RunLoop.Mode(rawValue: "testMode")
        let publisher: TimerPublisher = Timer.publish(
            every: 0.25, tolerance: 0.02, on: .current, in: mode, options: nil)
        #expect(publisher.interval == 0.25)
        // Combine's `publish` drops the tolerance (OpenCombine's testPublishMethod, checked on Apple's).
        #expect(publisher.tolerance == nil)
        #expect(publisher.runLoop === RunLoop.current)
        #expect(publisher.mode == mode)
        #expect(publisher.options == nil)

        let direct = TimerPublisher(interval: 0.5, tolerance: 0.1, runLoop: .current, mode: .default)
        #expect(direct.interval == 0.5)
        #expect(direct.tolerance == 0.1)
        #expect(direct.mode == .default)
        #expect(direct.options == nil)
    }

    @Test func nothingIsSentBeforeConnect() async throws {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.05, on: loop.runLoop, in: .default)
        let recorder = DateRecorder(loop: loop)
        publisher.subscribe(recorder)
        #expect(recorder.subscription != nil, "the subscription comes at once, before any connection")
        try await Task.sleep(for: .seconds(RealTime.grace))
        #expect(recorder.count == 0)

        let connection = publisher.connect()
        #expect(await RealTime.eventually { recorder.count >= 2 })
        connection.cancel()
        #expect(recorder.completions == 0)
        recorder.cancel()
        await loop.stop()
    }

    @Test func firesAtTheIntervalOnTheRunLoopThread() async throws {
        let loop = RunLoopThread()
        let interval = 0.05
        let publisher = Timer.publish(every: interval, on: loop.runLoop, in: .default)
        let recorder = DateRecorder(loop: loop)
        publisher.subscribe(recorder)
        let connectedAt = Date()
        let connection = publisher.connect()
        try await Task.sleep(for: .seconds(1))
        connection.cancel()
        await loop.sync()
        let elapsed = Date().timeIntervalSince(connectedAt)
        let dates = recorder.dates

        // A timer never fires early, and skips the fires it misses: at most one per interval, and
        // (generously) at least a quarter of those.
        let most = Int(elapsed / interval) + 1
        #expect(dates.count <= most, "\(dates.count) fires in \(elapsed) s")
        #expect(dates.count >= most / 4, "\(dates.count) fires in \(elapsed) s")
        #expect(recorder.offLoop == 0)
        #expect(recorder.completions == 0)
        if let first = dates.first {
            #expect(first.timeIntervalSince(connectedAt) > interval - 0.005, "the first fire is one interval in")
        }
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
        if dates.count >= 2 {
            let average = dates.last!.timeIntervalSince(dates.first!) / Double(dates.count - 1)
            #expect(average > interval * 0.5, "average interval \(average)")
        }
        recorder.cancel()
        await loop.stop()
    }

    @Test func cancellingTheConnectionStopsTheTimer() async throws {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
        let recorder = DateRecorder(loop: loop)
        publisher.subscribe(recorder)
        let connection = publisher.connect()
        #expect(!(connection is any Subscription))
        #expect(await RealTime.eventually { recorder.count >= 3 })
        connection.cancel()
        await loop.sync()
        let afterCancel = recorder.count
        try await Task.sleep(for: .seconds(RealTime.grace))
        await loop.sync()
        #expect(recorder.count == afterCancel)
        #expect(recorder.completions == 0, "a cancelled timer does not finish its subscribers")
        recorder.cancel()
        await loop.stop()
    }

    @Test func valuesGoOnlyToSubscribersWithDemand() async throws {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
        let two = DateRecorder(initialDemand: .max(2), loop: loop)
        let none = DateRecorder(initialDemand: nil, loop: loop)
        let unlimited = DateRecorder(loop: loop)
        publisher.subscribe(two)
        publisher.subscribe(none)
        publisher.subscribe(unlimited)
        let connection = publisher.connect()

        #expect(await RealTime.eventually { unlimited.count >= 6 })
        await loop.sync()
        #expect(two.count == 2)
        #expect(none.count == 0)
        // One fire, one date, the same for every subscriber.
        #expect(two.dates == Array(unlimited.dates.prefix(2)))

        // Demand that comes later gets the next fire, not the ones missed.
        let requestedAt = Date()
        none.request(.max(1))
        #expect(await RealTime.eventually { none.count == 1 })
        if let date = none.dates.first { #expect(date >= requestedAt) }
        try await Task.sleep(for: .milliseconds(150))
        await loop.sync()
        #expect(none.count == 1)
        #expect(two.count == 2)

        connection.cancel()
        for recorder in [two, none, unlimited] { recorder.cancel() }
        await loop.stop()
    }

    @Test func demandReturnedFromReceiveAdds() async {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
        // One requested, then one more per value: unlimited in effect.
        let recorder = DateRecorder(initialDemand: .max(1), demandPerValue: .max(1), loop: loop)
        publisher.subscribe(recorder)
        let connection = publisher.connect()
        #expect(await RealTime.eventually { recorder.count >= 4 })
        connection.cancel()
        recorder.cancel()
        await loop.stop()
    }

    @Test func cancellingASubscriptionStopsItsValuesAndReleasesItsSubscriber() async throws {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
        let staying = DateRecorder(loop: loop)
        publisher.subscribe(staying)
        weak var weakLeaving: DateRecorder?
        var leftWith = 0
        let connection = publisher.connect()
        do {
            let leaving = DateRecorder(loop: loop)
            weakLeaving = leaving
            publisher.subscribe(leaving)
            #expect(await RealTime.eventually { leaving.count >= 2 })
            leaving.cancel()
            await loop.sync()
            leftWith = leaving.count
            try await Task.sleep(for: .milliseconds(100))
            await loop.sync()
            #expect(leaving.count == leftWith)
        }
        // The leaving recorder still holds its subscription; only the publisher could keep it alive.
        #expect(weakLeaving == nil)
        let stayingCount = staying.count
        #expect(await RealTime.eventually { staying.count > stayingCount }, "the others still receive")
        connection.cancel()
        staying.cancel()
        await loop.stop()
    }

    @Test func eachConnectionIsATimerOfItsOwn() async {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
        let recorder = DateRecorder(loop: loop)
        publisher.subscribe(recorder)
        let first = publisher.connect()
        let second = publisher.connect()
        #expect(await RealTime.eventually { recorder.count >= 2 })
        first.cancel()
        await loop.sync()
        let afterFirst = recorder.count
        #expect(await RealTime.eventually { recorder.count >= afterFirst + 2 }, "the second still fires")
        second.cancel()
        await loop.sync()
        let afterSecond = recorder.count
        try? await Task.sleep(for: .seconds(RealTime.grace))
        await loop.sync()
        #expect(recorder.count == afterSecond)
        recorder.cancel()
        await loop.stop()
    }

    @Test func firesOnlyInItsMode() async throws {
        let loop = RunLoopThread()
        let publisher = Timer.publish(every: 0.02, on: loop.runLoop, in: RunLoop.Mode("elsewhere"))
        let recorder = DateRecorder(loop: loop)
        publisher.subscribe(recorder)
        let connection = publisher.connect()
        // The thread runs its loop in the default mode only.
        try await Task.sleep(for: .seconds(RealTime.grace))
        #expect(recorder.count == 0)
        connection.cancel()
        recorder.cancel()
        await loop.stop()
    }

    @Test func autoconnectConnectsOnSubscribe() async {
        let loop = RunLoopThread()
        let dates = TestLock<[Date]>([])
        let finished = Atomic<Bool>(false)
        let cancellable = Timer.publish(every: 0.02, on: loop.runLoop, in: .default)
            .autoconnect()
            .prefix(3)
            .sink(
                receiveCompletion: { _ in finished.store(true, ordering: .releasing) },
                receiveValue: { date in dates.withLock { $0.append(date) } })
        #expect(await RealTime.eventually { finished.load(ordering: .acquiring) })
        #expect(dates.withLock { $0.count } == 3)
        cancellable.cancel()
        await loop.stop()
    }

    @Test func connectionAndSubscriptionAreNotSelfDescribing() {
        // Combine's are neither (OpenCombine's testConnectionReflection, checked on Apple's).
        let publisher = TimerPublisher(interval: 0.25, tolerance: 0.4, runLoop: .current, mode: .default)
        let connection = publisher.connect()
        defer { connection.cancel() }
        #expect(!(connection is any Subscription))
        #expect(!(connection is any CustomStringConvertible))
        #expect(!(connection is any CustomDebugStringConvertible))
        #expect(!(connection is any CustomReflectable))
        #expect(!(connection is any CustomPlaygroundDisplayConvertible))

        let recorder = DateRecorder(initialDemand: nil)
        publisher.subscribe(recorder)
        let subscription = recorder.subscription
        #expect(subscription != nil)
        if let subscription {
            #expect(!(subscription is NSObject))
            #expect(!(subscription is any CustomStringConvertible))
            #expect(!(subscription is any CustomDebugStringConvertible))
            #expect(!(subscription is any CustomReflectable))
            #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        }
        recorder.cancel()
    }
}
