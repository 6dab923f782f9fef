// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// How a fan-in subscription turns its upstreams' values into tuples.
enum FanInRule {
    /// `zip`: each upstream's values wait in a queue; a tuple takes the oldest value of every queue.
    /// The stream finishes once an upstream has finished and its queue is empty.
    case zip
    /// `combineLatest`: each upstream keeps only its latest value; once every upstream has one, each
    /// new value makes a tuple. The stream finishes once every upstream has finished.
    case combineLatest
}

/// The subscription behind `zip` and `combineLatest` of every arity. One class, one lock.
///
/// Values are kept type-erased (`Any`), one lane per upstream; `combine` casts them back into the
/// downstream's tuple. Zip makes a tuple when it delivers one, from the oldest value of each lane.
/// CombineLatest makes it when a value arrives (the latest of each lane at that moment) and queues
/// it until it is delivered: with demand every value gets its tuple, even one that arrives while
/// another thread delivers; beyond the demand only the newest tuple is kept, for the next request.
/// Demand from downstream is passed on to every upstream as it comes; demand returned for a tuple
/// is passed on after the next step is settled (the next tuple taken, or the delivery over), and
/// not at all when that step ends the stream. While an upstream's value is being delivered, more
/// demand for *that* upstream (whether downstream returns it or requests it from inside `receive`)
/// is returned from its `receive` instead of requested, as Combine does; the other upstreams are
/// asked with `request`.
///
/// Only one thread delivers at a time (state `.emitting`); a signal that arrives meanwhile is stored
/// and the emitting thread picks it up before it leaves. The subscription starts out emitting, so
/// that nothing reaches downstream before its `receive(subscription:)`.
///
/// Lifetimes: downstream and `combine` live in the state while the stream is live; `terminate()`
/// takes them out together with the upstream subscriptions and the waiting values, and the caller
/// drops them after the lock is released. The thread that is delivering holds its own copy of
/// downstream until its call returns.
final class FanInSubscription<Downstream: Subscriber>: Subscription, Introspected {
    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let combine: ([Any]) -> Downstream.Input
    }

    private enum State {
        case idle(Live)
        /// A thread is delivering. `lane` is the upstream whose value started it (nil when a request
        /// or the start did); `owed` is the demand to hand back to that upstream when it returns.
        case emitting(Live, lane: Int?, owed: Subscribers.Demand)
        case terminated
    }

    /// What `terminate()` took out of the stream, for the caller to use and drop outside the lock.
    private struct Ended {
        let live: Live?
        let upstreams: [any Subscription]
        /// The values that were waiting (dropped with the rest).
        let values: (lanes: [Lane], tuples: Queue<Downstream.Input>)
    }

    private struct Lane {
        var subscription: (any Subscription)?
        /// Whether a subscription ever arrived: a second one is cancelled.
        var attached = false
        var finished = false
        /// Zip: the values not yet paired. CombineLatest: at most one, the latest.
        var values = Queue<Any>()
    }

    private let lock = Lock()
    private let rule: FanInRule
    private var state: State
    private var lanes: [Lane]
    /// What downstream asked for and has not received.
    private var demand = Subscribers.Demand.none
    /// Everything asked of each upstream so far: an upstream that subscribes late is asked for it.
    private var forwarded = Subscribers.Demand.none
    /// CombineLatest: the tuples made and not yet delivered.
    private var tuples = Queue<Downstream.Input>()
    /// A failure that arrived while another thread was delivering.
    private var pendingFailure: Downstream.Failure?

    init(rule: FanInRule, lanes count: Int, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input) {
        self.rule = rule
        state = .emitting(Live(downstream: downstream, combine: combine), lane: nil, owed: .none)
        lanes = Array(repeating: Lane(), count: count)
    }

    var description: String {
        switch rule {
        case .zip: "Zip"
        case .combineLatest: "CombineLatest"
        }
    }

    /// The subscriber to attach to upstream number `lane`.
    func side<Input>(_ lane: Int, of _: Input.Type) -> FanInSide<Input, Downstream> {
        FanInSide(parent: self, lane: lane)
    }

    /// Hands downstream its subscription (after every upstream has been subscribed), then lets
    /// through whatever arrived in the meantime.
    func start() {
        // The state is `.emitting` until `emit()` below: nothing can have ended the stream yet.
        guard let downstream = lock.withLock({ live?.downstream }) else { return }
        downstream.receive(subscription: self)
        _ = emit()
    }

    // MARK: Upstreams

    func receive(subscription: any Subscription, lane: Int) {
        lock.lock()
        if case .terminated = state {
            lock.unlock()
            subscription.cancel()
            return
        }
        guard !lanes[lane].attached else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lanes[lane].attached = true
        lanes[lane].subscription = subscription
        let ask = forwarded
        lock.unlock()
        if ask > 0 { subscription.request(ask) }
    }

    func receive(_ value: Any, lane: Int) -> Subscribers.Demand {
        lock.lock()
        guard !isTerminated, !lanes[lane].finished else {
            lock.unlock()
            return .none
        }
        switch rule {
        case .zip:
            lanes[lane].values.append(value)
        case .combineLatest:
            lanes[lane].values.replaceAll(with: value)
            if let combine = live?.combine, lanes.allSatisfy({ !$0.values.isEmpty }) {
                let tuple = combine(lanes.map { $0.values.first! })
                // A tuple beyond the demand is kept only until a newer one replaces it.
                if tuples.count > 0, demand < tuples.count {
                    tuples.replaceLast(with: tuple)
                } else {
                    tuples.append(tuple)
                }
            }
        }
        guard case .idle(let live) = state, demand > 0, hasTuple else {
            lock.unlock()
            return .none
        }
        state = .emitting(live, lane: lane, owed: .none)
        lock.unlock()
        return emit()
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>, lane: Int) {
        lock.lock()
        guard !isTerminated, !lanes[lane].finished else {
            lock.unlock()
            return
        }
        lanes[lane].finished = true
        switch completion {
        case .failure(let error):
            // Combine cancels the failed upstream too, so its subscription is kept for `terminate`.
            if case .emitting = state {
                if pendingFailure == nil { pendingFailure = error }
                lock.unlock()
                return
            }
            let ended = terminate()
            lock.unlock()
            ended.upstreams.forEach { $0.cancel() }
            ended.live?.downstream.receive(completion: completion)
        case .finished:
            let released = lanes[lane].subscription
            lanes[lane].subscription = nil
            guard case .idle = state, isFinished else {
                lock.unlock()
                withExtendedLifetime(released) {}
                return
            }
            let ended = terminate()
            lock.unlock()
            ended.upstreams.forEach { $0.cancel() }
            ended.live?.downstream.receive(completion: .finished)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        let others = add(demand)
        var drains = false
        if case .idle(let live) = state, hasTuple {
            state = .emitting(live, lane: nil, owed: .none)
            drains = true
        }
        lock.unlock()
        others.forEach { $0.request(demand) }
        if drains { _ = emit() }
    }

    func cancel() {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        let ended = terminate()
        lock.unlock()
        ended.upstreams.forEach { $0.cancel() }
    }

    // MARK: Delivery

    /// Delivers while there is demand and a tuple, then whatever completion is due. Called by the
    /// thread that set `.emitting`; returns the demand owed to the upstream whose value started it.
    private func emit() -> Subscribers.Demand {
        // The demand downstream returned for the last tuple, and the upstreams to pass it to. They
        // are asked once the next step is settled (the next tuple taken, or the turn ended), and
        // not at all if that step ends the stream.
        var returned: (upstreams: [any Subscription], demand: Subscribers.Demand) = ([], .none)
        while true {
            lock.lock()
            guard case .emitting(let live, _, let owed) = state else {
                lock.unlock()
                return .none
            }
            if let failure = pendingFailure {
                pendingFailure = nil
                let ended = terminate()
                lock.unlock()
                ended.upstreams.forEach { $0.cancel() }
                ended.live?.downstream.receive(completion: .failure(failure))
                return .none
            }
            if demand > 0, hasTuple {
                let tuple = takeTuple(live.combine)
                demand -= 1
                lock.unlock()
                returned.upstreams.forEach { $0.request(returned.demand) }
                let more = live.downstream.receive(tuple)
                returned = ([], more)
                if more > 0 {
                    lock.lock()
                    if !isTerminated { returned.upstreams = add(more) }
                    lock.unlock()
                }
                continue
            }
            if isFinished {
                let ended = terminate()
                lock.unlock()
                ended.upstreams.forEach { $0.cancel() }
                ended.live?.downstream.receive(completion: .finished)
                return .none
            }
            state = .idle(live)
            lock.unlock()
            returned.upstreams.forEach { $0.request(returned.demand) }
            return owed
        }
    }

    // MARK: Helpers, called with the lock held

    private var isTerminated: Bool {
        if case .terminated = state { return true }
        return false
    }

    private var live: Live? {
        switch state {
        case .idle(let live), .emitting(let live, _, _): live
        case .terminated: nil
        }
    }

    private var hasTuple: Bool {
        switch rule {
        case .zip: lanes.allSatisfy { !$0.values.isEmpty }
        case .combineLatest: !tuples.isEmpty
        }
    }

    /// Whether the stream can finish: zip, when a finished upstream has no value left to pair;
    /// combineLatest, when every upstream has finished.
    private var isFinished: Bool {
        switch rule {
        case .zip: lanes.contains { $0.finished && $0.values.isEmpty }
        case .combineLatest: lanes.allSatisfy(\.finished)
        }
    }

    private func takeTuple(_ combine: ([Any]) -> Downstream.Input) -> Downstream.Input {
        switch rule {
        case .zip: combine(lanes.indices.map { lanes[$0].values.removeFirst() })
        case .combineLatest: tuples.removeFirst()
        }
    }

    /// Records more downstream demand and returns the upstreams to `request` it from: all but the
    /// one whose value is being delivered, which gets it as the return value of its `receive`.
    private func add(_ more: Subscribers.Demand) -> [any Subscription] {
        demand += more
        forwarded += more
        var skipped: Int?
        if case .emitting(let live, let lane?, let owed) = state {
            state = .emitting(live, lane: lane, owed: owed + more)
            skipped = lane
        }
        return lanes.indices.compactMap { $0 == skipped ? nil : lanes[$0].subscription }
    }

    /// Ends the stream and hands over what it held: downstream and `combine`, the upstreams to
    /// cancel (every one not finished, and a failed one) and the waiting values, all to be dropped
    /// by the caller after it releases the lock.
    private func terminate() -> Ended {
        let ended = Ended(live: live, upstreams: lanes.compactMap(\.subscription), values: (lanes, tuples))
        state = .terminated
        pendingFailure = nil
        for index in lanes.indices {
            lanes[index].subscription = nil
            lanes[index].values = Queue()
        }
        tuples = Queue()
        return ended
    }
}

/// Subscribes to one upstream of a fan-in on its behalf, telling it which lane a signal comes from.
struct FanInSide<Input, Downstream: Subscriber>: Subscriber {
    typealias Failure = Downstream.Failure

    let parent: FanInSubscription<Downstream>
    let lane: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.receive(subscription: subscription, lane: lane) }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, lane: lane) }

    func receive(completion: Subscribers.Completion<Failure>) { parent.receive(completion: completion, lane: lane) }
}
