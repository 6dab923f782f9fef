// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// A publisher that publishes changes from observable objects: `send()` signals every subscriber.
///
/// As Combine's, it does not count demand: a subscriber receives every signal sent while it is subscribed,
/// one at a time, also when several threads send.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    let lock = Lock()
    @exclusivity(unchecked)
    var inners: ContiguousArray<Inner> = []

    /// Creates an observable object publisher.
    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        let inner = Inner(self, AnySubscriber(subscriber))
        inner.delivery.lock()
        lock.withLock { inners.append(inner) }
        subscriber.receive(subscription: inner)
        if inner.delivery.unlock() { inner.release() }
    }

    /// Sends the changed value to the downstream subscribers.
    public func send() {
        let receivers = lock.withLock { inners }
        for inner in receivers { inner.signal() }
    }

    func remove(_ inner: Inner) {
        lock.withLock { inners.removeAll { $0 === inner } }
    }

    /// One subscriber's subscription. Signals run under `delivery`; a cancel asks it to let go of
    /// the subscriber, at once or when the running signal ends.
    final class Inner: Subscription, Introspected {
        weak var publisher: ObservableObjectPublisher?
        let delivery = ReentrantLock()
        let isDone = Atomic<Bool>(false)
        /// Used only under `delivery`.
        @exclusivity(unchecked)
        var downstream: AnySubscriber<Void, Never>?

        init(_ publisher: ObservableObjectPublisher, _ downstream: AnySubscriber<Void, Never>) {
            self.publisher = publisher
            self.downstream = downstream
        }

        var description: String { "ObservableObjectPublisher" }

        var customMirror: Mirror { Mirror(self, children: [("downstream", downstream as Any)]) }

        func signal() {
            delivery.lock()
            if !isDone.load(ordering: .relaxed) { _ = downstream?.receive(()) }
            if delivery.unlock() { release() }
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero(on: description)
        }

        func cancel() {
            guard !isDone.exchange(true, ordering: .sequentiallyConsistent) else { return }
            publisher?.remove(self)
            if delivery.requestRelease() { release() }
        }

        func release() { downstream = nil }
    }
}
