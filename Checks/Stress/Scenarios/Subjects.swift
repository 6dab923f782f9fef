// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import StressKit
import Synchronization

// Scenarios on the subjects' own state: current values and completion racing sends and
// subscriptions (the list is in Scenarios.swift).
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Four threads publish through a CurrentValueSubject (two set `value`, two call `send`) while two
/// threads attach subscribers (unlimited; none then request from outside; self-cancelling), read
/// `value`, and cancel.
@Sendable func currentValueSetsRacingSubscribers(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    // The initial value is "producer P, seq 0".
    let subject = CurrentValueSubject<Int, Never>(Tag.make(producer: P, seq: 0))
    let shared = Shared(subject)
    let stable = Probe("stable subscriber, unlimited", producers: P + 1, contiguous: true, firstSeq: 0)
    subject.subscribe(ProbeSubscriber<Never>(stable, initial: nil))

    let churn = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    let badReads = Counter()
    runThreads(P + 2) { index in
        let subject = shared.value
        if index < P {
            for seq in 0..<perProducer {
                let value = Tag.make(producer: index, seq: seq)
                if index < 2 { subject.value = value } else { subject.send(value) }
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
            return
        }
        var rng = FastRandom(seed: UInt64(index) &* 0x1234_5677)
        var k = 0
        while !finished() {
            let variant = (k + index) % 3
            let tag = "c\(index - P)#\(k)"
            let probe: Probe
            let subscriber: ProbeSubscriber<Never>
            switch variant {
            case 0:
                probe = Probe("\(tag) unlimited, cancelled from outside", producers: P + 1, contiguous: true)
                subscriber = ProbeSubscriber<Never>(probe, initial: nil)
            case 1:
                probe = Probe("\(tag) no demand at first, then max(2) from outside, +1 per value", producers: P + 1)
                subscriber = ProbeSubscriber<Never>(probe, initial: 0, perValue: 1)
            default:
                let after = 1 + Int(rng.next() % 50)
                probe = Probe(
                    "\(tag) unlimited, cancels itself inside receive after \(after)", producers: P + 1, contiguous: true
                )
                subscriber = ProbeSubscriber<Never>(probe, initial: nil, cancelAfter: after)
            }
            churn.append(probe)
            subject.subscribe(subscriber)
            if variant == 1 {
                jitter(&rng, 8)
                subscriber.request(2)
            }
            let read = subject.value
            if Tag.producer(read) > P || Tag.seq(read) >= perProducer { badReads.add(1) }
            waitUntil(probe, received: Int(rng.next() % 100), unless: finished, limit: 500)
            subscriber.cancel()
            k += 1
        }
    }
    let final = subject.value
    subject.send(completion: .finished)

    var violations: [String] = []
    var expected = Array(repeating: perProducer, count: P)
    expected.append(1)
    violations += stable.check(perProducer: expected, terminals: 1...1)
    if Tag.producer(final) >= P || Tag.seq(final) != perProducer - 1 {
        violations.append(
            "[value] final value is producer \(Tag.producer(final)) seq \(Tag.seq(final)), expected some producer's last (seq \(perProducer - 1))"
        )
    }
    if badReads.value > 0 { violations.append("[value] \(badReads.value) reads of `value` returned a value never set") }
    violations += churn.all.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 2, violations: violations,
        notes: "\(churn.all.count) subscribers attached, asked and cancelled meanwhile")
}

/// Rounds: four threads send while two threads race to complete the subject (one `.finished`,
/// one `.failure`), and one of them attaches a late subscriber just before. Every subscriber gets
/// exactly one terminal event and nothing after it, and what it got of each producer is a prefix
/// of that producer's sequence (no gaps: a send that returned before a later delivered one was
/// delivered too).
@Sendable func completionRacingSends(scale: Int) -> StressOutcome {
    let P = producerCount
    let rounds = max(2, min(50, scale / 20_000))
    let perProducer = max(1, scale / (rounds * P))
    let sent = Counter()
    var violations: [String] = []
    for round in 0..<rounds {
        let subject = PassthroughSubject<Int, StressError>()
        let shared = Shared(subject)
        let a = Probe("round \(round) unlimited", producers: P, contiguous: true, firstSeq: 0)
        subject.subscribe(ProbeSubscriber<StressError>(a, initial: nil))
        let b = Probe("round \(round) map/filter/handleEvents sink", producers: P, contiguous: true, firstSeq: 0)
        let bSink = probeSink(subject.map { $0 }.filter { _ in true }.handleEvents(), b)
        let c = Probe("round \(round) max(8), +1 per value", producers: P)
        subject.subscribe(ProbeSubscriber<StressError>(c, initial: 8, perValue: 1))
        let late = Probe("round \(round) attached while completing", producers: P, contiguous: true)
        runThreads(P + 2) { index in
            let subject = shared.value
            var rng = FastRandom(seed: UInt64(round * 16 + index + 1))
            if index < P {
                for seq in 0..<perProducer { subject.send(Tag.make(producer: index, seq: seq)) }
                sent.add(perProducer)
                return
            }
            // Complete somewhere in the first half of the sends.
            let target = Int(rng.next() % UInt64(max(1, perProducer / 2)))
            waitUntil(a, received: target, unless: { false }, limit: 200_000)
            if index == P {
                subject.subscribe(ProbeSubscriber<StressError>(late, initial: nil))
                subject.send(completion: .finished)
            } else {
                subject.send(completion: .failure(.planted))
            }
        }
        withExtendedLifetime(bSink) {}
        for probe in [a, b, c, late] { violations += probe.check(terminals: 1...1) }
        if violations.count > 12 { break }
    }
    return StressOutcome(
        events: sent.value, threads: P + 2, violations: violations,
        notes: "\(rounds) rounds, each completed by two racing threads")
}
