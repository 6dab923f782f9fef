// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization

/// A subscriber for timing tests: records every event with the virtual instant it arrived at, as
/// `"<ms>:<event>"` (for example `"13:2"`, `"22:finished"`, `"4:failure(oops)"`), so a test can
/// assert the exact instant of each value and completion.
///
/// - `initialDemand`: requested when the subscription arrives (`nil`: nothing).
/// - `demandPerValue`: what `receive(_:)` returns.
/// - `onValue`: runs inside `receive(_:)`, for re-entrant calls.
final class InstantRecorder<Input, Failure: Error>: Subscriber {
    private let clock: () -> Int
    private let initialDemand: Subscribers.Demand?
    private let demandPerValue: Subscribers.Demand
    private(set) var log: [String] = []
    private(set) var subscription: (any Subscription)?
    private(set) var subscriptionDescription = ""
    var onValue: ((Input) -> Void)?

    init(
        now: @escaping () -> VirtualTime, initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) {
        clock = { now().nanoseconds / 1_000_000 }
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    func receive(subscription: any Subscription) {
        log.append("\(clock()):subscription")
        subscriptionDescription = String(describing: subscription)
        if self.subscription == nil { self.subscription = subscription }
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.append("\(clock()):\(input)")
        onValue?(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.append("\(clock()):finished")
        case .failure(let error): log.append("\(clock()):failure(\(error))")
        }
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

    func cancel() { subscription?.cancel() }

    /// The log without the subscription entry.
    var events: [String] { log.filter { !$0.hasSuffix(":subscription") } }
}

extension Publisher {
    /// Subscribes a new instant recorder reading `scheduler`'s clock and returns it.
    func recordInstants<S: Scheduler<VirtualTime>>(
        on scheduler: S, initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> InstantRecorder<Output, Failure> {
        let recorder = InstantRecorder<Output, Failure>(
            now: { scheduler.now }, initialDemand: initialDemand, demandPerValue: demandPerValue)
        subscribe(recorder)
        return recorder
    }
}

/// A subscriber for real-thread timing tests: keeps what arrives (with the instant `clock` gives,
/// in nanoseconds), and detects overlapping calls (which serial signals forbid) and anything after
/// the completion.
final class ThreadedTimingRecorder<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    private struct Record: @unchecked Sendable {
        var values: [Input] = []
        var instants: [Int] = []
        var completions: [Subscribers.Completion<Failure>] = []
        var afterCompletion = 0
    }

    private let record = TestLock(Record())
    private let inFlight = Atomic<Bool>(false)
    private let clock: () -> Int
    private let initialDemand: Subscribers.Demand
    let overlaps = Atomic<Int>(0)
    private(set) var subscription: (any Subscription)?

    init(initialDemand: Subscribers.Demand = .unlimited, clock: @escaping () -> Int = { 0 }) {
        self.initialDemand = initialDemand
        self.clock = clock
    }

    private func enter() { if inFlight.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) } }
    private func leave() { inFlight.store(false, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        let instant = clock()
        record.withLock { record in
            if !record.completions.isEmpty { record.afterCompletion += 1 }
            record.values.append(input)
            record.instants.append(instant)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        defer { leave() }
        record.withLock { $0.completions.append(completion) }
    }

    var values: [Input] { record.withLock { $0.values } }
    var instants: [Int] { record.withLock { $0.instants } }
    var completionCount: Int { record.withLock { $0.completions.count } }
    var afterCompletion: Int { record.withLock { $0.afterCompletion } }
}

/// Test doubles cross threads on purpose here (Combine's types are not `Sendable`).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
    init(value: Value) { self.value = value }
}

/// A list of integers any thread may append to.
final class SharedInts: Sendable {
    private let items = TestLock<[Int]>([])
    init() {}
    func append(_ item: Int) { items.withLock { $0.append(item) } }
    var all: [Int] { items.withLock { $0 } }
}

/// A virtual-time scheduler that writes down how an operator calls it, to check that the operator
/// schedules as Combine does (which method, for when, with which tolerance and options). Its options
/// are `Int`s, so a test can see them passed through; its minimum tolerance is 7 ns, so a test can
/// see where it is used. With `honoursCancel: false` its repeating actions cannot be cancelled, like
/// a scheduler that returns a cancellable that does nothing.
///
/// Each call is logged as `asap options:<o>`, `after <ms> tolerance:<ns> options:<o>` or
/// `every <ms> interval:<ms> tolerance:<ns> options:<o>`; `now` is not logged.
final class RecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = Int

    let base = TestScheduler<VirtualTime, Int>(now: .zero)
    private let honoursCancel: Bool
    private var kept: [AnyCancellable] = []
    private(set) var calls: [String] = []

    init(honoursCancel: Bool = true) { self.honoursCancel = honoursCancel }

    var now: VirtualTime { base.now }
    var minimumTolerance: VirtualTime.Stride { .nanoseconds(7) }

    private func text(_ options: Int?) -> String { options.map(String.init) ?? "nil" }
    private func text(_ instant: VirtualTime) -> String { "\(instant.nanoseconds / 1_000_000)" }
    private func text(_ stride: VirtualTime.Stride) -> String { "\(stride.nanoseconds)" }

    func schedule(options: Int?, _ action: @escaping () -> Void) {
        calls.append("asap options:\(text(options))")
        base.schedule(options: options, action)
    }

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: Int?, _ action: @escaping () -> Void)
    {
        calls.append("after \(text(date)) tolerance:\(text(tolerance)) options:\(text(options))")
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: Int?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        calls.append(
            "every \(text(date)) interval:\(interval.nanoseconds / 1_000_000) tolerance:\(text(tolerance)) options:\(text(options))"
        )
        let token = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        if honoursCancel { return token }
        // Kept alive here so that it is never cancelled.
        kept.append(AnyCancellable(token))
        return AnyCancellable {}
    }

    func advance(to milliseconds: Int) { base.advance(to: .zero.advanced(by: .milliseconds(milliseconds))) }
}
