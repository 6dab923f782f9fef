// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Appends a publisher's output with the specified elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the specified sequence.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher,
    /// which is subscribed only once this one has finished.
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes a publisher's output with the specified values.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Prefixes a publisher's output with the specified sequence.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher;
    /// this publisher is subscribed only once the given one has finished.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publishers {
    // When both parts are synchronous sources, the two run as one fused chain, the suffix's part made only
    // when the prefix's runs out.
    /// A publisher that emits all of one publisher's elements before those from another publisher.
    ///
    /// The prefix is subscribed first; downstream receives its subscription when the prefix's
    /// arrives, so its first request goes straight to the prefix (a synchronous prefix such as a
    /// sequence delivers inside it), as in Combine. The suffix is subscribed only when the prefix
    /// finishes, and is asked for whatever downstream requested and did not receive from the
    /// prefix. A failure of the prefix ends the stream; the suffix is then never subscribed.
    ///
    /// A concatenation of concatenations (`append` chained, through `AnyPublisher` or not) runs as
    /// one list of publishers, subscribed one after the other by one subscription: a chain of
    /// 100,000 appends neither nests 100,000 subscriptions nor recurses.
    @frozen
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure
        public typealias _Cursor = _Runtime.ConcatenateCursor<Prefix._Cursor, Suffix>

        /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that emits all of `prefix`'s elements before those from `suffix`.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            if Self._fusesUnderAnyDemand {
                _subscribeFused(subscriber)
            } else if let part = _concatenationPart(subscriber), part.takeParts(prefix: prefix, suffix: suffix) {
                // Subscribed as a part of another concatenation: that one runs these parts in its list.
            } else {
                ConcatenateSubscription(suffix: suffix, downstream: subscriber).start(prefix)
            }
        }

        /// A suffix that needs unlimited demand is not fused: its cursor would be made mid-stream, too
        /// late to see that it is starved.
        @inlinable public static var _isFusable: Bool { Prefix._isFusable && Suffix._fusesUnderAnyDemand }

        @inlinable
        public func _makeCursor() -> _Runtime.ConcatenateCursor<Prefix._Cursor, Suffix> {
            _Runtime.ConcatenateCursor(prefix: prefix._makeCursor(), suffix: suffix)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension _Runtime {
    /// The fused prefix, then the fused suffix.
    ///
    /// The suffix's cursor is made only when the prefix has finished, as Combine subscribes the suffix
    /// only then. The prefix's end is looked at as soon as the prefix is exhausted, so that an empty
    /// suffix (or a prefix failure) ends the stream right after the prefix's last value, without
    /// waiting for more demand.
    @frozen
    public struct ConcatenateCursor<PrefixCursor: _Runtime.FusedCursor, Suffix: Publisher>: _Runtime.FusedCursor
    where PrefixCursor.Output == Suffix.Output, PrefixCursor.Failure == Suffix.Failure {
        @usableFromInline var prefix: PrefixCursor
        @usableFromInline let suffixPublisher: Suffix
        @usableFromInline var suffix: Suffix._Cursor?
        /// The prefix's failure, seen ahead of time: it ends the stream instead of the suffix.
        @usableFromInline var failure: Suffix.Failure?

        @inlinable
        init(prefix: PrefixCursor, suffix: Suffix) {
            self.prefix = prefix
            suffixPublisher = suffix
            self.suffix = nil
            failure = nil
            if self.prefix.isExhausted { endPrefix() }
        }

        @inlinable
        public mutating func next() -> _Runtime.StageStep<Suffix.Output, Suffix.Failure> {
            if suffix != nil { return suffix!.next() }
            if let failure { return .failure(failure) }
            let step = prefix.next()
            switch step {
            case .value, .skip:
                return step
            case .finished:
                startSuffix()
                return .skip
            case .failure(let error):
                failure = error
                return step
            }
        }

        /// The prefix's end is looked at once its last value has been delivered, as Combine subscribes
        /// the suffix when the prefix completes after that value.
        @inlinable public var isExhausted: Bool {
            mutating get {
                if suffix == nil && failure == nil && prefix.isExhausted { endPrefix() }
                return suffix?.isExhausted ?? (failure != nil)
            }
        }

        @inlinable public func _reflection(downstream: Any) -> _Runtime.Reflection {
            _Runtime.Reflection("Concatenate")
        }

        @inlinable public var _name: StaticString { "Concatenate" }

        @inlinable public static var _traits: _Runtime.CursorTraits {
            PrefixCursor._traits.intersection(.acceptsZeroDemand.union(.needsUnlimitedDemand))
        }

        @inlinable public var _isStarved: Bool { prefix._isStarved }

        @inlinable public mutating func _didEnd() { if suffix == nil { prefix._didEnd() } else { suffix!._didEnd() } }

        /// An exhausted cursor's next step is its completion: a finish hands over to the suffix.
        @inlinable
        mutating func endPrefix() {
            switch prefix.next() {
            case .failure(let error): failure = error
            default: startSuffix()
            }
        }

        @inlinable
        mutating func startSuffix() { suffix = suffixPublisher._makeCursor() }
    }
}

/// Which part of a concatenation a side subscribes to: the first part's side and the others' are of
/// two types, as in Combine, whose prefix and suffix sides are (OpenCombine's
/// ConcatenateTests.testCombineIdentifier).
@usableFromInline protocol ConcatenatePart {}

@usableFromInline enum ConcatenatePrefixPart: ConcatenatePart {}

@usableFromInline enum ConcatenateSuffixPart: ConcatenatePart {}

/// The subscriber of one part of a concatenation. A concatenation it subscribes to hands it its own
/// two parts instead of subscribing them, while the concatenation it belongs to is in the middle of
/// subscribing that part; the parts then join its list (see `ConcatenateSubscription`).
@usableFromInline
protocol ConcatenationPart<Input, Failure> {
    associatedtype Input
    associatedtype Failure: Error
    func takeParts<Prefix: Publisher, Suffix: Publisher>(prefix: Prefix, suffix: Suffix) -> Bool
    where Prefix.Output == Input, Prefix.Failure == Failure, Suffix.Output == Input, Suffix.Failure == Failure
}

/// The part subscriber a concatenation is subscribed with, if any. Only through `AnyPublisher` can
/// concatenations nest without bound (a typed nesting is as deep as its source code), and an
/// `AnyPublisher` hands its publisher an `AnySubscriber`: only that is looked into.
@inlinable
func _concatenationPart<S: Subscriber>(_ subscriber: S) -> (any ConcatenationPart<S.Input, S.Failure>)? {
    guard S.self == AnySubscriber<S.Input, S.Failure>.self else { return nil }
    return unsafeBitCast(subscriber, to: AnySubscriber<S.Input, S.Failure>.self).wrapped
        as? any ConcatenationPart<S.Input, S.Failure>
}

/// Subscribes to one part on behalf of the subscription, telling it which part a signal comes from.
/// It carries the subscription's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct ConcatenateSide<Suffix: Publisher, Downstream: Subscriber, Kind: ConcatenatePart>: Subscriber, SideSubscriber,
    ConcatenationPart
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let parent: ConcatenateSubscription<Suffix, Downstream>
    /// The part's number: 0 for the first, counting up.
    @usableFromInline let part: Int

    @inlinable
    init(parent: ConcatenateSubscription<Suffix, Downstream>, part: Int) {
        self.parent = parent
        self.part = part
    }

    @inlinable var owner: ConcatenateSubscription<Suffix, Downstream> { parent }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable
    func receive(subscription: any Subscription) { parent.receive(subscription: subscription, from: part) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, from: part) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { parent.receive(completion: completion, from: part) }

    @usableFromInline
    func takeParts<Prefix: Publisher, Other: Publisher>(prefix: Prefix, suffix: Other) -> Bool
    where Prefix.Output == Input, Prefix.Failure == Failure, Other.Output == Input, Other.Failure == Failure {
        parent.takeParts(AnyPublisher(prefix), AnyPublisher(suffix), for: part)
    }
}

