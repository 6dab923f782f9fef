// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subscriber for tests whose events arrive on other threads or tasks: it asks for
/// `initialDemand` when subscribed and keeps what it receives under a lock, so the test can read it
/// from its own thread at any time.
final class LockedRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let state = TestLock<
        (values: [Input], completions: [Subscribers.Completion<Failure>], subscription: (any Subscription)?)
    >(([], [], nil))
    private let initialDemand: Subscribers.Demand?

    init(initialDemand: Subscribers.Demand? = .unlimited) {
        self.initialDemand = initialDemand
    }

    var values: [Input] { state.withLock { $0.values } }
    var completions: [Subscribers.Completion<Failure>] { state.withLock { $0.completions } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.values.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock {
            $0.completions.append(completion)
            $0.subscription = nil
        }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    func cancel() {
        state.withLock { $0.subscription.take() }?.cancel()
    }
}

/// Waits, up to `seconds`, for `condition` to hold, checking every millisecond; returns whether it did.
///
/// A guard against a hang, not a measure of time: what it waits for often runs on the shared
/// cooperative pool, which CI's 2 cores and the suites running beside it can keep busy for seconds
/// (5 s once ran out there, with the value on its way), so the default is generous.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
