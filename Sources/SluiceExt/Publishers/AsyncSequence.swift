import Sluice

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements: it pulls the next element only when its subscriber
    /// has demand, and a cancel cancels the task that iterates.
    public var publisher: Publishers.AsyncSequence<Self> { Publishers.AsyncSequence(self) }
}

extension Publishers {
    /// A publisher of an async sequence's elements, pulled as demand allows.
    ///
    /// Each subscriber gets its own iteration, in a task started at its first request. The task
    /// asks the sequence for the next element only while the subscriber's demand is above zero,
    /// and otherwise waits for a request. The sequence ending finishes the stream, and its error
    /// fails it. A cancel cancels the task, and nothing is delivered after it.
    public struct AsyncSequence<Base: _Concurrency.AsyncSequence & Sendable>: Publisher {
        public typealias Output = Base.Element
        public typealias Failure = Base.Failure

        /// The sequence whose elements are published.
        public let base: Base

        /// Creates a publisher of `base`'s elements.
        public init(_ base: Base) { self.base = base }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: AsyncSequenceSubscription(base: base, downstream: subscriber))
        }
    }
}

/// The subscription of an async sequence's publisher: the demand, and the iterating task, which
/// waits on a continuation while there is none.
private final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, AsyncIteration, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var task: Task<Void, Never>?
        /// The task, waiting for demand.
        var waiting: UnsafeContinuation<Bool, Never>?
    }

    private let base: Base
    private let lock = Lock()
    private var state: State

    init(base: Base, downstream: Downstream) {
        self.base = base
        state = State(downstream: downstream)
    }

    var description: String { "AsyncSequence" }

    func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0,
            "API violation: request(_:) was called with demand .none; a subscription must be asked for at least one value"
        )
        lock.withLock {
            guard state.downstream != nil else { return }
            state.demand += demand
            if state.task == nil {
                // Through an existential: the task's closure may not capture the generic types.
                let iteration: any AsyncIteration = self
                state.task = Task { await iteration.iterate() }
            }
            state.waiting.take()?.resume(returning: true)
        }
    }

    func cancel() {
        let (released, task) = lock.withLock { () -> (Downstream?, Task<Void, Never>?) in
            state.waiting.take()?.resume(returning: false)
            return (state.downstream.take(), state.task.take())
        }
        task?.cancel()
        withExtendedLifetime(released) {}
    }

    func iterate() async {
        var iterator = base.makeAsyncIterator()
        while await demanded() {
            let element: Base.Element?
            do {
                element = try await iterator.next(isolation: nil)
            } catch {
                return finish(.failure(error))
            }
            guard let element else { return finish(.finished) }
            // Downstream is not held while an element is awaited; after a cancel it is gone.
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(element)
            if more > 0 { lock.withLock { state.demand += more } }
        }
    }

    /// Takes one from the demand, waiting for a request if there is none; false once cancelled.
    private func demanded() async -> Bool {
        while true {
            let taken = lock.withLock { () -> Bool? in
                guard state.downstream != nil else { return false }
                guard state.demand > 0 else { return nil }
                state.demand -= 1
                return true
            }
            if let taken { return taken }
            let goOn = await withUnsafeContinuation { continuation in
                lock.withLock {
                    if state.downstream != nil, state.demand == 0 {
                        state.waiting = continuation
                    } else {
                        continuation.resume(returning: state.downstream != nil)
                    }
                }
            }
            guard goOn else { return false }
        }
    }

    private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
        let downstream = lock.withLock { () -> Downstream? in
            state.task = nil
            return state.downstream.take()
        }
        downstream?.receive(completion: completion)
    }
}

/// What the iterating task runs.
private protocol AsyncIteration: Sendable {
    func iterate() async
}
