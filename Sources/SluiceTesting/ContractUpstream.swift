// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The upstream an operator under check is applied to: it plays its values within the demand it is
// given and writes down the demand and cancel traffic the operator sends it. Written once and
// compiled against each implementation (see VirtualTime.swift).

#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// The upstream that `checkContract(ofOperator:feeding:)` hands to the operator under check.
///
/// It plays its values, then its completion, within the demand it is asked for, synchronously
/// (from the `request` that allows a value, as a sequence does), and safely from several threads.
/// Each subscription's traffic (what it was asked for, its cancel) goes into the check's trace,
/// marked `upstream:`, and is checked against the rules on what an operator sends upstream.
public final class ContractUpstream<Output, Failure: Error>: Publisher {
    private let values: [Output]
    private let failure: Failure?
    let ledger: UpstreamLedger

    init(values: [Output], failure: Failure?, ledger: UpstreamLedger) {
        self.values = values
        self.failure = failure
        self.ledger = ledger
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        ledger.subscribed()
        subscriber.receive(subscription: Conduit(subscriber, values: values, failure: failure, ledger: ledger))
    }

    /// One subscription: the values still to play, the demand, and whether a thread is delivering.
    private final class Conduit<Downstream: Subscriber>: Subscription, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private struct State {
            var downstream: Downstream?
            var next = 0
            var demand = Subscribers.Demand.none
            var delivering = false
        }

        /// What a delivering thread does next.
        private enum Step {
            case send(Output, Downstream)
            case complete(Downstream)
            case stop
        }

        private let values: [Output]
        private let failure: Failure?
        private let ledger: UpstreamLedger
        private let state: Locked<State>

        init(_ downstream: Downstream, values: [Output], failure: Failure?, ledger: UpstreamLedger) {
            self.values = values
            self.failure = failure
            self.ledger = ledger
            state = Locked(State(downstream: downstream))
        }

        func request(_ demand: Subscribers.Demand) {
            ledger.requested(demand)
            let deliver = state.withLock { state in
                // A request that reaches a subscription that has ended (from a thread that read the
                // operator's state before the end) asks for nothing: the values downstream got since
                // came from elsewhere (what follows an `append`, a `retry`'s next subscription).
                guard state.downstream != nil else { return false }
                state.demand += demand
                ledger.asked(state.demand)
                guard !state.delivering else { return false }
                state.delivering = true
                return true
            }
            if deliver { drain() }
        }

        /// Sends what the demand allows, and the completion after the last value; one thread at a time,
        /// in a loop, so that demand returned from `receive` does not deepen the stack.
        private func drain() {
            while true {
                let step = state.withLock { state -> Step in
                    guard let downstream = state.downstream else {
                        state.delivering = false
                        return .stop
                    }
                    if state.next == values.count {
                        state.downstream = nil
                        return .complete(downstream)
                    }
                    guard state.demand > 0 else {
                        state.delivering = false
                        return .stop
                    }
                    state.demand -= 1
                    state.next += 1
                    return .send(values[state.next - 1], downstream)
                }
                switch step {
                case .send(let value, let downstream):
                    let more = downstream.receive(value)
                    if more != .none { ledger.returned(more) }
                    state.withLock { state in
                        state.demand += more
                        ledger.asked(state.demand)
                    }
                case .complete(let downstream):
                    ledger.sentCompletion()
                    downstream.receive(completion: failure.map { .failure($0) } ?? .finished)
                    return
                case .stop:
                    return
                }
            }
        }

        func cancel() {
            ledger.cancelled()
            state.withLock { $0.downstream = nil }
        }
    }
}

/// What an operator did to its `ContractUpstream`, and the rules on it that it broke.
final class UpstreamLedger: @unchecked Sendable {
    private struct State {
        var subscriptions = 0
        var cancels = 0
        var completed = false
        var broken: [PublisherRule: String] = [:]
    }

    let trace: ContractTrace
    /// What downstream has asked for and not received: the operator's demand upstream is held to
    /// it when the rule on upstream demand applies (`nil`: it does not).
    var downstreamOutstanding: (@Sendable () -> Subscribers.Demand?)?
    private let state = Locked(State())

    init(trace: ContractTrace) {
        self.trace = trace
    }

    var subscriptions: Int { state.withLock { $0.subscriptions } }
    var cancels: Int { state.withLock { $0.cancels } }
    var completed: Bool { state.withLock { $0.completed } }
    var broken: [PublisherRule: String] { state.withLock { $0.broken } }

    func subscribed() {
        trace.record("upstream: subscribed")
        state.withLock { $0.subscriptions += 1 }
    }

    func requested(_ demand: Subscribers.Demand) {
        trace.record("upstream: request(\(demand))")
    }

    func returned(_ demand: Subscribers.Demand) {
        trace.record("upstream: \(demand) returned")
    }

    /// Checks the demand upstream now has outstanding against downstream's.
    func asked(_ upstream: Subscribers.Demand) {
        guard let downstream = downstreamOutstanding?(), upstream > downstream else { return }
        state.withLock { state in
            if state.broken[.upstreamDemandFollowsDownstream] == nil {
                state.broken[.upstreamDemandFollowsDownstream] =
                    "upstream had \(upstream) outstanding while downstream had asked for \(downstream)"
            }
        }
    }

    func cancelled() {
        trace.record("upstream: cancel")
        state.withLock { $0.cancels += 1 }
    }

    func sentCompletion() {
        state.withLock { $0.completed = true }
    }
}
