// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The differential interpreter: ONE source, compiled into two modules (DifferentialSluice and
// DifferentialReference, each a symlink to this folder) against one implementation each. It fills
// the test kit's program run (SluiceTesting's ProgramRun: the source, the subscribers, the steps
// and the trace, the same run `checkEquivalence` uses) with the program's chain of operators,
// built with the implementation's real types, and adds to the trace every handleEvents point and
// every line a print stage writes.
//
// The chain is built by a generic recursion, so every stage keeps its concrete type
// (`Publishers.Filter<Publishers.Map<Publishers.Sequence<...>>>`): the fast implementation's
// subscription-time fusion sees exactly what it would see in user code. The overloads Swift
// would pick statically (`Just.map`, `Publishers.Sequence.filter`, `Publishers.Map.map`, ...)
// are reproduced by dispatching on the dynamic type (`SpecialOverloads`), following the table in
// SluicePrograms/StaticTypes.swift.

import SluicePrograms

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

/// Runs the program on a scheduler that runs the actions due at one instant in an order drawn from
/// `seed`, as a concurrent scheduler may, and returns its trace.
public func interpret(_ program: Program, shufflingSameInstantActionsWith seed: UInt64) -> [String] {
    ProgramRun.run(program, OperatorChain(), sameInstantOrder: .shuffled(seed: seed)).trace
}

/// Runs the program and tells whether everything it built was freed afterwards.
public func interpretCheckingRelease(_ program: Program) -> (trace: [String], released: Bool) {
    ProgramRun.run(program, OperatorChain())
}

/// The program's operators, in the run's hole; SluiceExt's sources too.
struct OperatorChain: ProgramChain {
    @_semantics("optimize.sil.specialize.generic.never")
    func build<Head: Publisher>(on head: Head, in run: ProgramRun) where Head.Output == Int {
        step(head, 0, run)
    }

    func buildExtensionSource(_ source: Source, in run: ProgramRun) {
        switch source {
        case .replay(let n):
            build(on: driven(ReplaySubject<Int, any Error>(bufferSize: n), run), in: run)
        case .relay:
            let relay = PassthroughRelay<Int>()
            run.sendValue = { relay.accept($0) }
            build(on: relay, in: run)
        case .currentValueRelay(let v):
            let relay = CurrentValueRelay(v)
            run.sendValue = { relay.accept($0) }
            build(on: relay, in: run)
        default: fatalError("not an extension source: \(source)")
        }
    }
}

/// Where a `print` stage writes: each line it prints (`print` writes the separator, the line and
/// the terminator separately) goes into the trace whole.
///
/// A subscription that Combine does not describe (`delay`'s, `prefix(untilOutputFrom:)`'s) prints
/// as its type's name, which names the implementation's module; the trace shows `<type name>`.
struct TraceStream: TextOutputStream {
    let run: ProgramRun
    private var line = ""

    init(run: ProgramRun) { self.run = run }

