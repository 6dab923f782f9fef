// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// An object for an operator's closures to capture: the test watches it through a weak reference
/// to see when the operator lets go of its closures.
final class Captured: @unchecked Sendable {
    /// Something for a closure to touch, so that it captures the object.
    func touch() {}
}

/// A subscriber that keeps its subscription for good, as the custom subscribers in Combine's own
/// examples do (they store it to request more later). It never lets go of it: only the
/// subscription letting go of this subscriber breaks the cycle between them.
final class HoldingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private(set) var subscription: (any Subscription)?
    private(set) var values = 0
    private(set) var completions = 0
    private let demand: Subscribers.Demand?
    private let cancelsOnFirstValue: Bool

    /// `demand`: asked for as soon as the subscription arrives (`nil`: nothing).
    init(demand: Subscribers.Demand? = .unlimited, cancelsOnFirstValue: Bool = false) {
        self.demand = demand
        self.cancelsOnFirstValue = cancelsOnFirstValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if let demand { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values += 1
        if cancelsOnFirstValue && values == 1 { subscription?.cancel() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { completions += 1 }
}

/// The lifetime law (Combine: `cancel()` "should also eliminate any strong references"; Reactive
/// Streams rule 3.13): once a stream ends, by a cancel, a finish or a failure, its subscription
/// lets go of its subscriber, of the operators' closures and of its upstream subscription, at that
/// moment, while the test still holds the upstream publisher.
///
/// The subscriber stores its subscription strongly (`HoldingSubscriber`), so a subscription that
/// keeps its subscriber after the end keeps both alive for good.
enum LifetimeLaws {
    /// How the stream ends.
    enum Ending: String, CaseIterable, CustomStringConvertible {
        /// The subscriber cancels after the first upstream value went in.
        case cancel
        /// The subscriber cancels from inside `receive(_:)` of its first value (for an operator
        /// that publishes nothing before the end, the upstream then finishes).
        case cancelInsideReceive
        /// Upstream finishes.
        case finished
        /// Upstream fails.
        case failure

        var description: String { rawValue }
    }

    /// Checks the law for an operator over one upstream. `make` builds the operator over the
    /// test publisher, with `captured` captured by every closure it takes. `subscribed` runs right
    /// after the subscribe, and `settle` after the ending (advance a virtual-time scheduler, say),
    /// for operators that subscribe or end on a schedule.
    static func check<P: Publisher>(
        input: [Int] = [1, 2, 3],
        endings: [Ending] = Ending.allCases,
        subscribed: () -> Void = {},
        settle: () -> Void = {},
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (TestPublisher<Int, TestError>, Captured) -> P
    ) {
        for ending in endings {
            let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
            weak var weakSubscriber: HoldingSubscriber<P.Output, P.Failure>?
            weak var weakCaptured: Captured?
            do {
                let captured = Captured()
                let subscriber = HoldingSubscriber<P.Output, P.Failure>(
                    cancelsOnFirstValue: ending == .cancelInsideReceive)
                weakCaptured = captured
                weakSubscriber = subscriber
                make(upstream, captured).subscribe(subscriber)
            }
            subscribed()
            switch ending {
            case .cancel:
                if let first = input.first { upstream.send(first) }
                weakSubscriber?.subscription?.cancel()
            case .cancelInsideReceive:
                for value in input { upstream.send(value) }
                if weakSubscriber?.values == 0 { upstream.send(completion: .finished) }
            case .finished:
                for value in input { upstream.send(value) }
                upstream.send(completion: .finished)
            case .failure:
                for value in input { upstream.send(value) }
                upstream.send(completion: .failure(.oops))
            }
            settle()
            #expect(
                weakSubscriber == nil, "\(ending): the subscription kept its subscriber", sourceLocation: sourceLocation
            )
            #expect(weakCaptured == nil, "\(ending): the operator kept its closures", sourceLocation: sourceLocation)
            #expect(
                upstream.subscriber == nil, "\(ending): upstream still has a subscriber (it was not cancelled)",
                sourceLocation: sourceLocation)
        }
    }

    /// Checks the law for a publisher with no upstream (a source, a subject, a publisher built
    /// from closures). `make` builds it with `captured` captured by its closures. Two runs: one
    /// cancels a subscriber that asked for nothing; the other asks for everything and lets `end`
    /// end the stream (`nil`: it ends by itself). Each time the subscriber must be freed while the
    /// test still holds the publisher, and the closures once the test lets go of it too.
    static func checkSource<P: Publisher>(
        end: ((P) -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (Captured) -> P
    ) {
        for cancels in [true, false] {
            weak var weakSubscriber: HoldingSubscriber<P.Output, P.Failure>?
            weak var weakCaptured: Captured?
            var publisher: P?
            do {
                let captured = Captured()
                let subscriber = HoldingSubscriber<P.Output, P.Failure>(demand: cancels ? nil : .unlimited)
                weakCaptured = captured
                weakSubscriber = subscriber
                publisher = make(captured)
                publisher?.subscribe(subscriber)
            }
            let ending = cancels ? "cancel" : "its end"
            if cancels {
                weakSubscriber?.subscription?.cancel()
            } else if let end, let publisher {
                end(publisher)
            }
            #expect(
                weakSubscriber == nil, "\(ending): the subscription kept its subscriber", sourceLocation: sourceLocation
            )
            publisher = nil
            #expect(weakCaptured == nil, "\(ending): the closures outlived the stream", sourceLocation: sourceLocation)
        }
    }
}
