// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The pipeline language: a source, a chain of operators, a subscriber script, and a script of
// steps run after subscription. Element type is always Int; the failure type is `Never` or
// `any Error` (tracked statically so that every printed program typechecks).

/// A demand as the program writes it. `.none` is only used where Combine allows it (a value's
/// returned demand, or "no initial request"); the generator never asks `request(.none)`.
public enum DemandSpec: Hashable, Sendable, CustomStringConvertible {
    /// No demand: `Subscribers.Demand.none`.
    case none
    /// Demand for this many more values: `.max(n)`.
    case max(Int)
    /// Unlimited demand: `.unlimited`.
    case unlimited

    public var description: String {
        switch self {
        case .none: ".none"
        case .max(let n): ".max(\(n))"
        case .unlimited: ".unlimited"
        }
    }
}

/// A failure type a pipeline stage can have.
public enum FailureKind: Hashable, Sendable {
    /// `Never`: the stage cannot fail.
    case never
    /// `any Error`: the stage can fail.
    case error  // `any Error`

    /// The failure type as the printed program writes it.
    public var swift: String { self == .never ? "Never" : "any Error" }
}

/// Where the values come from.
public indirect enum Source: Hashable, Sendable {
    /// `Just(value)`: one value, then finished.
    case just(Int)
    /// `Empty` with this failure type: finishes at once.
    case empty(FailureKind)
    /// `Fail` with this error: fails at once.
    case fail(TestError)
    /// `[..].publisher` when `.never`, `Publishers.Sequence<[Int], any Error>(sequence:)` otherwise.
    case sequence([Int], FailureKind)
    /// Driven by the steps (`send`, `finish`, `fail`).
    case passthrough
    /// A `CurrentValueSubject` with this initial value, driven by the steps.
    case currentValue(Int)
    /// A `Future` fulfilled at init with this value, or (`nil`) by the first `send`/`fail` step.
    case future(Int?)
    /// `Deferred { inner }`; the inner source is a stateless one.
    case deferred(Source)
    /// A hand-driven upstream that records each `request` and `cancel` into the trace.
    case upstream
    /// SluiceExt's `ReplaySubject(bufferSize:)`, driven by the steps.
    case replay(Int)
    /// SluiceExt's `PassthroughRelay`, fed by the `send` steps (a relay cannot complete: `finish`
    /// and `fail` do nothing).
    case relay
    /// SluiceExt's `CurrentValueRelay`, fed like `relay`.
    case currentValueRelay(Int)

    /// The source's failure type, which is the chain's before the first operator.
    public var failure: FailureKind {
        switch self {
        case .just: .never
        case .empty(let f): f
        case .fail: .error
        case .sequence(_, let f): f
        case .passthrough, .currentValue, .future, .upstream, .replay: .error
        case .relay, .currentValueRelay: .never
        case .deferred(let inner): inner.failure
        }
    }

    /// True for SluiceExt's subjects and relays, which only the project's own interpreter builds.
    public var isExtension: Bool {
        switch self {
        case .replay, .relay, .currentValueRelay: true
        case .deferred(let inner): inner.isExtension
        default: false
        }
    }

    /// True when the steps can feed it.
    public var isDriven: Bool {
        switch self {
        case .passthrough, .currentValue, .upstream, .replay, .relay, .currentValueRelay: true
        case .future(let v): v == nil
        default: false
        }
    }
}

