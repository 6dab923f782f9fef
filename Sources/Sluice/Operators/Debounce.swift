// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// Each value restarts a timer of `dueTime` on `scheduler`; when the timer expires with no newer
    /// value, the last value is delivered on the scheduler, if downstream has demand for it (otherwise
    /// it is dropped). Upstream is asked for unlimited demand. A completion is delivered on the
    /// scheduler as soon as possible and drops a value still waiting for its timer, as Combine does.
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between events.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval elapses between events.
        @inlinable
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DebounceSubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `debounce`.
///
/// Upstream's thread (a new value), the scheduler's (a timer) and downstream's (request, cancel)
/// meet in one `Lock` guarding the fields below. Each value bumps `generation`; its timer carries
/// the generation it was armed for and delivers only if nothing newer came in, which also makes a
/// timer the scheduler failed to cancel harmless. Timers are Combine's kind: a repeating action
/// with the due time as interval, cancelled when replaced, once it has fired, and at the end.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of
/// downstream. The value waiting for its timer, the timer and upstream go at the end too; a timer
/// action already on its way holds this object until it runs, but no longer downstream.
@usableFromInline
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline enum Phase: UInt8 {
        case awaiting
        case active
        /// Upstream completed; the completion waits on the scheduler.
        case completing
        case done
    }

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    /// Set by a cancel that came before upstream's subscription. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var cancelledEarly = false
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let dueTime: Context.SchedulerTimeType.Stride
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var phase = Phase.awaiting
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// The newest value, until its timer delivers or drops it.
    @exclusivity(unchecked) @usableFromInline var latest: Input?
    @exclusivity(unchecked) @usableFromInline var generation: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var timer: (any Cancellable)?
    /// Requested by downstream and not yet delivered.
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
        self.downstream = Releasable(downstream)
        dueTime = publisher.dueTime
        scheduler = publisher.scheduler
        options = publisher.options
        lifetime = Lifetime { unsafeDowncast($0, to: DebounceSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "Debounce" }

    @usableFromInline var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: [
                ("downstream", downstream.value as Any), ("downstreamDemand", demand), ("currentValue", latest as Any),
            ])
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase == .awaiting else {
            let leftAlone = cancelledEarly
            lock.unlock()
            // As Combine's, a subscription that comes after a cancel is left alone.
            if !leftAlone { subscription.cancel() }
            return
        }
        phase = .active
        upstream = subscription
        lock.unlock()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard phase == .active else {
            lock.unlock()
            return .none
        }
        generation &+= 1
        let armedFor = generation
        latest = input
        let replaced = timer
        timer = nil
        lock.unlock()
        replaced?.cancel()
        arm(for: armedFor)
        return .none
    }

    @inlinable
    func arm(for armedFor: UInt64) {
        let due = scheduler.now.advanced(by: dueTime)
        guard dueTime > .nanoseconds(0) else {
            // Due at once: no timer to cancel later (and a repeating action needs a positive interval).
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) {
                self.fire(armedFor)
            }
            return
        }
        let token = scheduler.schedule(
            after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
        ) {
            self.fire(armedFor)
        }
        lock.lock()
        // It is kept only while it is still the newest value's timer and has not fired.
        if phase == .active && generation == armedFor && latest != nil {
            timer = token
            lock.unlock()
        } else {
            lock.unlock()
            token.cancel()
        }
    }

    @inlinable
    func fire(_ armedFor: UInt64) {
        lock.lock()
        guard phase == .active, generation == armedFor, let value = latest else {
            lock.unlock()
            return
        }
        latest = nil
        let spent = timer
        timer = nil
        let wanted = demand != .none
        if wanted { demand -= 1 }
        lock.unlock()
        spent?.cancel()
        guard wanted else { return }
        let more = lifetime.call(self) { downstream.with { $0.receive(value) } } ?? .none
        guard more != .none else { return }
        lock.lock()
        if phase == .active { demand += more }
        lock.unlock()
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard phase == .active else {
            lock.unlock()
            return
        }
        phase = .completing
        upstream = nil
        latest = nil
        let stopped = timer
        timer = nil
        lock.unlock()
        stopped?.cancel()
        scheduler.schedule(options: nil) { self.finish(completion) }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard phase == .completing else {
            lock.unlock()
            return
        }
        phase = .done
        lock.unlock()
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero(on: description)
        lock.lock()
        if phase == .active { self.demand += demand }
        lock.unlock()
    }

    @inlinable
    func cancel() {
        lock.lock()
        if phase == .awaiting { cancelledEarly = true }
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        latest = nil
        let stopped = timer
        timer = nil
        lock.unlock()
        stopped?.cancel()
        live?.cancel()
        lifetime.end(self)
    }
}
