// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

private struct WrappedError: Error, Equatable {
    let inner: TestError
}

@Suite struct MapErrorTests {
    @Test func convertsTheFailure() {
        let upstream = TestPublisher<Int, TestError>()
        let mapped: Publishers.MapError<TestPublisher<Int, TestError>, WrappedError> = upstream.mapError(
            WrappedError.init)
        let recorder = mapped.record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.completions == [.failure(WrappedError(inner: .oops))])
        #expect(recorder.values == [1])
    }

    @Test func valuesAndFinishedPassThroughWithoutCallingTheClosure() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.mapError { error -> WrappedError in
            calls += 1
            return WrappedError(inner: error)
        }.record()
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.values == [2, 3])
        #expect(recorder.completions == [.finished])
        #expect(calls == 0)
    }

    @Test func demandAndCancelPassStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.mapError(WrappedError.init).record(
            initialDemand: .max(42), demandPerValue: { _ in .max(4) })
        #expect(upstream.send(0) == .max(4))
        recorder.request(.max(1))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(42)), .request(.max(1)), .cancel])
    }

    @Test func zeroDemandRequestsNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.mapError(WrappedError.init).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        #expect(recorder.values.isEmpty)
    }

    @Test func bothInitialisersBuildTheSamePublisher() {
        let upstream = TestPublisher<Int, TestError>()
        let labelled = Publishers.MapError(upstream: upstream, transform: WrappedError.init)
        let unlabelled = Publishers.MapError(
            upstream: upstream, { (error: TestError) in WrappedError(inner: error == .oops ? .other : .oops) })
        #expect(labelled.transform(.oops) == WrappedError(inner: .oops))
        #expect(unlabelled.transform(.oops) == WrappedError(inner: .other))
        #expect(unlabelled.upstream === upstream)
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.mapError(WrappedError.init) }
    }
}
