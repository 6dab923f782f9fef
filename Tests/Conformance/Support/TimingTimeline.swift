// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization

/// A subscriber that writes down each event with the virtual instant it arrived at, as
/// `"12ms:value(3)"`, `"20ms:finished"`: timing tests compare these lines exactly.
final class TimingTimeline<Input, Failure: Error>: Subscriber {
    let scheduler: VirtualTimeScheduler
    private(set) var lines: [String] = []
    private(set) var subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand?
    var demandPerValue: Subscribers.Demand
    /// The demand returned for a value, when it depends on the value (`demandPerValue` otherwise).
    var answer: ((Input) -> Subscribers.Demand)?
    /// Runs inside `receive(_:)`, for re-entrant requests and cancels.
    var onValue: ((Input) -> Void)?

    init(
        scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) {
        self.scheduler = scheduler
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    private var instant: String { "\(VirtualTime.Stride(nanoseconds: scheduler.now.nanoseconds))" }

    func receive(subscription: any Subscription) {
        lines.append("\(instant):subscription")
        self.subscription = subscription
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lines.append("\(instant):value(\(input))")
        onValue?(input)
        return answer?(input) ?? demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: lines.append("\(instant):finished")
        case .failure(let error): lines.append("\(instant):failure(\(error))")
        }
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
    func cancel() { subscription?.cancel() }
}

extension Publisher {
    /// Subscribes a new timeline on `scheduler`'s clock and returns it.
    func timeline(
        on scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> TimingTimeline<Output, Failure> {
        let timeline = TimingTimeline<Output, Failure>(
            scheduler: scheduler, initialDemand: initialDemand, demandPerValue: demandPerValue)
        subscribe(timeline)
        return timeline
    }
}

/// Milliseconds of virtual time since the origin.
func virtualMs(_ count: Int) -> VirtualTime { VirtualTime.zero.advanced(by: .milliseconds(count)) }

/// A subject handed to a sending thread (subjects are thread-safe; Combine's API does not say so).
struct SendingSubject: @unchecked Sendable {
    let subject = PassthroughSubject<Int, Never>()
    func send(_ value: Int) { subject.send(value) }
    func finish() { subject.send(completion: .finished) }
}
