// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

// The lifetime law for the subscribers Combine provides: each lets go of what it captured (the
// closures, the object it assigns to) once its stream ends, while the caller still holds it or
// its `AnyCancellable`.

@Suite struct SubscriberLifetimeTests {
    enum Ending: CaseIterable { case cancel, finished, failure }

    @Test func sinkReleasesItsClosures() {
        for ending in Ending.allCases {
            let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
            weak var weakCaptured: Captured?
            let token: AnyCancellable
            do {
                let captured = Captured()
                weakCaptured = captured
                token = upstream.sink(
                    receiveCompletion: { _ in captured.touch() }, receiveValue: { _ in captured.touch() })
            }
            upstream.send(1)
            switch ending {
            case .cancel: token.cancel()
            case .finished: upstream.send(completion: .finished)
            case .failure: upstream.send(completion: .failure(.oops))
            }
            #expect(weakCaptured == nil, "\(ending): the sink kept its closures")
            withExtendedLifetime(token) {}
        }
    }

    @Test func aSinkCancelledInsideItsOwnClosureReleasesIt() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakCaptured: Captured?
        var token: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            token = subject.sink { _ in
                captured.touch()
                token?.cancel()
            }
        }
        subject.send(1)
        #expect(weakCaptured == nil)
        withExtendedLifetime(token) {}
    }

    @Test func sinkOverAFusedChainReleasesItsClosures() {
        weak var weakCaptured: Captured?
        let token: AnyCancellable
        do {
            let captured = Captured()
            weakCaptured = captured
            token = [1, 2, 3].publisher.map { $0 + 1 }.sink { _ in captured.touch() }
        }
        #expect(weakCaptured == nil)
        withExtendedLifetime(token) {}
    }

    @Test func assignReleasesItsObject() {
        final class Target { var value = 0 }
        for ending in Ending.allCases {
            let upstream = TestPublisher<Int, Never>(keepsLastSubscriber: false)
            weak var weakTarget: Target?
            let token: AnyCancellable
            do {
                let target = Target()
                weakTarget = target
                token = upstream.assign(to: \.value, on: target)
            }
            upstream.send(1)
            #expect(weakTarget?.value == 1)
            switch ending {
            case .cancel: token.cancel()
            case .finished, .failure: upstream.send(completion: .finished)
            }
            #expect(weakTarget == nil, "\(ending): assign kept its object")
            withExtendedLifetime(token) {}
        }
    }

    /// A closure-based `AnySubscriber` keeps its closures while someone holds it (it may take a
    /// second stream, as Combine's does); the subscription lets go of it when its stream ends, so the
    /// closures go when the caller's last copy does.
    @Test func anySubscriberReleasesItsClosures() {
        for ending in Ending.allCases {
            let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
            weak var weakCaptured: Captured?
            var subscription: (any Subscription)?
            var subscriber: AnySubscriber<Int, TestError>?
            do {
                let captured = Captured()
                weakCaptured = captured
                subscriber = AnySubscriber(
                    receiveSubscription: {
                        captured.touch(); subscription = $0; $0.request(.unlimited)
                    },
                    receiveValue: { _ in
                        captured.touch(); return .none
                    },
                    receiveCompletion: { _ in captured.touch() })
            }
            upstream.subscribe(subscriber!)
            upstream.send(1)
            switch ending {
            case .cancel: subscription?.cancel()
            case .finished: upstream.send(completion: .finished)
            case .failure: upstream.send(completion: .failure(.oops))
            }
            subscription = nil
            #expect(weakCaptured != nil, "\(ending): the caller still holds the AnySubscriber")
            subscriber = nil
            #expect(weakCaptured == nil, "\(ending): the subscription kept the AnySubscriber's closures")
        }
    }

    @Test func anyCancellableReleasesItsClosureWhenCancelled() {
        weak var weakCaptured: Captured?
        let token: AnyCancellable
        do {
            let captured = Captured()
            weakCaptured = captured
            token = AnyCancellable { captured.touch() }
        }
        #expect(weakCaptured != nil)
        token.cancel()
        #expect(weakCaptured == nil)
    }
}
