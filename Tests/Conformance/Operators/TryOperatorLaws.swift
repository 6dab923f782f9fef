// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The law every `try` operator obeys when its closure throws: upstream is cancelled first, then
/// the error reaches downstream as the one `.failure`, then nothing more; and an upstream
/// failure is passed on unchanged (as `any Error`).
///
/// `make` builds the operator on the test publisher so that its closure throws `TestError.other`
/// when the value `2` arrives and does not throw for `1` (whatever it then does with it).
enum TryOperatorLaws {
    static func check<P: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (TestPublisher<Int, TestError>) -> P
    ) where P.Failure == any Error {
        throwCancelsUpstreamThenFails(sourceLocation: sourceLocation, make)
        upstreamFailurePassesThrough(sourceLocation: sourceLocation, make)
    }

    static func throwCancelsUpstreamThenFails<P: Publisher>(
        sourceLocation: SourceLocation, _ make: (TestPublisher<Int, TestError>) -> P
    ) where P.Failure == any Error {
        let upstream = TestPublisher<Int, TestError>()
        var completions: [String] = []
        var upstreamTrafficAtCompletion: [TestPublisher<Int, TestError>.Event] = []
        make(upstream).subscribe(
            AnySubscriber<P.Output, any Error>(
                receiveSubscription: { $0.request(.max(5)) },
                receiveValue: { _ in .none },
                receiveCompletion: { completion in
                    completions.append("\(completion)")
                    upstreamTrafficAtCompletion = upstream.events
                }
            ))
        upstream.send(1)
        #expect(completions.isEmpty, "1 must not throw", sourceLocation: sourceLocation)
        #expect(upstream.send(2) == .none, "a throw asks for nothing more", sourceLocation: sourceLocation)
        #expect(
            completions == ["\(Subscribers.Completion<any Error>.failure(TestError.other))"],
            sourceLocation: sourceLocation)
        #expect(
            upstreamTrafficAtCompletion == [.subscribe, .request(.max(5)), .cancel],
            "upstream must be cancelled before the failure is delivered", sourceLocation: sourceLocation)
        // A misbehaving upstream that keeps sending is ignored.
        #expect(upstream.lastSubscriber?.receive(1) == Subscribers.Demand.none, sourceLocation: sourceLocation)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(completions.count == 1, sourceLocation: sourceLocation)
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel], sourceLocation: sourceLocation)
    }

    static func upstreamFailurePassesThrough<P: Publisher>(
        sourceLocation: SourceLocation, _ make: (TestPublisher<Int, TestError>) -> P
    ) where P.Failure == any Error {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = make(upstream).record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
        #expect(
            recorder.completions.first.map {
                if case .failure(let error) = $0 { error as? TestError == .oops } else { false }
            } == true,
            "the upstream error is passed on as itself", sourceLocation: sourceLocation)
        #expect(
            upstream.events == [.subscribe, .request(.unlimited)], "an upstream failure is not answered with a cancel",
            sourceLocation: sourceLocation)
    }
}
