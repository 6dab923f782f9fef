// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The differential interpreter: ONE source, compiled into two modules (DifferentialSluice and
// DifferentialReference, each a symlink to this folder) against one implementation each. It
// builds a `Program` with the implementation's real types and returns the trace of everything
// observable, in order: the subscriber's events (and the second subscriber's, `sub2`, when the
// program has one), the test upstream's requests and cancels, every handleEvents point, and each
// step of the script.
//
// The chain is built by a generic recursion, so every stage keeps its concrete type
// (`Publishers.Filter<Publishers.Map<Publishers.Sequence<...>>>`): the fast implementation's
// subscription-time fusion sees exactly what it would see in user code. The overloads Swift
// would pick statically (`Just.map`, `Publishers.Sequence.filter`, `Publishers.Map.map`, ...)
// are reproduced by dispatching on the dynamic type (`SpecialOverloads`), following the table in
// DifferentialProgram/StaticTypes.swift.

import DifferentialProgram

#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceTesting
import SluiceReferenceExt
#else
import Sluice
import SluiceTesting
import SluiceExt
#endif

/// Runs the program and returns its trace.
public func interpret(_ program: Program) -> [String] { interpretCheckingRelease(program).trace }

/// Runs the program and tells whether everything it built was freed afterwards: every stage of
/// the chain reaches the subscriber, which holds the run's `Context`, so a subscription, a
/// scheduled action or a subject still holding on to any stage keeps the context alive.
public func interpretCheckingRelease(_ program: Program) -> (trace: [String], released: Bool) {
    weak var freed: Context?
    let trace = run(program) { freed = $0 }
    return (trace, freed == nil)
}

private func run(_ program: Program, exposing expose: (Context) -> Void) -> [String] {
    let context = Context(program: program)
    expose(context)
    buildSource(program.source, context, Next(index: 0, context: context))
    for step in program.steps {
        switch step {
        case .send(let v):
            context.log("step: send(\(v))")
            context.sendValue?(v)
        case .finish:
            context.log("step: finish")
            context.finish?()
        case .fail(let e):
            context.log("step: fail(\(e))")
            context.fail?(e)
        case .request(let d):
            context.log("step: request(\(d))")
            context.request?(demand(d))
        case .cancel:
            context.log("step: cancel")
            context.cancel?()
        case .sendOther(let v):
            context.log("step: sendOther(\(v))")
            context.other.send(v)
        case .finishOther:
            context.log("step: finishOther")
            context.other.send(completion: .finished)
        case .failOther(let e):
            context.log("step: failOther(\(e))")
            context.other.send(completion: .failure(e))
        case .advance(let ms):
            context.log("step: advance(\(ms)ms)")
            context.scheduler.advance(by: .milliseconds(ms))
        }
    }
    if program.usesScheduler {
        // Whatever is still scheduled runs, as the printed program's last line does.
        context.log("step: advance(1s)")
        context.scheduler.advance(by: .seconds(1))
    }
    let trace = context.trace
    context.tearDown()
    return trace
}

// MARK: - Context

/// Where a `print` stage writes: each line it prints (`print` writes the separator, the line and
/// the terminator separately) goes into the trace whole.
///
/// A subscription that Combine does not describe (`delay`'s, `prefix(untilOutputFrom:)`'s) prints
/// as its type's name, which names the implementation's module; the trace shows `<type name>`.
struct TraceStream: TextOutputStream {
    let context: Context
    private var line = ""

    init(context: Context) { self.context = context }

    mutating func write(_ string: String) {
        guard string == "\n" else {
            line += string
            return
        }
        context.log(Self.withoutTypeNames(line))
        line = ""
    }

    private static func withoutTypeNames(_ line: String) -> String {
        let marker = "receive subscription: ("
        guard let start = line.firstRange(of: marker)?.upperBound else { return line }
        let shown = line[start...]
        // A qualified type name: an identifier, then a dot.
        guard let dot = shown.firstIndex(of: "."),
            shown[..<dot].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !shown[..<dot].isEmpty
        else { return line }
        return line[..<start] + "<type name>)"
    }
}

