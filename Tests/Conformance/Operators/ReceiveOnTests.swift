// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// `receive(on:options:)`: each value and the completion hop onto the scheduler; the subscription,
/// requests and cancel do not. Facts from Combine's observable behaviour (OpenCombine's suite).
@Suite struct ReceiveOnTests {
    // MARK: Virtual time

    @Test func valuesAndCompletionWaitForTheSchedulerAndArriveAtItsInstants() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(
            clock: scheduler, initialDemand: .max(100), demandPerValue: .max(12))
        upstream.receive(on: scheduler).subscribe(recorder)

        // The subscription and the request reach their ends synchronously.
        #expect(recorder.log == ["0:subscription"])
        #expect(upstream.events == [.subscribe, .request(.max(100))])
        #expect(scheduler.pendingCount == 0)

        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(recorder.log == ["0:subscription"])
        #expect(scheduler.pendingCount == 2)

        scheduler.advance(by: .milliseconds(5))
        #expect(recorder.log == ["0:subscription", "0:value(1)", "0:value(2)"])
        // The demand downstream returns goes upstream once the value is delivered.
        #expect(upstream.events == [.subscribe, .request(.max(100)), .request(.max(12)), .request(.max(12))])

        upstream.send(3)
        scheduler.advance(by: .milliseconds(5))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.log.last == "5:value(3)")
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(5))
        #expect(recorder.log == ["0:subscription", "0:value(1)", "0:value(2)", "5:value(3)", "10:failure(oops)"])
        #expect(upstream.events.count == 5)
    }

    @Test func nothingIsScheduledAfterTheUpstreamCompletes() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(4)
        #expect(scheduler.pendingCount == 2)
        scheduler.advance()
        #expect(recorder.log == ["0:subscription", "0:value(1)", "0:finished"])
        upstream.sendKeepingSubscriber(5)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func requestsAndCancelGoStraightUpstream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: nil)
        upstream.receive(on: scheduler).subscribe(recorder)
        #expect(upstream.events == [.subscribe])
        recorder.subscription?.request(.max(10))
        recorder.subscription?.request(.max(4))
        #expect(upstream.events == [.subscribe, .request(.max(10)), .request(.max(4))])
        recorder.subscription?.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(10)), .request(.max(4)), .cancel])
        #expect(scheduler.pendingCount == 0)
        // After the cancel: no traffic, nothing scheduled.
        recorder.subscription?.request(.max(42))
        recorder.subscription?.cancel()
        upstream.sendKeepingSubscriber(0)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(upstream.events.count == 4)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance()
        #expect(recorder.log == ["0:subscription"])
    }

    @Test func valuesScheduledBeforeACancelAreDropped() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, demandPerValue: .max(1))
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        recorder.subscription?.cancel()
        scheduler.advance()
        #expect(recorder.log == ["0:subscription"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aCancelFromInsideReceiveStopsTheDemandItReturns() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: .max(5), demandPerValue: .max(42))
        recorder.onValue = { _ in recorder.subscription?.cancel() }
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance()
        #expect(recorder.log == ["0:subscription", "0:value(1)"])
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel])
    }

    @Test func valuesBeforeTheCompletionStillArriveAndTheirDemandStillGoesUpstream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, demandPerValue: .max(418))
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(-1)
        scheduler.advance()
        upstream.send(1000)
        upstream.send(completion: .finished)
        #expect(recorder.log == ["0:subscription", "0:value(-1)"])
        scheduler.advance()
        #expect(recorder.log == ["0:subscription", "0:value(-1)", "0:value(1000)", "0:finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .request(.max(418)), .request(.max(418))])
    }

    /// Sluice's rule (nothing after a cancel), as `delay`'s: Combine still delivers a completion
    /// that upstream sent before the cancel. Upstream, finished, is not cancelled.
    @Test func aCancelStopsACompletionOnItsWay() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
        upstream.receive(on: scheduler).subscribe(recorder)
        let subscription = recorder.subscription
        upstream.send(completion: .finished)
        subscription?.cancel()
        scheduler.advance()
        #expect(recorder.log == ["0:subscription"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func aScheduledActionKeepsTheSubscriberAlive() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        weak var released: TimedRecorder<Int, TestError>?
        do {
            let recorder = TimedRecorder<Int, TestError>(clock: scheduler)
            released = recorder
            upstream.receive(on: scheduler).subscribe(recorder)
            upstream.send(completion: .finished)
        }
        #expect(released != nil)
        #expect(released?.log == ["0:subscription"])
        scheduler.advance()
        #expect(released == nil)
    }

    /// A value sent from inside `receive` on an `ImmediateScheduler` arrives once that `receive`
    /// has returned (the hop's turn is taken), in order, with its demand (OpenCombine's
    /// testReceiveInputRecursively sees the same values and requests).
    @Test func recursiveSendsOnTheImmediateSchedulerArriveOneAfterAnother() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited, demandPerValue: .max(418))
        var remaining = 5
        var depth = 0
        var deepest = 0
        recorder.onValue = { _ in
            depth += 1
            deepest = max(deepest, depth)
            defer { depth -= 1 }
            guard remaining > 0 else { return }
            remaining -= 1
            upstream.send(-1)
        }
        upstream.receive(on: ImmediateScheduler.shared).subscribe(recorder)
        #expect(upstream.send(0) == .none)
        #expect(recorder.values == [0, -1, -1, -1, -1, -1])
        #expect(deepest == 1, "a value sent from inside receive arrived inside it")
        #expect(
            upstream.events == [.subscribe, .request(.unlimited)] + Array(repeating: .request(.max(418)), count: 6))
    }

    @Test func optionsArePassedToTheScheduler() {
        let scheduler = OptionsScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.receive(on: scheduler, options: 7).record()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(scheduler.seen == [7, 7])
        #expect(recorder.trace == ["subscription", "value(1)", "finished"])
        _ = upstream.receive(on: scheduler).record()
        upstream.send(2)
        #expect(scheduler.seen == [7, 7, nil])
    }

    @Test func operatorLawsOnTheImmediateScheduler() {
        OperatorLaws.check { $0.receive(on: ImmediateScheduler.shared) }
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            PassthroughSubject<Int, Never>().receive(on: ImmediateScheduler.shared).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on PassthroughSubject's subscription")
    }

    // MARK: Real threads

    @Test func valuesSentFromAnotherThreadArriveOnTheQueueInOrder() {
        let total = 20_000
        let queue = MarkedQueue("receive-on-order")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = QueueRecorder(queue)
        subject.receive(on: queue.queue).subscribe(recorder)
        let sender = Unchecked(subject)
        DispatchQueue.global().async {
            for value in 1...total { sender.value.send(value) }
            sender.value.send(completion: .finished)
        }
        #expect(recorder.finished.wait(timeout: .now() + 30) == .success)
        #expect(recorder.values == Array(1...total))
        #expect(recorder.offQueue.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.valuesAtCompletion == total)
    }

    @Test func valuesFromSeveralThreadsAreNeitherLostNorReordered() {
        let threads = 4
        let perThread = 5_000
        let queue = MarkedQueue("receive-on-threads")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = QueueRecorder(queue)
        subject.receive(on: queue.queue).subscribe(recorder)
        let sender = Unchecked(subject)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for sequence in 0..<perThread { sender.value.send(thread * 1_000_000 + sequence) }
        }
        subject.send(completion: .finished)
        #expect(recorder.finished.wait(timeout: .now() + 30) == .success)
        let values = recorder.values
        #expect(values.count == threads * perThread)
        for thread in 0..<threads {
            let mine = values.filter { $0 / 1_000_000 == thread }
            #expect(
                mine == (0..<perThread).map { thread * 1_000_000 + $0 },
                "thread \(thread): lost, duplicated or reordered")
        }
        #expect(recorder.offQueue.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.valuesAtCompletion == threads * perThread)
    }

    @Test func oneAtATimeDemandFromTheQueueDrivesASynchronousSource() {
        let total = 10_000
        let queue = MarkedQueue("receive-on-demand")
        let recorder = QueueRecorder(queue, initialDemand: .max(1), demandPerValue: .max(1))
        (1...total).publisher.receive(on: queue.queue).subscribe(recorder)
        #expect(recorder.finished.wait(timeout: .now() + 30) == .success)
        #expect(recorder.values == Array(1...total))
        #expect(recorder.offQueue.load(ordering: .relaxed) == 0)
        #expect(recorder.valuesAtCompletion == total)
    }

    @Test func aCancelOnTheQueueStopsDelivery() {
        let queue = MarkedQueue("receive-on-cancel")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = QueueRecorder(queue, cancelAt: 500)
        subject.receive(on: queue.queue).subscribe(recorder)
        let sender = Unchecked(subject)
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 1...10_000 { sender.value.send(value) }
            sender.value.send(completion: .finished)
            sent.signal()
        }
        #expect(sent.wait(timeout: .now() + 30) == .success)
        queue.queue.sync {}
        #expect(recorder.values == Array(1...500))
        #expect(recorder.completions.load(ordering: .relaxed) == 0)
    }
}

