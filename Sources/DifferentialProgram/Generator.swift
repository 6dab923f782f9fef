// Random programs. The generator draws from any `ProgramRandom`: a seeded SplitMix64 for the
// `swift test` loop, or the fuzzer's input bytes (so libFuzzer's mutations steer the programs).

/// A source of choices.
public protocol ProgramRandom {
    mutating func next() -> UInt64
}

extension ProgramRandom {
    /// A number in `0..<n` (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
    mutating func pick<T: CaseIterable>(_: T.Type) -> T where T.AllCases == [T] { pick(T.allCases) }
}

/// SplitMix64: small, fast, and good enough to drive a generator.
public struct SeededRandom: ProgramRandom {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
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
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public mutating func next() -> UInt64 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return UInt64(bytes[index])
    }
}

public enum ProgramGenerator {
    /// A random program, already normalized.
    public static func generate<R: ProgramRandom>(using r: inout R, maxOps: Int = 6) -> Program {
        let source = makeSource(&r)
        var ops: [Op] = []
        let count = r.int(0...maxOps)
        for _ in 0..<count { ops.append(makeOp(&r)) }
        let subscriber = SubscriberScript(
            initial: r.chance(15) ? .none : makeDemand(&r),
            perValue: r.chance(50) ? .none : makeDemand(&r),
            cancelAfterValues: r.chance(20) ? r.int(1...4) : nil,
            reentrantRequest: r.chance(20)
                ? .init(afterValues: r.int(1...3), demand: makeDemand(&r)) : nil
        )
        var steps: [Step] = []
        let stepCount = r.int(0...7)
        let usesOther = ops.contains { $0.usesOther }
        let usesScheduler = ops.contains { $0.usesScheduler }
        for _ in 0..<stepCount {
            if usesOther && r.chance(30) {
                steps.append(makeOtherStep(&r))
            } else if usesScheduler && r.chance(35) {
                steps.append(.advance(r.pick([0, 1, 5, 10, 20, 50])))
            } else {
                steps.append(makeStep(&r, driven: source.isDriven))
            }
        }
        return Program(source: source, ops: ops, subscriber: subscriber, steps: steps).normalized()
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
        switch r.below(10) {
        case 0, 1, 2: makeStatelessSource(&r)
        case 3: .sequence(values(&r), .never)
        case 4: .passthrough
        case 5: .currentValue(smallInt(&r))
        case 6: .future(r.chance(50) ? smallInt(&r) : nil)
        case 7: .deferred(makeStatelessSource(&r))
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
        switch r.below(17) {
        case 0: .merge(makeSide(&r))
        case 1: .zip(makeSide(&r))
        case 2: .combineLatest(makeSide(&r))
        case 3: .flatMap(r.chance(40) ? .unlimited : .max(r.int(1...2)), r.pick(Inner.self))
        case 4: .switchToLatest(r.pick(Inner.self))
        case 5: .share
        case 6: .multicastAutoconnect
        case 7: .buffer(r.int(1...3), keepFull: r.chance(50), r.pick(BufferFull.self))
        case 8: .delay(makeMillis(&r))
        case 9: .debounce(makeMillis(&r))
        case 10: .throttle(makeMillis(&r), latest: r.chance(50))
        case 11: .timeout(makeMillis(&r), customError: r.chance(50))
        case 12: .receiveOn
        case 13: .subscribeOn
        case 14: .measureInterval
        case 15: .collectByTime(makeMillis(&r))
        default: .collectByTimeOrCount(makeMillis(&r), r.int(1...3))
        }
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
        return switch r.below(42) {
        case 0, 1, 2: .map(r.pick(IntFunction.self))
        case 3, 4, 5: .filter(r.pick(Predicate.self))
        case 6, 7: .compactMap(r.pick(Predicate.self), r.pick(IntFunction.self))
        case 8, 9: .tryMap(r.pick(Predicate.self), r.pick(IntFunction.self))
        case 10: .scan(smallInt(&r), r.pick(Accumulator.self))
        case 11: .tryScan(smallInt(&r), r.pick(Accumulator.self), r.pick(Predicate.self))
        case 12: .removeDuplicates
        case 13: .replaceNil(r.pick(Predicate.self), smallInt(&r))
        case 14: .replaceError(smallInt(&r))
        case 15: .replaceEmpty(smallInt(&r))
        case 16: .mapError
        case 17: .setFailureType
        case 18: .collect
        case 19: .collectCount(r.int(1...3))
        case 20: .reduce(smallInt(&r), r.pick(Accumulator.self))
        case 21: .count
        case 22: .min
        case 23: .max
        case 24: .first
        case 25: .last
        case 26: .firstWhere(r.pick(Predicate.self))
        case 27: .contains(smallInt(&r))
        case 28: .containsWhere(r.pick(Predicate.self))
        case 29: .allSatisfy(r.pick(Predicate.self))
        case 30: .ignoreOutput
        case 31: .dropFirst(r.int(0...3))
        case 32: .dropWhile(r.pick(Predicate.self))
        case 33: .prefix(r.int(0...4))
        case 34: .prefixWhile(r.pick(Predicate.self))
        case 35: .outputAt(r.int(0...3))
        case 36: makeOutputIn(&r)
        case 37: r.chance(50) ? .append(values(&r, max: 3)) : .prepend(values(&r, max: 3))
        case 38: .catchWith(makeRecovery(&r))
        case 39: .retry(r.int(0...2))
        case 40: .handleEvents
        default: .erase
        }
    }
}
