// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// The library's `Publisher` protocol, named where `NotificationCenter.Publisher` hides it.
typealias NotificationPublisherProtocol = Publisher

extension NotificationCenter {
    /// Returns a publisher that emits events when broadcasting notifications.
    ///
    /// - Parameters:
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification; `nil` for any object.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscription observes the center from the moment it is made until it is cancelled. A
    /// notification posted while the subscriber has no demand is not delivered to it (the center
    /// does not wait), as in Combine.
    public struct Publisher: NotificationPublisherProtocol {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter
        /// The name of notifications published by this publisher.
        public let name: Notification.Name
        /// The object posting the named notification.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(AnySubscriber(subscriber))
            subscriber.receive(subscription: subscription)
            subscription.observe(center, name, object)
        }
    }
}

/// One subscriber's observation of a notification center: its demand under a lock, deliveries one
/// at a time (a notification may be posted on any thread), and the observer removed on cancel.
private final class NotificationSubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    private let lock = NSLock()
    /// Held around each delivery; recursive, since a subscriber may post from inside `receive`.
    private let delivery = NSRecursiveLock()
    private var downstream: AnySubscriber<Notification, Never>?
    private var demand = Subscribers.Demand.none
    private var observer: (any NSObjectProtocol)?
    private weak var center: NotificationCenter?

    init(_ downstream: AnySubscriber<Notification, Never>) { self.downstream = downstream }

    var description: String { "NotificationCenter Observer" }

    var playgroundDescription: Any { description }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: [("center", center as Any), ("observer", observer as Any), ("demand", demand)])
    }

    /// Starts observing, unless the subscriber cancelled from inside `receive(subscription:)`.
    func observe(_ center: NotificationCenter, _ name: Notification.Name, _ object: AnyObject?) {
        let token = center.addObserver(forName: name, object: object, queue: nil) { [weak self] in self?.deliver($0) }
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return center.removeObserver(token)
        }
        observer = token
        self.center = center
        lock.unlock()
    }

    private func deliver(_ notification: Notification) {
        delivery.lock()
        defer { delivery.unlock() }
        lock.lock()
        guard let downstream, demand > 0 else { return lock.unlock() }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(notification)
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "NotificationCenter")
        lock.lock()
        if downstream != nil { self.demand += demand }
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        let released = downstream.take()
        let observer = observer.take()
        let center = center
        lock.unlock()
        if let observer { center?.removeObserver(observer) }
        withExtendedLifetime(released) {}
    }
}
