// The pipeline language: a source, a chain of operators, a subscriber script, and a script of
// steps run after subscription. Element type is always Int; the failure type is `Never` or
// `any Error` (tracked statically so that every printed program typechecks).

/// A demand as the program writes it. `.none` is only used where Combine allows it (a value's
/// returned demand, or "no initial request"); the generator never asks `request(.none)`.
public enum DemandSpec: Hashable, Sendable, CustomStringConvertible {
    case none
    case max(Int)
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
    case never
    case error   // `any Error`

    public var swift: String { self == .never ? "Never" : "any Error" }
}

/// Where the values come from.
public indirect enum Source: Hashable, Sendable {
    case just(Int)
    case empty(FailureKind)
    case fail(TestError)
    /// `[..].publisher` when `.never`, `Publishers.Sequence<[Int], any Error>(sequence:)` otherwise.
    case sequence([Int], FailureKind)
    /// Driven by the steps (`send`, `finish`, `fail`).
    case passthrough
    case currentValue(Int)
    /// A `Future` fulfilled at init with this value, or (`nil`) by the first `send`/`fail` step.
    case future(Int?)
    /// `Deferred { inner }`; the inner source is a stateless one.
    case deferred(Source)
    /// A hand-driven upstream that records each `request` and `cancel` into the trace.
    case upstream

    public var failure: FailureKind {
        switch self {
        case .just: .never
        case .empty(let f): f
        case .fail: .error
        case .sequence(_, let f): f
        case .passthrough, .currentValue, .future, .upstream: .error
        case .deferred(let inner): inner.failure
        }
    }

    /// True when the steps can feed it.
    public var isDriven: Bool {
        switch self {
        case .passthrough, .currentValue, .upstream: true
        case .future(let v): v == nil
        default: false
        }
    }
}

/// One operator. Closures come from the menu; `try` variants throw `TestError.oops` when their
/// predicate holds.
public enum Op: Hashable, Sendable {
    case map(IntFunction)
    case filter(Predicate)
    /// `nil` when the predicate holds, else the function's result.
    case compactMap(Predicate, IntFunction)
    case tryMap(Predicate, IntFunction)
    case scan(Int, Accumulator)
    case tryScan(Int, Accumulator, Predicate)
    case removeDuplicates
    /// `.map { pred ? nil : $0 }.replaceNil(with:)`
    case replaceNil(Predicate, Int)
    case replaceError(Int)
    case replaceEmpty(Int)
    case mapError
    case setFailureType
    case collect
    case collectCount(Int)
    case reduce(Int, Accumulator)
    case count
    case min
    case max
    case first
    case last
    case firstWhere(Predicate)
    case contains(Int)
    case containsWhere(Predicate)
    case allSatisfy(Predicate)
    case ignoreOutput
    case dropFirst(Int)
    case dropWhile(Predicate)
    case prefix(Int)
    case prefixWhile(Predicate)
    case outputAt(Int)
    /// `output(in: lower...upper)`
    case outputIn(Int, Int)
    case append([Int])
    case prepend([Int])
    case catchWith(Recovery)
    case retry(Int)
    /// Records every event passing this point into the trace, labelled with its position.
    case handleEvents
    case erase

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
        default: false
        }
    }
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

    public struct ReentrantRequest: Hashable, Sendable {
        public var afterValues: Int
        public var demand: DemandSpec
        public init(afterValues: Int, demand: DemandSpec) {
            self.afterValues = afterValues
            self.demand = demand
        }
    }

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
    case finish
    case fail(TestError)
    /// The subscriber requests more.
    case request(DemandSpec)
    /// The subscriber cancels.
    case cancel
}

/// A whole differential program.
public struct Program: Hashable, Sendable {
    public var source: Source
    public var ops: [Op]
    public var subscriber: SubscriberScript
    public var steps: [Step]

    public init(source: Source, ops: [Op], subscriber: SubscriberScript, steps: [Step]) {
        self.source = source
        self.ops = ops
        self.subscriber = subscriber
        self.steps = steps
    }

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
