// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension ConnectablePublisher {
    /// Automates connecting and disconnecting: the first subscriber connects to the upstream, and
    /// the connection is cancelled when the last subscriber cancels.
    @inlinable
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

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        @usableFromInline let lock = Lock()
        /// The live connection (nil: disconnected) and how many subscribers hold it.
        @exclusivity(unchecked)
        @usableFromInline var connection: (any Cancellable)?
        @exclusivity(unchecked)
        @usableFromInline var subscriberCount = 0

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lock.lock()
            let isConnected = connection != nil
            if isConnected { subscriberCount += 1 }
            lock.unlock()
            // Attach first, connect second: the subscriber must be there for the first value.
            upstream.subscribe(AutoconnectSubscriber(parent: self, downstream: subscriber))
            if !isConnected { connectFirst() }
        }

        /// Connects for the first subscriber. A subscriber attached re-entrantly during the
        /// subscribe also found no connection and connected; the later connection wins the count,
        /// as in Combine.
        @inlinable
        func connectFirst() {
            let made = upstream.connect()
            lock.lock()
            connection = made
            subscriberCount = 1
            lock.unlock()
        }

        /// A subscriber cancelled: the last one takes the connection with it.
        @usableFromInline
        func release() {
            lock.lock()
            guard let current = connection else {
                lock.unlock()
                return
            }
            subscriberCount -= 1
            guard subscriberCount == 0 else {
                lock.unlock()
                return
            }
            connection = nil
            lock.unlock()
            current.cancel()
        }
    }
}

/// Passes everything through untouched; a struct, so it costs no allocation.
@usableFromInline
struct AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let parent: Publishers.Autoconnect<Upstream>
    @usableFromInline let downstream: Downstream
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    @usableFromInline var description: String { "Autoconnect" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: ["parent": parent, "downstream": downstream]) }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: AutoconnectSubscription(parent: parent, upstream: subscription))
    }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}

/// What the downstream holds: the upstream's subscription (its name and identity too), with the
/// first cancel reported to the autoconnect. Every cancel still goes upstream, as in Combine.
@usableFromInline
final class AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let parent: Publishers.Autoconnect<Upstream>
    @usableFromInline let upstream: any Subscription
    @usableFromInline let released = Atomic<Bool>(false)

    @inlinable
    init(parent: Publishers.Autoconnect<Upstream>, upstream: any Subscription) {
        self.parent = parent
        self.upstream = upstream
    }

    @inlinable var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    /// As Combine's, it shows itself as the upstream subscription it stands for.
    @usableFromInline var description: String { String(describing: upstream) }

    @usableFromInline var playgroundDescription: Any { description }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // Passed on as it is: whether `.none` traps is the upstream's rule (Combine's multicast
        // takes it; OpenCombine's ShareTests.testLateSubscriber).
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        upstream.cancel()
        if !released.exchange(true, ordering: .acquiringAndReleasing) { parent.release() }
    }
}