// MARK: - Helpers (shared with SubscribeOnTests)

extension ReceiveOnTests {
    /// Records each event with the virtual instant (in ms) at which it arrived.
    final class TimedRecorder<Input, Failure: Error>: Subscriber {
        private let clock: VirtualTimeScheduler
        private let initialDemand: Subscribers.Demand?
        private let demandPerValue: Subscribers.Demand
        private(set) var log: [String] = []
        private(set) var subscription: (any Subscription)?
        var onValue: ((Input) -> Void)?

        init(
            clock: VirtualTimeScheduler, initialDemand: Subscribers.Demand? = .unlimited,
            demandPerValue: Subscribers.Demand = .none
        ) {
            self.clock = clock
            self.initialDemand = initialDemand
            self.demandPerValue = demandPerValue
        }

        private func add(_ event: String) { log.append("\(clock.now.nanoseconds / 1_000_000):\(event)") }

        func receive(subscription: any Subscription) {
            add("subscription")
            self.subscription = subscription
            if let initialDemand { subscription.request(initialDemand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            add("value(\(input))")
            onValue?(input)
            return demandPerValue
        }

        /// Lets go of the subscription, as `Sink` does, so that tests can watch lifetimes.
        func receive(completion: Subscribers.Completion<Failure>) {
            subscription = nil
            switch completion {
            case .finished: add("finished")
            case .failure(let error): add("failure(\(error))")
            }
        }
    }

    /// A scheduler that runs actions at once and records the options it was given.
    final class OptionsScheduler: Scheduler {
        typealias SchedulerTimeType = VirtualTime
        typealias SchedulerOptions = Int
        private(set) var seen: [Int?] = []
        var now: VirtualTime { .zero }
        var minimumTolerance: VirtualTime.Stride { .nanoseconds(0) }
        func schedule(options: Int?, _ action: @escaping () -> Void) {
            seen.append(options)
            action()
        }
        func schedule(
            after date: VirtualTime, tolerance: VirtualTime.Stride, options: Int?, _ action: @escaping () -> Void
        ) {
            seen.append(options)
            action()
        }
        func schedule(
            after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: Int?,
            _ action: @escaping () -> Void
        ) -> any Cancellable {
            seen.append(options)
            action()
            return AnyCancellable {}
        }
    }

    /// A serial queue that marks itself, so code can check that it runs there.
    final class MarkedQueue: @unchecked Sendable {
        static let key = DispatchSpecificKey<String>()
        let queue: DispatchQueue
        let label: String

        init(_ label: String) {
            self.label = label
            queue = DispatchQueue(label: label)
            queue.setSpecific(key: Self.key, value: label)
        }

        var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == label }
    }

