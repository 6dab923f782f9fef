// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Appends a publisher's output with the specified elements.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the specified sequence.
    public func append<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher,
    /// which is subscribed only once this one has finished.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes a publisher's output with the specified values.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Prefixes a publisher's output with the specified sequence.
    public func prepend<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher;
    /// this publisher is subscribed only once the given one has finished.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publishers {
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
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that emits all of `prefix`'s elements before those from `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let parts = [AnyPublisher(suffix), AnyPublisher(prefix)]
            // Subscribed as a part of another concatenation: that one runs these parts in its list.
            if let part = subscriber as? any ConcatenationPart<Output, Failure>, part.takeParts(parts) { return }
            ConcatenateSubscription(parts: parts, downstream: subscriber).subscribeNextPart()
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

/// The subscriber of one part of a concatenation. A concatenation it subscribes to hands it its own
/// two parts instead of subscribing them (`takeParts`), while the concatenation it belongs to is in
/// the middle of subscribing that part; the parts then join its list.
private protocol ConcatenationPart<Input, Failure>: Subscriber {
    func takeParts(_ parts: [AnyPublisher<Input, Failure>]) -> Bool
}

/// The part a side subscribes to, as a type: the first part's side and the others' are of two
/// types, as in Combine, whose prefix and suffix sides are (OpenCombine's
/// ConcatenateTests.testCombineIdentifier).
private protocol ConcatenatePart { static var isFirst: Bool { get } }

private enum ConcatenatePrefixPart: ConcatenatePart { static var isFirst: Bool { true } }

private enum ConcatenateSuffixPart: ConcatenatePart { static var isFirst: Bool { false } }

/// Subscribes to one part on behalf of the subscription, tagging each signal with the part's
/// number. It shares the subscription's identifier, as Combine's inner subscribers do.
private struct ConcatenateSide<Downstream: Subscriber, Kind: ConcatenatePart>: ConcatenationPart,
    Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let parent: ConcatenateSubscription<Downstream>
    let part: Int

    var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    /// As Combine's, it introspects as the subscription.
    var description: String { parent.description }

    var customMirror: Mirror { parent.customMirror }

    func receive(subscription: any Subscription) { parent.receive(subscription, from: part) }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, from: part) }

    func receive(completion: Subscribers.Completion<Failure>) { parent.receive(completion, from: part) }

    func takeParts(_ parts: [AnyPublisher<Input, Failure>]) -> Bool { parent.takeParts(parts, for: part) }
}

/// Runs the parts one after the other. One lock over one state.
///
/// `rest` is a stack of the parts still to run, the next last. While parts remain after the one
/// that runs, the subscription counts the demand downstream has asked for and not received, so that
/// it can ask the next part for exactly that; the last part passes demand straight through.
///
/// A part that is a concatenation hands over its parts from inside its `receive(subscriber:)`;
/// `subscribeNextPart` then subscribes the first of them, in a loop, not a recursion. A part that
/// finishes from inside its own subscribe has the next subscribed there and then, as in Combine,
/// through the thread's `Trampoline`: past 32 such nested subscribes, the deepest runs the rest in
/// a loop.
///
/// Lifetimes: `downstream` is `nil` once the stream has ended; the call that ends it (the
/// completion, or a cancel) takes it out together with the state, and drops both after the lock.
private final class ConcatenateSubscription<Downstream: Subscriber>: Subscription, Introspected {
    typealias Part = AnyPublisher<Downstream.Input, Downstream.Failure>

    private enum State {
        /// Part `part` is being subscribed; `demand` waits for its subscription. Downstream hears of
        /// this subscription when the first part's arrives.
        case awaiting(part: Int, demand: Subscribers.Demand)
        /// Part `part` runs; `demand` is what downstream asked for and has not yet received.
        case running(part: Int, any Subscription, demand: Subscribers.Demand)
        /// Part `part` finished; the loop subscribes the next.
        case between(part: Int, demand: Subscribers.Demand)
        case terminated
    }

    private let lock = Lock()
    private var state: State
    /// The parts still to run, the next last (a stack: a part that hands over its parts pushes them).
    private var rest: [Part]
    private var downstream: Downstream?
    /// The part whose subscribe call is in progress: only then may it hand over its parts.
    private var inProgress: Int?
    /// Set by `takeParts`, for the call in progress, which then subscribes the first of the parts.
    private var handedOver = false

    init(parts: [Part], downstream: Downstream) {
        state = .between(part: -1, demand: .none)
        rest = parts
        self.downstream = downstream
    }

    var description: String { "Concatenate" }

