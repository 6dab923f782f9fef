// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// Each closure runs just before its event is passed on. `receiveRequest` sees every demand
    /// that goes upstream: the explicit `request(_:)` calls and the non-zero demand that
    /// downstream returns from `receive(_:)`.
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    @frozen
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives the subscription from the upstream publisher.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// A closure that executes when the publisher receives a value from the upstream publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// A closure that executes when the upstream publisher finishes normally or terminates with an error.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?
        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that performs the specified closures when publisher events occur.
        ///
        /// As in Combine, `receiveRequest` has no default value here (it does in `handleEvents`).
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let observer = HandleEventsObserver(
                subscription: receiveSubscription, output: receiveOutput, completion: receiveCompletion,
                cancel: receiveCancel, request: receiveRequest)
            upstream.subscribe(PassThroughSubscription(observer: observer, downstream: subscriber))
        }
    }
}

/// What an observing operator (`handleEvents`, `print`) does on each event, just
/// before `PassThroughSubscription` passes the event on unchanged. A protocol rather than a bag
/// of optional closures, so that each operator's observer specialises into its subscription.
@usableFromInline
protocol EventObserver<Input, Failure> {
    associatedtype Input
    associatedtype Failure: Error

    /// What the subscription calls itself.
    static var name: String { get }

    func receive(subscription: any Subscription)
    func receive(_ input: Input)
    func receive(completion: Subscribers.Completion<Failure>)
    func cancel()
    /// A demand about to go upstream. `synchronous`: downstream returned it from `receive(_:)`
    /// rather than calling `request(_:)` (only `print` tells the two apart).
    func request(_ demand: Subscribers.Demand, synchronous: Bool)

    /// True for an observer that hears of every call the subscription gets, before upstream's
    /// subscription and after the end too, and stays until the subscription goes (`print`, which
    /// logs every event as Combine's does); false for one that hears of the live stream only and is
    /// let go of at its end (`handleEvents`' closures).
    static var observesEveryEvent: Bool { get }
}

/// The one subscription of the pass-through operators: every event goes through unchanged, right
/// after the observer has seen it.
///
/// Values cost one atomic load of the status (upstream sends serially); the lock guards only the
/// upstream subscription and the status changes, and is never held while calling out.
/// `handleEvents` and `print`: passes everything through, telling its observer first.
///
/// Lifetimes: the observer (the operator's closures) and downstream are used only inside calls
/// through `gate`; once the stream has ended, the last of those, or the cancel if none is running,
/// lets go of them.
@usableFromInline
final class PassThroughSubscription<Observer: EventObserver, Downstream: Subscriber>: Subscriber,
    Subscription, Introspected
where Downstream.Input == Observer.Input, Downstream.Failure == Observer.Failure {
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Observer.Input
    @usableFromInline typealias Failure = Observer.Failure

    /// Read (not reached through `with`): `cancel` and `request` tell it from downstream's
    /// thread while upstream's values go through, so its uses may overlap.
    @exclusivity(unchecked)
    @usableFromInline var observer: Releasable<Observer>
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime

    @inlinable
    init(observer: Observer, downstream: Downstream) {
        self.observer = Releasable(observer)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: PassThroughSubscription.self).release() }
    }

    @usableFromInline var description: String { Observer.name }

    /// As Combine's: the observer hears of every subscription; a second one is cancelled, and one
    /// that arrives after a cancel is left alone (HandleEventsTests, PrintTests).
    @inlinable
    func receive(subscription: any Subscription) {
        observeEvery { $0.receive(subscription: subscription) }
        switch slot.attach(subscription) {
        case .attached:
            lifetime.call(self) {
                observeLive { $0.receive(subscription: subscription) }
                downstream.with { $0.receive(subscription: self) }
            }
        case .late(let afterCancel):
            lifetime.call(self) { observeLive { $0.receive(subscription: subscription) } }
            if !afterCancel { subscription.cancel() }
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        observeEvery { $0.receive(input) }
        return lifetime.call(self) {
            let current = slot.status.load(ordering: .acquiring)
            guard current == .active || current == .awaiting else { return .none }
            observeLive { $0.receive(input) }
            let demand = downstream.with { $0.receive(input) }
            if demand != .none { observer.value?.request(demand, synchronous: true) }
            return demand
        } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        observeEvery { $0.receive(completion: completion) }
        lifetime.call(self) {
            let current = slot.status.load(ordering: .acquiring)
            guard current == .active || current == .awaiting else { return }
            // A subscription that comes after it is left alone, as after a cancel.
            _ = slot.end(abandoning: true)
            guard lifetime.end() else { return }
            observeLive { $0.receive(completion: completion) }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        observeEvery { $0.request(demand, synchronous: false) }
        let (state, current) = slot.activeUpstream()
        // The observer hears of a request before the subscription too, as Combine's does.
        guard current != nil || state == .awaiting else { return }
        lifetime.call(self) { observeLive { $0.request(demand, synchronous: false) } }
        current?.request(demand)
    }

    @inlinable
    func cancel() {
        observeEvery { $0.cancel() }
        let current = slot.end(abandoning: true).upstream
        lifetime.call(self) {
            if lifetime.end(), current != nil { observeLive { $0.cancel() } }
        }
        current?.cancel()
    }

    /// An event for an observer that hears of every event (it is never let go of before the
    /// subscription goes, so it needs no lifetime call).
    @inlinable @inline(__always)
    func observeEvery(_ event: (Observer) -> Void) {
        if Observer.observesEveryEvent, let observer = observer.value { event(observer) }
    }

    /// An event of the live stream for an observer that hears of those only; inside a lifetime call.
    @inlinable @inline(__always)
    func observeLive(_ event: (Observer) -> Void) {
        if !Observer.observesEveryEvent, let observer = observer.value { event(observer) }
    }

    @inlinable
    func release() {
        if !Observer.observesEveryEvent { observer.release() }
        downstream.release()
    }
}

@usableFromInline
struct HandleEventsObserver<Input, Failure: Error>: EventObserver {
    @usableFromInline let onSubscription: ((any Subscription) -> Void)?
    @usableFromInline let onOutput: ((Input) -> Void)?
    @usableFromInline let onCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline let onCancel: (() -> Void)?
    @usableFromInline let onRequest: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
        subscription: ((any Subscription) -> Void)?, output: ((Input) -> Void)?,
        completion: ((Subscribers.Completion<Failure>) -> Void)?, cancel: (() -> Void)?,
        request: ((Subscribers.Demand) -> Void)?
    ) {
        onSubscription = subscription
        onOutput = output
        onCompletion = completion
        onCancel = cancel
        onRequest = request
    }

    @inlinable static var name: String { "HandleEvents" }
    @inlinable static var observesEveryEvent: Bool { false }

    @inlinable func receive(subscription: any Subscription) { onSubscription?(subscription) }
    @inlinable func receive(_ input: Input) { onOutput?(input) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { onCompletion?(completion) }
    @inlinable func cancel() { onCancel?() }
    @inlinable func request(_ demand: Subscribers.Demand, synchronous: Bool) { onRequest?(demand) }
}
