// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice
import Synchronization

extension Publisher {
    /// Combines each value of this publisher with the latest value of `other`, through
    /// `resultSelector`.
    ///
    /// - `other` is subscribed first and asked for everything; this publisher is subscribed when
    ///   `other` has published its first value, so a cold publisher loses none of its values, and
    ///   gets downstream's demand (that made before then too).
    /// - The stream ends when this publisher completes or either publisher fails; the other one is
    ///   then cancelled. When `other` finishes, its last value stays the latest; when it finishes
    ///   without one, the stream waits for a cancel, as in CombineExt.
    @inlinable
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Publishes the latest value of `other` each time this publisher publishes; see
    /// `withLatestFrom(_:resultSelector:)`.
    @inlinable
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        withLatestFrom(other) { $1 }
    }
}

extension Publishers {
    /// A publisher that combines each value of its upstream with the latest value of another
    /// publisher.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Failure = Upstream.Failure
        /// Makes the published value from an upstream value and `other`'s latest.
        public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The publisher whose latest value each upstream value is combined with.
        public let other: Other
        /// Makes the published value from an upstream value and `other`'s latest.
        public let resultSelector: (Upstream.Output, Other.Output) -> Output

        /// Creates a publisher that combines each value of `upstream` with the latest of `other`.
        @inlinable
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = WithLatestFromSubscription<Upstream, Other, S>(
                upstream: upstream, downstream: subscriber, resultSelector: resultSelector)
            // Downstream first, so that whichever publisher ends the stream can deliver its
            // completion; requests made before upstream's subscription wait for it. Upstream is
            // subscribed at `other`'s first value.
            subscriber.receive(subscription: subscription)
            other.subscribe(WithLatestFromOtherSide(parent: subscription))
        }
    }
}

