// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// A subscriber that records what it receives along virtual time. Written once and compiled against
// each implementation (see VirtualTime.swift).
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// What a `TimelineRecorder` asks for: `initial` when subscribed, `perValue` after each value.
public struct DemandScript: Sendable {
    /// Asked for when the subscription comes (`.none`: nothing).
    public var initial: Subscribers.Demand
    /// Returned from each value's `receive`.
    public var perValue: Subscribers.Demand

    /// Asks for `initial` when subscribed and `perValue` after each value.
    public init(initial: Subscribers.Demand, perValue: Subscribers.Demand = .none) {
        self.initial = initial
        self.perValue = perValue
    }

    /// Everything, at once.
    public static let unlimited = DemandScript(initial: .unlimited)
    /// One value at a time.
    public static let oneByOne = DemandScript(initial: .max(1), perValue: .max(1))
}

/// A subscriber that records every event with the virtual time it came at, asking for demand as
/// a script says, and that notices a value beyond the demand it asked for.
///
/// Subscribe it to a publisher (`publisher.subscribe(recorder)`, or `publisher.recordTimeline(...)`),
/// advance the scheduler, then read `events`, `values`, `completion`, or the timeline as a marble
/// diagram (`diagram(frame:)`). `difference(from:)` says how the events differ from an expected
/// list, one line per event, for a test's failure message. Drive it from one thread.
public final class TimelineRecorder<Input, Failure: Error>: Subscriber, Cancellable {
    private let clock: () -> VirtualTime
    private let script: DemandScript
    private var subscription: (any Subscription)?
    private var outstanding = Subscribers.Demand.none

    /// Every event, with the virtual time it came at.
    public private(set) var events: [TimedEvent<Input, Failure>] = []
    /// Values that came when the recorder had no demand left: each is a broken rule upstream.
    public private(set) var valuesBeyondDemand = 0

    /// A recorder reading the time from `scheduler` and asking for demand as `demand` says.
    public init(scheduler: VirtualTimeScheduler, demand: DemandScript = .unlimited) {
        clock = { scheduler.now }
        script = demand
    }

    public func receive(subscription: any Subscription) {
        events.append(TimedEvent(clock(), .subscription))
        guard self.subscription == nil else { return subscription.cancel() }
        self.subscription = subscription
        if script.initial > 0 { request(script.initial) }
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        events.append(TimedEvent(clock(), .value(input)))
        if outstanding == .none { valuesBeyondDemand += 1 } else { outstanding -= 1 }
        outstanding += script.perValue
        return script.perValue
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: events.append(TimedEvent(clock(), .finished))
        case .failure(let error): events.append(TimedEvent(clock(), .failure(error)))
        }
        subscription = nil
    }

    /// Asks for more, from outside.
    public func request(_ demand: Subscribers.Demand) {
        outstanding += demand
        subscription?.request(demand)
    }

    public func cancel() {
        subscription?.cancel()
        subscription = nil
    }

    /// The values received, in order.
    public var values: [Input] { events.compactMap { if case .value(let value) = $0.event { value } else { nil } } }

    /// The completion, once it came.
    public var completion: Subscribers.Completion<Failure>? {
        events.lazy.compactMap {
            switch $0.event {
            case .finished: .finished
            case .failure(let error): .failure(error)
            default: nil
            }
        }.first
    }

    /// The events as a marble diagram from `start`, one character per `frame`.
    public func diagram(
        start: VirtualTime = .zero, frame: VirtualTime.Stride = .milliseconds(1), symbol: (Input) -> Character
    ) -> String {
        Marbles.diagram(events, start: start, frame: frame, symbol: symbol)
    }

    /// How the recorded events differ from `expected`, line by line (`-` expected, `+` recorded),
    /// or nil when they are the same.
    public func difference(from expected: [TimedEvent<Input, Failure>]) -> String? {
        let recorded = events.map(\.description)
        let wanted = expected.map(\.description)
        guard recorded != wanted else { return nil }
        var lines: [String] = []
        for index in 0..<max(recorded.count, wanted.count) {
            let a = index < wanted.count ? wanted[index] : nil
            let b = index < recorded.count ? recorded[index] : nil
            if a == b {
                lines.append("  \(a!)")
            } else {
                if let a { lines.append("- \(a)") }
                if let b { lines.append("+ \(b)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension TimelineRecorder where Input == Character {
    /// The events as a marble diagram, each value being its own character.
    public func diagram(start: VirtualTime = .zero, frame: VirtualTime.Stride = .milliseconds(1)) -> String {
        diagram(start: start, frame: frame) { $0 }
    }
}

extension Publisher {
    /// Subscribes a new `TimelineRecorder` on `scheduler`'s clock and returns it.
    public func recordTimeline(
        on scheduler: VirtualTimeScheduler, demand: DemandScript = .unlimited
    ) -> TimelineRecorder<Output, Failure> {
        let recorder = TimelineRecorder<Output, Failure>(scheduler: scheduler, demand: demand)
        subscribe(recorder)
        return recorder
    }
}
