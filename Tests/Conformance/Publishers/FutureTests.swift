// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Testing

/// Holds a promise so that a test can fulfil it later, from any thread.
private final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    var promise: Future<Output, Failure>.Promise?
    func fulfil(_ result: Result<Output, Failure>) { promise?(result) }
}

/// A list that several threads may append to.
private final class LockedList<Element>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    private var storage: [Element] = []
    func append(_ element: Element) {
        semaphore.wait()
        storage.append(element)
        semaphore.signal()
    }
    var elements: [Element] {
        semaphore.wait()
        defer { semaphore.signal() }
        return storage
    }
}

@Suite struct FutureTests {
    private func makeFuture() -> (Future<Int, TestError>, PromiseBox<Int, TestError>) {
        let box = PromiseBox<Int, TestError>()
        let future = Future<Int, TestError> { box.promise = $0 }
        return (future, box)
    }

    @Test func closureRunsOnceAtCreationNotPerSubscriber() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(runs))
        }
        #expect(runs == 1)
        #expect(future.record().values == [1])
        #expect(future.record().values == [1])
        #expect(runs == 1)
    }

    @Test func currentSubscribersGetTheValueWhenFulfilled() {
        let (future, box) = makeFuture()
        let recorder = future.record()
        #expect(recorder.events == [.subscription])
        #expect(recorder.subscriptionDescriptions == ["Future"])
        box.fulfil(.success(42))
        #expect(recorder.events == [.subscription, .value(42), .finished])
    }

    @Test func resultIsReplayedToLateSubscribers() {
        let (future, box) = makeFuture()
        let early = future.record()
        box.fulfil(.success(7))
        let late = future.record()
        let later = future.record()
        #expect(early.events == [.subscription, .value(7), .finished])
        #expect(late.events == [.subscription, .value(7), .finished])
        #expect(later.events == [.subscription, .value(7), .finished])
    }

    @Test func valueWaitsForDemand() {
        let (future, box) = makeFuture()
        let recorder = future.record(initialDemand: nil)
        box.fulfil(.success(1))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        recorder.request(.max(1))
        #expect(recorder.events.count == 3)
    }

    @Test func lateSubscriberWithoutDemandWaitsForItsFirstRequest() {
        let (future, box) = makeFuture()
        box.fulfil(.success(3))
        let recorder = future.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func failureIsSentAtOnceWithoutDemand() {
        let (future, box) = makeFuture()
        let early = future.record(initialDemand: nil)
        box.fulfil(.failure(.oops))
        let late = future.record(initialDemand: nil)
        #expect(early.events == [.subscription, .failure(.oops)])
        #expect(late.events == [.subscription, .failure(.oops)])
    }

    @Test func onlyTheFirstFulfilmentCounts() {
        let (future, box) = makeFuture()
        let recorder = future.record()
        box.fulfil(.success(1))
        box.fulfil(.success(2))
        box.fulfil(.failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(future.record().values == [1])
    }

    @Test func fulfilmentFromInsideReceiveIsIgnored() {
        let (future, box) = makeFuture()
        let recorder = RecordingSubscriber<Int, TestError>()
        recorder.onValue = { box.fulfil(.success($0 + 1)) }
        future.subscribe(recorder)
        box.fulfil(.success(0))
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }

    @Test func cancelBeforeFulfilmentDeliversNothingAndReleasesTheSubscription() {
        let (future, box) = makeFuture()
        let recorder = future.record()
        let other = future.record()
        recorder.cancel()
        #expect(recorder.firstSubscription == nil)
        box.fulfil(.success(5))
        #expect(recorder.events == [.subscription])
        #expect(other.events == [.subscription, .value(5), .finished])
    }

    @Test func subscriptionIsReleasedAfterCompletion() {
        let (future, box) = makeFuture()
        let recorder = future.record()
        box.fulfil(.success(1))
        #expect(recorder.firstSubscription == nil)
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let future = Future<Int, Never> { _ in }
            let recorder = future.record(initialDemand: nil)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Future's subscription")
    }

    @Test func fulfilmentFromAnotherThreadIsDeliveredOnce() {
        let (future, box) = makeFuture()
        let recorder = future.record()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.fulfil(.success(9))
            done.signal()
        }
        done.wait()
        #expect(recorder.events == [.subscription, .value(9), .finished])
    }

    @Test func racingFulfilmentsAndSubscriptionsDeliverExactlyOneResultEach() {
        for _ in 0..<50 {
            let (made, box) = makeFuture()
            // Future is thread-safe but, as in Combine, not declared Sendable.
            nonisolated(unsafe) let future = made
            let recorders = LockedList<RecordingSubscriber<Int, TestError>>()
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                if index.isMultiple(of: 2) {
                    box.fulfil(.success(index))
                } else {
                    recorders.append(future.record())
                }
            }
            let late = future.record()
            let all = recorders.elements + [late]
            let winner = late.values.first
            #expect(winner != nil)
            for recorder in all {
                #expect(recorder.values.count == 1)
                #expect(recorder.values.first == winner)
                #expect(recorder.completions.count == 1)
                #expect(recorder.events.first == .subscription)
            }
        }
    }
}
