// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// `Timer.publish`: a connectable publisher that sends the date on a run loop at a fixed interval.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// Nothing is sent until the publisher is connected (`connect()`, or `autoconnect()`).
    ///
    /// The publisher's `tolerance` is nil whatever `tolerance` says: Combine's `publish` does not pass
    /// it on, and code written for Combine observes exactly that.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval, on a run loop.
    ///
    /// Each `connect()` adds a repeating timer to the run loop in the publisher's mode; cancelling the
    /// returned connection invalidates it (dropping the connection does not: the run loop keeps the
    /// timer). Each fire sends one date to every subscriber that has demand then; a subscriber without
    /// demand misses it. The publisher never completes. Subscribing, requesting and cancelling may
    /// happen on any thread; values arrive on the run loop's thread.
    public final class TimerPublisher: ConnectablePublisher {
        /// The kind of values published: the date of each fire.
        public typealias Output = Date
        /// The kind of errors published: none.
        public typealias Failure = Never

        /// The time interval between fires, in seconds.
        public let interval: TimeInterval
        /// The amount of time after a fire's date by which the fire may come late, if any.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// The scheduler options the publisher was created with.
        public let options: RunLoop.SchedulerOptions?

        private let broadcast = TimerBroadcast()

        /// Creates a timer publisher; nothing happens until it is connected.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches the subscriber at once (it receives its subscription before any connection); it
        /// receives values from each fire it has demand for.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let subscription = TimerSubscription(subscriber, broadcast: broadcast)
            broadcast.add(subscription)
            subscriber.receive(subscription: subscription)
        }

        /// Starts a timer that fires every `interval`, the first time one interval from now; cancel the
        /// returned object to stop it. Each call starts a timer of its own.
        public func connect() -> any Cancellable {
            let broadcast = self.broadcast
            let timer = Timer(
                fire: Date(timeIntervalSinceNow: interval), interval: Swift.max(interval, minimumRepeatInterval),
                repeats: true
            ) { _ in broadcast.fire() }
            if let tolerance {
                timer.tolerance = tolerance
            }
            runLoop.add(timer, forMode: mode)
            return TimerConnection(timer)
        }
    }
}

/// What `TimerPublisher.connect()` returns: cancelling it invalidates the timer.
///
/// A plain class, not an `AnyCancellable`, so that letting go of it leaves the timer running, as a
/// Combine connection does.
final class TimerConnection: Cancellable {
    private let timer: Timer

    init(_ timer: Timer) { self.timer = timer }

    func cancel() { timer.invalidate() }
}

/// The publisher's subscribers, and the one lock that guards them and their demand.
///
/// The publisher and each of its timers hold it; each subscription holds it (to leave it on
/// cancel) and is held by it until then.
final class TimerBroadcast: @unchecked Sendable {
    /// Guards `subscriptions` and every subscription's state.
    let lock = NSLock()
    private var subscriptions: [any TimerRecipient] = []

    func add(_ subscription: any TimerRecipient) {
        lock.lock()
        subscriptions.append(subscription)
        lock.unlock()
    }

    /// Called with the lock held.
    func removeLocked(_ subscription: any TimerRecipient) {
        subscriptions.removeAll { $0 === subscription }
    }

    /// Sends the current date to every subscriber that has demand now, outside the lock (a
    /// subscriber may request, cancel or subscribe again from `receive`).
    func fire() {
        let date = Date()
        lock.lock()
        let recipients = subscriptions.filter { $0.takeOneDemandLocked() }
        lock.unlock()
        for recipient in recipients {
            recipient.deliver(date)
        }
    }
}

/// A subscription as the broadcast sees it, whatever its subscriber's type.
protocol TimerRecipient: AnyObject {
    /// Called with the broadcast's lock held: takes one unit of demand, or returns false if there is none.
    func takeOneDemandLocked() -> Bool
    /// Sends the value, unless the subscription was cancelled since it took the demand.
    func deliver(_ date: Date)
}

/// One subscriber's attachment to a timer publisher.
///
/// Neither an `NSObject` nor self-describing: Combine's is neither, and code written for it checks.
final class TimerSubscription<Downstream: Subscriber>: Subscription, TimerRecipient, @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
    private let broadcast: TimerBroadcast
    /// Nil once cancelled. Guarded by the broadcast's lock, as is `demand`.
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none

    init(_ downstream: Downstream, broadcast: TimerBroadcast) {
        self.downstream = downstream
        self.broadcast = broadcast
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "Timer")
        broadcast.lock.lock()
        if downstream != nil {
            self.demand += demand
        }
        broadcast.lock.unlock()
    }

    func cancel() {
        broadcast.lock.lock()
        let released = downstream
        downstream = nil
        demand = .none
        broadcast.removeLocked(self)
        broadcast.lock.unlock()
        // Released here, outside the lock: the subscriber's `deinit` may re-enter.
        withExtendedLifetime(released) {}
    }

    func takeOneDemandLocked() -> Bool {
        guard downstream != nil, demand > .none else { return false }
        demand -= 1
        return true
    }

    func deliver(_ date: Date) {
        broadcast.lock.lock()
        let downstream = self.downstream
        broadcast.lock.unlock()
        guard let downstream else { return }
        let more = downstream.receive(date)
        guard more > .none else { return }
        broadcast.lock.lock()
        if self.downstream != nil {
            demand += more
        }
        broadcast.lock.unlock()
    }
}
