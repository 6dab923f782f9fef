// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AssertNoFailureTests {
    @Test func republishesValuesDemandAndFinished() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.assertNoFailure().record(initialDemand: .max(2), demandPerValue: .max(2))
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .max(2))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func zeroThenLimitedDemandPassesStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.assertNoFailure().record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(3))
        recorder.request(.unlimited)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.unlimited)])
    }

    @Test func cancelMidStreamReachesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.assertNoFailure().record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.sendKeepingSubscriber(2)
        // As Combine's, the cancel went straight upstream, and what a misbehaving upstream sends
        // after it is passed on (OpenCombine's Apple-validated BreakpointTests, AssertNoFailureTests).
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func failureTypeIsNever() {
        let upstream = TestPublisher<Int, TestError>()
        let asserted: Publishers.AssertNoFailure<TestPublisher<Int, TestError>> = upstream.assertNoFailure(
            "p", file: "F.swift", line: 7)
        #expect(asserted.prefix == "p")
        #expect(asserted.line == 7)
        #expect("\(asserted.file)" == "F.swift")
        var values: [Int] = []
        let cancellable = asserted.sink { values.append($0) }
        upstream.send(3)
        #expect(values == [3])
        cancellable.cancel()
    }

    @Test func trapsOnFailureWithThePrefixTheErrorAndTheCallSite() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = upstream.assertNoFailure("pipeline invariant", file: "Guarded.swift", line: 42).record()
            upstream.send(1)
            upstream.send(completion: .failure(.oops))
            _ = recorder
        }
        expectTrapMessage(result, contains: "pipeline invariant oops")
        expectTrapMessage(result, contains: "Guarded.swift:42")
    }

    @Test func trapsWithJustTheErrorWithoutAPrefix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            _ = upstream.assertNoFailure().record()
            upstream.send(completion: .failure(.other))
        }
        expectTrapMessage(result, contains: "Fatal error: other")
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.assertNoFailure() }
    }
}
