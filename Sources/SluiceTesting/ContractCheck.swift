// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The publisher contract, checked: scripted subscribers run against a factory of the publisher
// (or the operator) under test, from one thread and from several, and each rule says whether it
// held, with the trace that broke it. Written once and compiled against each implementation (see
// VirtualTime.swift).
import Foundation

#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// Checks the publishers `makePublisher` makes (a fresh one per scripted subscriber) against
/// every rule of the contract that applies to a publisher, and the `promises` it makes (among
/// `PublisherRule.promises`), and reports each rule.
///
/// The publisher is expected to deliver synchronously (from `subscribe` and `request`), as
/// sequences, `Just`, fulfilled `Future`s and operators over them do; for one that delivers later,
/// see `checkContract(of:delivering:promising:)`.
public func checkContract<P: Publisher>(of makePublisher: () -> P, promising promises: [PublisherRule] = [])
    -> ContractReport
{
    checkContract(of: makePublisher, delivering: .synchronous, promising: promises)
}

/// Checks the publishers `makePublisher` makes, which deliver as `delivery` says: for a publisher
/// that delivers later (on a scheduler or another thread), the check waits for each stream to end
/// or fall quiet, and a cancel must stop delivery within the time `delivery` allows.
public func checkContract<P: Publisher>(
    of makePublisher: () -> P, delivering delivery: Delivery, promising promises: [PublisherRule] = []
) -> ContractReport {
    let rules = applicableRules(operator: false, promises: promises)
    return withoutActuallyEscaping(makePublisher) { makePublisher in
        var check = ContractCheck(rules: rules, delivery: delivery) { _, _ in (makePublisher(), nil) }
        return check.run()
    }
}

/// Checks the subjects `makeSubject` makes: after each scripted subscriber subscribes (and asks
/// for what it asks for), the check sends `values` into the subject, then `.finished`. For the
/// promises, the values go to subscribers that are all there; ``PublisherRule/finishes`` and
/// ``PublisherRule/replaysLatest`` are judged before the completion is sent.
public func checkContract<S: Subject>(
    ofSubject makeSubject: () -> S, sending values: [S.Output], promising promises: [PublisherRule] = []
) -> ContractReport {
    let rules = applicableRules(operator: false, promises: promises)
    return withoutActuallyEscaping(makeSubject) { makeSubject in
        var check = ContractCheck(rules: rules, delivery: .synchronous) { _, _ in (makeSubject(), nil) }
        check.drive = { subject, finishing in
            for value in values { subject.send(value) }
            if finishing { subject.send(completion: .finished) }
        }
        return check.run()
    }
}

/// Checks an operator: `makeOperator` applies it to a `ContractUpstream` that plays `values`,
/// then finishes, and the result is checked against every rule of the contract, the rules on what
/// an operator sends upstream included.
public func checkContract<Output, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Never>) -> P, feeding values: [Output],
    upstreamDemand: UpstreamDemand = .withinDownstreamDemand, promising promises: [PublisherRule] = []
) -> ContractReport {
    checkOperator(
        makeOperator, values: values, failure: nil, delivery: .synchronous, upstreamDemand: upstreamDemand,
        promises: promises)
}

/// Checks an operator that delivers as `delivery` says (later, on a scheduler or another thread,
/// as `receive(on:)` does), over an upstream that plays `values`, then finishes.
public func checkContract<Output, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Never>) -> P, feeding values: [Output],
    delivering delivery: Delivery, upstreamDemand: UpstreamDemand = .withinDownstreamDemand,
    promising promises: [PublisherRule] = []
) -> ContractReport {
    checkOperator(
        makeOperator, values: values, failure: nil, delivery: delivery, upstreamDemand: upstreamDemand,
        promises: promises)
}

/// Checks an operator over an upstream that plays `values`, then fails with `failure`.
public func checkContract<Output, Failure: Error, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Failure>) -> P, feeding values: [Output],
    failingWith failure: Failure, upstreamDemand: UpstreamDemand = .withinDownstreamDemand,
    promising promises: [PublisherRule] = []
) -> ContractReport {
    checkOperator(
        makeOperator, values: values, failure: failure, delivery: .synchronous, upstreamDemand: upstreamDemand,
        promises: promises)
}

/// The rules a check applies: the contract's, the ones on upstream for an operator (upstream demand
/// when it is declared), and the promises made.
private func applicableRules(operator: Bool, upstreamDemand: UpstreamDemand? = nil, promises: [PublisherRule])
    -> [PublisherRule]
{
    for promise in promises where !PublisherRule.promises.contains(promise) {
        fatalError("checkContract: \(promise) is a rule of the contract, not a promise (see PublisherRule.promises)")
    }
    return PublisherRule.allCases.filter { rule in
        switch rule {
        case .cancelReachesUpstream: `operator`
        case .upstreamDemandFollowsDownstream: upstreamDemand == .withinDownstreamDemand
        default: !PublisherRule.promises.contains(rule) || promises.contains(rule)
        }
    }
}

