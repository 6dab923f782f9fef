// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The scripted subscriber of the contract check, and the trace it shares with the check's
// upstream. Written once and compiled against each implementation (see VirtualTime.swift).
import Foundation

#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// The events of one run of the check, downstream's and upstream's, in the order they happened.
final class ContractTrace: Sendable {
    /// How many events a report shows.
    static var limit: Int { 32 }

    private let events = Locked<[String]>([])
    /// How many events are kept.
    private let kept: Int

    init(keeping kept: Int = ContractTrace.limit) { self.kept = kept }

    func record(_ event: String) {
        events.withLock { events in
            if events.count < kept { events.append(event) }
        }
    }

    var lines: [String] { events.withLock { $0 } }
}

/// State that several threads share, under a lock the thread sanitizer sees (a pthread mutex:
/// Synchronization's `Mutex` is invisible to it, and a user's check run under it would report the
/// kit's own accesses as races).
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// How a `ContractProbe` asks for values.
struct DemandSteps {
    /// Asked for when the subscription comes (`.none`: nothing).
    var initial: Subscribers.Demand
    /// Returned from each value.
    var perValue: Subscribers.Demand = .none
    /// Whether `perValue` is asked for with `request` from inside `receive` rather than returned.
    var asksFromReceive = false
    /// The probe cancels from inside the receive of this value.
    var cancelAfter: Int?
    /// Whether the probe reports how far the stack grew from value to value (it always measures it
    /// on the first value's thread, and stops asking for more past the limit, so that a publisher
    /// that recurses cannot overflow the stack).
    var measuresStack = false
    /// How long after a cancel what was on its way may still come, in nanoseconds (`nil`: nothing
    /// may; see `Delivery`).
    var cancelGrace: UInt64?
}