/// The subscription of `withLatestFrom`: upstream's subscriber, and downstream's subscription.
///
/// One thread at a time delivers to downstream: upstream's values come one at a time (Combine's
/// rule), and a completion that comes while a value is being delivered (`other` failing on another
/// thread, or upstream completing from inside downstream's `receive`) waits for the delivery to
/// return, and so does the release of downstream after a cancel. The deliveries in flight are
/// counted in an `EndGate`, without the lock: the stream's end, decided under the lock, leaves how
/// it ends in `State.ending`, and whoever the gate tells to release (the end itself, or the last
/// delivery to return) carries it out. `other`'s latest value sits in one atomic word when it is
/// trivial and fits (an `Int`, a `Bool`, an enum without payloads), so that a value takes no lock at
/// all; otherwise it is read under the lock.
@usableFromInline
final class WithLatestFromSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias Live = (
        downstream: Downstream, resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input
    )

    /// What the lock guards.
    @usableFromInline
    struct State {
        /// The publisher to subscribe to at `other`'s first value.
        @usableFromInline var unsubscribed: Upstream?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var other: (any Subscription)?
        /// `other`'s latest value, unless it is kept in `latestWord`.
        @usableFromInline var latest: Other.Output?
        /// Downstream's requests before upstream's subscription came.
        @usableFromInline var pendingDemand = Subscribers.Demand.none
        /// How the stream ends, once it has; taken by whoever the gate tells to release.
        @usableFromInline var ending: Ending?

        @inlinable
        init(upstream: Upstream) {
            unsubscribed = upstream
        }

        /// How the stream's end reaches downstream: a completion (then the release), or only the
        /// release of downstream and the result selector (a cancel).
        @usableFromInline
        enum Ending {
            case complete(Subscribers.Completion<Failure>)
            case release
        }

        /// Ends the stream: the subscriptions to cancel. `completion` is nil for a cancel.
        @inlinable
        mutating func end(with completion: Subscribers.Completion<Failure>?) -> [any Subscription] {
            let cancels = [upstream, other].compactMap { $0 }
            upstream = nil
            other = nil
            latest = nil
            unsubscribed = nil
            ending = completion.map(Ending.complete) ?? .release
            return cancels
        }
    }

    @usableFromInline let lock = Lock()
    /// The deliveries in flight, and whether the stream has ended.
    @usableFromInline let gate = EndGate()
    /// `other`'s latest value's bits, when `latestFitsWord`.
    @usableFromInline let latestWord = Atomic<UInt64>(0)
    @exclusivity(unchecked)
    @usableFromInline var state: State
    /// Downstream and the result selector: used by the thread delivering, and let go of when the
    /// gate says so.
    @exclusivity(unchecked)
    @usableFromInline var live: Releasable<Live>

    /// Whether `other`'s values are trivial and fit one word, so that they can be kept in `latestWord`.
    @inlinable static var latestFitsWord: Bool {
        _isPOD(Other.Output.self) && MemoryLayout<Other.Output>.size <= MemoryLayout<UInt64>.size
    }

    /// `other`'s latest value, kept in `latestWord` (only when `latestFitsWord`).
    @inlinable var wordValue: Other.Output {
        get { withUnsafeBytes(of: latestWord.load(ordering: .acquiring)) { $0.load(as: Other.Output.self) } }
        set {
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.storeBytes(of: newValue, as: Other.Output.self) }
            latestWord.store(word, ordering: .releasing)
        }
    }

    @inlinable
    init(
        upstream: Upstream, downstream: Downstream,
        resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
    ) {
        state = State(upstream: upstream)
        live = Releasable((downstream, resultSelector))
    }

    @usableFromInline var description: String { "WithLatestFrom" }

    // MARK: From upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let (attached, demand) = lock.withLock { () -> (Bool, Subscribers.Demand) in
            guard !gate.hasEnded, state.upstream == nil else { return (false, .none) }
            state.upstream = subscription
            defer { state.pendingDemand = .none }
            return (true, state.pendingDemand)
        }
        guard attached else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Upstream is subscribed once `other` has a value, so there is one while the stream is live.
        let latest: Other.Output?
        if Self.latestFitsWord {
            latest = gate.enter() ? wordValue : nil
        } else {
            lock.lock()
            latest = gate.enter() ? state.latest : nil
            lock.unlock()
        }
        let demand = latest.map { latest in live.with { $0.downstream.receive($0.resultSelector(input, latest)) } }
        guard gate.leave() else { return demand ?? .none }
        // The stream ended while the value was delivered, and this delivery ends it. After a cancel,
        // upstream still hears what downstream returned, as the reference says.
        guard case .release = release() else { return .none }
        return demand ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        finish(with: completion, completed: \.upstream)
    }

    // MARK: From other

    @inlinable
    func receiveOther(subscription: any Subscription) {
        let attached = lock.withLock { () -> Bool in
            guard !gate.hasEnded, state.other == nil else { return false }
            state.other = subscription
            return true
        }
        if attached { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func receiveOther(_ value: Other.Output) {
        let upstream = lock.withLock { () -> Upstream? in
            guard !gate.hasEnded else { return nil }
            if Self.latestFitsWord { wordValue = value } else { state.latest = value }
            // Upstream is subscribed at `other`'s first value.
            return state.unsubscribed.take()
        }
        upstream?.subscribe(self)
    }

    @inlinable
    func receiveOther(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: lock.withLock { state.other = nil }
        case .failure: finish(with: completion, completed: \.other)
        }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "WithLatestFrom")
        let target = lock.withLock { () -> (any Subscription)? in
            guard !gate.hasEnded else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        target?.request(demand)
    }

    @inlinable
    func cancel() {
        finish(with: nil, completed: nil)
    }

    /// Ends the stream with a completion (nil for a cancel) from the publisher whose subscription
    /// `completed` names (which is not cancelled). Downstream gets the completion and is let go of
    /// now, or, if a value is being delivered, when the delivery returns.
    @inlinable
    func finish(
        with completion: Subscribers.Completion<Failure>?, completed: WritableKeyPath<State, (any Subscription)?>?
    ) {
        let cancels = lock.withLock { () -> [any Subscription]? in
            // Ended under the lock, so that nothing is kept or attached after the end.
            guard gate.end() else { return nil }
            if let completed { state[keyPath: completed] = nil }
            return state.end(with: completion)
        }
        guard let cancels else { return }
        for subscription in cancels { subscription.cancel() }
        if gate.claimRelease() { release() }
    }

    /// The stream has ended and no delivery runs (the gate said so, to this caller only):
    /// downstream gets the completion, if there is one, and is let go of.
    @inlinable @discardableResult
    func release() -> State.Ending? {
        let ending = lock.withLock { state.ending.take() }
        if case .complete(let completion) = ending { live.with { $0.downstream.receive(completion: completion) } }
        live.release()
        return ending
    }
}

/// `other`'s subscriber: hands everything to the subscription.
@usableFromInline
struct WithLatestFromOtherSide<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>: Subscriber
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Other.Output
    @usableFromInline typealias Failure = Other.Failure

    @usableFromInline let parent: WithLatestFromSubscription<Upstream, Other, Downstream>
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable init(parent: WithLatestFromSubscription<Upstream, Other, Downstream>) { self.parent = parent }

    @inlinable
    func receive(subscription: any Subscription) { parent.receiveOther(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.receiveOther(input)
        return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { parent.receiveOther(completion: completion) }
}