    mutating func write(_ string: String) {
        guard string == "\n" else {
            line += string
            return
        }
        run.log(Self.withoutTypeNames(line))
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

protocol PublisherContinuation {
    func go<Q: Publisher>(_ q: Q) where Q.Output == Int
}

struct Next: PublisherContinuation {
    let index: Int
    let run: ProgramRun
    @_semantics("optimize.sil.specialize.generic.never")
    func go<Q: Publisher>(_ q: Q) where Q.Output == Int { step(q, index, run) }
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
func step<P: Publisher>(_ p: P, _ index: Int, _ run: ProgramRun) where P.Output == Int {
    guard index < run.program.ops.count else {
        run.subscribe(p)
        return
    }
    let op = run.program.ops[index]
    let next = Next(index: index + 1, run: run)
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
                receiveSubscription: { _ in run.log("\(h): subscription") },
                receiveOutput: { run.log("\(h): output(\($0))") },
                receiveCompletion: { run.log("\(h): \(describe($0))") },
                receiveCancel: { run.log("\(h): cancel") },
                receiveRequest: { run.log("\(h): request(\(describe($0)))") }
            ))
    case .print: next.go(p.print("p\(index)", to: TraceStream(run: run)))
    case .erase: next.go(p.eraseToAnyPublisher())
    case .merge(let s), .zip(let s), .combineLatest(let s), .withLatestFrom(let s):
        if s == .other {
            combine(op, p, side(s, run, failing: P.Failure.self), next)
        } else if let never = p as? any Publisher<Int, Never> {
            combineTyped(op, never, s, next)
        } else if let failing = p as? any Publisher<Int, any Error> {
            combineTyped(op, failing, s, next)
        }
    case .flatMap(let d, let inner):
        withInner(inner, p, run, FlatMapInner(upstream: p, demand: demand(d), next: next))
    case .switchToLatest(let inner): withInner(inner, p, run, SwitchInner(upstream: p, next: next))
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
    case .delay(let ms): next.go(p.delay(for: .milliseconds(ms), scheduler: run.scheduler))
    case .debounce(let ms): next.go(p.debounce(for: .milliseconds(ms), scheduler: run.scheduler))
    case .throttle(let ms, let latest):
        next.go(p.throttle(for: .milliseconds(ms), scheduler: run.scheduler, latest: latest))
    case .timeout(let ms, false): next.go(p.timeout(.milliseconds(ms), scheduler: run.scheduler))
    case .timeout(let ms, true):
        next.go(
            p.timeout(.milliseconds(ms), scheduler: run.scheduler, customError: { programError(P.Failure.self) }))
    case .receiveOn: next.go(p.receive(on: run.scheduler))
    case .subscribeOn: next.go(p.subscribe(on: run.scheduler))
    case .measureInterval: next.go(p.measureInterval(using: run.scheduler).map { $0.nanoseconds / 1_000_000 })
    case .collectByTime(let ms):
        next.go(p.collect(.byTime(run.scheduler, .milliseconds(ms))).map(encodeCollected))
    case .collectByTimeOrCount(let ms, let n):
        next.go(p.collect(.byTimeOrCount(run.scheduler, .milliseconds(ms), n)).map(encodeCollected))
    case .prefixDuration(let ms): next.go(p.prefix(duration: .milliseconds(ms), on: run.scheduler))
    case .nwise(let n): next.go(p.nwise(n).map(encodeCollected))
    case .partition(let pr, let matches):
        let parts = p.partition(pr.test)
        next.go(matches ? parts.matches : parts.nonMatches)
    case .amb(let s): next.go(p.amb(side(s, run, failing: P.Failure.self)))
    case .zipWith(let s, let n), .combineLatestWith(let s, let n), .mergeMany(let s, let n),
        .flatMapBatches(let s, let n, _):
        combineMany(op, p, Array(repeating: side(s, run, failing: P.Failure.self), count: n), next)
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
func withInner<P: Publisher, U: InnerUse>(_ inner: Inner, _ p: P, _ run: ProgramRun, _ use: U)
where U.Failure == P.Failure {
    if let never = use as? any InnerUse<Never> {
        withNeverInner(inner, run, never)
    } else if let failing = use as? any InnerUse<any Error> {
        withFailingInner(inner, run, failing)
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func withNeverInner<U: InnerUse>(_ inner: Inner, _ run: ProgramRun, _ use: U) where U.Failure == Never {
    let other = run.other
    switch inner {
    case .just: use.use { Just($0) }
    case .pair: use.use { [$0, $0 &+ 1].publisher }
    case .empty, .fail: use.use { _ in Empty<Int, Never>() }
    case .other: use.use { _ in other.replaceError(with: -1) }
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func withFailingInner<U: InnerUse>(_ inner: Inner, _ run: ProgramRun, _ use: U) where U.Failure == any Error {
    let other = run.other
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