/// One operator. Closures come from the menu; `try` variants throw `TestError.oops` when their
/// predicate holds.
public enum Op: Hashable, Sendable {
    /// `.map` with the function.
    case map(IntFunction)
    /// `.filter`, keeping the values the predicate holds for.
    case filter(Predicate)
    /// `nil` when the predicate holds, else the function's result.
    case compactMap(Predicate, IntFunction)
    /// `.tryMap`: throws `TestError.oops` when the predicate holds, else the function's result.
    case tryMap(Predicate, IntFunction)
    /// `.scan(initial)` with the accumulator.
    case scan(Int, Accumulator)
    /// `.tryScan(initial)` with the accumulator; throws `TestError.oops` when the predicate holds for
    /// the value.
    case tryScan(Int, Accumulator, Predicate)
    /// `.removeDuplicates()`
    case removeDuplicates
    /// `.map { pred ? nil : $0 }.replaceNil(with:)`
    case replaceNil(Predicate, Int)
    /// `.replaceError(with:)`; the failure type becomes `Never`.
    case replaceError(Int)
    /// `.replaceEmpty(with:)`
    case replaceEmpty(Int)
    /// `.mapError`, turning `TestError.oops` into `.other` and any other error into `.oops`; the
    /// failure type becomes `any Error`.
    case mapError
    /// `.setFailureType(to: (any Error).self)`; only on a `Never` stage (`normalized()` removes it
    /// elsewhere).
    case setFailureType
    /// `.collect()`, the array encoded with `encodeCollected(_:)`.
    case collect
    /// `.collect(n)`, each array encoded with `encodeCollected(_:)`.
    case collectCount(Int)
    /// `.reduce(initial)` with the accumulator.
    case reduce(Int, Accumulator)
    /// `.count()`
    case count
    /// `.min()`
    case min
    /// `.max()`
    case max
    /// `.first()`
    case first
    /// `.last()`
    case last
    /// `.first(where:)` with the predicate.
    case firstWhere(Predicate)
    /// `.contains(value)`, mapped to 1 (true) or 0 (false).
    case contains(Int)
    /// `.contains(where:)` with the predicate, mapped to 1 or 0.
    case containsWhere(Predicate)
    /// `.allSatisfy` with the predicate, mapped to 1 or 0.
    case allSatisfy(Predicate)
    /// `.ignoreOutput()`, its output type mapped back to Int.
    case ignoreOutput
    /// `.dropFirst(n)`
    case dropFirst(Int)
    /// `.drop(while:)` with the predicate.
    case dropWhile(Predicate)
    /// `.prefix(n)`
    case prefix(Int)
    /// `.prefix(while:)` with the predicate.
    case prefixWhile(Predicate)
    /// `.output(at: index)`
    case outputAt(Int)
    /// `output(in: lower...upper)`
    case outputIn(Int, Int)
    /// `.append(values)`
    case append([Int])
    /// `.prepend(values)`
    case prepend([Int])
    /// `.catch`, switching to the recovery publisher; the failure type becomes `any Error`.
    case catchWith(Recovery)
    /// `.retry(n)`
    case retry(Int)
    /// Records every event passing this point into the trace, labelled with its position.
    case handleEvents
    /// `.print("p<position>", to: printLog)`: every line `print` writes goes into the trace.
    case print
    /// `.eraseToAnyPublisher()`; `normalized()` also inserts it before calls whose overload the
    /// interpreter does not reproduce.
    case erase

    // Combining and multicasting.
    /// `.merge(with: side)`
    case merge(Side)
    /// `.zip(side).map { $0.0 &* 100 &+ $0.1 }`
    case zip(Side)
    /// `.combineLatest(side).map { $0.0 &* 100 &+ $0.1 }`
    case combineLatest(Side)
    /// `.flatMap(maxPublishers: demand) { v in inner(v) }`
    case flatMap(DemandSpec, Inner)
    /// `.map { v in inner(v) }.switchToLatest()`
    case switchToLatest(Inner)
    /// `.share()`
    case share
    /// SluiceExt's `.share(replay:)`
    case shareReplay(Int)
    /// SluiceExt's `.withLatestFrom(side) { $0 &* 100 &+ $1 }`
    case withLatestFrom(Side)
    /// `.multicast { PassthroughSubject() }.autoconnect()`
    case multicastAutoconnect
    /// `.buffer(size:prefetch:whenFull:)`; `keepFull` picks `.keepFull` over `.byRequest`.
    case buffer(Int, keepFull: Bool, BufferFull)
    /// SluiceExt's `.amb(side)`
    case amb(Side)
    /// SluiceExt's `.zip(with: Array(repeating: side, count: n))`, each array encoded
    case zipWith(Side, Int)
    /// SluiceExt's `.combineLatest(with: Array(repeating: side, count: n))`, each array encoded
    case combineLatestWith(Side, Int)
    /// SluiceExt's `Collection.merge()` of the chain and `n` copies of `side`
    case mergeMany(Side, Int)
    /// SluiceExt's `Collection.flatMapBatches(of: size)` of the chain and `n` copies of `side`,
    /// each array encoded
    case flatMapBatches(Side, Int, size: Int)
    /// SluiceExt's `.nwise(n)`, each window encoded
    case nwise(Int)
    /// SluiceExt's `.partition(_:)`, one of its two sides
    case partition(Predicate, matches: Bool)

    // Time, on the program's virtual-time scheduler; durations in milliseconds.
    /// `.delay(for: .milliseconds(ms), scheduler:)`
    case delay(Int)
    /// `.debounce(for: .milliseconds(ms), scheduler:)`
    case debounce(Int)
    /// `.throttle(for: .milliseconds(ms), scheduler:, latest:)`
    case throttle(Int, latest: Bool)
    /// `customError` fails with `TestError.other` at the timeout instead of finishing.
    case timeout(Int, customError: Bool)
    /// `.receive(on: scheduler)`
    case receiveOn
    /// `.subscribe(on: scheduler)`
    case subscribeOn
    /// `.measureInterval(using:).map { Int($0.nanoseconds / 1_000_000) }`
    case measureInterval
    /// `.collect(.byTime(scheduler, .milliseconds(ms)))` with the collected values encoded.
    case collectByTime(Int)
    /// `.collect(.byTimeOrCount(scheduler, .milliseconds(ms), count))` with each array encoded.
    case collectByTimeOrCount(Int, Int)
    /// SluiceExt's `.prefix(duration: .milliseconds(ms), on: scheduler)`
    case prefixDuration(Int)

