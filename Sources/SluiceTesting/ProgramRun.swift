// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// A program of the SluicePrograms language run against one implementation: its source, its
// subscribers and its steps, with a hole where the chain goes, and the trace of everything
// observable, in order: the subscribers' events (`sub`, and `sub2` for the second), what the test
// upstream is asked, and each step. Two things fill the hole: the project's differential
// interpreter (Checks/Differential/Interpreter) with the language's operators, and
// `checkEquivalence` with a user's operator and its specification. Written once and compiled
// against each implementation (see VirtualTime.swift).

import SluicePrograms

#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// What a program's chain is: built over the program's source, and ended with the run's
/// subscribers.
package protocol ProgramChain {
    /// Builds the chain over `head` and ends it with `run.subscribe(_:)`.
    func build<Head: Publisher>(on head: Head, in run: ProgramRun) where Head.Output == Int

    /// Builds a source the kit does not know (SluiceExt's subjects and relays,
    /// `Source.isExtension`): sets the run's drivers and calls `build(on:in:)` with it.
    func buildExtensionSource(_ source: Source, in run: ProgramRun)
}

extension ProgramChain {
    package func buildExtensionSource(_ source: Source, in run: ProgramRun) {
        fatalError("SluiceTesting does not build the source \(source): it is SluiceExt's")
    }
}

/// One run of a program: what the steps drive, the clock, the second subject and the trace.
package final class ProgramRun {
    package let program: Program
    package private(set) var trace: [String] = []
    /// How the steps feed the source; set by whoever builds it.
    package var sendValue: ((Int) -> Void)?
    package var finish: (() -> Void)?
    package var fail: ((TestError) -> Void)?
    /// What the run holds on to until it ends (a promise not yet fulfilled, the test upstream).
    package var keepAlive: [AnyObject] = []
    /// The virtual clock of the timing operators; instants prefix the trace when it is used.
    package let scheduler: VirtualTimeScheduler
    /// The second subject (`Side.other`, `Inner.other`), driven by the `*Other` steps.
    package let other = PassthroughSubject<Int, any Error>()
    private var request: ((Subscribers.Demand) -> Void)?
    private var cancel: (() -> Void)?
    private var cancelSecond: (() -> Void)?
    private let timed: Bool

    private init(program: Program, sameInstantOrder: VirtualTimeScheduler.SameInstantOrder) {
        self.program = program
        scheduler = VirtualTimeScheduler(sameInstantOrder: sameInstantOrder)
        timed = program.usesScheduler
    }

    package func log(_ line: String) { trace.append(timed ? "\(scheduler.now) \(line)" : line) }

    /// Runs the program with `chain` in the hole. `released` tells whether everything the run
    /// built was freed afterwards: every stage reaches the subscribers, which hold the run, so a
    /// subscription, a scheduled action or a subject still holding a stage keeps the run alive.
    /// `sameInstantOrder`: the scheduler's, `.shuffled` to run it as a concurrent scheduler may.
    package static func run(
        _ program: Program, _ chain: some ProgramChain,
        sameInstantOrder: VirtualTimeScheduler.SameInstantOrder = .asScheduled
    ) -> (trace: [String], released: Bool) {
        weak var freed: ProgramRun?
        let trace = {
            let run = ProgramRun(program: program, sameInstantOrder: sameInstantOrder)
            freed = run
            buildSource(program.source, run, chain)
            run.play()
            let trace = run.trace
            run.tearDown()
            return trace
        }()
        return (trace, freed == nil)
    }

    /// Subscribes the program's subscribers to the end of the chain.
    package func subscribe<P: Publisher>(_ end: P) {
        let recorder = Recorder<P.Output, P.Failure>(run: self, script: program.subscriber, label: "sub")
        request = { recorder.request($0) }
        cancel = { recorder.cancel() }
        end.subscribe(recorder)
        if let script = program.secondSubscriber {
            let second = Recorder<P.Output, P.Failure>(run: self, script: script, label: "sub2")
            cancelSecond = { second.cancel() }
            end.subscribe(second)
        }
    }

    private func play() {
        for step in program.steps {
            switch step {
            case .send(let v):
                log("step: send(\(v))")
                sendValue?(v)
            case .finish:
                log("step: finish")
                finish?()
            case .fail(let e):
                log("step: fail(\(e))")
                fail?(e)
            case .request(let d):
                log("step: request(\(d))")
                request?(demand(d))
            case .cancel:
                log("step: cancel")
                cancel?()
            case .sendOther(let v):
                log("step: sendOther(\(v))")
                other.send(v)
            case .finishOther:
                log("step: finishOther")
                other.send(completion: .finished)
            case .failOther(let e):
                log("step: failOther(\(e))")
                other.send(completion: .failure(e))
            case .advance(let ms):
                log("step: advance(\(ms)ms)")
                scheduler.advance(by: .milliseconds(ms))
            }
        }
        if program.usesScheduler {
            // Whatever is still scheduled runs, as the printed program's last line does.
            log("step: advance(1s)")
            scheduler.advance(by: .seconds(1))
        }
    }

    /// Breaks the reference cycles a run leaves (subject -> subscription -> recorder -> run).
    private func tearDown() {
        cancel?()
        cancelSecond?()
        // Ends the subjects: a subscription to a subject holds it (as in Combine), so one that
        // nobody cancels would keep the subject, its subscribers and this run alive. (flatMap
        // leaves upstream running after an inner failure, as Combine does.)
        finish?()
        other.send(completion: .finished)
        // A cancel may be scheduled (`subscribe(on:)` cancels upstream on the scheduler); the
        // scheduler belongs to this run, so work left on it would keep the whole run alive.
        scheduler.advance(by: .seconds(1))
        sendValue = nil
        finish = nil
        fail = nil
        request = nil
        cancel = nil
        cancelSecond = nil
        keepAlive = []
    }
}