/// Where a concatenation is: a part is awaited or runs, and whether it is the last (the suffix).
@usableFromInline
enum ConcatenateStage: UInt8, StateWord {
    case awaitingPrefix
    case inPrefix
    case awaitingSuffix
    case inSuffix
    case done
}

/// Runs the parts of a concatenation one after the other, over parts that cannot be fused: the
/// prefix, the parts that nested concatenations handed over (`parts`, a stack, the next last), then
/// the suffix.
///
/// One lock over the fields below; never held while calling out. `stage` says whether a part runs
/// and whether its subscription has arrived: downstream gets its own subscription when the first
/// part's arrives, and a part's signals before its subscription, or after it ended, are ignored,
/// as in Combine (each side tells its part's number). While parts remain after the one that runs
/// (`inPrefix`), `owed` counts what downstream asked for and has not received, so that the next
/// part can be asked for exactly that; the last part (`inSuffix`) passes demand straight through.
/// `stage` is changed under the lock and read without it by a value of the last part.
///
/// A part that is a concatenation hands over its parts from inside its `receive(subscriber:)`;
/// `subscribeParts` then subscribes the first of them, in a loop, not a recursion. A part that
/// finishes from inside its own subscribe has the next subscribed there and then, as in Combine,
/// through the thread's `Trampoline`: past 32 such nested subscribes, the deepest runs the rest in
/// a loop.
@usableFromInline
final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>: Subscription, Introspected
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    @usableFromInline typealias Part = AnyPublisher<Downstream.Input, Downstream.Failure>

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let stage = Atomic<ConcatenateStage>(.awaitingPrefix)
    /// The subscription of the part that runs; nil while it is awaited.
    @exclusivity(unchecked)
    @usableFromInline var running: (any Subscription)?
    /// The number of the part that runs or is awaited; written before `stage` says `inSuffix`.
    @exclusivity(unchecked)
    @usableFromInline var part = 0
    /// Parts handed over by nested concatenations, to run before `suffix`; the next last.
    @exclusivity(unchecked)
    @usableFromInline var parts: [Part] = []
    /// Kept until it is subscribed, and let go if the stream ends first.
    @exclusivity(unchecked)
    @usableFromInline var suffix: Suffix?
    @exclusivity(unchecked)
    @usableFromInline var owed = Subscribers.Demand.none
    /// The part whose subscribe call is in progress (-1: none): only then may it hand over its parts.
    @exclusivity(unchecked)
    @usableFromInline var inProgress = -1
    /// Set by `takeParts`, for the call in progress, which then subscribes the first of the parts.
    @exclusivity(unchecked)
    @usableFromInline var handedOver = false

    @inlinable
    init(suffix: Suffix, downstream: Downstream) {
        self.suffix = suffix
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: ConcatenateSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "Concatenate" }

    // MARK: The parts

    /// Subscribes the prefix, and the first of the parts it hands over, if it does.
    @inlinable
    func start<Prefix: Publisher>(_ prefix: Prefix)
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        // Nobody else knows this subscription yet: no lock needed to begin.
        inProgress = 0
        prefix.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenatePrefixPart>(parent: self, part: 0))
        lock.lock()
        let wasHandedOver = subscribeReturned(from: 0)
        lock.unlock()
        if wasHandedOver { subscribeParts() }
    }

    /// Under the lock, once part `number`'s subscribe call has returned: ends the call, and says
    /// whether the part handed over its parts (the first of them is then to be subscribed).
    @inlinable
    func subscribeReturned(from number: Int) -> Bool {
        if inProgress == number { inProgress = -1 }
        defer { handedOver = false }
        return handedOver
    }

    /// Subscribes the next part, and the first of the parts it hands over, if it does.
    @usableFromInline
    func subscribeParts() {
        lock.lock()
        while true {
            let first = stage.load(ordering: .relaxed) == .awaitingPrefix
            guard first || stage.load(ordering: .relaxed) == .awaitingSuffix else { break }
            let next: Part
            if let handedOver = parts.popLast() {
                next = handedOver
            } else if let last = suffix {
                suffix = nil
                next = AnyPublisher(last)
            } else {
                break
            }
            part = first ? 0 : part + 1
            let number = part
            inProgress = number
            lock.unlock()
            if first {
                next.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenatePrefixPart>(parent: self, part: number))
            } else {
                next.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenateSuffixPart>(parent: self, part: number))
            }
            lock.lock()
            guard subscribeReturned(from: number) else { break }
        }
        lock.unlock()
    }

    /// The part being subscribed is itself a concatenation: its two parts take its place.
    @usableFromInline
    func takeParts(_ prefix: Part, _ suffix: Part, for number: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let now = stage.load(ordering: .relaxed)
        guard inProgress == number, number == part, now == .awaitingPrefix || now == .awaitingSuffix else {
            return false
        }
        parts.append(suffix)
        parts.append(prefix)
        // The next part subscribed takes this one's number.
        if now == .awaitingSuffix { part -= 1 }
        handedOver = true
        return true
    }

    @inlinable
    func receive(subscription: any Subscription, from number: Int) {
        lock.lock()
        let now = stage.load(ordering: .relaxed)
        guard number == part, now == .awaitingPrefix || now == .awaitingSuffix else {
            lock.unlock()
            subscription.cancel()
            return
        }
        running = subscription
        let isLast = parts.isEmpty && suffix == nil
        stage.store(isLast ? .inSuffix : .inPrefix, ordering: .releasing)
        guard now == .awaitingSuffix else {
            lock.unlock()
            // Downstream's first request goes straight to the prefix.
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
            return
        }
        // The next part is asked for what the ones before left owed; the last part's demand then
        // passes straight on.
        let ask = owed
        if isLast { owed = .none }
        lock.unlock()
        if ask > 0 { subscription.request(ask) }
    }

    @inlinable
    func receive(_ input: Downstream.Input, from number: Int) -> Subscribers.Demand {
        if stage.load(ordering: .acquiring) == .inSuffix {
            guard number == part else { return .none }
            return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        }
        lock.lock()
        // A value nobody asked for is not delivered: the count must stay exact for the next part.
        guard stage.load(ordering: .relaxed) == .inPrefix, number == part, owed > 0 else {
            lock.unlock()
            return .none
        }
        owed -= 1
        lock.unlock()
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        guard more > 0 else { return .none }
        lock.lock()
        switch stage.load(ordering: .relaxed) {
        case .inPrefix where number == part:
            owed += more
            lock.unlock()
            return more
        case .inPrefix, .inSuffix:
            // The part finished from inside that `receive` and a later one runs: it gets the demand.
            if stage.load(ordering: .relaxed) == .inPrefix { owed += more }
            let current = running
            lock.unlock()
            current?.request(more)
        case .awaitingSuffix:
            // The part finished from inside that `receive`: the next, still awaited, gets it.
            owed += more
            lock.unlock()
        case .awaitingPrefix, .done:
            lock.unlock()
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, from number: Int) {
        lock.lock()
        let now = stage.load(ordering: .relaxed)
        guard number == part, now == .inPrefix || now == .inSuffix else {
            lock.unlock()
            return
        }
        running = nil
        if now == .inPrefix, case .finished = completion {
            stage.store(.awaitingSuffix, ordering: .releasing)
            lock.unlock()
            // Subscribed from here, as in Combine; past 32 nested subscribes, by the deepest.
            let trampoline = Trampoline.current
            if trampoline.enter() {
                subscribeParts()
                trampoline.leave()
            } else {
                trampoline.defer { self.subscribeParts() }
            }
            return
        }
        let unused = (suffix, parts)
        suffix = nil
        parts = []
        stage.store(.done, ordering: .releasing)
        lock.unlock()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
        _ = unused
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let now = stage.load(ordering: .relaxed)
        if now == .inPrefix || now == .awaitingSuffix { owed += demand }
        let current = now == .inPrefix || now == .inSuffix ? running : nil
        lock.unlock()
        current?.request(demand)
    }

    /// Cancels whichever part runs, and lets go of the parts that never ran.
    @inlinable
    func cancel() {
        lock.lock()
        stage.store(.done, ordering: .releasing)
        let current = running
        running = nil
        let unused = (suffix, parts)
        suffix = nil
        parts = []
        lock.unlock()
        current?.cancel()
        lifetime.end(self)
        _ = unused
    }
}
