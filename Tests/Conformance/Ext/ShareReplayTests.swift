// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ShareReplayTests {
    @Test func aSynchronousUpstreamIsSubscribedOnceAndReplayed() {
        var subscriptions = 0
        let shared = Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3])
            .handleEvents(receiveSubscription: { _ in subscriptions += 1 })
            .share(replay: 2)
        let first = shared.record()
        #expect(first.values == [1, 2, 3])
        #expect(first.completions.count == 1)
        let second = shared.record()
        #expect(second.values == [2, 3], "the last two values, replayed")
        #expect(second.completions.count == 1, "and the completion")
        #expect(subscriptions == 1)
    }

    @Test func aLateSubscriberJoinsTheStreamAfterTheLastValues() {
        let upstream = PassthroughSubject<Int, TestError>()
        let shared = upstream.share(replay: 1)
        let first = shared.record()
        upstream.send(1)
        upstream.send(2)
        let second = shared.record()
        upstream.send(3)
        upstream.send(completion: .failure(.oops))
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3), .failure(.oops)])
        #expect(second.events == [.subscription, .value(2), .value(3), .failure(.oops)])
        #expect(second.subscriptionDescriptions == ["Multicast"])
    }

    @Test func theLastCancelCancelsUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let shared = upstream.share(replay: 1)
        let first = shared.record()
        let second = shared.record()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        first.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        second.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }
}