final class Context {
    let ops: [Op]
    let script: SubscriberScript
    let secondScript: SubscriberScript?
    private(set) var trace: [String] = []
    var sendValue: ((Int) -> Void)?
    var finish: (() -> Void)?
    var fail: ((TestError) -> Void)?
    var request: ((Subscribers.Demand) -> Void)?
    var cancel: (() -> Void)?
    var cancelSecond: (() -> Void)?
    var keepAlive: [AnyObject] = []
    /// The virtual clock of the timing operators; instants prefix the trace when it is used.
    let scheduler = VirtualTimeScheduler()
    let timed: Bool
    /// The second subject of the combining operators (`Side.other`, `Inner.other`).
    let other = PassthroughSubject<Int, any Error>()

    init(program: Program) {
        ops = program.ops
        script = program.subscriber
        secondScript = program.secondSubscriber
        timed = program.usesScheduler
    }

    func log(_ line: String) { trace.append(timed ? "\(scheduler.now) \(line)" : line) }

    /// Breaks the reference cycles a run leaves (subject -> subscription -> recorder -> closures).
    func tearDown() {
        cancel?()
        cancelSecond?()
        // Ends the subjects: a subscription to a subject holds it (as in Combine), so one that
        // nobody cancels would keep the subject, its subscribers and this context alive. (flatMap
        // leaves upstream running after an inner failure, as Combine does.)
        finish?()
        other.send(completion: .finished)
        // A cancel may be scheduled (`subscribe(on:)` cancels upstream on the scheduler); the
        // scheduler belongs to this context, so work left on it would keep the whole run alive.
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

func demand(_ spec: DemandSpec) -> Subscribers.Demand {
    switch spec {
    case .none: .none
    case .max(let n): .max(n)
    case .unlimited: .unlimited
    }
}

func describe(_ d: Subscribers.Demand) -> String {
    if let n = d.max { ".max(\(n))" } else { ".unlimited" }
}

func describe<F: Error>(_ c: Subscribers.Completion<F>) -> String {
    switch c {
    case .finished: "finished"
    case .failure(let e): "failure(\(e))"
    }
}

// MARK: - Sources

protocol PublisherContinuation {
    func go<Q: Publisher>(_ q: Q) where Q.Output == Int
}

struct Next: PublisherContinuation {
    let index: Int
    let context: Context
    @_semantics("optimize.sil.specialize.generic.never")
    func go<Q: Publisher>(_ q: Q) where Q.Output == Int { step(q, index, context) }
}

/// Wraps whatever it is given in `Deferred { ... }`.
struct DeferredWrap<K: PublisherContinuation>: PublisherContinuation {
    let next: K
    @_semantics("optimize.sil.specialize.generic.never")
    func go<Q: Publisher>(_ q: Q) where Q.Output == Int { next.go(Deferred { q }) }
}

@_semantics("optimize.sil.specialize.generic.never")
func buildSource<K: PublisherContinuation>(_ source: Source, _ context: Context, _ k: K) {
    switch source {
    case .just(let v): k.go(Just(v))
    case .empty(.never): k.go(Empty<Int, Never>())
    case .empty(.error): k.go(Empty<Int, any Error>())
    case .fail(let e): k.go(Fail<Int, any Error>(error: e))
    case .sequence(let vs, .never): k.go(vs.publisher)
    case .sequence(let vs, .error): k.go(Publishers.Sequence<[Int], any Error>(sequence: vs))
    case .passthrough:
        let subject = PassthroughSubject<Int, any Error>()
        context.sendValue = { subject.send($0) }
        context.finish = { subject.send(completion: .finished) }
        context.fail = { subject.send(completion: .failure($0)) }
        k.go(subject)
    case .currentValue(let v):
        let subject = CurrentValueSubject<Int, any Error>(v)
        context.sendValue = { subject.send($0) }
        context.finish = { subject.send(completion: .finished) }
        context.fail = { subject.send(completion: .failure($0)) }
        k.go(subject)
    case .future(let v?):
        k.go(Future<Int, any Error> { $0(.success(v)) })
    case .future(nil):
        let box = PromiseBox()
        context.keepAlive.append(box)
        let future = Future<Int, any Error> { box.promise = $0 }
        context.sendValue = { box.promise?(.success($0)) }
        context.fail = { box.promise?(.failure($0)) }
        k.go(future)
    case .deferred(let inner):
        buildSource(inner, context, DeferredWrap(next: k))
    case .upstream:
        let upstream = ScriptedUpstream(context: context)
        context.keepAlive.append(upstream)
        context.sendValue = { upstream.send($0) }
        context.finish = { upstream.complete(.finished) }
        context.fail = { upstream.complete(.failure($0)) }
        k.go(upstream)
    case .replay(let n):
        let subject = ReplaySubject<Int, any Error>(bufferSize: n)
        context.sendValue = { subject.send($0) }
        context.finish = { subject.send(completion: .finished) }
        context.fail = { subject.send(completion: .failure($0)) }
        k.go(subject)
    case .relay:
        let relay = PassthroughRelay<Int>()
        context.sendValue = { relay.accept($0) }
        k.go(relay)
    case .currentValueRelay(let v):
        let relay = CurrentValueRelay(v)
        context.sendValue = { relay.accept($0) }
        k.go(relay)
    }
}

// MARK: - Closures from the menu

func throwing(_ p: Predicate, _ f: IntFunction) -> (Int) throws -> Int {
    { v in
        if p.test(v) { throw TestError.oops }
        return f.apply(v)
    }
}

func throwingAccumulator(_ a: Accumulator, _ p: Predicate) -> (Int, Int) throws -> Int {
    { acc, v in
        if p.test(v) { throw TestError.oops }
        return a.apply(acc, v)
    }
}

func optional(_ p: Predicate, _ f: IntFunction) -> (Int) -> Int? {
    { v in p.test(v) ? nil : f.apply(v) }
}

func swapError<F: Error>(_ e: F) -> any Error {
    (e as? TestError) == .oops ? TestError.other : TestError.oops
}

/// `ignoreOutput()` publishes `Never`; mapping it to Int keeps the chain's element type.
func absurd(_ never: Never) -> Int {}

func recovery(_ r: Recovery) -> AnyPublisher<Int, any Error> {
    switch r {
    case .just(let v): Just(v).setFailureType(to: (any Error).self).eraseToAnyPublisher()
    case .sequence(let vs): vs.publisher.setFailureType(to: (any Error).self).eraseToAnyPublisher()
    case .fail: Fail<Int, any Error>(error: TestError.other).eraseToAnyPublisher()
    case .empty: Empty<Int, any Error>().eraseToAnyPublisher()
    }
}

// MARK: - Operators

/// Never specialised: the recursion builds ever deeper types, and the optimizer would try to
/// specialise `step` for each of them (a release build did not finish in 20 minutes).
@_semantics("optimize.sil.specialize.generic.never")
func step<P: Publisher>(_ p: P, _ index: Int, _ context: Context) where P.Output == Int {
    guard index < context.ops.count else {
        let recorder = Recorder<P.Failure>(context: context, script: context.script, label: "sub")
        context.request = { recorder.request($0) }
        context.cancel = { recorder.cancel() }
        p.subscribe(recorder)
        if let script = context.secondScript {
            let second = Recorder<P.Failure>(context: context, script: script, label: "sub2")
            context.cancelSecond = { second.cancel() }
            p.subscribe(second)
        }
        return
    }
    let op = context.ops[index]
    let next = Next(index: index + 1, context: context)
    if let special = p as? any SpecialOverloads, special.applySpecial(op, next) { return }
    switch op {
    case .map(let f): next.go(p.map(f.apply))
    case .filter(let pr): next.go(p.filter(pr.test))
    case .compactMap(let pr, let f): next.go(p.compactMap(optional(pr, f)))
    case .tryMap(let pr, let f): next.go(p.tryMap(throwing(pr, f)))
    case .scan(let i, let a): next.go(p.scan(i, a.apply))
    case .tryScan(let i, let a, let pr): next.go(p.tryScan(i, throwingAccumulator(a, pr)))
    case .removeDuplicates: next.go(p.removeDuplicates())
    case .replaceNil(let pr, let v): next.go(p.map { pr.test($0) ? nil : $0 }.replaceNil(with: v))
    case .replaceError(let v): next.go(p.replaceError(with: v))
    case .replaceEmpty(let v): next.go(p.replaceEmpty(with: v))
    case .mapError: next.go(p.mapError(swapError))
    case .setFailureType:
        // Only generated on a `Never` stage (see `Program.normalized()`).
        guard let never = p as? any Publisher<Int, Never> else { fatalError("setFailureType on a failing stage") }
        applySetFailureType(never, next)
    case .collect: next.go(p.collect().map(encodeCollected))
    case .collectCount(let n): next.go(p.collect(n).map(encodeCollected))
    case .reduce(let i, let a): next.go(p.reduce(i, a.apply))
    case .count: next.go(p.count())
    case .min: next.go(p.min())
    case .max: next.go(p.max())
    case .first: next.go(p.first())
    case .last: next.go(p.last())
    case .firstWhere(let pr): next.go(p.first(where: pr.test))
    case .contains(let v): next.go(p.contains(v).map { $0 ? 1 : 0 })
    case .containsWhere(let pr): next.go(p.contains(where: pr.test).map { $0 ? 1 : 0 })
    case .allSatisfy(let pr): next.go(p.allSatisfy(pr.test).map { $0 ? 1 : 0 })
    case .ignoreOutput: next.go(p.ignoreOutput().map(absurd))
    case .dropFirst(let n): next.go(p.dropFirst(n))
    case .dropWhile(let pr): next.go(p.drop(while: pr.test))
    case .prefix(let n): next.go(p.prefix(n))
    case .prefixWhile(let pr): next.go(p.prefix(while: pr.test))
    case .outputAt(let n): next.go(p.output(at: n))
    case .outputIn(let a, let b): next.go(p.output(in: a...b))
    case .append(let vs): next.go(p.append(vs))
    case .prepend(let vs): next.go(p.prepend(vs))
    case .catchWith(let r): next.go(p.catch { _ in recovery(r) })
    case .retry(let n): next.go(p.retry(n))
    case .handleEvents:
        let h = "h\(index)"
        next.go(
            p.handleEvents(
                receiveSubscription: { _ in context.log("\(h): subscription") },
                receiveOutput: { context.log("\(h): output(\($0))") },
                receiveCompletion: { context.log("\(h): \(describe($0))") },
                receiveCancel: { context.log("\(h): cancel") },
                receiveRequest: { context.log("\(h): request(\(describe($0)))") }
            ))
    case .print: next.go(p.print("p\(index)", to: TraceStream(context: context)))
    case .erase: next.go(p.eraseToAnyPublisher())
    case .merge(let s), .zip(let s), .combineLatest(let s), .withLatestFrom(let s):
        if s == .other {
            combine(op, p, side(s, context, failing: P.Failure.self), next)
        } else if let never = p as? any Publisher<Int, Never> {
            combineTyped(op, never, s, next)
        } else if let failing = p as? any Publisher<Int, any Error> {
            combineTyped(op, failing, s, next)
        }
    case .flatMap(let d, let inner):
        withInner(inner, p, context, FlatMapInner(upstream: p, demand: demand(d), next: next))
    case .switchToLatest(let inner): withInner(inner, p, context, SwitchInner(upstream: p, next: next))
    case .share: next.go(p.share())
    case .shareReplay(let n): next.go(p.share(replay: n))
    case .multicastAutoconnect: next.go(p.multicast { PassthroughSubject<Int, P.Failure>() }.autoconnect())
    case .buffer(let n, let keepFull, let full):
        let whenFull: Publishers.BufferingStrategy<P.Failure> =
            switch full {
            case .dropNewest: .dropNewest
            case .dropOldest: .dropOldest
            case .customError: .customError { programError(P.Failure.self) }
            }
        next.go(p.buffer(size: n, prefetch: keepFull ? .keepFull : .byRequest, whenFull: whenFull))
    case .delay(let ms): next.go(p.delay(for: .milliseconds(ms), scheduler: context.scheduler))
    case .debounce(let ms): next.go(p.debounce(for: .milliseconds(ms), scheduler: context.scheduler))
    case .throttle(let ms, let latest):
        next.go(p.throttle(for: .milliseconds(ms), scheduler: context.scheduler, latest: latest))
    case .timeout(let ms, false): next.go(p.timeout(.milliseconds(ms), scheduler: context.scheduler))
    case .timeout(let ms, true):
        next.go(
            p.timeout(.milliseconds(ms), scheduler: context.scheduler, customError: { programError(P.Failure.self) }))
    case .receiveOn: next.go(p.receive(on: context.scheduler))
    case .subscribeOn: next.go(p.subscribe(on: context.scheduler))
    case .measureInterval: next.go(p.measureInterval(using: context.scheduler).map { $0.nanoseconds / 1_000_000 })
    case .collectByTime(let ms):
        next.go(p.collect(.byTime(context.scheduler, .milliseconds(ms))).map(encodeCollected))
    case .collectByTimeOrCount(let ms, let n):
        next.go(p.collect(.byTimeOrCount(context.scheduler, .milliseconds(ms), n)).map(encodeCollected))
    case .prefixDuration(let ms): next.go(p.prefix(duration: .milliseconds(ms), on: context.scheduler))
    case .nwise(let n): next.go(p.nwise(n).map(encodeCollected))
    case .partition(let pr, let matches):
        let parts = p.partition(pr.test)
        next.go(matches ? parts.matches : parts.nonMatches)
    case .amb(let s): next.go(p.amb(side(s, context, failing: P.Failure.self)))
    case .zipWith(let s, let n), .combineLatestWith(let s, let n), .mergeMany(let s, let n),
        .flatMapBatches(let s, let n, _):
        combineMany(op, p, Array(repeating: side(s, context, failing: P.Failure.self), count: n), next)
    }
}

// MARK: - Combining: second publishers and inner publishers

/// The error a `customError` closure returns; only generated on failing stages (`normalized()`).
func programError<F: Error>(_: F.Type) -> F {
    guard let error = TestError.other as any Error as? F else { fatalError("customError on a Never stage") }
    return error
}

/// What to do with the inner-publisher factory `flatMap`/`switchToLatest` get: called with a
/// closure whose result type is the real inner type (`Just<Int>`, ...), so that fast paths for
/// scalar inners are exercised.
protocol InnerUse<Failure> {
    associatedtype Failure: Error
    func use<I: Publisher>(_ make: @escaping (Int) -> I) where I.Output == Int, I.Failure == Failure
}

struct FlatMapInner<P: Publisher>: InnerUse where P.Output == Int {
    typealias Failure = P.Failure
    let upstream: P
    let demand: Subscribers.Demand
    let next: Next
    @_semantics("optimize.sil.specialize.generic.never")
    func use<I: Publisher>(_ make: @escaping (Int) -> I) where I.Output == Int, I.Failure == P.Failure {
        next.go(upstream.flatMap(maxPublishers: demand, make))
    }
}

struct SwitchInner<P: Publisher>: InnerUse where P.Output == Int {
    typealias Failure = P.Failure
    let upstream: P
    let next: Next
    @_semantics("optimize.sil.specialize.generic.never")
    func use<I: Publisher>(_ make: @escaping (Int) -> I) where I.Output == Int, I.Failure == P.Failure {
        next.go(upstream.map(make).switchToLatest())
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func withInner<P: Publisher, U: InnerUse>(_ inner: Inner, _ p: P, _ context: Context, _ use: U)
where U.Failure == P.Failure {
    if let never = use as? any InnerUse<Never> {
        withNeverInner(inner, context, never)
    } else if let failing = use as? any InnerUse<any Error> {
        withFailingInner(inner, context, failing)
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func withNeverInner<U: InnerUse>(_ inner: Inner, _ context: Context, _ use: U) where U.Failure == Never {
    let other = context.other
    switch inner {
    case .just: use.use { Just($0) }
    case .pair: use.use { [$0, $0 &+ 1].publisher }
    case .empty, .fail: use.use { _ in Empty<Int, Never>() }
    case .other: use.use { _ in other.replaceError(with: -1) }
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func withFailingInner<U: InnerUse>(_ inner: Inner, _ context: Context, _ use: U) where U.Failure == any Error {
    let other = context.other
    switch inner {
    case .just: use.use { Just($0).setFailureType(to: (any Error).self) }
    case .pair: use.use { Publishers.Sequence<[Int], any Error>(sequence: [$0, $0 &+ 1]) }
    case .empty: use.use { _ in Empty<Int, any Error>() }
    case .fail: use.use { _ in Fail<Int, any Error>(error: TestError.other) }
    case .other: use.use { _ in other }
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func applySetFailureType<Q: Publisher>(_ q: Q, _ next: Next) where Q.Output == Int, Q.Failure == Never {
    next.go(q.setFailureType(to: (any Error).self))
}