    /// The failure type after this operator, given the failure type before it.
    public func failure(after f: FailureKind) -> FailureKind {
        switch self {
        case .tryMap, .tryScan, .mapError, .setFailureType, .catchWith: .error
        case .replaceError: .never
        default: f
        }
    }

    /// Operators that are written as two calls (the second bringing the element back to Int).
    /// They are always applied to a type-erased upstream, so no eager overload interferes.
    public var isCompound: Bool {
        switch self {
        case .replaceNil, .contains, .containsWhere, .allSatisfy, .collect, .collectCount, .ignoreOutput: true
        case .zip, .combineLatest, .switchToLatest, .multicastAutoconnect, .measureInterval, .collectByTime,
            .collectByTimeOrCount, .zipWith, .combineLatestWith, .mergeMany, .flatMapBatches, .nwise, .partition:
            true
        default: false
        }
    }

    /// True for the operators on the scheduler whose every scheduled action only hands on a signal
    /// (`delay`, `receive(on:)`, `subscribe(on:)`): the order of actions due at one instant, which a
    /// concurrent scheduler may change, changes nothing they deliver. (The others' timers meet
    /// their values at an instant, and which comes first decides what goes out.)
    public var onlyHops: Bool {
        switch self {
        case .delay, .receiveOn, .subscribeOn: true
        default: false
        }
    }

    /// True for the operators that run on the program's virtual-time scheduler.
    public var usesScheduler: Bool {
        switch self {
        case .delay, .debounce, .throttle, .timeout, .receiveOn, .subscribeOn, .measureInterval, .collectByTime,
            .collectByTimeOrCount, .prefixDuration:
            true
        default: false
        }
    }

    /// True for the operators that can subscribe to the program's second subject.
    public var usesOther: Bool {
        switch self {
        case .merge(.other), .zip(.other), .combineLatest(.other), .withLatestFrom(.other), .flatMap(_, .other),
            .switchToLatest(.other), .amb(.other), .zipWith(.other, _), .combineLatestWith(.other, _),
            .mergeMany(.other, _), .flatMapBatches(.other, _, _):
            true
        default: false
        }
    }
}

/// The second publisher of `merge`, `zip` and `combineLatest`, with the chain's failure type.
public enum Side: Hashable, Sendable {
    /// `Just(value)`, with the chain's failure type.
    case just(Int)
    /// These values as a sequence publisher, with the chain's failure type.
    case sequence([Int])
    /// The program's second subject (`other`), driven by the `*Other` steps.
    case other
}

/// What `flatMap` and `switchToLatest` make of each value `v`, with the chain's failure type.
public enum Inner: Hashable, Sendable, CaseIterable {
    /// `Just(v)`
    case just
    /// `[v, v &+ 1].publisher`
    case pair
    /// `Empty`: no values.
    case empty
    /// `Fail(error: TestError.other)`; only on a failing chain (`normalized()` makes it `.empty`).
    case fail
    /// The program's second subject, subscribed once per inner.
    case other
}

/// `buffer`'s policy when it is full.
public enum BufferFull: Hashable, Sendable, CaseIterable {
    /// `.dropNewest`: a value that arrives while the buffer is full is dropped.
    case dropNewest
    /// `.dropOldest`: the oldest buffered value is dropped to make room.
    case dropOldest
    /// `.customError { TestError.other }`; only on a failing chain (else `.dropNewest`).
    case customError
}

/// The subscriber at the end: `RecordingSubscriber`'s behaviour from the conformance suite.
public struct SubscriberScript: Hashable, Sendable {
    /// Requested on subscription; `.none` means no request at all.
    public var initial: DemandSpec
    /// Returned from every `receive(_:)`.
    public var perValue: DemandSpec
    /// Cancel (and return `.none`) on receiving this many values.
    public var cancelAfterValues: Int?
    /// Inside the receive of value number `index` (1-based, counting values so far), request more.
    public var reentrantRequest: ReentrantRequest?

