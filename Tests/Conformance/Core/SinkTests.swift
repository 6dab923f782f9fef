// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct SinkTests {
    @Test func requestsUnlimitedAndReceivesEverything() {
        let upstream = TestPublisher<Int, TestError>()
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        let token = upstream.sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(values == [1, 2])
        #expect(completions == [.failure(.oops)])
        token.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func valuesAfterCancelAreNotDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        let token = subject.sink { values.append($0) }
        subject.send(1)
        token.cancel()
        subject.send(2)
        #expect(values == [1])
    }

    @Test func droppingTheTokenCancels() {
        let upstream = TestPublisher<Int, Never>()
        var values: [Int] = []
        _ = upstream.sink { values.append($0) }
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(1)
        #expect(values.isEmpty)
    }

    @Test func synchronousSourceDeliversDuringSinkEvenIfTokenIsDropped() {
        var values: [Int] = []
        _ = [1, 2, 3].publisher.sink { values.append($0) }
        #expect(values == [1, 2, 3])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(second.events == [.subscribe, .cancel])
        sink.cancel()
        #expect(first.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func nothingAfterCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        var events: [String] = []
        let token = upstream.sink(
            receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(events == ["finished"])
        token.cancel()
    }

    /// As Combine's (OpenCombine's `SinkTests.testReceiveValueWithoutSubscription`): the sink takes
    /// a value and a completion even before its subscription; only the end of the stream stops them.
    @Test func takesSignalsBeforeItsSubscription() {
        var events: [String] = []
        let sink = Subscribers.Sink<Int, TestError>(
            receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("value \($0)") })
        #expect(sink.receive(1) == .none)
        sink.receive(completion: .finished)
        #expect(sink.receive(2) == .none)
        sink.receive(completion: .finished)
        #expect(events == ["value 1", "finished"])
    }

    /// As Combine's (OpenCombine's `SinkTests.testDoesNotReleaseClosuresAfterCancellationNoSubscription`):
    /// a cancel before the subscription is ignored, so the subscription that comes after is taken.
    @Test func aCancelBeforeTheSubscriptionIsIgnored() {
        var values: [Int] = []
        let sink = Subscribers.Sink<Int, TestError>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        sink.cancel()
        let upstream = TestPublisher<Int, TestError>()
        upstream.subscribe(sink)
        upstream.send(4)
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(values == [4])
        sink.cancel()
    }

    /// The same through `sink(...)`'s token, as Combine's (OpenCombine's
    /// `PrintTests.testSynchronization` drops the token before the subscription comes).
    @Test func aTokenCancelledBeforeTheSubscriptionIsIgnored() throws {
        let held = HeldPublisher<Int, Never>()
        var values: [Int] = []
        held.sink { values.append($0) }.cancel()
        _ = held.subscriber?.receive(1)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(try #require(held.subscriber))
        upstream.send(2)
        #expect(values == [1, 2])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }
}

@Suite struct AssignTests {
    final class Target {
        var value = 0
    }

    @Test func assignsEveryValue() {
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        let token = subject.assign(to: \.value, on: target)
        subject.send(3)
        #expect(target.value == 3)
        subject.send(5)
        #expect(target.value == 5)
        token.cancel()
        subject.send(7)
        #expect(target.value == 5)
    }

    @Test func releasesTheObjectOnCompletion() {
        weak var weakTarget: Target?
        let subject = PassthroughSubject<Int, Never>()
        var token: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            token = subject.assign(to: \.value, on: target)
        }
        #expect(weakTarget != nil)
        subject.send(completion: .finished)
        #expect(weakTarget == nil)
        token?.cancel()
    }

    /// As Combine's (OpenCombine's `AssignTests.testReceiveValue`): a value before the
    /// subscription is not assigned.
    @Test func aValueBeforeTheSubscriptionIsNotAssigned() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(assign.receive(12) == .none)
        #expect(target.value == 0)
        Just(9).subscribe(assign)
        #expect(target.value == 9)
    }

    /// An object that owns the publisher it is assigned from: when the object goes, the publisher
    /// goes with it and finishes the very subscriber that let go of the object, which must not
    /// deadlock (OpenCombine's `AssignTests.testReceiveCompletionWhileCancelling`).
    final class OwnerOfItsPublisher {
        final class FinishingOnDeinit: Publisher {
            typealias Output = Int
            typealias Failure = Never
            let subject = PassthroughSubject<Int, Never>()
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subject.subscribe(subscriber)
            }
            deinit { subject.send(completion: .finished) }
        }
        var value = 0
        let publisher = FinishingOnDeinit()
    }

    @Test func anObjectWhoseDeinitCompletesTheAssignDoesNotDeadlock() {
        let token: AnyCancellable
        do {
            let object = OwnerOfItsPublisher()
            token = object.publisher.assign(to: \.value, on: object)
            object.publisher.subject.send(5)
            #expect(object.value == 5)
        }
        token.cancel()
    }

    @Test func subscriberTypeExposesObjectAndKeyPath() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(assign.object === target)
        Just(9).subscribe(assign)
        #expect(target.value == 9)
        #expect(assign.object == nil)
    }
}
