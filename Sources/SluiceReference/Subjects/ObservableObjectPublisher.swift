// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that publishes changes from observable objects: `send()` signals every subscriber.
///
/// As Combine's, it does not count demand: a subscriber receives every signal sent while it is subscribed,
/// one at a time, also when several threads send.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    private let lock = Lock()
    private var inners: [Inner] = []

    /// Creates an observable object publisher.
    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        let inner = Inner(publisher: self, downstream: AnySubscriber(subscriber))
        inner.deliveryLock.withLock {
            lock.withLock { inners.append(inner) }
            subscriber.receive(subscription: inner)
        }
    }

    /// Sends the changed value to the downstream subscribers.
    public func send() {
        for inner in lock.withLock({ inners }) { inner.signal() }
    }

    private func remove(_ inner: Inner) {
        lock.withLock { inners.removeAll { $0 === inner } }
    }

    /// One subscriber's subscription: signals under a recursive delivery lock; a cancel lets go of
    /// the subscriber.
    private final class Inner: Subscription, Introspected {
        private let lock = Lock()
        let deliveryLock = Lock(recursive: true)
        private weak var publisher: ObservableObjectPublisher?
        private var downstream: AnySubscriber<Void, Never>?

        init(publisher: ObservableObjectPublisher, downstream: AnySubscriber<Void, Never>) {
            self.publisher = publisher
            self.downstream = downstream
        }

        var description: String { "ObservableObjectPublisher" }

        var customMirror: Mirror { Mirror(self, children: [("downstream", lock.withLock { downstream } as Any)]) }

        func signal() {
            deliveryLock.withLock {
                _ = lock.withLock { downstream }?.receive(())
            }
        }

        func request(_ demand: Subscribers.Demand) { demand.assertNonZero(on: description) }

        func cancel() {
            let released = lock.withLock { downstream.take() }
            withExtendedLifetime(released) {}
            publisher?.remove(self)
        }
    }
}
