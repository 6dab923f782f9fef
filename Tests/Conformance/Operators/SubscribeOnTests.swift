// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// `subscribe(on:options:)`: the subscribe, each request and the cancel run on the scheduler;
/// values and the completion pass straight through. Facts from Combine's observable behaviour
/// (OpenCombine's suite).
@Suite struct SubscribeOnTests {
    typealias TimedRecorder = ReceiveOnTests.TimedRecorder
    typealias MarkedQueue = ReceiveOnTests.MarkedQueue
    typealias QueueRecorder = ReceiveOnTests.QueueRecorder
    typealias Unchecked = ReceiveOnTests.Unchecked

    // MARK: Virtual time

    @Test func theSubscribeAndTheFirstRequestWaitForTheScheduler() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(
            clock: scheduler, initialDemand: .max(100), demandPerValue: .max(12))
        scheduler.advance(by: .milliseconds(3))
        upstream.subscribe(on: scheduler).subscribe(recorder)
        #expect(upstream.events == [])
        #expect(recorder.log == [])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(4))
        // Subscribed at the instant it was scheduled; the request made from inside
        // receive(subscription:) was scheduled too, and ran in the same advance.
        #expect(recorder.log == ["3:subscription"])
        #expect(upstream.events == [.subscribe, .request(.max(100))])
    }

    @Test func requestsReachUpstreamOnlyWhenTheSchedulerRuns() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let requestedAt = RequestLog(clock: scheduler)
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: nil)
        upstream.handleEvents(receiveRequest: { requestedAt.add("\($0)") }).subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        #expect(recorder.log == ["0:subscription"])
        #expect(upstream.events == [.subscribe])

        scheduler.advance(by: .milliseconds(5))
        recorder.subscription?.request(.max(17))
        recorder.subscription?.request(.unlimited)
        #expect(upstream.events == [.subscribe])
        #expect(scheduler.pendingCount == 2)
        scheduler.advance(by: .milliseconds(5))
        #expect(upstream.events == [.subscribe, .request(.max(17)), .request(.unlimited)])
        #expect(requestedAt.entries == ["5:max(17)", "5:unlimited"])
    }

    @Test func valuesAndTheCompletionPassThroughSynchronously() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(
            clock: scheduler, initialDemand: .max(100), demandPerValue: .max(12))
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        #expect(upstream.send(1) == .max(12))
        #expect(upstream.send(2) == .max(12))
        #expect(recorder.log == ["0:subscription", "0:value(1)", "0:value(2)"])
        #expect(scheduler.pendingCount == 0)
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(-1)
        #expect(recorder.log == ["0:subscription", "0:value(1)", "0:value(2)", "0:finished"])
        // Nothing after the completion: requests and cancel are not even scheduled.
        recorder.subscription?.request(.max(1))
        recorder.subscription?.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.events == [.subscribe, .request(.max(100))])
    }

    @Test func theCancelIsScheduledButValuesStopAtOnce() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: nil, demandPerValue: .max(42))
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        let subscription = recorder.subscription
        subscription?.cancel()
        #expect(upstream.events == [.subscribe])
        #expect(upstream.send(1000) == .none)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.log == ["0:subscription"])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(upstream.events == [.subscribe, .cancel])
        // After the cancel: nothing more is scheduled.
        subscription?.request(.max(20_000))
        subscription?.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.events == [.subscribe, .cancel])
    }

    @Test func aRequestMadeBeforeTheCancelStillArrivesFirst() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: nil)
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.subscription?.request(.unlimited)
        recorder.subscription?.cancel()
        #expect(upstream.events == [.subscribe])
        scheduler.advance()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aPendingRequestKeepsTheSubscriptionAlive() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        do {
            let recorder = TimedRecorder<Int, TestError>(clock: scheduler, initialDemand: nil)
            upstream.subscribe(on: scheduler).subscribe(recorder)
            scheduler.advance()
            recorder.subscription?.request(.max(1))
            recorder.subscription?.cancel()
        }
        scheduler.advance()
        #expect(upstream.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func reentrantRequestsOnTheImmediateSchedulerAllArrive() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: nil)
        var remaining = 3
        upstream
            .handleEvents(receiveRequest: { _ in
                guard remaining > 0 else { return }
                remaining -= 1
                recorder.request(.max(1))
            })
            .subscribe(on: ImmediateScheduler.shared)
            .subscribe(recorder)
        recorder.request(.max(1))
        #expect(upstream.events == [.subscribe] + Array(repeating: .request(.max(1)), count: 4))
        upstream.send(1)
        #expect(recorder.values == [1])
    }

    @Test func optionsArePassedToTheScheduler() {
        let scheduler = ReceiveOnTests.OptionsScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.subscribe(on: scheduler, options: 3).record(initialDemand: .max(1))
        recorder.cancel()
        // The subscribe, the request, the cancel.
        #expect(scheduler.seen == [3, 3, 3])
        #expect(upstream.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func operatorLawsOnTheImmediateScheduler() {
        OperatorLaws.check { $0.subscribe(on: ImmediateScheduler.shared) }
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            PassthroughSubject<Int, Never>().subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on PassthroughSubject's subscription")
    }

    // MARK: Real threads

    @Test func subscribeAndRequestsRunOnTheQueue() {
        let total = 10_000
        let queue = MarkedQueue("subscribe-on")
        let subscribedOnQueue = Atomic<Int>(0)
        let requestsOffQueue = Atomic<Int>(0)
        let recorder = QueueRecorder(queue, initialDemand: .max(1), demandPerValue: .max(1))
        Deferred {
            if queue.isCurrent { subscribedOnQueue.add(1, ordering: .relaxed) }
            return (1...total).publisher
        }
        .handleEvents(receiveRequest: { _ in
            if !queue.isCurrent { requestsOffQueue.add(1, ordering: .relaxed) }
        })
        .subscribe(on: queue.queue)
        .subscribe(recorder)
        #expect(recorder.finished.wait(timeout: .now() + 30) == .success)
        #expect(subscribedOnQueue.load(ordering: .relaxed) == 1)
        #expect(requestsOffQueue.load(ordering: .relaxed) == 0)
        // The source emits inside requests, which run on the queue: so do the values here.
        #expect(recorder.values == Array(1...total))
        #expect(recorder.offQueue.load(ordering: .relaxed) == 0)
        #expect(recorder.valuesAtCompletion == total)
    }

    @Test func theCancelRunsOnTheQueue() {
        let queue = MarkedQueue("subscribe-on-cancel")
        let cancels = TestLock<[Bool]>([])
        let subject = PassthroughSubject<Int, Never>()
        let received = TestLock<[Int]>([])
        let token =
            subject
            .handleEvents(receiveCancel: { cancels.withLock { $0.append(queue.isCurrent) } })
            .subscribe(on: queue.queue)
            .sink { value in received.withLock { $0.append(value) } }
        // Once for the subscribe, once more for the request it scheduled.
        queue.queue.sync {}
        queue.queue.sync {}
        subject.send(1)
        token.cancel()
        subject.send(2)
        queue.queue.sync {}
        #expect(cancels.withLock { $0 } == [true])
        #expect(received.withLock { $0 } == [1])
    }

    @Test func valuesFromAnotherThreadPassThroughInOrder() {
        let total = 20_000
        let queue = MarkedQueue("subscribe-on-values")
        let subject = PassthroughSubject<Int, Never>()
        let counter = Atomic<Int>(0)
        let outOfOrder = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let completedAfter = Atomic<Int>(-1)
        let requested = DispatchSemaphore(value: 0)
        // The hook runs before the request goes on to the subject (on the queue, as subscribe(on:)
        // sends it): the signal is queued behind it, so no value is sent before the subject has demand.
        let token = subject.handleEvents(receiveRequest: { _ in queue.queue.async { requested.signal() } }).subscribe(
            on: queue.queue
        ).sink(
            receiveCompletion: { _ in
                completedAfter.store(counter.load(ordering: .relaxed), ordering: .relaxed)
                done.signal()
            },
            receiveValue: { value in
                if counter.add(1, ordering: .relaxed).newValue != value { outOfOrder.add(1, ordering: .relaxed) }
            })
        #expect(requested.wait(timeout: .now() + 30) == .success)
        let sender = Unchecked(subject)
        DispatchQueue.global().async {
            for value in 1...total { sender.value.send(value) }
            sender.value.send(completion: .finished)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(counter.load(ordering: .relaxed) == total)
        #expect(outOfOrder.load(ordering: .relaxed) == 0)
        #expect(completedAfter.load(ordering: .relaxed) == total)
        withExtendedLifetime(token) {}
    }
}

/// Requests seen upstream, with the virtual instant (in ms) each arrived at.
private final class RequestLog {
    private let clock: VirtualTimeScheduler
    private(set) var entries: [String] = []
    init(clock: VirtualTimeScheduler) { self.clock = clock }
    func add(_ entry: String) { entries.append("\(clock.now.nanoseconds / 1_000_000):\(entry)") }
}
