// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Random programs. The generator draws from any `ProgramRandom`: a seeded SplitMix64 for the
// `swift test` loop, or the fuzzer's input bytes (so libFuzzer's mutations steer the programs).

/// A source of choices.
public protocol ProgramRandom {
    /// The next choice: any 64-bit number.
    mutating func next() -> UInt64
}

extension ProgramRandom {
    /// A number in `0..<n` (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
    mutating func pick<T: CaseIterable>(_: T.Type) -> T where T.AllCases == [T] { pick(T.allCases) }

    /// One of `choices`, each as likely as its weight: one draw below the weights' sum picks it,
    /// then its closure draws what it needs. The order of `choices` is part of what a seed means.
    mutating func choose<T>(_ choices: [Choice<Self, T>]) -> T {
        var draw = below(choices.reduce(0) { $0 + $1.weight })
        for choice in choices {
            if draw < choice.weight { return choice.make(&self) }
            draw -= choice.weight
        }
        fatalError("a draw below the weights' sum picks a choice")
    }
}

/// One of the things `ProgramRandom.choose(_:)` picks from: how likely it is, and how it is made.
struct Choice<R: ProgramRandom, T> {
    let weight: Int
    let make: (inout R) -> T

    init(_ weight: Int, _ make: @escaping (inout R) -> T) {
        self.weight = weight
        self.make = make
    }

    /// A choice that draws nothing more.
    init(_ weight: Int, _ value: T) {
        self.init(weight) { _ in value }
    }
}

/// SplitMix64: small, fast, and good enough to drive a generator.
public struct SeededRandom: ProgramRandom {
    private var state: UInt64
    /// The generator whose sequence `seed` determines.
    public init(seed: UInt64) { state = seed }
    /// The next number of the SplitMix64 sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reads choices from bytes, one byte per choice; zero once the bytes run out, so every input
/// decodes to a program and short inputs give small programs.
public struct ByteRandom: ProgramRandom {
    private let bytes: [UInt8]
    private var index = 0
    /// Reads choices from `bytes`, in order.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// The next byte, or 0 once the bytes have run out.
    public mutating func next() -> UInt64 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return UInt64(bytes[index])
    }
}

/// Draws random, normalized programs from a `ProgramRandom`.
public enum ProgramGenerator {
    /// A random program, already normalized.
    public static func generate<R: ProgramRandom>(using r: inout R, maxOps: Int = 6) -> Program {
        let source = makeSource(&r)
        var ops: [Op] = []
        let count = r.int(0...maxOps)
        for _ in 0..<count { ops.append(makeOp(&r)) }
        let program = Program(source: source, ops: ops, subscriber: makeSubscriber(&r), steps: [])
        return withSteps(program, maxSteps: 7, &r)
    }

    /// A random program that applies `operatorUnderTest` to a source the test kit builds (any but
    /// SluiceExt's subjects and relays), with no operator of the language before it, already
    /// normalized. Its steps drive the second subject and the clock only when the operator uses them.
    public static func generate<R: ProgramRandom>(
        using r: inout R, applying operatorUnderTest: OperatorUnderTest, maxSteps: Int = 10
    ) -> Program {
        var source = makeSource(&r)
        if source.isExtension { source = .passthrough }
        let program = Program(
            source: source, ops: [], operatorUnderTest: operatorUnderTest, subscriber: makeSubscriber(&r), steps: [])
        return withSteps(program, maxSteps: maxSteps, &r)
    }

    /// The program with random steps and, sometimes, a second subscriber.
    static func withSteps<R: ProgramRandom>(_ program: Program, maxSteps: Int, _ r: inout R) -> Program {
        var program = program
        let stepCount = r.int(0...maxSteps)
        for _ in 0..<stepCount {
            if program.usesOther && r.chance(30) {
                program.steps.append(makeOtherStep(&r))
            } else if program.usesScheduler && r.chance(35) {
                program.steps.append(.advance(r.pick([0, 1, 5, 10, 20, 50])))
            } else {
                program.steps.append(makeStep(&r, driven: program.source.isDriven))
            }
        }
        // A second subscriber, mostly where the two share a subject (or `share`'s).
        let driven = program.source.isDriven && program.source != .upstream
        program.secondSubscriber = r.chance(driven ? 40 : 10) ? makeSubscriber(&r) : nil
        return program.normalized()
    }

