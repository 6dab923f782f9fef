// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CountTests {
    @Test func countsTheElements() {
        #expect((1...4).publisher.count().record().events == [.subscription, .value(4), .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [7, 8, 9], result: 3, emptyResult: 0) { $0.count() }
    }

    @Test func eachSubscriptionCountsFromZero() {
        let count = ["a", "b"].publisher.count()
        #expect(count.record().values == [2])
        #expect(count.record().values == [2])
    }

    @Test func publicShape() {
        let count = Publishers.Count(upstream: Just("x"))
        #expect(count.upstream == Just("x"))
        #expect(count == Just("x").count())
        #expect(count.record().subscriptionDescriptions == ["Count"])
    }
}
