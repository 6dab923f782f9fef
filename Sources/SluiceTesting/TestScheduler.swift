// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A virtual-time scheduler for tests. Written once and compiled against each implementation (see
// VirtualTime.swift).
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// A scheduler whose clock moves only when a test moves it.
///
/// Actions scheduled on it are queued with the instant they are due; `advance(by:)`, `advance(to:)` and
/// `run()` run them in order of that instant and, for actions due at the same instant, in the order
/// they were scheduled. While an action runs, `now` is the instant it was due, so an operator that reads
/// `now` (for instance `measureInterval`, `debounce`) sees virtual time. An action may schedule more
/// actions; those due within the advance run in the same advance. Repeating actions reschedule
/// themselves after each run until their cancellable is cancelled.
///
/// With `sameInstantOrder: .shuffled(seed:)` the actions due at one instant run in an order drawn
/// from the seed instead, as a concurrent scheduler (`DispatchQueue.global()`, an `OperationQueue`
/// running several operations) may run them: a deterministic way to check that an operator keeps
/// its order on such a scheduler, as Sluice's operators promise.
///
/// Safe to use from several threads; actions always run on the thread that advances the clock, never
/// under the scheduler's lock.
public final class TestScheduler<SchedulerTimeType, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType: Strideable, SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    // The queue holds caller closures and times of any type; it is touched only under `state`'s
    // mutex and actions run on the advancing thread, hence the unchecked conformances.
    private struct Queued: @unchecked Sendable {
        var due: SchedulerTimeType
        var order: UInt64
        var id: UInt64
        var interval: SchedulerTimeType.Stride?
        var action: () -> Void
    }

    private struct State: ~Copyable, @unchecked Sendable {
        var now: SchedulerTimeType
        var nextOrder: UInt64 = 0
        var nextID: UInt64 = 0
        /// Draws the next action among those due at one instant (`.shuffled`); nil: in schedule order.
        var shuffle: SplitMix?
        /// Sorted by (due, order): the next action to run is first.
        var queue: [Queued] = []

        mutating func enqueue(
            at due: SchedulerTimeType, id: UInt64? = nil, interval: SchedulerTimeType.Stride?,
            _ action: @escaping () -> Void
        ) -> UInt64 {
            let identity =
                id
                ?? {
                    nextID += 1; return nextID
                }()
            nextOrder += 1
            let entry = Queued(due: due, order: nextOrder, id: identity, interval: interval, action: action)
            // Binary search for the first entry due strictly later: equal instants keep schedule order.
            var low = 0
            var high = queue.count
            while low < high {
                let mid = (low + high) / 2
                if queue[mid].due <= due { low = mid + 1 } else { high = mid }
            }
            queue.insert(entry, at: low)
            return identity
        }
    }

    private let state: SchedulerLock<State>

    /// The order in which actions due at the same instant run.
    public enum SameInstantOrder: Sendable, Equatable {
        /// In the order they were scheduled, as a serial scheduler runs them.
        case asScheduled
        /// In an order drawn from `seed`, as a concurrent scheduler may run them.
        case shuffled(seed: UInt64)
    }

    /// A scheduler whose clock starts at `now`, running the actions due at one instant in
    /// `sameInstantOrder`.
    public init(now: SchedulerTimeType, sameInstantOrder: SameInstantOrder = .asScheduled) {
        var initial = State(now: now)
        if case .shuffled(let seed) = sameInstantOrder { initial.shuffle = SplitMix(seed: seed) }
        state = SchedulerLock(initial)
    }

    /// The virtual current instant.
    public var now: SchedulerTimeType { state.withLock { $0.now } }

    /// Virtual time needs no tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// The number of actions waiting to run (a repeating action counts once).
    public var pendingCount: Int { state.withLock { $0.queue.count } }

    /// Queues the action for the current instant: it runs at the next `advance` or `run`.
    public func schedule(options _: SchedulerOptions?, _ action: @escaping () -> Void) {
        state.withLock { state in _ = state.enqueue(at: state.now, interval: nil, action) }
    }

    /// Queues the action for `date`, or for the current instant if `date` has passed.
    public func schedule(
        after date: SchedulerTimeType, tolerance _: SchedulerTimeType.Stride, options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        state.withLock { state in _ = state.enqueue(at: max(date, state.now), interval: nil, action) }
    }

    /// Queues the action for `date` and then every `interval` after it, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance _: SchedulerTimeType.Stride,
        options _: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        guard interval > .nanoseconds(0) else {
            fatalError("TestScheduler: a repeating action needs a positive interval")
        }
        let id = state.withLock { state in state.enqueue(at: max(date, state.now), interval: interval, action) }
        return AnyCancellable { [weak self] in
            self?.state.withLock { state in state.queue.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward by `stride`, running every action due up to the new instant.
    public func advance(by stride: SchedulerTimeType.Stride = .nanoseconds(0)) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant` (never backwards), running every action due up to it (an instant in
    /// the past runs what is due now).
    public func advance(to instant: SchedulerTimeType) {
        let limit = max(instant, now)
        while let action = takeNext(dueBy: limit) {
            action()
        }
        state.withLock { state in state.now = max(state.now, instant) }
    }

    /// Runs actions until none is left, moving the clock to each one's instant. With a repeating
    /// action that is never cancelled this does not return; use `advance` for those.
    public func run() {
        while let action = takeNext(dueBy: nil) {
            action()
        }
    }

    /// Removes the next action due by `limit` (any action if `limit` is nil), moves the clock to its
    /// instant and requeues it if it repeats. The action runs after the lock is released.
    private func takeNext(dueBy limit: SchedulerTimeType?) -> (() -> Void)? {
        state.withLock { state -> Queued? in
            guard var first = state.queue.first else { return nil }
            if let limit, first.due > limit { return nil }
            if state.shuffle != nil {
                let due = first.due
                let sameInstant = state.queue.prefix { $0.due == due }.count
                let pick = Int(state.shuffle!.next() % UInt64(sameInstant))
                first = state.queue.remove(at: pick)
            } else {
                state.queue.removeFirst()
            }
            state.now = max(state.now, first.due)
            if let interval = first.interval {
                _ = state.enqueue(at: first.due.advanced(by: interval), id: first.id, interval: interval, first.action)
            }
            return first
        }?.action
    }
}

extension TestScheduler where SchedulerTimeType == VirtualTime {
    /// A scheduler on virtual time starting at `VirtualTime.zero`, running the actions due at one
    /// instant in `sameInstantOrder`.
    public convenience init(sameInstantOrder: SameInstantOrder = .asScheduled) {
        self.init(now: .zero, sameInstantOrder: sameInstantOrder)
    }
}

/// The scheduler's lock: a pthread mutex rather than `Synchronization.Mutex`, because the thread
/// sanitizer sees through pthread locks but not through `Mutex`'s futex, and reported every
/// `advance` on one thread beside a `schedule` on another as a race in the tests of users who run it.
private final class SchedulerLock<State: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: consuming State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }
}

/// A small seeded generator (SplitMix64), for the shuffled order.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A test scheduler on virtual time, for operators whose scheduler options are irrelevant.
public typealias VirtualTimeScheduler = TestScheduler<VirtualTime, Never>
