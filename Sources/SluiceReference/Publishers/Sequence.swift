// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// It emits one element per unit of demand and finishes right after the last element.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        public init(sequence: Elements) { self.sequence = sequence }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: SequenceSubscription(
                    iterator: iterator, next: first, downstream: subscriber, sequence: sequence))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Swift.Sequence {
    /// A publisher of this sequence's elements that never fails.
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}

/// Emits elements while there is demand. A `request` made from inside `receive` only adds demand:
/// the loop already running picks it up, so recursion stays bounded.
///
/// Lifetimes: downstream and the iterator (with whatever the sequence captured) are in `live`
/// until the stream finishes or is cancelled; that call takes them out under the lock and drops
/// them after.
private final class SequenceSubscription<Iterator: IteratorProtocol, Downstream: Subscriber>:
    Subscription, Introspected
where Downstream.Input == Iterator.Element {
    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        var iterator: Iterator
    }

    private let lock = Lock()
    /// `nil` once the stream has finished or been cancelled.
    private var live: Live?
    /// The element to send next; `nil` once the sequence is exhausted.
    private var next: Iterator.Element?
    private var demand = Subscribers.Demand.none
    private var isEmitting = false

    /// As Combine's, a live subscription describes itself by its sequence.
    private let sequence: Any

    init(iterator: Iterator, next: Iterator.Element, downstream: Downstream, sequence: Any) {
        live = Live(downstream: downstream, iterator: iterator)
        self.next = next
        self.sequence = sequence
    }

    var description: String { lock.withLock { live != nil } ? "\(sequence)" : "Sequence" }

    /// Combine's one child: the sequence, while the stream lives; an empty one after.
    var customMirror: Mirror {
        Mirror(self, children: [("sequence", lock.withLock { live != nil } ? sequence : [Iterator.Element]())])
    }

    func request(_ demand: Subscribers.Demand) {
        // Combine's sequence subscription takes a zero request without trapping (SequenceTests).
        guard demand != .none else { return }
        lock.lock()
        guard live != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard !isEmitting else {
            lock.unlock()
            return
        }
        isEmitting = true
        while let downstream = live?.downstream, self.demand > 0, let value = next {
            self.demand -= 1
            next = live?.iterator.next()
            let isLast = next == nil
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            if live == nil { break }
            if isLast {
                let ended = live.take()
                lock.unlock()
                downstream.receive(completion: .finished)
                withExtendedLifetime(ended) {}
                return
            }
            self.demand += more
        }
        isEmitting = false
        lock.unlock()
    }

    func cancel() {
        // Taken out under the lock, dropped after it: the subscriber's deinit may run any code.
        let released = lock.withLock { (live.take(), next.take()) }
        withExtendedLifetime(released) {}
    }
}