    /// A request made from inside a `receive(_:)`.
    public struct ReentrantRequest: Hashable, Sendable {
        /// The value (1-based, counting values so far) in whose receive the request is made.
        public var afterValues: Int
        /// The demand requested.
        public var demand: DemandSpec
        /// A request for `demand` in the receive of value number `afterValues`.
        public init(afterValues: Int, demand: DemandSpec) {
            self.afterValues = afterValues
            self.demand = demand
        }
    }

    /// A script; by default it never cancels and makes no reentrant request.
    public init(
        initial: DemandSpec, perValue: DemandSpec, cancelAfterValues: Int? = nil,
        reentrantRequest: ReentrantRequest? = nil
    ) {
        self.initial = initial
        self.perValue = perValue
        self.cancelAfterValues = cancelAfterValues
        self.reentrantRequest = reentrantRequest
    }
}

/// A step run after `subscribe` returns, in order.
public enum Step: Hashable, Sendable {
    /// Sends a value into a driven source (a test upstream only sends with outstanding demand).
    case send(Int)
    /// Finishes a driven source (a relay or an unfulfilled `Future` ignores it).
    case finish
    /// Fails a driven source with this error (a relay ignores it).
    case fail(TestError)
    /// The subscriber requests more.
    case request(DemandSpec)
    /// The subscriber cancels.
    case cancel
    /// Drives the second subject (`other`).
    case sendOther(Int)
    /// Finishes the second subject (`other`).
    case finishOther
    /// Fails the second subject (`other`) with this error.
    case failOther(TestError)
    /// Moves the virtual clock forward by this many milliseconds.
    case advance(Int)
}

/// An operator the language does not know, applied after `ops`: the candidate of an equivalence
/// check (SluiceTesting's `checkEquivalence`) and its specification, written by the user.
public struct OperatorUnderTest: Hashable, Sendable {
    /// What the printed program calls it.
    public var name: String
    /// True when it subscribes to the program's second subject, which the `*Other` steps drive.
    public var usesOther: Bool
    /// True when it runs on the program's virtual-time scheduler, which the `advance` steps move.
    public var usesScheduler: Bool
    /// Its output type as the printed program writes it.
    public var output: String
    /// Its failure type as the printed program writes it.
    public var failure: String

    /// An operator that, by default, uses neither the second subject nor the scheduler, with output
    /// `Int` and failure `any Error`.
    public init(
        name: String, usesOther: Bool = false, usesScheduler: Bool = false, output: String = "Int",
        failure: String = "any Error"
    ) {
        self.name = name
        self.usesOther = usesOther
        self.usesScheduler = usesScheduler
        self.output = output
        self.failure = failure
    }
}

/// A whole program: a source, a chain of operators, one or two subscribers and the steps.
public struct Program: Hashable, Sendable {
    /// Where the values come from.
    public var source: Source
    /// The operators, applied to the source in order.
    public var ops: [Op]
    /// Applied after `ops`, to the chain erased to `AnyPublisher<Int, any Error>`.
    public var operatorUnderTest: OperatorUnderTest?
    /// The subscriber at the end of the chain.
    public var subscriber: SubscriberScript
    /// A second subscriber to the same chain, subscribed right after the first; the steps'
    /// `request` and `cancel` are the first one's. Its events enter the one trace, so the order
    /// between two subscribers of a subject (or of `share`) is compared too.
    public var secondSubscriber: SubscriberScript?
    /// What happens after subscription, in order.
    public var steps: [Step]

    /// A program; by default with no operator under test and no second subscriber.
    public init(
        source: Source, ops: [Op], operatorUnderTest: OperatorUnderTest? = nil, subscriber: SubscriberScript,
        secondSubscriber: SubscriberScript? = nil, steps: [Step]
    ) {
        self.source = source
        self.ops = ops
        self.operatorUnderTest = operatorUnderTest
        self.subscriber = subscriber
        self.secondSubscriber = secondSubscriber
        self.steps = steps
    }

    /// True when an operator runs on the virtual-time scheduler: the trace then carries instants.
    public var usesScheduler: Bool { ops.contains { $0.usesScheduler } || operatorUnderTest?.usesScheduler == true }

    /// True when the program uses the scheduler only through operators that hop (`Op.onlyHops`): its
    /// trace must be the same on a scheduler that runs the actions due at one instant in any order.
    public var onlyHopsOnTheScheduler: Bool {
        usesScheduler && operatorUnderTest == nil && ops.allSatisfy { !$0.usesScheduler || $0.onlyHops }
    }

    /// True when an operator subscribes to the second subject.
    public var usesOther: Bool { ops.contains { $0.usesOther } || operatorUnderTest?.usesOther == true }

    /// The failure type before each operator and at the end.
    public var failures: [FailureKind] {
        var f = source.failure
        var out = [f]
        for op in ops {
            f = op.failure(after: f)
            out.append(f)
        }
        return out
    }
}
