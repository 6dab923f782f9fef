// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// What a folding operator decides after seeing one upstream value.
enum FoldStep<Failure: Error> {
    /// Keep folding.
    case `continue`
    /// The answer is known (`first`, `contains`, `allSatisfy` at its first `false`): cancel
    /// upstream and deliver the result.
    case finishEarly
    /// Cancel upstream and fail (a `try` closure threw).
    case fail(Failure)
}

/// What one `first`, `last`, `contains` or `allSatisfy` subscription has found: the element that
/// matched, if any (`allSatisfy` looks for one that fails its predicate). The search ends at the
/// first match, unless it keeps looking for a later one (`last`).
final class Search<Value> {
    private(set) var match: Value?
    private let keepsLooking: Bool

    init(keepsLooking: Bool = false) { self.keepsLooking = keepsLooking }

    func fold<Failure>(_ input: Value, _ isMatch: (Value) throws -> Bool) rethrows -> FoldStep<Failure> {
        guard try isMatch(input) else { return .continue }
        match = input
        return keepsLooking ? .continue : .finishEarly
    }
}

/// The subscription shared by the operators that fold the whole upstream into at most one value
/// (`collect()`, `reduce`, `count`, `min`/`max`, `first`/`last`, `contains`, `allSatisfy`).
///
/// As in Combine, it asks upstream for `.unlimited` as soon as it is subscribed, and holds the
/// finish (with the result, if there is one: `nil` means none) until downstream has asked for
/// something; a failure goes out at once. Out of order, as Combine's reducers: a value or a
/// completion before upstream's subscription is dropped, and a subscription that arrives after
/// downstream cancelled is still asked for `.unlimited`.
///
/// Lifetimes: downstream and the operator's closures live in the state. Once upstream is done the
/// closures have served (the result is known), so a result waiting for demand keeps only
/// downstream; whoever ends the stream takes what is left out under the lock, and it is dropped
/// after the lock is released.
final class FoldSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, Introspected
{
    typealias Failure = UpstreamFailure

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let fold: (Input) -> FoldStep<Downstream.Failure>
        let result: () -> Downstream.Input?
        let mapFailure: (UpstreamFailure) -> Downstream.Failure
    }

    private enum State {
        case awaitingSubscription(Live)
        case subscribed(Live, upstream: any Subscription)
        /// Upstream is done; the result is being delivered.
        case finishing(Live)
        /// The finish (and the result, if any) waits for downstream's first request.
        case awaitingDemand(Downstream, Downstream.Input?)
        /// Cancelled before upstream's subscription arrived.
        case abandoned
        case terminated
    }

    private let lock = Lock()
    private var state: State
    private var downstreamHasAsked = false
    /// Set by `cancel()`: the completion does not follow a last value that a cancel came after.
    private var cancelled = false
    let description: String
    /// Combine's mirror children for this operator, from the running result; `nil` for a reducer's.
    private let reflect: ((Downstream.Input?) -> [Mirror.Child])?

    init(
        _ name: String,
        downstream: Downstream,
        fold: @escaping (Input) -> FoldStep<Downstream.Failure>,
        result: @escaping () -> Downstream.Input?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        reflect: ((Downstream.Input?) -> [Mirror.Child])? = nil
    ) {
        description = name
        self.reflect = reflect
        state = .awaitingSubscription(Live(downstream: downstream, fold: fold, result: result, mapFailure: mapFailure))
    }

    /// A reducer's children in Combine: its subscriber, the running result (as "result" and as
    /// "initial"), and where the stream is.
    var customMirror: Mirror {
        lock.withLock {
            let (downstream, result, status): (Downstream?, Downstream.Input?, String) =
                switch state {
                case .awaitingSubscription(let live): (live.downstream, live.result(), "awaiting subscription")
                case .subscribed(let live, _): (live.downstream, live.result(), "subscribed")
                case .finishing(let live): (live.downstream, live.result(), "terminal")
                case .awaitingDemand(let downstream, let result): (downstream, result, "terminal")
                case .abandoned, .terminated: (nil, nil, "terminal")
                }
            let children: [Mirror.Child] =
                reflect?(result)
                ?? [
                    ("downstream", downstream as Any), ("result", result as Any), ("initial", result as Any),
                    ("status", status),
                ]
            return Mirror(self, children: children)
        }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if abandoned { subscription.request(.unlimited) } else { subscription.cancel() }
            return
        }
        state = .subscribed(live, upstream: subscription)
        lock.unlock()
        live.downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let live, let upstream) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch live.fold(input) {
        case .continue:
            break
        case .finishEarly:
            if claimUpstream() != nil {
                upstream.cancel()
                deliver(live.result())
            }
        case .fail(let error):
            if claimUpstream() != nil {
                upstream.cancel()
                fail(error)
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard let live = claimUpstream() else { return }
        switch completion {
        case .finished:
            deliver(live.result())
        case .failure(let error):
            fail(live.mapFailure(error))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        downstreamHasAsked = true
        guard case .awaitingDemand(let downstream, let value) = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receiveLast(value, then: .finished) { lock.withLock { cancelled } }
    }

    func cancel() {
        let previous = lock.withLock {
            cancelled = true
            if case .awaitingSubscription = state {
                return exchange(&state, with: .abandoned)
            } else {
                return exchange(&state, with: .terminated)
            }
        }
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
    }

    /// Moves out of `.subscribed`, so that exactly one path ends the stream, and returns what the
    /// stream holds. Returns nil when another path (a cancel, say) got there first.
    private func claimUpstream() -> Live? {
        lock.lock()
        // `previous` keeps the upstream subscription until the lock is released.
        let previous = state
        guard case .subscribed(let live, _) = previous else {
            lock.unlock()
            return nil
        }
        state = .finishing(live)
        lock.unlock()
        return live
    }

    private func fail(_ error: Downstream.Failure) {
        lock.lock()
        guard case .finishing(let live) = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        live.downstream.receive(completion: .failure(error))
    }

    /// Sends the result and `.finished` now if downstream has asked, otherwise when it does.
    private func deliver(_ value: Downstream.Input?) {
        lock.lock()
        guard case .finishing(let live) = state else {
            lock.unlock()
            return
        }
        guard downstreamHasAsked else {
            state = .awaitingDemand(live.downstream, value)
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        live.downstream.receiveLast(value, then: .finished) { lock.withLock { cancelled } }
    }
}

extension FoldSubscription where UpstreamFailure == Downstream.Failure {
    /// A fold that passes an upstream failure on unchanged.
    convenience init(
        _ name: String, downstream: Downstream,
        fold: @escaping (Input) -> FoldStep<Downstream.Failure>, result: @escaping () -> Downstream.Input?,
        reflect: ((Downstream.Input?) -> [Mirror.Child])? = nil
    ) {
        self.init(name, downstream: downstream, fold: fold, result: result, mapFailure: { $0 }, reflect: reflect)
    }
}

extension FoldSubscription where Downstream.Failure == any Error {
    /// A `try` fold: a thrown error fails the stream, and an upstream failure is passed on as `any Error`.
    convenience init(
        _ name: String, downstream: Downstream,
        tryFold: @escaping (Input) throws -> FoldStep<any Error>, result: @escaping () -> Downstream.Input?
    ) {
        self.init(
            name, downstream: downstream,
            fold: { input in
                do { return try tryFold(input) } catch { return .fail(error) }
            }, result: result, mapFailure: { $0 })
    }
}
