// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluiceReference

extension AnyPublisher {
    /// A publisher over a callback-based source: for each subscriber, `factory` starts the source,
    /// hands it a `Publishers.Create.Subscriber` to send values and a completion into, and returns
    /// what stops the source.
    ///
    /// What the source sends is kept until the subscriber asks for it, in order, so a source that
    /// knows nothing of demand loses nothing; the completion follows the values. The cancellable
    /// `factory` returns is cancelled, once, when the stream ends: at the completion's delivery or
    /// at the subscriber's cancel.
    public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
        self = Publishers.Create(factory: factory).eraseToAnyPublisher()
    }

    /// A publisher over a callback-based source; see `init(_:)`.
    public static func create(
        _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(factory)
    }
}

extension Publishers {
    /// A publisher that starts a callback-based source for each subscriber; see
    /// `AnyPublisher.create(_:)`.
    public struct Create<Output, Failure: Error>: Publisher {
        /// What the publisher calls for each subscriber: it sends into the `Subscriber` it is
        /// given, and returns what stops the source.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        /// Starts the source for one subscriber, and returns what stops it.
        public let factory: SubscriberHandler

        /// Creates a publisher that runs `factory` for each subscriber.
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        public func receive<S: SluiceReference.Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let subscription = CreateSubscription(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: subscription)
            subscription.subscriptionDelivered()
            subscription.started(factory(Subscriber(subscription: subscription)))
        }

        /// What a source sends into: each call reaches the subscriber as its demand allows.
        /// Anything sent after the completion, or after the subscriber cancelled, is ignored.
        public struct Subscriber {
            fileprivate let subscription: CreateSubscription<Output, Failure>

            /// Sends a value.
            public func send(_ input: Output) { subscription.send(input) }

            /// Sends the completion, which ends the stream once the values before it are delivered.
            public func send(completion: Subscribers.Completion<Failure>) { subscription.send(completion: completion) }
        }
    }
}

/// The subscription of `create`: what the source sent and the subscriber has not asked for yet,
/// under one lock. One call at a time delivers; what comes meanwhile is delivered by it.
private final class CreateSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    struct Live {
        var downstream: AnySubscriber<Output, Failure>
        var backlog: [Output] = []
        var completion: Subscribers.Completion<Failure>?
        var demand = Subscribers.Demand.none
        var subscriptionDelivered = false
        var isDelivering = false
        /// What stops the source, once `factory` has returned it.
        var source: (any Cancellable)?
    }

    enum State {
        case live(Live)
        case ended
    }

    enum Delivery {
        case value(Output, AnySubscriber<Output, Failure>)
        case completion(Subscribers.Completion<Failure>, AnySubscriber<Output, Failure>, (any Cancellable)?)
    }

    private let lock = Lock()
    private var state: State

    init(downstream: AnySubscriber<Output, Failure>) {
        state = .live(Live(downstream: downstream))
    }

    var description: String { "Create" }

    func subscriptionDelivered() {
        update { $0.subscriptionDelivered = true }
        deliver()
    }

    /// `factory` returned: the source is stopped at the end, or now if the stream has ended.
    func started(_ source: any Cancellable) {
        let live = lock.withLock { () -> Bool in
            guard case .live(var live) = state else { return false }
            live.source = source
            state = .live(live)
            return true
        }
        if !live { source.cancel() }
    }

    func send(_ value: Output) {
        update { live in
            if live.completion == nil { live.backlog.append(value) }
        }
        deliver()
    }

    func send(completion: Subscribers.Completion<Failure>) {
        update { live in
            if live.completion == nil { live.completion = completion }
        }
        deliver()
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "Create")
        update { $0.demand += demand }
        deliver()
    }

    func cancel() {
        let ended = lock.withLock { () -> Live? in
            guard case .live(let live) = state else { return nil }
            state = .ended
            return live
        }
        ended?.source?.cancel()
    }

    private func update(_ change: (inout Live) -> Void) {
        lock.withLock {
            guard case .live(var live) = state else { return }
            state = .ended  // for the change, `live` holds the only copy of the backlog
            change(&live)
            state = .live(live)
        }
    }

    /// Delivers what can be delivered, unless a call is delivering already.
    private func deliver() {
        let starts = lock.withLock { () -> Bool in
            guard case .live(var live) = state, !live.isDelivering else { return false }
            live.isDelivering = true
            state = .live(live)
            return true
        }
        guard starts else { return }
        while let delivery = next() {
            switch delivery {
            case .value(let value, let downstream):
                let more = downstream.receive(value)
                if more > 0 { update { $0.demand += more } }
            case .completion(let completion, let downstream, let source):
                downstream.receive(completion: completion)
                source?.cancel()
            }
        }
    }

    private func next() -> Delivery? {
        lock.withLock {
            guard case .live(var live) = state else { return nil }
            state = .ended  // until it is put back, `live` holds the only copy of the backlog
            if live.demand > 0, !live.backlog.isEmpty {
                live.demand -= 1
                let value = live.backlog.removeFirst()
                state = .live(live)
                return .value(value, live.downstream)
            }
            if live.backlog.isEmpty, live.subscriptionDelivered, let completion = live.completion {
                return .completion(completion, live.downstream, live.source)
            }
            live.isDelivering = false
            state = .live(live)
            return nil
        }
    }
}