private func checkOperator<Output, Failure: Error, P: Publisher>(
    _ makeOperator: (ContractUpstream<Output, Failure>) -> P, values: [Output], failure: Failure?,
    delivery: Delivery, upstreamDemand: UpstreamDemand, promises: [PublisherRule]
) -> ContractReport {
    let rules = applicableRules(operator: true, upstreamDemand: upstreamDemand, promises: promises)
    return withoutActuallyEscaping(makeOperator) { makeOperator in
        var check = ContractCheck(rules: rules, delivery: delivery) { trace, count in
            let ledger = UpstreamLedger(trace: trace)
            let played = count.map { count in (0..<count).map { values[$0 % values.count] } } ?? values
            return (makeOperator(ContractUpstream(values: played, failure: failure, ledger: ledger)), ledger)
        }
        return check.run()
    }
}

/// One check: the runs that judge each rule, and what they found.
private struct ContractCheck<P: Publisher> {
    typealias Probe = ContractProbe<P.Output, P.Failure>

    /// A publisher under check subscribed by a probe, and its upstream's ledger if it is an operator.
    struct Run {
        let publisher: P
        let probe: Probe
        let ledger: UpstreamLedger?

        /// Every rule the run broke so far, the probe's and the upstream's.
        var broken: [PublisherRule: String] {
            var broken = probe.broken.merging(ledger?.broken ?? [:]) { first, _ in first }
            if probe.subscriptions == 0 { broken[.subscriptionFirstAndOnce] = "no subscription came" }
            return broken
        }
    }

    /// How many values the run on synchronous demand asks an operator's upstream to play (with
    /// 10^5, an operator's whole check takes about 0.3 s in a debug build).
    static var longRun: Int { 100_000 }
    /// The same, when the values are asked for with `request` from inside `receive`: a recursion
    /// shows in the stack's growth within the first thousand values.
    static var longRunAskingFromReceive: Int { 10_000 }
    /// How many threads ask at once, and how many times each.
    static var threads: Int { 4 }
    static var requestsPerThread: Int { 100 }

    let rules: [PublisherRule]
    let delivery: Delivery
    /// For a subject: sends the values into it, and the completion if asked to.
    var drive: ((P, _ finishing: Bool) -> Void)?
    /// A publisher under check, and its upstream's ledger; given a count, an operator's upstream
    /// plays that many values (its values over and over).
    let make: (ContractTrace, Int?) -> (P, UpstreamLedger?)
    var findings: [PublisherRule: (why: String, trace: [String])] = [:]

    init(
        rules: [PublisherRule], delivery: Delivery, make: @escaping (ContractTrace, Int?) -> (P, UpstreamLedger?)
    ) {
        self.rules = rules
        self.delivery = delivery
        self.make = make
    }

    /// A probe following `steps`, allowed what is on its way after a cancel as `delivery` says.
    func probe(_ steps: DemandSteps, trace: ContractTrace, label: String = "") -> Probe {
        var steps = steps
        if case .asynchronous(let within) = delivery { steps.cancelGrace = UInt64(within * 1e9) }
        return Probe(steps, trace: trace, label: label)
    }

    /// A run of a fresh publisher; a subject is sent its values once the probe subscribed, and the
    /// completion if `finishing`.
    func start(_ steps: DemandSteps, count: Int? = nil, finishing: Bool = true) -> Run {
        let trace = ContractTrace()
        let (publisher, ledger) = make(trace, count)
        let probe = probe(steps, trace: trace)
        if rules.contains(.upstreamDemandFollowsDownstream) {
            ledger?.downstreamOutstanding = { [weak probe] in probe?.outstanding }
        }
        publisher.subscribe(probe)
        drive?(publisher, finishing)
        settle(probe)
        return Run(publisher: publisher, probe: probe, ledger: ledger)
    }

    /// A second subscriber to the publisher of `run`, after the first, writing into the same trace.
    func subscribeAgain(_ run: Run, _ steps: DemandSteps) -> Probe {
        let probe = probe(steps, trace: run.probe.trace, label: "second: ")
        run.publisher.subscribe(probe)
        settle(probe)
        return probe
    }

    /// When the publisher delivers later, waits until its subscription came and then nothing
    /// reaches `probe` for the time `delivery` gives (or 20 times that has passed, for a publisher
    /// that never falls quiet).
    func settle(_ probe: Probe) {
        guard case .asynchronous(let within) = delivery else { return }
        var seen = probe.events
        for _ in 0..<20 {
            Thread.sleep(forTimeInterval: within)
            let now = probe.events
            if now == seen, probe.subscriptions > 0 { return }
            seen = now
        }
    }

