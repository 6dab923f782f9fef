// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct SetFailureTypeTests {
    @Test func valuesAndFinishedPassThroughUnderTheNewFailureType() {
        let upstream = TestPublisher<Int, Never>()
        let typed: Publishers.SetFailureType<TestPublisher<Int, Never>, TestError> = upstream.setFailureType(
            to: TestError.self)
        let recorder: RecordingSubscriber<Int, TestError> = typed.record()
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .value(3), .finished])
    }

    @Test func demandAndCancelPassStraightUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = upstream.setFailureType(to: TestError.self).record(
            initialDemand: .max(42), demandPerValue: { _ in .max(4) })
        #expect(upstream.send(0) == .max(4))
        recorder.request(.max(120))
        recorder.cancel()
        upstream.sendKeepingSubscriber(1)
        // As Combine's, the cancel went straight upstream, and what a misbehaving upstream sends
        // after it is passed on (OpenCombine's Apple-validated SetFailureTypeTests).
        #expect(recorder.values == [0, 1])
        #expect(upstream.events == [.subscribe, .request(.max(42)), .request(.max(120)), .cancel])
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = [1, 2, 3].publisher.setFailureType(to: TestError.self).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completions.isEmpty)
    }

    @Test func settingTheFailureTypeTwiceKeepsOneStage() {
        let upstream = TestPublisher<Int, Never>()
        let twice: Publishers.SetFailureType<TestPublisher<Int, Never>, TestError> =
            upstream.setFailureType(to: Never.self).setFailureType(to: TestError.self)
        #expect(twice.upstream === upstream)
        let recorder = twice.record()
        upstream.send(1)
        #expect(recorder.values == [1])
    }

    @Test func equatableWhenUpstreamIs() {
        let one = Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just(1))
        #expect(one == Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just(1)))
        #expect(one != Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just(2)))
    }

    @Test func laws() {
        // The laws drive a failing test publisher; replaceError makes it one that cannot fail.
        OperatorLaws.check { $0.replaceError(with: 0).setFailureType(to: TestError.self) }
    }
}