/// The demand a program writes.
package func demand(_ spec: DemandSpec) -> Subscribers.Demand {
    switch spec {
    case .none: .none
    case .max(let n): .max(n)
    case .unlimited: .unlimited
    }
}

/// A demand as the trace writes it.
package func describe(_ d: Subscribers.Demand) -> String {
    if let n = d.max { ".max(\(n))" } else { ".unlimited" }
}

/// A completion as the trace writes it.
package func describe<F: Error>(_ c: Subscribers.Completion<F>) -> String {
    switch c {
    case .finished: "finished"
    case .failure(let e): "failure(\(e))"
    }
}

// MARK: - Sources

/// Builds the source and hands it to `chain`. Never specialised: the differential interpreter's
/// chain builds ever deeper types from here.
@_semantics("optimize.sil.specialize.generic.never")
private func buildSource<Chain: ProgramChain>(_ source: Source, _ run: ProgramRun, _ chain: Chain) {
    switch source {
    case .just(let v): chain.build(on: Just(v), in: run)
    case .empty(.never): chain.build(on: Empty<Int, Never>(), in: run)
    case .empty(.error): chain.build(on: Empty<Int, any Error>(), in: run)
    case .fail(let e): chain.build(on: Fail<Int, any Error>(error: e), in: run)
    case .sequence(let vs, .never): chain.build(on: vs.publisher, in: run)
    case .sequence(let vs, .error): chain.build(on: Publishers.Sequence<[Int], any Error>(sequence: vs), in: run)
    case .passthrough: chain.build(on: driven(PassthroughSubject<Int, any Error>(), run), in: run)
    case .currentValue(let v): chain.build(on: driven(CurrentValueSubject<Int, any Error>(v), run), in: run)
    case .future(let v?):
        chain.build(on: Future<Int, any Error> { $0(.success(v)) }, in: run)
    case .future(nil):
        let box = PromiseBox()
        run.keepAlive.append(box)
        let future = Future<Int, any Error> { box.promise = $0 }
        run.sendValue = { box.promise?(.success($0)) }
        run.fail = { box.promise?(.failure($0)) }
        chain.build(on: future, in: run)
    case .deferred(let inner):
        buildSource(inner, run, DeferredChain(chain: chain))
    case .upstream:
        let upstream = ScriptedUpstream(run: run)
        run.keepAlive.append(upstream)
        run.sendValue = { upstream.send($0) }
        run.finish = { upstream.complete(.finished) }
        run.fail = { upstream.complete(.failure($0)) }
        chain.build(on: upstream, in: run)
    case .replay, .relay, .currentValueRelay:
        chain.buildExtensionSource(source, in: run)
    }
}

/// The subject, with the run's steps driving it.
package func driven<S: Subject>(_ subject: S, _ run: ProgramRun) -> S where S.Output == Int, S.Failure == any Error {
    run.sendValue = { subject.send($0) }
    run.finish = { subject.send(completion: .finished) }
    run.fail = { subject.send(completion: .failure($0)) }
    return subject
}