    /// Hands a non-Sendable value to another thread on purpose.
    struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A subscriber for real threads: checks that every event runs on its queue, keeps the values,
    /// and signals `finished` at the completion.
    final class QueueRecorder: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never

        let queue: MarkedQueue
        let finished = DispatchSemaphore(value: 0)
        let offQueue = Atomic<Int>(0)
        let completions = Atomic<Int>(0)
        private let state = TestLock<(values: [Int], atCompletion: Int)>(([], -1))
        private let initialDemand: Subscribers.Demand
        private let demandPerValue: Subscribers.Demand
        private let cancelAt: Int?
        /// Set in `receive(subscription:)`, before any value.
        private var subscription: (any Subscription)?

        init(
            _ queue: MarkedQueue, initialDemand: Subscribers.Demand = .unlimited,
            demandPerValue: Subscribers.Demand = .none,
            cancelAt: Int? = nil
        ) {
            self.queue = queue
            self.initialDemand = initialDemand
            self.demandPerValue = demandPerValue
            self.cancelAt = cancelAt
        }

        var values: [Int] { state.withLock { $0.values } }
        var valuesAtCompletion: Int { state.withLock { $0.atCompletion } }

        private func check() {
            if !queue.isCurrent { offQueue.add(1, ordering: .relaxed) }
        }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(initialDemand)
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            check()
            let count = state.withLock { state in
                state.values.append(input)
                return state.values.count
            }
            if count == cancelAt {
                subscription?.cancel()
                return .none
            }
            return demandPerValue
        }

        func receive(completion: Subscribers.Completion<Never>) {
            check()
            state.withLock { $0.atCompletion = $0.values.count }
            completions.add(1, ordering: .relaxed)
            finished.signal()
        }
    }
}