    static func makeSubscriber<R: ProgramRandom>(_ r: inout R) -> SubscriberScript {
        SubscriberScript(
            initial: r.chance(15) ? .none : makeDemand(&r),
            perValue: r.chance(50) ? .none : makeDemand(&r),
            cancelAfterValues: r.chance(20) ? r.int(1...4) : nil,
            reentrantRequest: r.chance(20)
                ? .init(afterValues: r.int(1...3), demand: makeDemand(&r)) : nil
        )
    }

    static func smallInt<R: ProgramRandom>(_ r: inout R) -> Int { r.int(-3...9) }

    static func values<R: ProgramRandom>(_ r: inout R, max: Int = 6) -> [Int] {
        (0..<r.int(0...max)).map { _ in smallInt(&r) }
    }

    static func makeDemand<R: ProgramRandom>(_ r: inout R) -> DemandSpec {
        r.chance(25) ? .unlimited : .max(r.int(1...3))
    }

    static func makeStatelessSource<R: ProgramRandom>(_ r: inout R) -> Source {
        switch r.below(4) {
        case 0: .just(smallInt(&r))
        case 1: .empty(r.chance(50) ? .never : .error)
        case 2: .fail(r.chance(50) ? .oops : .other)
        default: .sequence(values(&r), r.chance(70) ? .never : .error)
        }
    }

    static func makeSource<R: ProgramRandom>(_ r: inout R) -> Source {
        switch r.below(12) {
        case 0, 1, 2: makeStatelessSource(&r)
        case 3: .sequence(values(&r), .never)
        case 4: .passthrough
        case 5: .currentValue(smallInt(&r))
        case 6: .future(r.chance(50) ? smallInt(&r) : nil)
        case 7: .deferred(makeStatelessSource(&r))
        case 8: .replay(r.int(0...3))
        case 9: r.chance(50) ? .relay : .currentValueRelay(smallInt(&r))
        default: .upstream
        }
    }

    static func makeStep<R: ProgramRandom>(_ r: inout R, driven: Bool) -> Step {
        if driven {
            switch r.below(10) {
            case 0...4: return .send(smallInt(&r))
            case 5: return .finish
            case 6: return .fail(r.chance(50) ? .oops : .other)
            case 7: return .cancel
            default: return .request(makeDemand(&r))
            }
        }
        return r.chance(85) ? .request(makeDemand(&r)) : .cancel
    }

    static func makeOtherStep<R: ProgramRandom>(_ r: inout R) -> Step {
        switch r.below(8) {
        case 0...5: .sendOther(smallInt(&r))
        case 6: .finishOther
        default: .failOther(r.chance(50) ? .oops : .other)
        }
    }

    static func makeSide<R: ProgramRandom>(_ r: inout R) -> Side {
        switch r.below(3) {
        case 0: .just(smallInt(&r))
        case 1: .sequence(values(&r, max: 4))
        default: .other
        }
    }

    /// A duration in milliseconds for the timing operators (steps advance by 0–50 ms).
    static func makeMillis<R: ProgramRandom>(_ r: inout R) -> Int { r.pick([1, 5, 10, 20]) }

