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
        let token = upstream.sink(receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(events == ["finished"])
        token.cancel()
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

    @Test func subscriberTypeExposesObjectAndKeyPath() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(assign.object === target)
        Just(9).subscribe(assign)
        #expect(target.value == 9)
        #expect(assign.object == nil)
    }
}
