import StressKit

// Scenarios on SluiceExt: ReplaySubject, share(replay:), withLatestFrom and the relays, with
// subscribers attaching and cancelling while values are sent (the list is in Scenarios.swift).
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceExt
#else
import Sluice
import SluiceExt
#endif

/// Attaches subscribers to `publisher` until `finished`, and cancels them: from outside after some
/// values, or from inside `receive`. Each has unlimited demand, so it must see, from each producer,
/// an unbroken run of values from the first it sees (`contiguous`). Returns the probes.
private func churn<P: Publisher>(
    _ publisher: P, producers: Int, thread: Int, until finished: @Sendable () -> Bool
) -> [Probe] where P.Output == Int {
    var rng = FastRandom(seed: UInt64(thread + 7) &* 0x9E37_79B9)
    var probes: [Probe] = []
    while !finished() {
        let k = probes.count
        let after = 1 + Int(rng.next() % 100)
        let inside = (k + thread) % 2 == 0
        let probe = Probe(
            "churn \(thread)#\(k) (unlimited, \(inside ? "cancels itself after \(after)" : "cancelled from outside"))",
            producers: producers, contiguous: true)
        probes.append(probe)
        let subscriber = ProbeSubscriber<P.Failure>(probe, initial: nil, cancelAfter: inside ? after : nil)
        publisher.subscribe(subscriber)
        waitUntil(probe, received: after, unless: finished)
        subscriber.cancel()
    }
    return probes
}

/// Four threads send into a ReplaySubject(bufferSize: 3) while two threads attach and cancel
/// subscribers. A late subscriber gets the last values, then live ones: from each producer an
/// unbroken run (a value replayed and delivered live, or neither, would break it). A subscriber
/// with demand from another thread loses nothing either: what it has not asked for waits.
@Sendable func replaySubjectSubscribeRacingSend(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    let shared = Shared(subject)
    let stable = Probe("stable subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    subject.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let limitedProbe = Probe("subscriber with demand from another thread", producers: P, contiguous: true, firstSeq: 0)
    let limited = ProbeSubscriber<Never>(limitedProbe, initial: 8)
    subject.subscribe(limited)
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 3) { index in
        let subject = shared.value
        if index < P {
            for seq in 0..<perProducer {
                subject.send(Tag.make(producer: index, seq: seq))
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else if index == P {
            while !finished() {
                if limitedProbe.granted - limitedProbe.received < 4 { limited.request(16) } else { spinPause() }
            }
        } else {
            for probe in churn(subject, producers: P, thread: index, until: finished) { churned.append(probe) }
        }
    }
    // What the limited subscriber has not asked for is still waiting: ask for it, then complete.
    limited.request(P * perProducer)
    subject.send(completion: .finished)
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    violations += limitedProbe.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 3, violations: violations,
        notes: "\(probes.count) subscribers attached and cancelled meanwhile")
}

/// Four threads send into a subject shared by `share(replay: 2)`: a first subscriber keeps the
/// connection while two threads attach and cancel others, each of which joins with the last two
/// values and must see unbroken runs after them.
@Sendable func shareReplaySubscribeRacingSend(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share(replay: 2)
    let stable = Probe("first subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    shared.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let box = Shared((upstream, shared))
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 2) { index in
        let (upstream, shared) = box.value
        if index < P {
            for seq in 0..<perProducer {
                upstream.send(Tag.make(producer: index, seq: seq))
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else {
            for probe in churn(shared, producers: P, thread: index, until: finished) { churned.append(probe) }
        }
    }
    upstream.send(completion: .finished)
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 2, violations: violations,
        notes: "\(probes.count) subscribers joined and left the shared stream meanwhile")
}

/// Rounds: two threads send into the upstream of `withLatestFrom` while two threads send into its
/// other publisher, then the other one fails while the upstream is still sending. Every value sent
/// before the failure started arrives once, in each producer's order, then exactly one failure,
/// and nothing after it.
@Sendable func withLatestFromRacingOther(scale: Int) -> StressOutcome {
    let producers = 2
    let rounds = max(1, scale / 2_000)
    let perProducer = max(1, scale / (rounds * producers))
    var violations: [String] = []
    for round in 0..<rounds {
        let upstream = PassthroughSubject<Int, StressError>()
        let other = PassthroughSubject<Int, StressError>()
        let probe = Probe("round \(round): values paired with the latest", producers: producers, contiguous: true)
        let subscriber = ProbeSubscriber<StressError>(probe, initial: nil)
        upstream.withLatestFrom(other) { value, _ in value }.subscribe(subscriber)
        other.send(0)
        let box = Shared((upstream, other))
        let sent = Counter()
        runThreads(producers + 2) { index in
            let (upstream, other) = box.value
            if index < producers {
                for seq in 0..<perProducer {
                    upstream.send(Tag.make(producer: index, seq: seq))
                    sent.add(1)
                }
            } else if index == producers {
                for value in 0..<perProducer { other.send(value) }
            } else {
                while sent.value < producers * perProducer / 2 { spinPause() }
                other.send(completion: .failure(.planted))
            }
        }
        violations += probe.check(terminals: 1...1, failures: 1...1)
    }
    return StressOutcome(
        events: rounds * producers * perProducer, threads: producers + 2, violations: violations,
        notes: "\(rounds) rounds, each ended by the other publisher's failure")
}

/// Four threads feed a PassthroughRelay and a CurrentValueRelay while two threads attach and
/// cancel subscribers. A relay never completes: no subscriber sees a terminal event.
@Sendable func relaysAcceptRacingSubscribers(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let passthrough = PassthroughRelay<Int>()
    let current = CurrentValueRelay(Tag.make(producer: P, seq: 0))
    let stable = Probe("stable passthrough subscriber", producers: P, contiguous: true, firstSeq: 0)
    passthrough.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let box = Shared((passthrough, current))
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 2) { index in
        let (passthrough, current) = box.value
        if index < P {
            for seq in 0..<perProducer {
                let value = Tag.make(producer: index, seq: seq)
                passthrough.accept(value)
                current.accept(value)
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else if index == P {
            for probe in churn(passthrough, producers: P, thread: index, until: finished) { churned.append(probe) }
        } else {
            for probe in churn(current, producers: P + 1, thread: index, until: finished) { churned.append(probe) }
        }
    }
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 0...0)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...0) }
    return StressOutcome(
        events: 2 * P * perProducer, threads: P + 2, violations: violations,
        notes: "\(probes.count) subscribers attached and cancelled meanwhile")
}
