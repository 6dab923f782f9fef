// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct BreakpointTests {
    @Test func passesEverythingThroughWhileTheClosuresReturnFalse() {
        let upstream = TestPublisher<Int, TestError>()
        var asked: [String] = []
        let recorder = upstream.breakpoint(
            receiveSubscription: { _ in
                asked.append("subscription"); return false
            },
            receiveOutput: {
                asked.append("output(\($0))"); return $0 < 0
            },
            receiveCompletion: {
                asked.append("completion(\($0))"); return false
            }
        ).record(initialDemand: .max(2), demandPerValue: .max(1))
        #expect(upstream.send(12) == .max(1))
        recorder.request(.max(3))
        upstream.send(completion: .failure(.oops))
        #expect(asked == ["subscription", "output(12)", "completion(failure(oops))"])
        #expect(recorder.events == [.subscription, .value(12), .failure(.oops)])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(3))])
    }

    @Test func breakpointOnErrorPassesAFinishedStream() {
        let recorder = [1, 2].publisher.breakpointOnError().record(initialDemand: .max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func breakpointOnErrorStopsOnlyOnFailure() {
        let breakpoint = TestPublisher<Int, TestError>().breakpointOnError()
        #expect(breakpoint.receiveSubscription == nil)
        #expect(breakpoint.receiveOutput == nil)
        #expect(breakpoint.receiveCompletion?(.finished) == false)
        #expect(breakpoint.receiveCompletion?(.failure(.oops)) == true)
    }

    @Test func cancelMidStreamReachesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.breakpointOnError().record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.sendKeepingSubscriber(2)
        // As Combine's, the cancel went straight upstream, and what a misbehaving upstream sends
        // after it is passed on (OpenCombine's Apple-validated BreakpointTests, AssertNoFailureTests).
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    /// In Combine downstream gets the upstream subscription itself, so a `print` below shows
    /// the upstream's name, not "Breakpoint".
    @Test func theSubscriptionGoesByTheUpstreamsName() {
        let recorder = TestPublisher<Int, TestError>().breakpoint().record()
        #expect(recorder.subscriptionDescriptions == ["TestSubscription"])
    }

    @Test func trueFromReceiveOutputRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = upstream.breakpoint(receiveOutput: { $0 < 0 }).record()
            upstream.send(1)
            upstream.send(-1)
            _ = recorder
        }
    }

    @Test func trueFromReceiveSubscriptionRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = TestPublisher<Int, TestError>().breakpoint(receiveSubscription: { _ in true }).record()
        }
    }

    @Test func trueFromReceiveCompletionRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = [1].publisher.breakpoint(receiveCompletion: { _ in true }).record()
        }
    }

    @Test func breakpointOnErrorRaisesSIGTRAPOnFailure() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = upstream.breakpointOnError().record()
            upstream.send(completion: .failure(.oops))
            _ = recorder
        }
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.breakpoint() }
        OperatorLaws.checkPassThrough { $0.breakpointOnError() }
    }
}
