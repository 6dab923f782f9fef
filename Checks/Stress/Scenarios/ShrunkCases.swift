// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Shrunk reproductions: the smallest deterministic cases found for invariant failures of the
// stress scenarios (Scenarios.swift), run single-threaded.

import StressKit

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// The smallest cases found for invariant failures of the stress scenarios, deterministic and
/// single-threaded. Each returns its violations (empty is a pass).
public let shrunkCases: [(name: String, run: @Sendable () -> [String])] = [
    ("shrunk.currentValue.askDuringSet", currentValueRequestDuringSet)
]

/// The duplicate that `currentValue.setsRacingSubscribers` finds, without threads: subscriber B
/// has attached to a CurrentValueSubject and not yet asked (it is owed the current value). The
/// value is set to 1; while that value fans out, subscriber A (first in the list) asks for B's
/// demand from inside its receive, which is where a second thread's `request` lands in the racy
/// version. B must receive 1 once: either as the owed current value or as the new value.
@Sendable func currentValueRequestDuringSet() -> [String] {
    let subject = CurrentValueSubject<Int, Never>(0)
    let b = Probe("B: no demand at first, max(2) asked while 1 fans out", producers: 1)
    let bSubscriber = ProbeSubscriber<Never>(b, initial: 0)
    let a = Probe("A: unlimited, asks for B", producers: 1)
    let asked = Flag()
    a.grant(nil)
    let aSink = subject.sink { value in
        a.value(value)
        if value == 1, !asked.isSet {
            asked.set()
            bSubscriber.request(2)
        }
    }
    subject.subscribe(bSubscriber)
    subject.value = 1
    withExtendedLifetime(aSink) {}
    subject.send(completion: .finished)
    return b.check(total: 1, terminals: 1...1) + a.check(total: 2, terminals: 0...0)
}