    // MARK: Upstreams

    /// Subscribes the next part, and the first of the parts it hands over, if it does.
    func subscribeNextPart() {
        lock.lock()
        while case .between(let finished, let demand) = state, let next = rest.popLast() {
            let part = finished + 1
            state = .awaiting(part: part, demand: demand)
            inProgress = part
            lock.unlock()
            if part == 0 {
                next.subscribe(ConcatenateSide<Downstream, ConcatenatePrefixPart>(parent: self, part: part))
            } else {
                next.subscribe(ConcatenateSide<Downstream, ConcatenateSuffixPart>(parent: self, part: part))
            }
            lock.lock()
            if inProgress == part { inProgress = nil }
            guard handedOver else { break }
            handedOver = false
        }
        lock.unlock()
    }

    /// The part being subscribed is itself a concatenation: its parts take its place.
    func takeParts(_ parts: [Part], for part: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard inProgress == part, case .awaiting(part, let demand) = state else { return false }
        state = .between(part: part - 1, demand: demand)
        rest += parts
        handedOver = true
        return true
    }

    func receive(_ subscription: any Subscription, from part: Int) {
        lock.lock()
        guard case .awaiting(part, let demand) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .running(part: part, subscription, demand: demand)
        guard part == 0 else {
            lock.unlock()
            if demand > 0 { subscription.request(demand) }
            return
        }
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    func receive(_ input: Downstream.Input, from part: Int) -> Subscribers.Demand {
        lock.lock()
        guard case .running(part, let upstream, let demand) = state, let downstream else {
            lock.unlock()
            return .none
        }
        guard !rest.isEmpty else {
            // The last part: demand passes straight through.
            lock.unlock()
            return downstream.receive(input)
        }
        // A value nobody asked for is not delivered: the count must stay exact for the next part.
        guard demand > 0 else {
            lock.unlock()
            return .none
        }
        state = .running(part: part, upstream, demand: demand - 1)
        lock.unlock()
        let more = downstream.receive(input)
        return more > 0 ? add(more, from: part) : .none
    }

    func receive(_ completion: Subscribers.Completion<Downstream.Failure>, from part: Int) {
        lock.lock()
        guard case .running(part, _, let demand) = state else {
            lock.unlock()
            return
        }
        guard case .finished = completion, !rest.isEmpty else {
            let (previous, ended, parts) = end()
            lock.unlock()
            ended?.receive(completion: completion)
            withExtendedLifetime(parts) {}
            withExtendedLifetime(previous) {}
            return
        }
        state = .between(part: part, demand: demand)
        lock.unlock()
        Trampoline.run { self.subscribeNextPart() }
    }

    /// Adds the demand downstream returned for a value of `part`. Usually that part still runs and
    /// is answered with it; but a part that finished from inside that very `receive` (a re-entrant
    /// one) has handed over to the next, which must get the demand instead.
    private func add(_ more: Subscribers.Demand, from part: Int) -> Subscribers.Demand {
        lock.lock()
        let running = addDemand(more)
        lock.unlock()
        guard let running else { return .none }
        if running.part == part { return more }
        running.upstream.request(more)
        return .none
    }

    /// Adds demand to what the state counts, and returns the part that runs, if one does, for the
    /// caller to ask after it releases the lock. Called with the lock held.
    private func addDemand(_ more: Subscribers.Demand) -> (part: Int, upstream: any Subscription)? {
        switch state {
        case .running(let part, let upstream, let demand):
            state = .running(part: part, upstream, demand: demand + more)
            return (part, upstream)
        case .awaiting(let part, let demand):
            state = .awaiting(part: part, demand: demand + more)
        case .between(let part, let demand):
            state = .between(part: part, demand: demand + more)
        case .terminated:
            break
        }
        return nil
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let running = addDemand(demand)
        lock.unlock()
        running?.upstream.request(demand)
    }

    /// Cancels whichever part runs, and lets go of the parts that never ran.
    func cancel() {
        lock.lock()
        let (current, ended, parts) = end()
        lock.unlock()
        if case .running(_, let upstream, _) = current { upstream.cancel() }
        withExtendedLifetime((ended, parts)) {}
    }

    /// Moves to `.terminated` and hands over what the stream held (the state before, downstream, the
    /// parts that never ran),
    /// for the caller to use and drop after it releases the lock. Called with the lock held.
    private func end() -> (previous: State, downstream: Downstream?, parts: [Part]) {
        (exchange(&state, with: .terminated), downstream.take(), exchange(&rest, with: []))
    }
}