/// Wraps the source it is given in `Deferred { ... }`.
private struct DeferredChain<Chain: ProgramChain>: ProgramChain {
    let chain: Chain
    @_semantics("optimize.sil.specialize.generic.never")
    func build<Head: Publisher>(on head: Head, in run: ProgramRun) where Head.Output == Int {
        chain.build(on: Deferred { head }, in: run)
    }
}

private final class PromiseBox {
    var promise: Future<Int, any Error>.Promise?
}

// MARK: - The subscriber (RecordingSubscriber's behaviour)

private final class Recorder<Input, Failure: Error>: Subscriber {
    private let run: ProgramRun
    private let script: SubscriberScript
    /// What its lines in the trace start with: `sub` for the first subscriber, `sub2` for the second.
    private let label: String
    private var subscription: (any Subscription)?
    private var hadSubscription = false
    private var values = 0

    init(run: ProgramRun, script: SubscriberScript, label: String) {
        self.run = run
        self.script = script
        self.label = label
    }

    func receive(subscription: any Subscription) {
        run.log("\(label): subscription")
        if self.subscription == nil && !hadSubscription {
            self.subscription = subscription
            hadSubscription = true
        }
        if script.initial != .none { subscription.request(demand(script.initial)) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        run.log("\(label): value(\(input))")
        values += 1
        if let r = script.reentrantRequest, r.afterValues == values { request(demand(r.demand)) }
        if let n = script.cancelAfterValues, n == values {
            cancel()
            return .none
        }
        return demand(script.perValue)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        run.log("\(label): \(describe(completion))")
        subscription = nil
    }

    func request(_ d: Subscribers.Demand) {
        guard d != .none else { return }
        subscription?.request(d)
    }

    func cancel() {
        let current = subscription
        subscription = nil
        current?.cancel()
    }
}

// MARK: - The test upstream

/// A hand-driven publisher that logs what its subscribers ask of it, and sends a scripted value
/// only while it has outstanding demand (so it never breaks the contract itself).
private final class ScriptedUpstream: Publisher {
    typealias Output = Int
    typealias Failure = any Error

    private let run: ProgramRun
    private var subscriber: AnySubscriber<Int, any Error>?
    private var generation = 0
    /// Outstanding demand of the current subscription; `nil` is unlimited.
    private var outstanding: Int? = 0

    init(run: ProgramRun) { self.run = run }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == any Error {
        generation += 1
        run.log("upstream: subscribe #\(generation)")
        self.subscriber = AnySubscriber(subscriber)
        outstanding = 0
        subscriber.receive(subscription: UpstreamSubscription(owner: self, generation: generation))
    }

    fileprivate func requested(_ d: Subscribers.Demand, generation g: Int) {
        run.log("upstream: request(\(describe(d)))" + (g == generation ? "" : " on old #\(g)"))
        guard g == generation else { return }
        add(d)
    }

    fileprivate func cancelled(generation g: Int) {
        run.log("upstream: cancel" + (g == generation ? "" : " on old #\(g)"))
        if g == generation { subscriber = nil }
    }

    func send(_ value: Int) {
        guard let subscriber else {
            run.log("upstream: send(\(value)) skipped, no subscriber")
            return
        }
        if let n = outstanding {
            guard n > 0 else {
                run.log("upstream: send(\(value)) skipped, no demand")
                return
            }
            outstanding = n - 1
        }
        let more = subscriber.receive(value)
        run.log("upstream: send(\(value)) -> \(describe(more))")
        add(more)
    }

    private func add(_ d: Subscribers.Demand) {
        guard d != .none, let current = outstanding else { return }
        if let n = d.max { outstanding = current > Int.max - n ? nil : current + n } else { outstanding = nil }
    }

    func complete(_ completion: Subscribers.Completion<any Error>) {
        let target = subscriber
        subscriber = nil
        if target == nil { run.log("upstream: completion skipped, no subscriber") }
        target?.receive(completion: completion)
    }

    final class UpstreamSubscription: Subscription, CustomStringConvertible {
        /// What `print` shows of it: the same in both implementations' modules.
        var description: String { "UpstreamSubscription" }
        private weak var owner: ScriptedUpstream?
        private let generation: Int
        init(owner: ScriptedUpstream, generation: Int) {
            self.owner = owner
            self.generation = generation
        }
        func request(_ demand: Subscribers.Demand) { owner?.requested(demand, generation: generation) }
        func cancel() { owner?.cancelled(generation: generation) }
    }
}
