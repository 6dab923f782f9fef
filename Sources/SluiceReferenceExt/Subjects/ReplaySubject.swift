// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluiceReference

/// A subject that replays the last values it was sent, and its completion, to every new
/// subscriber, then passes on what it is sent next.
///
/// - A new subscriber receives, as its demand allows, the last `bufferSize` values sent before it
///   subscribed, then every value sent after, then the completion if one was sent. A subscriber that
///   comes after the completion receives the last values and the completion.
/// - Each subscriber has its own backlog: a value it has no demand for waits there, in order, until
///   it asks (nothing is dropped, unlike `PassthroughSubject`). The completion comes after the
///   backlog, demand or not.
/// - Subscribers are served in the order they subscribed. A value sent while another thread
///   subscribes is either replayed to the new subscriber or delivered to it live: never both, never
///   neither.
/// - A subscriber may send into the subject from inside `receive(_:)`: the value joins its backlog
///   and follows the one in hand, so no subscriber is entered twice at once.
/// - An upstream subscription handed over by `send(subscription:)` is asked for `.unlimited` at
///   once; it is let go of at the completion, and cancelled when the subject goes away.
public final class ReplaySubject<Output, Failure: Error>: Subject {
    private let core: ReplayCore<Output, Failure>

    /// Creates a subject that replays its last `bufferSize` values to each new subscriber.
    ///
    /// `bufferSize` must not be negative.
    public init(bufferSize: Int) {
        require(bufferSize >= 0, "ReplaySubject(bufferSize:) requires a non-negative size (got \(bufferSize))")
        core = ReplayCore(bufferSize: bufferSize)
    }

    deinit { core.subjectWentAway() }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.subscribe(AnySubscriber(subscriber))
    }

    public func send(_ value: Output) { core.send(value) }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}

/// Everything a `ReplaySubject` knows, under one lock: its last values, its completion, its
/// upstream subscriptions, and each subscriber's backlog, demand and delivery. Its subscriptions
/// hold it, so a subscriber keeps its backlog after the subject has gone.
private final class ReplayCore<Output, Failure: Error> {
    struct Subscriber {
        let id: Int
        var downstream: AnySubscriber<Output, Failure>
        var backlog: [Output]
        var demand = Subscribers.Demand.none
        var hasSubscription = false
        var isDelivering = false
    }

    struct State {
        var lastValues: [Output] = []
        var completion: Subscribers.Completion<Failure>?
        var upstreams: [any Subscription] = []
        /// In subscription order. A subscriber leaves when it cancels or its completion is delivered.
        var subscribers: [Subscriber] = []
        var nextID = 0

        func index(of id: Int) -> Int? { subscribers.firstIndex { $0.id == id } }
    }

    enum Delivery {
        case value(Output, AnySubscriber<Output, Failure>)
        case completion(Subscribers.Completion<Failure>, AnySubscriber<Output, Failure>)
    }

    let bufferSize: Int
    let lock = Lock()
    var state = State()

    init(bufferSize: Int) { self.bufferSize = bufferSize }

    func subscribe(_ downstream: AnySubscriber<Output, Failure>) {
        let subscription = lock.withLock {
            let id = state.nextID
            state.nextID += 1
            state.subscribers.append(Subscriber(id: id, downstream: downstream, backlog: state.lastValues))
            return ReplaySubscription(core: self, id: id)
        }
        downstream.receive(subscription: subscription)
        lock.withLock {
            if let index = state.index(of: subscription.id) { state.subscribers[index].hasSubscription = true }
        }
        deliver(to: subscription.id)
    }

    func send(_ value: Output) {
        let ids = lock.withLock { () -> [Int] in
            guard state.completion == nil else { return [] }
            state.lastValues.append(value)
            if state.lastValues.count > bufferSize { state.lastValues.removeFirst() }
            for index in state.subscribers.indices { state.subscribers[index].backlog.append(value) }
            return state.subscribers.map(\.id)
        }
        for id in ids { deliver(to: id) }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let (ids, released) = lock.withLock { () -> ([Int], [any Subscription]) in
            guard state.completion == nil else { return ([], []) }
            state.completion = completion
            defer { state.upstreams = [] }
            return (state.subscribers.map(\.id), state.upstreams)
        }
        withExtendedLifetime(released) {}
        for id in ids { deliver(to: id) }
    }

    func send(subscription: any Subscription) {
        let isOpen = lock.withLock {
            if state.completion == nil { state.upstreams.append(subscription) }
            return state.completion == nil
        }
        if isOpen { subscription.request(.unlimited) }
    }

    func subjectWentAway() {
        let upstreams = lock.withLock {
            defer { state.upstreams = [] }
            return state.upstreams
        }
        for upstream in upstreams { upstream.cancel() }
    }

    func request(_ demand: Subscribers.Demand, for id: Int) {
        lock.withLock {
            if let index = state.index(of: id) { state.subscribers[index].demand += demand }
        }
        deliver(to: id)
    }

    func cancel(_ id: Int) {
        let released = lock.withLock {
            state.index(of: id).map { state.subscribers.remove(at: $0) }
        }
        withExtendedLifetime(released) {}
    }

    /// Delivers the subscriber's backlog as its demand allows, then its completion, unless another
    /// call is delivering to it already (that one will deliver what was added).
    func deliver(to id: Int) {
        let starts = lock.withLock {
            guard let index = state.index(of: id), !state.subscribers[index].isDelivering else { return false }
            state.subscribers[index].isDelivering = true
            return true
        }
        guard starts else { return }
        while let delivery = nextDelivery(to: id) {
            switch delivery {
            case .value(let value, let downstream):
                let more = downstream.receive(value)
                if more > 0 {
                    lock.withLock {
                        if let index = state.index(of: id) { state.subscribers[index].demand += more }
                    }
                }
            case .completion(let completion, let downstream):
                downstream.receive(completion: completion)
            }
        }
    }

    /// What to deliver next to the subscriber, or nil: then its delivery ends.
    private func nextDelivery(to id: Int) -> Delivery? {
        lock.withLock {
            guard let index = state.index(of: id) else { return nil }
            let (demand, isEmpty) = (state.subscribers[index].demand, state.subscribers[index].backlog.isEmpty)
            if demand > 0, !isEmpty {
                state.subscribers[index].demand -= 1
                let value = state.subscribers[index].backlog.removeFirst()
                return .value(value, state.subscribers[index].downstream)
            }
            if isEmpty, state.subscribers[index].hasSubscription, let completion = state.completion {
                return .completion(completion, state.subscribers.remove(at: index).downstream)
            }
            state.subscribers[index].isDelivering = false
            return nil
        }
    }
}

/// A subscriber's subscription to a `ReplaySubject`: its number in the subject's core.
private final class ReplaySubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    let core: ReplayCore<Output, Failure>
    let id: Int

    init(core: ReplayCore<Output, Failure>, id: Int) {
        self.core = core
        self.id = id
    }

    var description: String { "ReplaySubject" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        core.request(demand, for: id)
    }

    func cancel() { core.cancel(id) }
}
