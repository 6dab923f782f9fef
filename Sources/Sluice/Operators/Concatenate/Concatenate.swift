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
            if Self.fusesUnderAnyDemand {
                subscribeFused(subscriber)
            } else if let part = concatenationPart(subscriber), part.takeParts(prefix: prefix, suffix: suffix) {
                // Subscribed as a part of another concatenation: that one runs these parts in its list.
            } else {
                ConcatenateSubscription(suffix: suffix, downstream: subscriber).start(prefix)
            }
        }

        @inlinable
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
            _Runtime.ConcatenateCursor(prefix: prefix._makeCursor(), suffix: suffix)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

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
func concatenationPart<S: Subscriber>(_ subscriber: S) -> (any ConcatenationPart<S.Input, S.Failure>)? {
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

/// Runs the parts of a concatenation one after the other, over parts that cannot be fused: the
/// prefix, the parts that nested concatenations handed over, then the suffix. Its state is a
/// `ConcatenateState` under `lock`, never held while calling out; the last part's values pass
/// without the lock (`lastPart`). Downstream gets its own subscription when the first part's
/// arrives.
///
/// A part that is a concatenation hands over its parts from inside its `receive(subscriber:)`;
/// `subscribeParts` then subscribes the first of them, in a loop, not a recursion. A part that
/// finishes from inside its own subscribe has the next subscribed there and then, as in Combine,
/// through the thread's `Trampoline`: past 32 such nested subscribes, the deepest runs the rest in
/// a loop.
@usableFromInline
final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>: Subscription, Introspected
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: ConcatenateState<Suffix>
    /// The last part's number while it runs, -1 otherwise: `state.published`, published when it
    /// changes, under the lock.
    @usableFromInline let lastPart = Atomic<Int>(-1)

    @inlinable
    init(suffix: Suffix, downstream: Downstream) {
        state = ConcatenateState(suffix: suffix)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: ConcatenateSubscription.self).downstream.release() }
    }

    /// Runs an event under the lock, and publishes the last part's number.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout ConcatenateState<Suffix>) -> Result) -> Result {
        lock.withLock { state.run(body, publishingTo: lastPart) }
    }

    @usableFromInline var description: String { "Concatenate" }

    // MARK: The parts

    /// Subscribes the prefix, and the first of the parts it hands over, if it does.
    @inlinable
    func start<Prefix: Publisher>(_ prefix: Prefix)
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        prefix.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenatePrefixPart>(parent: self, part: 0))
        if withState({ $0.subscribeReturned(from: 0) }) { subscribeParts() }
    }

    /// Subscribes the next part, and the first of the parts it hands over, while one does.
    @usableFromInline
    func subscribeParts() {
        while case (let next, let number, let isFirst)? = withState({ $0.nextPart() }) {
            if isFirst {
                next.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenatePrefixPart>(parent: self, part: number))
            } else {
                next.subscribe(ConcatenateSide<Suffix, Downstream, ConcatenateSuffixPart>(parent: self, part: number))
            }
            guard withState({ $0.subscribeReturned(from: number) }) else { return }
        }
    }

    /// The part being subscribed is itself a concatenation: its two parts take its place.
    @usableFromInline
    func takeParts(_ prefix: ConcatenateState<Suffix>.Part, _ suffix: ConcatenateState<Suffix>.Part, for number: Int)
        -> Bool
    {
        withState { $0.handOver(prefix, suffix, from: number) }
    }

    @inlinable
    func receive(subscription: any Subscription, from number: Int) {
        withState { $0.subscribed(subscription, from: number) }.perform(on: subscription) {
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input, from number: Int) -> Subscribers.Demand {
        let last = lastPart.load(ordering: .acquiring)
        if last >= 0 {
            guard number == last else { return .none }
            return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        }
        guard withState({ $0.received(from: number) }) else { return .none }
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        guard more > 0 else { return .none }
        switch withState({ $0.delivered(more, from: number) }) {
        case .toSender: return more
        case .request(let current): current.request(more)
        case .kept: break
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, from number: Int) {
        switch withState({ $0.completed(completion, from: number) }) {
        case .none:
            break
        case .next:
            // Subscribed from here, as in Combine; past 32 nested subscribes, by the deepest.
            let trampoline = Trampoline.current
            if trampoline.enter() {
                subscribeParts()
                trampoline.leave()
            } else {
                trampoline.defer { self.subscribeParts() }
            }
        case .end(let unused):
            lifetime.call(self) {
                if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
            }
            _ = unused
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        withState { $0.requested(demand) }?.request(demand)
    }

    /// Cancels whichever part runs, and lets go of the parts that never ran.
    @inlinable
    func cancel() {
        let (current, unused) = withState { $0.cancelled() }
        current?.cancel()
        lifetime.end(self)
        _ = unused
    }
}