/// A scripted subscriber that writes down what it sees and which rule each event broke. Its state
/// is under a lock, so that several threads may ask and cancel through it at once.
final class ContractProbe<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    /// How far the stack may grow from the first value's `receive(_:)` to a later one's before the
    /// rule on synchronous demand is broken: a publisher that serves demand from inside the call
    /// that asked for it grows it by a few frames per value.
    static var stackGrowthLimit: UInt { 64 * 1024 }

    private struct State {
        var subscription: (any Subscription)?
        var subscriptions = 0
        var outstanding = Subscribers.Demand.none
        var values = 0
        var completions = 0
        var cancelled = false
        var cancelledAt: UInt64 = 0
        /// The values and the completions received, as the trace writes them (the first ones).
        var received: [String] = []
        /// The stack's position at the first value, and how far it grew below it since.
        var firstValueStack: UInt?
        /// The thread the first value came on: the stack is measured on it alone.
        var firstValueThread: ObjectIdentifier?
        var stackGrowth: UInt = 0
        /// The first reason each rule was broken.
        var broken: [PublisherRule: String] = [:]

        mutating func breaks(_ rule: PublisherRule, _ why: String) {
            if broken[rule] == nil { broken[rule] = why }
        }

        mutating func cancel() {
            cancelled = true
            cancelledAt = DispatchTime.now().uptimeNanoseconds
        }

        /// `event` came: after a cancel, later than `grace` allows, it breaks the rule.
        mutating func checkAfterCancel(_ event: String, grace: UInt64?) {
            guard cancelled else { return }
            guard let grace else { return breaks(.cancelStopsDelivery, "\(event) came after cancel() returned") }
            let late = DispatchTime.now().uptimeNanoseconds - cancelledAt
            if late > grace {
                breaks(.cancelStopsDelivery, "\(event) came \(late / 1_000_000) ms after cancel() returned")
            }
        }
    }

    private let steps: DemandSteps
    let trace: ContractTrace
    /// Put before each of its events in the trace (a second subscriber's: "second: ").
    private let label: String
    private let state = Locked(State())

    init(_ steps: DemandSteps, trace: ContractTrace, label: String = "") {
        self.steps = steps
        self.trace = trace
        self.label = label
    }

    private func record(_ event: String) {
        trace.record(label + event)
    }

    /// Subscriptions received so far.
    var subscriptions: Int { state.withLock { $0.subscriptions } }
    /// Values received so far.
    var values: Int { state.withLock { $0.values } }
    /// Completions received so far.
    var completions: Int { state.withLock { $0.completions } }
    /// Whether the probe has cancelled.
    var cancelled: Bool { state.withLock { $0.cancelled } }
    /// The values and completions received, as the trace writes them (the first ones).
    var received: [String] { state.withLock { $0.received } }
    /// Events (subscriptions, values, completions) received so far.
    var events: Int { state.withLock { $0.subscriptions + $0.values + $0.completions } }
    /// The demand asked for and not yet met.
    var outstanding: Subscribers.Demand { state.withLock { $0.outstanding } }

    /// The rules broken so far, each with its first reason; `synchronousDemandIsBounded` is judged
    /// here, from how far the stack grew.
    var broken: [PublisherRule: String] {
        state.withLock { state in
            var broken = state.broken
            if steps.measuresStack, state.stackGrowth > Self.stackGrowthLimit {
                broken[.synchronousDemandIsBounded] =
                    "the stack grew by more than \(Self.stackGrowthLimit / 1024) KiB over \(state.values) values: "
                    + "the demand a value returned was served from inside the call that delivered it"
            }
            return broken
        }
    }

    func receive(subscription: any Subscription) {
        record("subscription")
        let first = state.withLock { state in
            state.subscriptions += 1
            guard state.subscriptions == 1 else {
                state.breaks(.subscriptionFirstAndOnce, "\(state.subscriptions) subscriptions came")
                return false
            }
            state.subscription = subscription
            return true
        }
        if first, steps.initial != .none { request(steps.initial) }
    }

    /// Asks for more, as a subscriber's `request` would.
    func request(_ demand: Subscribers.Demand) {
        record("request(\(demand))")
        let subscription = state.withLock { state in
            state.outstanding += demand
            return state.subscription
        }
        subscription?.request(demand)
    }

    /// Cancels the subscription.
    func cancel() {
        record("cancel")
        let subscription = state.withLock { state in
            state.cancel()
            return state.subscription
        }
        subscription?.cancel()
    }

    /// Lets go of the subscription, so that what still holds this probe is the publisher's.
    func dropSubscription() {
        state.withLock { $0.subscription = nil }
    }

    /// What `receive(_:)` does once the lock is let go: cancel, or ask with `request` (from inside
    /// the receive).
    private enum Then {
        case cancel(any Subscription)
        case ask(any Subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let event = "value(\(input))"
        record(event)
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let thread = ObjectIdentifier(Thread.current)
        let (demand, then) = state.withLock { state -> (Subscribers.Demand, Then?) in
            state.values += 1
            if state.received.count < ContractTrace.limit { state.received.append(event) }
            if let first = state.firstValueStack {
                if first > here, thread == state.firstValueThread {
                    state.stackGrowth = max(state.stackGrowth, first - here)
                }
            } else {
                (state.firstValueStack, state.firstValueThread) = (here, thread)
            }
            if state.subscriptions == 0 {
                state.breaks(.subscriptionFirstAndOnce, "a value came before the subscription")
            }
            if state.completions > 0 { state.breaks(.nothingAfterCompletion, "a value came after the completion") }
            state.checkAfterCancel("a value", grace: steps.cancelGrace)
            // A value after the end breaks the rule on the end, not the one on demand as well.
            if state.outstanding == .none {
                if state.completions == 0, !state.cancelled {
                    state.breaks(.demandIsRespected, "value \(state.values) came with no demand outstanding")
                }
            } else {
                state.outstanding -= 1
            }
            if let cancelAfter = steps.cancelAfter, state.values == cancelAfter, !state.cancelled {
                state.cancel()
                return (.none, state.subscription.map(Then.cancel))
            }
            // Past the limit, it asks for nothing more, so that the recursion stops before the stack does.
            guard state.stackGrowth <= Self.stackGrowthLimit, steps.perValue != .none else { return (.none, nil) }
            if steps.asksFromReceive { return (.none, state.subscription.map(Then.ask)) }
            state.outstanding += steps.perValue
            return (steps.perValue, nil)
        }
        switch then {
        case .cancel(let subscription):
            record("cancel")
            subscription.cancel()
        case .ask:
            request(steps.perValue)
        case nil: break
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let event = if case .failure(let error) = completion { "failure(\(error))" } else { "finished" }
        record(event)
        state.withLock { state in
            state.completions += 1
            if state.received.count < ContractTrace.limit { state.received.append(event) }
            if state.subscriptions == 0 {
                state.breaks(.subscriptionFirstAndOnce, "the completion came before the subscription")
            }
            if state.completions > 1 { state.breaks(.oneCompletion, "\(state.completions) completions came") }
            state.checkAfterCancel("the completion", grace: steps.cancelGrace)
        }
    }
}