    /// Whether `released` becomes true: at once when the publisher delivers synchronously, within a
    /// second more than `delivery` gives when it delivers later (work it scheduled may hold the
    /// subscriber until it runs).
    func eventually(_ released: () -> Bool) -> Bool {
        guard case .asynchronous(let within) = delivery else { return released() }
        let deadline = Date(timeIntervalSinceNow: within + 1)
        while !released() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    mutating func note(_ rule: PublisherRule, _ why: String, _ run: Run) {
        if rules.contains(rule), findings[rule] == nil { findings[rule] = (why, run.probe.trace.lines) }
    }

    mutating func note(_ run: Run, judging judged: [PublisherRule]) {
        for (rule, why) in run.broken where judged.contains(rule) { note(rule, why, run) }
    }

    mutating func run() -> ContractReport {
        // Demand scripts: none at first, one at a time (returned from `receive`, then asked for with
        // `request` from inside it), a burst then more, everything.
        let scripts = [
            DemandSteps(initial: .none), DemandSteps(initial: .max(1), perValue: .max(1)),
            DemandSteps(initial: .max(1), perValue: .max(1), asksFromReceive: true),
            DemandSteps(initial: .max(3)), DemandSteps(initial: .unlimited),
        ]
        for steps in scripts {
            let run = start(steps)
            if steps.initial == .max(3) {
                run.probe.request(.max(2))
                settle(run.probe)
            }
            note(
                run,
                judging: [
                    .subscriptionFirstAndOnce, .demandIsRespected, .oneCompletion, .nothingAfterCompletion,
                    .upstreamDemandFollowsDownstream,
                ])
        }
        // A cancel from inside the first value's receive, and one before anything was asked for.
        for steps in [DemandSteps(initial: .max(1), perValue: .max(1), cancelAfter: 1), DemandSteps(initial: .none)] {
            checkCancel(steps)
        }
        // `.max(1)` returned from each value, then asked for with `request` from inside each
        // `receive`, counting how deep `receive` calls nest.
        for asksFromReceive in [false, true] {
            let steps = DemandSteps(
                initial: .max(1), perValue: .max(1), asksFromReceive: asksFromReceive, measuresStack: true)
            let count = asksFromReceive ? Self.longRunAskingFromReceive : Self.longRun
            note(start(steps, count: count), judging: [.synchronousDemandIsBounded])
        }
        let skipped = findings.isEmpty ? nil : "checked only when every other rule holds"
        if findings.isEmpty { checkThreads() }
        checkPromises()
        return ContractReport(
            findings: rules.map { rule in
                ContractReport.Finding(
                    rule: rule, violation: findings[rule]?.why, trace: findings[rule]?.trace ?? [],
                    skipped: rule == .concurrentRequestAndCancel ? skipped : nil)
            })
    }

    /// The promises made: with unlimited demand it finishes; a second subscriber, after the first,
    /// gets the same events (cold), or the latest value first (replays).
    mutating func checkPromises() {
        guard !PublisherRule.promises.allSatisfy({ !rules.contains($0) }) else { return }
        let first = start(DemandSteps(initial: .unlimited), finishing: false)
        if first.probe.completions == 0, drive == nil {
            note(.finishes, "with unlimited demand, no completion came", first)
        }
        let second = subscribeAgain(first, DemandSteps(initial: .unlimited))
        let (seen, seenAgain) = (first.probe.received, second.received)
        if seenAgain != seen {
            note(.isCold, "the second subscriber got \(seenAgain), the first \(seen)", first)
        }
        if let latest = seen.last(where: { $0.hasPrefix("value(") }), seenAgain.first != latest {
            let got = seenAgain.first ?? "nothing"
            note(.replaysLatest, "the second subscriber got \(got) first, not the latest value, \(latest)", first)
        }
        if let drive {
            // A subject ends when it is sent its completion.
            drive(first.publisher, true)
            if first.probe.completions == 0 { note(.finishes, "sent its completion, no completion came", first) }
        }
        if rules.contains(.servesSubscribersInOrder) { checkOrder() }
    }

    /// Three subscribers, then the values (a subject's): each event reaches all three, in the
    /// order they subscribed, before the next event reaches any.
    mutating func checkOrder() {
        let trace = ContractTrace(keeping: .max)
        let (publisher, _) = make(trace, nil)
        let labels = ["", "second: ", "third: "]
        let probes = labels.map { probe(DemandSteps(initial: .unlimited), trace: trace, label: $0) }
        for probe in probes { publisher.subscribe(probe) }
        drive?(publisher, true)
        settle(probes[0])
        let events = trace.lines.filter { line in
            ["value(", "finished", "failure("].contains { line.hasPrefix($0) || line.contains(": " + $0) }
        }
        let inOrder = probes[0].received.flatMap { event in labels.map { $0 + event } }
        if events != inOrder {
            let shown = events.prefix(ContractTrace.limit)
            let why = "the events reached three subscribers as \(Array(shown)), not each in the order they subscribed"
            if findings[.servesSubscribersInOrder] == nil {
                findings[.servesSubscribersInOrder] = (why, Array(trace.lines.prefix(ContractTrace.limit)))
            }
        }
    }

    /// After a cancel nothing comes, the publisher lets go of the probe, and an operator cancels upstream.
    mutating func checkCancel(_ steps: DemandSteps) {
        var publisher: P?
        weak var released: Probe?
        var releaseTrace: [String]?
        do {
            let run = start(steps)
            publisher = run.publisher
            released = run.probe
            if steps.cancelAfter == nil { run.probe.cancel() }
            run.probe.request(.max(1))
            settle(run.probe)
            note(run, judging: [.cancelStopsDelivery])
            if run.probe.cancelled {
                if let ledger = run.ledger, ledger.subscriptions > 0, !ledger.completed, ledger.cancels == 0,
                    run.probe.completions == 0
                {
                    note(.cancelReachesUpstream, "the upstream subscription was not cancelled", run)
                }
                run.probe.dropSubscription()
                releaseTrace = run.probe.trace.lines
            }
        }
        withExtendedLifetime(publisher) {
            if let releaseTrace, !eventually({ released == nil }), rules.contains(.cancelReleasesSubscriber),
                findings[.cancelReleasesSubscriber] == nil
            {
                findings[.cancelReleasesSubscriber] = (
                    "the publisher still holds the subscriber after its cancel", releaseTrace
                )
            }
        }
    }

    /// Requests from several threads at once are all served (when one thread asking as often got
    /// all it asked for) and the stream ends as it does from one thread (when that one ran out):
    /// what comes in between may differ (combineLatest's pairs depend on how demand arrives). A
    /// cancel racing them leaves nothing to come once every thread has returned.
    mutating func checkThreads() {
        let (threads, requests) = (Self.threads, Self.requestsPerThread)
        let asked = threads * requests
        let alone = start(DemandSteps(initial: .none))
        for _ in 0..<asked { alone.probe.request(.max(1)) }
        settle(alone.probe)
        let expected = (values: alone.probe.values, completions: alone.probe.completions)
        let run = start(DemandSteps(initial: .none))
        onThreads(threads) { [probe = run.probe] _ in
            for _ in 0..<requests { probe.request(.max(1)) }
        }
        settle(run.probe)
        if let broken = run.broken.first {
            note(
                .concurrentRequestAndCancel,
                "with requests from \(threads) threads, \(broken.key) was broken: \(broken.value)", run)
        } else if expected.values == asked, run.probe.values != asked {
            // The publisher had more to give than was asked for: every request must be served.
            note(
                .concurrentRequestAndCancel,
                "\(threads) threads asked for \(asked) values in all and \(run.probe.values) came "
                    + "(one thread asking as often got all \(asked))", run)
        } else if expected.values < asked, run.probe.completions != expected.completions {
            // It ran out: it must end as it does when one thread asks.
            note(
                .concurrentRequestAndCancel,
                "\(threads) threads asked for \(asked) values in all; \(run.probe.values) came and "
                    + "\(run.probe.completions) completions (from one thread: \(expected.values) and "
                    + "\(expected.completions))", run)
        }
        for _ in 0..<3 {
            let run = start(DemandSteps(initial: .none))
            onThreads(3) { [probe = run.probe] thread in
                for _ in 0..<(thread == 0 ? requests / 2 : requests) { probe.request(.max(1)) }
                if thread == 0 {
                    probe.cancel()
                    probe.cancel()
                }
            }
            settle(run.probe)
            let before = (run.probe.values, run.probe.completions)
            run.probe.request(.max(5))
            settle(run.probe)
            if (run.probe.values, run.probe.completions) != before {
                note(
                    .concurrentRequestAndCancel,
                    "a cancel raced requests from other threads, and after every thread had returned a request still got values",
                    run)
            }
        }
    }
}

/// Runs `body` on `count` threads of their own that start it together, and waits for them all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let arrived = Locked(0)
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        Thread {
            arrived.withLock { $0 += 1 }
            while arrived.withLock({ $0 }) < count { sched_yield() }
            body(index)
            finished.leave()
        }.start()
    }
    finished.wait()
}
