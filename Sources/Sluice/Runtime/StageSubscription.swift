// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// A run of stages over an unfused upstream: `StageSubscription` (its own subscription) and
// `StageSubscriber` (upstream's subscription passed through). See Stage.swift.

/// Runs a stage between an unfused upstream and its subscriber: one object per stage, no lock per
/// value (the status word is read with one atomic load).
///
/// Lifetimes: the stage (the operators' closures) and downstream are used only by calls from
/// upstream, each a call through `lifetime`; once the stream has ended, the last of those, or the
/// cancel if none is running, lets go of them. Each is held in a `Releasable` taken as a generic
/// parameter (`HeldStage`, `Held`; see `ReleasableSlot`), so that freeing the subscription looks no
/// type up.
@usableFromInline
final class StageSubscription<HeldStage: ReleasableSlot, Held: ReleasableSlot>: Subscriber, Subscription, Introspected
where
    HeldStage.Value: _Runtime.Stage, Held.Value: Subscriber, Held.Value.Input == HeldStage.Value.Output,
    Held.Value.Failure == HeldStage.Value.Failure
{
    @usableFromInline typealias Stage = HeldStage.Value
    @usableFromInline typealias Downstream = Held.Value
    @usableFromInline typealias Input = Stage.Input
    @usableFromInline typealias Failure = Stage.UpstreamFailure

    @usableFromInline let slot = UpstreamSlot<Never>()
    /// Used only inside calls through `lifetime` (from upstream, serially).
    @exclusivity(unchecked)
    @usableFromInline var stage: HeldStage
    @exclusivity(unchecked)
    @usableFromInline var downstream: Held
    @usableFromInline let lifetime: Lifetime

    @inlinable
    init(stage: consuming HeldStage, downstream: consuming Held) {
        self.stage = stage
        self.downstream = downstream
        lifetime = Lifetime { unsafeDowncast($0, to: StageSubscription.self).release() }
    }

    @usableFromInline var description: String { "\(Stage._description.name)" }

    @usableFromInline var customMirror: Mirror {
        let status =
            switch slot.current {
            case .awaiting: "awaiting subscription"
            case .active: "subscribed"
            default: "terminal"
            }
        return Mirror(self, children: stage.value?._children(downstream: downstream.value as Any, status: status) ?? [])
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch slot.attach(subscription) {
        case .attached:
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        case .late(let afterCancel):
            if !afterCancel || Stage._description.edges.cancelsLateSubscription { subscription.cancel() }
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lifetime.call(self) {
            switch slot.current {
            case .active: return step(input)
            case .awaiting:
                if Stage._description.edges.trapsBeforeSubscription {
                    trap("API violation: \(Stage._description.name) received a value before its subscription")
                }
                return Stage._description.edges.processesValueBeforeSubscription ? step(input) : .none
            default: return .none
            }
        } ?? .none
    }

    /// Inside a `lifetime` call: runs the stage on one value.
    @inlinable
    func step(_ input: Input) -> Subscribers.Demand {
        switch stage.with({ $0.step(input) }) {
        case .value(let output):
            let demand = downstream.with { $0.receive(output) }
            // Upstream is cancelled now; Combine still answers it with downstream's demand.
            if stage.with({ $0.isComplete }) { terminate(.finished) }
            return demand
        case .skip:
            // A bounded stage (`prefix`, `output`) can complete on a value that a later stage drops.
            // As in Combine, where the dropping operator answers with `.max(1)` all the same.
            if stage.with({ $0.isComplete }) { terminate(.finished) }
            return .max(1)
        case .finished:
            terminate(.finished)
        case .failure(let error):
            terminate(.failure(error))
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Stage.UpstreamFailure>) {
        lifetime.call(self) {
            if slot.current == .awaiting {
                if Stage._description.edges.trapsBeforeSubscription {
                    trap("API violation: \(Stage._description.name) received a completion before its subscription")
                }
                guard Stage._description.edges.forwardsCompletionBeforeSubscription else { return }
            }
            guard slot.end().didEnd, lifetime.end() else { return }
            let mapped: Subscribers.Completion<Downstream.Failure> =
                switch completion {
                case .finished: .finished
                case .failure(let error): .failure(stage.with { $0.mapFailure(error) })
                }
            downstream.with { $0.receive(completion: mapped) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let (status, current) = slot.activeUpstream()
        if status == .awaiting && Stage._description.edges.trapsBeforeSubscription {
            trap("API violation: \(Stage._description.name) requested demand before its subscription")
        }
        current?.request(demand)
    }

    @inlinable
    func cancel() {
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }

    /// Inside a `lifetime` call: ends the stream from the middle, cancelling upstream first, then
    /// completing downstream.
    @inlinable
    func terminate(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let ending = slot.end()
        guard ending.didEnd else { return }
        ending.upstream?.cancel()
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    /// Lets go of the stage and downstream: called once, when `lifetime` says so.
    @inlinable
    func release() {
        stage.release()
        downstream.release()
    }
}

/// Runs a run of pass-through stages (`map`, `filter`, `scan`, ...) between an unfused upstream and
/// its subscriber, as Combine runs each of them: downstream gets upstream's subscription itself, so
/// its requests and its cancel go straight there, and every signal from upstream is passed on
/// whenever it comes, before a subscription or after a completion. It owns nothing but the stage
/// and downstream, which go when upstream lets go of it.
@usableFromInline
final class StageSubscriber<Stage: _Runtime.Stage, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == Stage.Output, Downstream.Failure == Stage.Failure {
    @usableFromInline typealias Input = Stage.Input
    @usableFromInline typealias Failure = Stage.UpstreamFailure

    /// Touched only by upstream's signals, which are serial.
    @exclusivity(unchecked)
    @usableFromInline var stage: Stage
    @usableFromInline let downstream: Downstream

    @inlinable
    init(stage: consuming Stage, downstream: Downstream) {
        self.stage = stage
        self.downstream = downstream
    }

    @usableFromInline var description: String { "\(Stage._description.name)" }

    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: stage._children(downstream: downstream, status: "subscribed"))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch stage.step(input) {
        case .value(let output): downstream.receive(output)
        case .skip: .max(1)
        // A pass-through stage neither finishes nor fails a stream by itself.
        case .finished, .failure: .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Stage.UpstreamFailure>) {
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(stage.mapFailure(error)))
        }
    }
}
