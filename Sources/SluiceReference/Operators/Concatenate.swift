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
    /// sequence delivers inside it), as in Combine. The suffix is subscribed only when the prefix finishes, and is asked for whatever downstream requested
    /// and did not receive from the prefix. A failure of the prefix ends the stream; the suffix
    /// is then never subscribed.
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
            prefix.subscribe(
                ConcatenateSide<Suffix, S, PrefixPart>(
                    parent: ConcatenateSubscription(suffix: suffix, downstream: subscriber)))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

/// Which of the two upstreams a signal comes from.
private enum ConcatenateSideName {
    case prefix
    case suffix
}

/// The part a side subscribes to, as a type: the two sides are of two types, as in Combine
/// (OpenCombine's ConcatenateTests.testCombineIdentifier).
private protocol ConcatenatePart { static var side: ConcatenateSideName { get } }

private enum PrefixPart: ConcatenatePart { static var side: ConcatenateSideName { .prefix } }

private enum SuffixPart: ConcatenatePart { static var side: ConcatenateSideName { .suffix } }

/// Subscribes to one of the two upstreams on behalf of the subscription, tagging each signal with
/// its side. It shares the subscription's identifier, as Combine's inner subscribers do.
private struct ConcatenateSide<Suffix: Publisher, Downstream: Subscriber, Part: ConcatenatePart>: Subscriber,
    Introspectable
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let parent: ConcatenateSubscription<Suffix, Downstream>
    var side: ConcatenateSideName { Part.side }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    /// As Combine's, it introspects as the subscription.
    var description: String { parent.description }

    var customMirror: Mirror { parent.customMirror }

    func receive(subscription: any Subscription) { parent.receive(subscription, from: side) }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, from: side) }

    func receive(completion: Subscribers.Completion<Failure>) { parent.receive(completion, from: side) }
}

/// Runs the prefix, then the suffix. One lock over one state that covers both upstreams.
///
/// While the prefix runs, the subscription counts the demand downstream has asked for and not
/// received, so that it can ask the suffix for exactly that. Once the suffix runs, demand passes
/// straight through.
///
/// Lifetimes: `downstream` is `nil` once the stream has ended; the call that ends it (the
/// completion, or a cancel) takes it out together with the state, and drops both after the lock.
private final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>: Subscription, Introspectable
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    private enum State {
        /// The prefix is being subscribed; downstream has not heard of the subscription yet.
        case awaitingPrefix(suffix: Suffix)
        /// The prefix runs; `demand` is what downstream asked for and has not yet received.
        case prefix(any Subscription, demand: Subscribers.Demand, suffix: Suffix)
        /// The prefix finished and the suffix is being subscribed; demand waits for its subscription.
        case awaitingSuffix(demand: Subscribers.Demand)
        case suffix(any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state: State
    private var downstream: Downstream?

    init(suffix: Suffix, downstream: Downstream) {
        state = .awaitingPrefix(suffix: suffix)
        self.downstream = downstream
    }

    var description: String { "Concatenate" }

    // MARK: Upstreams

    func receive(_ subscription: any Subscription, from side: ConcatenateSideName) {
        lock.lock()
        switch (side, state) {
        case (.prefix, .awaitingPrefix(let suffix)):
            state = .prefix(subscription, demand: .none, suffix: suffix)
            let downstream = self.downstream
            lock.unlock()
            downstream?.receive(subscription: self)
        case (.suffix, .awaitingSuffix(let demand)):
            state = .suffix(subscription)
            lock.unlock()
            if demand > 0 { subscription.request(demand) }
        default:
            lock.unlock()
            subscription.cancel()
        }
    }

    func receive(_ input: Downstream.Input, from side: ConcatenateSideName) -> Subscribers.Demand {
        lock.lock()
        let downstream = self.downstream
        switch (side, state) {
        case (.prefix, .prefix(let upstream, let demand, let suffix)):
            // A value nobody asked for is not delivered: the count must stay exact for the suffix.
            guard demand > 0, let downstream else {
                lock.unlock()
                return .none
            }
            state = .prefix(upstream, demand: demand - 1, suffix: suffix)
            lock.unlock()
            let more = downstream.receive(input)
            return more > 0 ? add(more) : .none
        case (.suffix, .suffix):
            lock.unlock()
            return downstream?.receive(input) ?? .none
        default:
            lock.unlock()
            return .none
        }
    }

    func receive(_ completion: Subscribers.Completion<Downstream.Failure>, from side: ConcatenateSideName) {
        lock.lock()
        switch (side, state, completion) {
        case (.prefix, .prefix(_, let demand, let suffix), .finished):
            state = .awaitingSuffix(demand: demand)
            lock.unlock()
            suffix.subscribe(ConcatenateSide<Suffix, Downstream, SuffixPart>(parent: self))
        case (.prefix, .prefix, .failure),
            (.suffix, .suffix, _):
            let (previous, ended) = end()
            lock.unlock()
            ended?.receive(completion: completion)
            withExtendedLifetime(previous) {}
        default:
            lock.unlock()
        }
    }

    /// Adds the demand downstream returned for a prefix value. Usually the prefix still runs and
    /// is answered with it; but a prefix that finished from inside that very `receive` (a
    /// re-entrant one) has handed over to the suffix, which must get the demand instead.
    private func add(_ more: Subscribers.Demand) -> Subscribers.Demand {
        lock.lock()
        switch state {
        case .prefix(let upstream, let demand, let suffix):
            state = .prefix(upstream, demand: demand + more, suffix: suffix)
            lock.unlock()
            return more
        case .awaitingSuffix(let demand):
            state = .awaitingSuffix(demand: demand + more)
            lock.unlock()
        case .suffix(let upstream):
            lock.unlock()
            upstream.request(more)
        case .awaitingPrefix, .terminated:
            lock.unlock()
        }
        return .none
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        switch state {
        case .prefix(let upstream, let pending, let suffix):
            state = .prefix(upstream, demand: pending + demand, suffix: suffix)
            lock.unlock()
            upstream.request(demand)
        case .awaitingSuffix(let pending):
            state = .awaitingSuffix(demand: pending + demand)
            lock.unlock()
        case .suffix(let upstream):
            lock.unlock()
            upstream.request(demand)
        case .awaitingPrefix, .terminated:
            lock.unlock()
        }
    }

    /// Cancels whichever upstream runs, and lets go of the suffix if it never ran.
    func cancel() {
        lock.lock()
        let (current, ended) = end()
        lock.unlock()
        switch current {
        case .prefix(let upstream, _, _), .suffix(let upstream):
            upstream.cancel()
        case .awaitingPrefix, .awaitingSuffix, .terminated:
            break
        }
        withExtendedLifetime(ended) {}
    }

    /// Moves to `.terminated` and hands over what the stream held (the state before, downstream),
    /// for the caller to use and drop after it releases the lock. Called with the lock held.
    private func end() -> (previous: State, downstream: Downstream?) {
        (exchange(&state, with: .terminated), downstream.take())
    }
}
