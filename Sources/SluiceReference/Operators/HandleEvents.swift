// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// Each closure runs just before its event is passed on. `receiveRequest` sees every demand
    /// that goes upstream: the explicit `request(_:)` calls and the non-zero demand that
    /// downstream returns from `receive(_:)`.
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

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let hooks = EventHooks(
                receiveSubscription: receiveSubscription,
                receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion,
                receiveCancel: receiveCancel,
                receiveRequest: receiveRequest,
                receiveReturnedDemand: receiveRequest)
            upstream.subscribe(EventHookSubscription(name: "HandleEvents", downstream: subscriber, hooks: hooks))
        }
    }
}

/// The side effects of a pass-through operator (`handleEvents`, `print`, `breakpoint`), one
/// optional closure per event. Each runs just before its event is passed on.
struct EventHooks<Output, Failure: Error> {
    var receiveSubscription: ((any Subscription) -> Void)?
    var receiveOutput: ((Output) -> Void)?
    var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    var receiveCancel: (() -> Void)?
    /// An explicit `request(_:)` from downstream.
    var receiveRequest: ((Subscribers.Demand) -> Void)?
    /// The demand downstream returned from `receive(_:)`, when it is not `.none`. `print` tells
    /// it apart from an explicit request ("(synchronous)"); `handleEvents` does not.
    var receiveReturnedDemand: ((Subscribers.Demand) -> Void)?
}

/// The subscription of the pass-through operators: every event goes through unchanged, after
/// its hook has run.
///
/// `name` is what the subscription calls itself; `nil` borrows the upstream subscription's
/// description, for operators that in Combine hand downstream the upstream subscription itself
/// (`breakpoint`), so that a `print` further down shows the same name.
final class EventHookSubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let hooks: EventHooks<Input, Failure>
    }

    /// Downstream and the hooks live in the state until the stream ends; the call that ends it
    /// takes them out under the lock, runs its hook and drops them after.
    private enum State {
        case awaitingSubscription(Live)
        case subscribed(Live, upstream: any Subscription)
        case terminated
        /// Cancelled before upstream's subscription came.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    private var upstreamDescription = ""
    private let name: String?
    /// Hooks that hear of every call this subscription gets, before upstream's subscription and
    /// after the end too, kept as long as the subscription (`print`, which logs every event as
    /// Combine's does). The hooks in `Live` hear of the live stream only and go at its end.
    private let everyEvent: EventHooks<Input, Failure>

    init(
        name: String?, downstream: Downstream, hooks: EventHooks<Input, Failure>,
        everyEvent: EventHooks<Input, Failure> = EventHooks()
    ) {
        self.name = name
        self.everyEvent = everyEvent
        state = .awaitingSubscription(Live(downstream: downstream, hooks: hooks))
    }

    var description: String {
        if let name { return name }
        return lock.withLock { upstreamDescription }
    }

    /// The hooks and downstream while the stream lives, before upstream's subscription too: as
    /// Combine's, these operators pass on and observe what comes before it.
    private var live: Live? {
        lock.withLock {
            switch state {
            case .awaitingSubscription(let live), .subscribed(let live, _): live
            case .terminated, .abandoned: nil
            }
        }
    }

    func receive(subscription: any Subscription) {
        everyEvent.receiveSubscription?(subscription)
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            // Combine's observes a second subscription too, then cancels it; one that comes
            // after a cancel is left alone.
            let (current, abandoned): (Live?, Bool) =
                switch state {
                case .subscribed(let live, _): (live, false)
                case .abandoned: (nil, true)
                case .awaitingSubscription, .terminated: (nil, false)
                }
            lock.unlock()
            current?.hooks.receiveSubscription?(subscription)
            if !abandoned { subscription.cancel() }
            return
        }
        state = .subscribed(live, upstream: subscription)
        upstreamDescription = String(describing: subscription)
        lock.unlock()
        live.hooks.receiveSubscription?(subscription)
        live.downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        everyEvent.receiveOutput?(input)
        guard let live else { return .none }
        live.hooks.receiveOutput?(input)
        let demand = live.downstream.receive(input)
        if demand != .none {
            everyEvent.receiveReturnedDemand?(demand)
            live.hooks.receiveReturnedDemand?(demand)
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        everyEvent.receiveCompletion?(completion)
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        let live: Live
        switch previous {
        case .awaitingSubscription(let current), .subscribed(let current, _): live = current
        case .terminated, .abandoned:
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        live.hooks.receiveCompletion?(completion)
        live.downstream.receive(completion: completion)
    }

    /// Passed on as it is (`.none` too): whether it traps is upstream's rule. The hook hears of a
    /// request before the subscription too, as Combine's does.
    func request(_ demand: Subscribers.Demand) {
        everyEvent.receiveRequest?(demand)
        lock.lock()
        let (live, upstream): (Live?, (any Subscription)?) =
            switch state {
            case .awaitingSubscription(let live): (live, nil)
            case .subscribed(let live, let upstream): (live, upstream)
            case .terminated, .abandoned: (nil, nil)
            }
        lock.unlock()
        live?.hooks.receiveRequest?(demand)
        upstream?.request(demand)
    }

    func cancel() {
        everyEvent.receiveCancel?()
        let previous = lock.withLock {
            if case .awaitingSubscription = state {
                exchange(&state, with: .abandoned)
            } else {
                exchange(&state, with: .terminated)
            }
        }
        guard case .subscribed(let live, let upstream) = previous else { return }
        live.hooks.receiveCancel?()
        upstream.cancel()
    }
}
