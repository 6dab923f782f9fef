// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension ConnectablePublisher {
    /// Automates connecting and disconnecting: the first subscriber connects to the upstream, and
    /// the connection is cancelled when the last subscriber cancels.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// It counts its subscribers: subscribing while disconnected connects; a subscriber's cancel
    /// that brings the count to zero cancels the connection. A completion does not change the
    /// count (as in Combine), so after the upstream completes a new subscriber does not reconnect
    /// until every earlier subscriber has cancelled.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        private enum State {
            case disconnected
            case connected(subscribers: Int, connection: any Cancellable)
        }

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let lock = Lock()
        private var state = State.disconnected

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lock.lock()
            let shouldConnect: Bool
            switch state {
            case .connected(let subscribers, let connection):
                state = .connected(subscribers: subscribers + 1, connection: connection)
                shouldConnect = false
            case .disconnected:
                shouldConnect = true
            }
            lock.unlock()
            // The subscriber attaches before the connection is made, so it sees the first value.
            upstream.subscribe(AutoconnectSubscriber(parent: self, downstream: subscriber))
            guard shouldConnect else { return }
            let connection = upstream.connect()
            lock.withLock { state = .connected(subscribers: 1, connection: connection) }
        }

        /// One subscriber is gone: the last one takes the connection with it.
        fileprivate func subscriberCancelled() {
            lock.lock()
            guard case .connected(let subscribers, let connection) = state else {
                lock.unlock()
                return
            }
            if subscribers > 1 {
                state = .connected(subscribers: subscribers - 1, connection: connection)
                lock.unlock()
                return
            }
            state = .disconnected
            lock.unlock()
            connection.cancel()
        }
    }
}

/// Passes everything through untouched, as Combine's does: it lives as long as upstream holds it,
/// and downstream's subscription does not hold it (only the autoconnect and the upstream
/// subscription), so no cycle keeps either alive.
private final class AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
    Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    let parent: Publishers.Autoconnect<Upstream>
    private let downstream: Downstream

    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    var description: String { "Autoconnect" }

    /// Combine's children: the autoconnecting publisher and the subscriber.
    var customMirror: Mirror {
        Mirror(self, children: ["parent": parent, "downstream": downstream])
    }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: AutoconnectSubscription(parent: parent, upstream: subscription))
    }

    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// What the downstream holds: the upstream's subscription (its name and identity too), with the
/// cancel reported to the autoconnect. Every cancel goes upstream; only the first one counts
/// against the subscribers (a cancel after the completion counts too).
/// As Combine's, it shows itself as the upstream subscription it stands for, without a mirror.
private final class AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    let parent: Publishers.Autoconnect<Upstream>
    let upstream: any Subscription
    private let lock = Lock()
    private var counted = true

    init(parent: Publishers.Autoconnect<Upstream>, upstream: any Subscription) {
        self.parent = parent
        self.upstream = upstream
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    var description: String { String(describing: upstream) }

    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        // Passed on as it is: whether `.none` traps is the upstream's rule (Combine's multicast
        // takes it; OpenCombine's ShareTests.testLateSubscriber).
        upstream.request(demand)
    }

    func cancel() {
        upstream.cancel()
        let first = lock.withLock {
            defer { counted = false }
            return counted
        }
        if first { parent.subscriberCancelled() }
    }
}
