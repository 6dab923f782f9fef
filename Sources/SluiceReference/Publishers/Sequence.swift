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
            subscriber.receive(subscription: SequenceSubscription(iterator: iterator, next: first, downstream: subscriber))
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
private final class SequenceSubscription<Iterator: IteratorProtocol, Downstream: Subscriber>:
    Subscription, CustomStringConvertible where Downstream.Input == Iterator.Element
{
    private let lock = Lock()
    private var iterator: Iterator
    /// The element to send next; `nil` once the sequence is exhausted.
    private var next: Iterator.Element?
    private var demand = Subscribers.Demand.none
    private var isEmitting = false
    private var isTerminated = false
    private let downstream: Downstream

    init(iterator: Iterator, next: Iterator.Element, downstream: Downstream) {
        self.iterator = iterator
        self.next = next
        self.downstream = downstream
    }

    var description: String { "Sequence" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard !isEmitting else {
            lock.unlock()
            return
        }
        isEmitting = true
        while !isTerminated, self.demand > 0, let value = next {
            self.demand -= 1
            next = iterator.next()
            let isLast = next == nil
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            if isTerminated { break }
            if isLast {
                isTerminated = true
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            }
            self.demand += more
        }
        isEmitting = false
        lock.unlock()
    }

    func cancel() {
        lock.withLock { isTerminated = true }
    }
}
