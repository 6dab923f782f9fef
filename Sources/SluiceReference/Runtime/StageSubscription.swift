// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// What a one-to-one operator decides for one upstream value.
enum StageStep<Output, Failure: Error> {
    /// Forward the value downstream; downstream's answer is the new demand upstream.
    case emit(Output)
    /// Drop the value and ask upstream for one more in its place (`filter`, `compactMap`, ...).
    case skip
    /// Forward the value, then cancel upstream and finish (`prefix(_:)` at its last value).
    case emitThenFinish(Output)
    /// Cancel upstream and finish without forwarding (`prefix(while:)` at its first `false`).
    case finish
    /// Cancel upstream and fail (a `try` closure threw).
    case fail(Failure)
}

/// The subscription shared by the one-to-one operators of the reference (`map`, `filter`,
/// `scan`, `removeDuplicates`, `mapError`, `prefix(while:)`, ...).
///
/// It sits between upstream and downstream: demand and cancellation pass straight upstream,
/// each value goes through `step`, and the completion through `mapCompletion`. It holds one lock
/// over one state enum and never calls out while holding it.
///
/// Lifetimes: downstream, the operator's closures and the upstream subscription live in the
/// `.subscribed` state, and only there. Whoever ends the stream (a cancel, a completion, a step
/// that ends it) takes them out under the lock, so they are dropped when that call returns,
/// outside the lock. A value in flight on another thread holds its own copies until it returns.
final class StageSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, Introspected
{
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input
    typealias Step = (Input) -> StageStep<Output, Downstream.Failure>
    typealias MapCompletion = (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let step: Step
        let mapCompletion: MapCompletion
    }

    private enum State {
        case awaitingSubscription(Live)
        case subscribed(Live, upstream: any Subscription)
        case terminated
        /// Cancelled before upstream's subscription came.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    let description: String
    private let family: TransformFamily
    private let reflect: ReflectChildren?

    init(
        _ name: String, downstream: Downstream, family: TransformFamily = .dropping, reflect: ReflectChildren? = nil,
        step: @escaping Step, mapCompletion: @escaping MapCompletion
    ) {
        description = name
        self.family = family
        self.reflect = reflect
        state = .awaitingSubscription(Live(downstream: downstream, step: step, mapCompletion: mapCompletion))
    }

