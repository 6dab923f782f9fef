// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct DeferredTests {
    @Test func closureRunsOncePerSubscriptionAtSubscriptionTime() {
        var created = 0
        let deferred = Deferred { () -> Publishers.Sequence<[Int], Never> in
            created += 1
            return [created, created * 10].publisher
        }
        #expect(created == 0)
        let first = deferred.record(initialDemand: nil)
        #expect(created == 1)
        let second = deferred.record()
        #expect(created == 2)
        #expect(second.values == [2, 20])
        first.request(.max(1))
        #expect(first.values == [1])
        #expect(created == 2)
    }

    @Test func subscriberTalksToTheCreatedPublisher() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = Deferred { upstream }.record(initialDemand: .max(2))
        #expect(upstream.events == [.subscribe, .request(.max(2))])
        upstream.send(5)
        upstream.send(completion: .failure(.oops))
        recorder.cancel()
        #expect(recorder.events == [.subscription, .value(5), .failure(.oops)])
    }

    @Test func createPublisherIsExposed() {
        let deferred = Deferred(createPublisher: { Just(3) })
        #expect(deferred.createPublisher().output == 3)
    }
}
