// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct FailTests {
    @Test func failsImmediatelyWithoutDemand() {
        let recorder = Fail<Int, TestError>(error: .oops).record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(recorder.subscriptionDescriptions == ["Empty"])
    }

    @Test func failsEachSubscriber() {
        let fail = Fail(outputType: String.self, failure: TestError.other)
        #expect(fail.record().events == [.subscription, .failure(.other)])
        #expect(fail.record().events == [.subscription, .failure(.other)])
        #expect(fail.error == .other)
    }

    @Test func equalityComparesTheError() {
        #expect(Fail<Int, TestError>(error: .oops) == Fail(outputType: Int.self, failure: .oops))
        #expect(Fail<Int, TestError>(error: .oops) != Fail<Int, TestError>(error: .other))
    }
}
