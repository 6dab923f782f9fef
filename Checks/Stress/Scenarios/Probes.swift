// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import StressKit
import Synchronization

// What every stress scenario uses: the probe subscriber (StressKit.Probe's eyes inside one
// subscriber), a probed sink, jitter and a bounded wait. The scenarios: Scenarios.swift,
// Combining.swift and Lifetimes.swift.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

enum StressError: Error { case planted }

let producerCount = 4

// MARK: - The subscriber

/// A subscriber that reports everything to a `Probe`, with a demand plan, and that other threads
/// can drive (`request`, `cancel`). `initial`: demand asked for at subscription (`nil` is
/// `.unlimited`, `0` is none); `perValue`: demand returned from each `receive`; `cancelAfter`:
/// cancel from inside `receive` once that many values have arrived.
final class ProbeSubscriber<Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Input = Int

    let probe: Probe
    private let initial: Int?
    private let perValue: Int
    private let cancelAfter: Int?
    private let subscription = Locked<(any Subscription)?>(nil)

    init(_ probe: Probe, initial: Int?, perValue: Int = 0, cancelAfter: Int? = nil) {
        self.probe = probe
        self.initial = initial
        self.perValue = perValue
        self.cancelAfter = cancelAfter
    }

    func receive(subscription: any Subscription) {
        self.subscription.withLock { $0 = subscription }
        if let initial {
            if initial > 0 {
                probe.grant(initial)
                subscription.request(.max(initial))
            }
        } else {
            probe.grant(nil)
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        probe.value(input)
        if let cancelAfter, probe.received == cancelAfter {
            cancel()
            return .none
        }
        if perValue > 0 {
            probe.grant(perValue)
            return .max(perValue)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: probe.terminal(failed: false)
        case .failure: probe.terminal(failed: true)
        }
    }

    /// Asks for `n` more, from whatever thread calls it.
    func request(_ n: Int) {
        guard let subscription = self.subscription.withLock({ $0 }) else { return }
        probe.grant(n)
        subscription.request(.max(n))
    }

    /// Cancels, from whatever thread calls it, then tells the probe that cancel() has returned.
    func cancel() {
        let subscription = self.subscription.withLock { $0 }
        subscription?.cancel()
        probe.markCancelled()
    }
}

/// A sink at the end of a stage chain, reporting to a probe (the sink asks for `.unlimited`).
func probeSink<P: Publisher>(_ publisher: P, _ probe: Probe) -> AnyCancellable where P.Output == Int {
    probe.grant(nil)
    return publisher.sink(
        receiveCompletion: { completion in
            switch completion {
            case .finished: probe.terminal(failed: false)
            case .failure: probe.terminal(failed: true)
            }
        },
        receiveValue: { probe.value($0) }
    )
}

/// Yields a random number of times (0..<max), to vary where a racing action lands.
func jitter(_ rng: inout FastRandom, _ max: UInt64) {
    for _ in 0..<(rng.next() % max) { spinPause() }
}

/// Waits (yielding) until `probe` has received `count` values, `stop` is set, or `limit` yields passed.
func waitUntil(_ probe: Probe, received count: Int, unless stop: () -> Bool, limit: Int = 5_000) {
    var spins = 0
    while probe.received < count, !stop(), spins < limit {
        spins += 1
        spinPause()
    }
}