    /// The operator's children while the stream lives; none once it has ended.
    var customMirror: Mirror {
        let (downstream, status): (Downstream?, String) = lock.withLock {
            switch state {
            case .awaitingSubscription(let live): (live.downstream, "awaiting subscription")
            case .subscribed(let live, _): (live.downstream, "subscribed")
            case .terminated, .abandoned: (nil, "terminal")
            }
        }
        return Mirror(self, children: downstream.flatMap { downstream in reflect?(downstream, status) } ?? [])
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned || family == .trapping { subscription.cancel() }
            return
        }
        state = .subscribed(live, upstream: subscription)
        lock.unlock()
        live.downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let (current, early) = lock.withLock { () -> (Live?, Bool) in
            switch state {
            case .subscribed(let live, _): (live, false)
            case .awaitingSubscription(let live): (live, true)
            case .terminated, .abandoned: (nil, false)
            }
        }
        guard let live = current else { return .none }
        if early {
            require(family != .trapping, "API violation: \(description) received a value before its subscription")
            guard family == .passingValues || family == .passingValuesAndCompletions else { return .none }
        }
        switch live.step(input) {
        case .emit(let output):
            return live.downstream.receive(output)
        case .skip:
            return .max(1)
        case .emitThenFinish(let output):
            // Upstream is cancelled now; Combine still answers it with downstream's demand.
            let demand = live.downstream.receive(output)
            terminate(with: .finished)
            return demand
        case .finish:
            terminate(with: .finished)
        case .fail(let error):
            terminate(with: .failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let early = lock.withLock { if case .awaitingSubscription = state { true } else { false } }
        if early {
            require(family != .trapping, "API violation: \(description) received a completion before its subscription")
            guard family == .passingValuesAndCompletions else { return }
        }
        guard let (live, _) = end(byCancel: false) else { return }
        live.downstream.receive(completion: live.mapCompletion(completion))
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        switch state {
        case .subscribed(_, let upstream):
            lock.unlock()
            upstream.request(demand)
        case .awaitingSubscription:
            lock.unlock()
            require(family != .trapping, "API violation: \(description) requested demand before its subscription")
        case .terminated, .abandoned:
            lock.unlock()
        }
    }

    func cancel() {
        end(byCancel: true)?.upstream?.cancel()
    }

    /// Ends the stream from the middle: upstream (if it has subscribed) is cancelled first, then
    /// downstream completes, unless a cancel from downstream got there first.
    private func terminate(with completion: Subscribers.Completion<Downstream.Failure>) {
        guard let (live, upstream) = end(byCancel: false) else { return }
        upstream?.cancel()
        live.downstream.receive(completion: completion)
    }

    /// Moves to `.terminated` (`.abandoned` for a cancel before upstream's subscription) and hands
    /// what the stream held to the one caller that ended it.
    private func end(byCancel: Bool) -> (live: Live, upstream: (any Subscription)?)? {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .awaitingSubscription(let live):
            state = byCancel ? .abandoned : .terminated
            return (live, nil)
        case .subscribed(let live, let upstream):
            state = .terminated
            return (live, upstream)
        case .terminated, .abandoned:
            return nil
        }
    }
}

/// How a one-to-one operator's subscription treats signals that come out of order: from upstream
/// before its subscription, or a subscription after downstream cancelled. Combine's operators
/// differ here by family; OpenCombine's Apple-validated suite records each
/// (`testReceiveValueBeforeSubscription`, `testCancelBeforeSubscription`, ...).
enum TransformFamily {
    /// Ignores what comes before the subscription; leaves a late subscription alone
    /// (`drop(while:)`, `output(in:)`).
    case dropping
    /// Traps on a value, a completion or a request before the subscription; cancels a late
    /// subscription (`tryFilter`, `tryCompactMap`, `prefix(while:)`, `removeDuplicates`, ...).
    case trapping
    /// Like `.dropping`, but a value before the subscription still goes through (`tryMap`, `tryScan`).
    case passingValues
    /// Values and the completion before the subscription still go through (`encode`, `decode`).
    case passingValuesAndCompletions
}

extension StageSubscription where UpstreamFailure == Downstream.Failure {
    /// An operator that does not touch the completion.
    convenience init(
        _ name: String, downstream: Downstream, family: TransformFamily = .dropping, reflect: ReflectChildren? = nil,
        step: @escaping (Input) -> StageStep<Output, Downstream.Failure>
    ) {
        self.init(name, downstream: downstream, family: family, reflect: reflect, step: step, mapCompletion: { $0 })
    }
}

extension StageSubscription where Downstream.Failure == any Error {
    /// A `try` operator: an upstream failure is passed on as `any Error`.
    convenience init(
        _ name: String, downstream: Downstream, family: TransformFamily = .dropping, reflect: ReflectChildren? = nil,
        tryStep: @escaping (Input) throws -> StageStep<Output, any Error>
    ) {
        self.init(
            name, downstream: downstream, family: family, reflect: reflect,
            step: { input in
                do { return try tryStep(input) } catch { return .fail(error) }
            },
            mapCompletion: { completion in
                switch completion {
                case .finished: .finished
                case .failure(let error): .failure(error)
                }
            })
    }
}

/// The subscriber of the operators that, in Combine, hand their subscriber the upstream's own
/// subscription and pass on every signal whenever it comes, before a subscription or after a
/// completion (`map`, `filter`, `compactMap`, `scan`, `mapError`, `setFailureType`,
/// `assertNoFailure`, `map(keyPath)`, `breakpoint`): no state, no lock. It holds downstream and the
/// closures until upstream lets go of it.
final class StageSubscriber<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input

    private let downstream: Downstream
    /// Only `.emit` and `.skip`: these operators never end a stream by themselves.
    private let step: (Input) -> StageStep<Output, Downstream.Failure>
    private let mapCompletion: (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    private let observeSubscription: (any Subscription) -> Void
    private let reflect: ReflectChildren?
    let description: String

    init(
        _ name: String, downstream: Downstream,
        observeSubscription: @escaping (any Subscription) -> Void = { _ in },
        reflect: ReflectChildren? = nil,
        step: @escaping (Input) -> StageStep<Output, Downstream.Failure>,
        mapCompletion: @escaping (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    ) {
        description = name
        self.downstream = downstream
        self.observeSubscription = observeSubscription
        self.reflect = reflect
        self.step = step
        self.mapCompletion = mapCompletion
    }

    convenience init(
        _ name: String, downstream: Downstream, reflect: ReflectChildren? = nil,
        step: @escaping (Input) -> StageStep<Output, Downstream.Failure>
    ) where UpstreamFailure == Downstream.Failure {
        self.init(name, downstream: downstream, reflect: reflect, step: step, mapCompletion: { $0 })
    }

    var customMirror: Mirror { Mirror(self, children: reflect?(downstream, "subscribed") ?? []) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
        observeSubscription(subscription)
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        switch step(input) {
        case .emit(let output): downstream.receive(output)
        case .skip: .max(1)
        case .emitThenFinish, .finish, .fail: trap("\(description) does not end a stream by itself")
        }
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: mapCompletion(completion))
    }
}