    /// The combining, multicasting and timing operators.
    static func makeCombiningOrTimingOp<R: ProgramRandom>(_ r: inout R) -> Op {
        let choices: [Choice<R, Op>] = [
            Choice(1) { .merge(makeSide(&$0)) },
            Choice(1) { .zip(makeSide(&$0)) },
            Choice(1) { .combineLatest(makeSide(&$0)) },
            Choice(1) { .flatMap($0.chance(40) ? .unlimited : .max($0.int(1...2)), $0.pick(Inner.self)) },
            Choice(1) { .switchToLatest($0.pick(Inner.self)) },
            Choice(1, .share),
            Choice(1) { .shareReplay($0.int(0...2)) },
            Choice(1) { .withLatestFrom(makeSide(&$0)) },
            Choice(1, .multicastAutoconnect),
            Choice(1) { .buffer($0.int(1...3), keepFull: $0.chance(50), $0.pick(BufferFull.self)) },
            Choice(1) { .delay(makeMillis(&$0)) },
            Choice(1) { .debounce(makeMillis(&$0)) },
            Choice(1) { .throttle(makeMillis(&$0), latest: $0.chance(50)) },
            Choice(1) { .timeout(makeMillis(&$0), customError: $0.chance(50)) },
            Choice(1, .receiveOn),
            Choice(1, .subscribeOn),
            Choice(1, .measureInterval),
            Choice(1) { .collectByTime(makeMillis(&$0)) },
            Choice(1) { .collectByTimeOrCount(makeMillis(&$0), $0.int(1...3)) },
            Choice(1) { .amb(makeSide(&$0)) },
            Choice(1) { .zipWith(makeSide(&$0), $0.int(1...5)) },
            Choice(1) { .combineLatestWith(makeSide(&$0), $0.int(1...5)) },
            Choice(1) { .mergeMany(makeSide(&$0), $0.int(0...3)) },
            Choice(1) { .flatMapBatches(makeSide(&$0), $0.int(0...4), size: $0.int(1...3)) },
            Choice(1) { .nwise($0.int(1...3)) },
            Choice(1) { .partition($0.pick(Predicate.self), matches: $0.chance(50)) },
            Choice(1) { .prefixDuration(makeMillis(&$0)) },
        ]
        return r.choose(choices)
    }

    static func makeRecovery<R: ProgramRandom>(_ r: inout R) -> Recovery {
        switch r.below(4) {
        case 0: .just(smallInt(&r))
        case 1: .sequence(values(&r, max: 3))
        case 2: .fail
        default: .empty
        }
    }

    static func makeOutputIn<R: ProgramRandom>(_ r: inout R) -> Op {
        let lower = r.int(0...3)
        return .outputIn(lower, lower + r.int(0...3))
    }

    static func makeOp<R: ProgramRandom>(_ r: inout R) -> Op {
        // About one operator in four is a combining, multicasting or timing operator.
        if r.chance(25) { return makeCombiningOrTimingOp(&r) }
        let choices: [Choice<R, Op>] = [
            Choice(3) { .map($0.pick(IntFunction.self)) },
            Choice(3) { .filter($0.pick(Predicate.self)) },
            Choice(2) { .compactMap($0.pick(Predicate.self), $0.pick(IntFunction.self)) },
            Choice(2) { .tryMap($0.pick(Predicate.self), $0.pick(IntFunction.self)) },
            Choice(1) { .scan(smallInt(&$0), $0.pick(Accumulator.self)) },
            Choice(1) { .tryScan(smallInt(&$0), $0.pick(Accumulator.self), $0.pick(Predicate.self)) },
            Choice(1, .removeDuplicates),
            Choice(1) { .replaceNil($0.pick(Predicate.self), smallInt(&$0)) },
            Choice(1) { .replaceError(smallInt(&$0)) },
            Choice(1) { .replaceEmpty(smallInt(&$0)) },
            Choice(1, .mapError),
            Choice(1, .setFailureType),
            Choice(1, .collect),
            Choice(1) { .collectCount($0.int(1...3)) },
            Choice(1) { .reduce(smallInt(&$0), $0.pick(Accumulator.self)) },
            Choice(1, .count),
            Choice(1, .min),
            Choice(1, .max),
            Choice(1, .first),
            Choice(1, .last),
            Choice(1) { .firstWhere($0.pick(Predicate.self)) },
            Choice(1) { .contains(smallInt(&$0)) },
            Choice(1) { .containsWhere($0.pick(Predicate.self)) },
            Choice(1) { .allSatisfy($0.pick(Predicate.self)) },
            Choice(1, .ignoreOutput),
            Choice(1) { .dropFirst($0.int(0...3)) },
            Choice(1) { .dropWhile($0.pick(Predicate.self)) },
            Choice(1) { .prefix($0.int(0...4)) },
            Choice(1) { .prefixWhile($0.pick(Predicate.self)) },
            Choice(1) { .outputAt($0.int(0...3)) },
            Choice(1) { makeOutputIn(&$0) },
            Choice(1) { $0.chance(50) ? .append(values(&$0, max: 3)) : .prepend(values(&$0, max: 3)) },
            Choice(1) { .catchWith(makeRecovery(&$0)) },
            Choice(1) { .retry($0.int(0...2)) },
            Choice(1, .handleEvents),
            Choice(1, .print),
            Choice(1, .erase),
        ]
        return r.choose(choices)
    }
}
