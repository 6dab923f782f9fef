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
    /// A publisher that emits all of one publisher's elements before those from another publisher.
    ///
    /// The prefix is subscribed first; downstream receives its subscription when the prefix's
    /// arrives, so its first request goes straight to the prefix, as in Combine. The suffix is
    /// subscribed only when the prefix finishes, and is asked for whatever downstream requested
    /// and did not receive from the prefix. A failure of the prefix ends the stream; the suffix is
    /// then never subscribed. When both parts are synchronous sources, the two run as one fused
    /// chain, the suffix's part made only when the prefix's runs out.
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
            } else {
                prefix.subscribe(
                    _ConcatenateSide<Suffix, S, _ConcatenatePrefixPart>(
                        parent: ConcatenateSubscription(suffix: suffix, downstream: subscriber)))
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
        public mutating func next() -> _Runtime.FusedStep<Suffix.Output, Suffix.Failure> {
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

        @inlinable public static var _acceptsZeroDemand: Bool { PrefixCursor._acceptsZeroDemand }

        @inlinable public static var _needsUnlimitedDemand: Bool { PrefixCursor._needsUnlimitedDemand }

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

/// Which part of a concatenation a side subscribes to. The two sides are of two types, as in
/// Combine (OpenCombine's ConcatenateTests.testCombineIdentifier).
@usableFromInline protocol _ConcatenatePart { static var isSuffix: Bool { get } }

@usableFromInline enum _ConcatenatePrefixPart: _ConcatenatePart {
    @inlinable static var isSuffix: Bool { false }
}

@usableFromInline enum _ConcatenateSuffixPart: _ConcatenatePart {
    @inlinable static var isSuffix: Bool { true }
}

/// Subscribes to one of the two parts on behalf of the subscription, telling it which part a
/// signal comes from. It carries the subscription's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct _ConcatenateSide<Suffix: Publisher, Downstream: Subscriber, Part: _ConcatenatePart>: Subscriber, SideSubscriber
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let parent: ConcatenateSubscription<Suffix, Downstream>

    @inlinable
    init(parent: ConcatenateSubscription<Suffix, Downstream>) { self.parent = parent }

    @inlinable var isSuffix: Bool { Part.isSuffix }

    @inlinable var owner: ConcatenateSubscription<Suffix, Downstream> { parent }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable
    func receive(subscription: any Subscription) { parent.receive(subscription: subscription, isSuffix: isSuffix) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        isSuffix ? parent.receiveFromSuffix(input) : parent.receiveFromPrefix(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.receive(completion: completion, isSuffix: isSuffix)
    }
}

/// Runs the prefix, then the suffix, over parts that cannot be fused.
///
/// One lock over the fields below; never held while calling out. `stage` says which part runs and
/// whether its subscription has arrived: downstream gets its own subscription when the prefix's
/// arrives, and a part's signals before its subscription are ignored, as in Combine. While the
/// prefix runs (or the suffix's subscription is awaited) `owed` counts what downstream asked for
/// and has not received, so that the suffix can be asked for exactly that; once the suffix is
/// subscribed, demand passes straight through. `stage` is changed under the lock and read
/// without it by a suffix value.
@usableFromInline
final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>: Subscription, Introspected
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    @usableFromInline static var awaitingPrefix: UInt8 { 0 }
    @usableFromInline static var inPrefix: UInt8 { 1 }
    @usableFromInline static var awaitingSuffix: UInt8 { 2 }
    @usableFromInline static var inSuffix: UInt8 { 3 }
    @usableFromInline static var done: UInt8 { 4 }

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let stage = Atomic<UInt8>(0)
    /// The subscription of the part that runs; nil while it is awaited.
    @exclusivity(unchecked)
    @usableFromInline var running: (any Subscription)?
    /// Kept until it is subscribed, and let go if the stream ends first.
    @exclusivity(unchecked)
    @usableFromInline var suffix: Suffix?
    @exclusivity(unchecked)
    @usableFromInline var owed = Subscribers.Demand.none

    @inlinable
    init(suffix: Suffix, downstream: Downstream) {
        self.suffix = suffix
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: ConcatenateSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "Concatenate" }

    // MARK: The two parts

    @inlinable
    func receive(subscription: any Subscription, isSuffix: Bool) {
        lock.lock()
        guard stage.load(ordering: .relaxed) == (isSuffix ? Self.awaitingSuffix : Self.awaitingPrefix) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        running = subscription
        stage.store(isSuffix ? Self.inSuffix : Self.inPrefix, ordering: .releasing)
        guard isSuffix else {
            lock.unlock()
            // Downstream's first request goes straight to the prefix.
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
            return
        }
        // The suffix is asked for what the prefix left owed; after that demand passes straight on.
        let ask = owed
        owed = .none
        lock.unlock()
        if ask > 0 { subscription.request(ask) }
    }

    @inlinable
    func receiveFromPrefix(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        // A value nobody asked for is not delivered: the count must stay exact for the suffix.
        guard stage.load(ordering: .relaxed) == Self.inPrefix, owed > 0 else {
            lock.unlock()
            return .none
        }
        owed -= 1
        lock.unlock()
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        guard more > 0 else { return .none }
        lock.lock()
        switch stage.load(ordering: .relaxed) {
        case Self.inPrefix:
            owed += more
            lock.unlock()
            return more
        case Self.awaitingSuffix:
            // The prefix finished from inside that `receive`: the suffix, still awaited, gets it.
            owed += more
            lock.unlock()
        case Self.inSuffix:
            let current = running
            lock.unlock()
            current?.request(more)
        default:
            lock.unlock()
        }
        return .none
    }

    @inlinable
    func receiveFromSuffix(_ input: Downstream.Input) -> Subscribers.Demand {
        guard stage.load(ordering: .acquiring) == Self.inSuffix else { return .none }
        return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, isSuffix: Bool) {
        lock.lock()
        guard stage.load(ordering: .relaxed) == (isSuffix ? Self.inSuffix : Self.inPrefix) else {
            lock.unlock()
            return
        }
        running = nil
        if !isSuffix, case .finished = completion, let next = suffix {
            suffix = nil
            stage.store(Self.awaitingSuffix, ordering: .releasing)
            lock.unlock()
            next.subscribe(_ConcatenateSide<Suffix, Downstream, _ConcatenateSuffixPart>(parent: self))
            return
        }
        suffix = nil
        stage.store(Self.done, ordering: .releasing)
        lock.unlock()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let now = stage.load(ordering: .relaxed)
        if now == Self.inPrefix || now == Self.awaitingSuffix { owed += demand }
        let current = now == Self.inPrefix || now == Self.inSuffix ? running : nil
        lock.unlock()
        current?.request(demand)
    }

    /// Cancels whichever part runs, and lets go of a suffix that never ran.
    @inlinable
    func cancel() {
        lock.lock()
        stage.store(Self.done, ordering: .releasing)
        let current = running
        running = nil
        let oldSuffix = suffix
        suffix = nil
        lock.unlock()
        current?.cancel()
        lifetime.end(self)
        _ = oldSuffix
    }
}
