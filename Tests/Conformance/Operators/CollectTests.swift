// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CollectTests {
    @Test func collectsEverythingIntoOneArrayAtFinish() {
        #expect([1, 2, 3].publisher.collect().record().events == [.subscription, .value([1, 2, 3]), .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 2, 3], result: [1, 2, 3], emptyResult: []) { $0.collect() }
    }

    @Test func nothingBeforeFinish() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect().record()
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2]), .finished])
    }

    @Test func eachSubscriptionCollectsItsOwnArray() {
        let collect = (1...3).publisher.collect()
        #expect(collect.record().values == [[1, 2, 3]])
        #expect(collect.record().values == [[1, 2, 3]])
    }

    @Test func publicShape() {
        let collect = Publishers.Collect(upstream: Just(1))
        #expect(collect.upstream == Just(1))
        #expect(collect == Just(1).collect())
        #expect(collect != Just(2).collect())
        #expect(collect.record().subscriptionDescriptions == ["Collect"])
    }
}
