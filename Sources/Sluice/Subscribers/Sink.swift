import Synchronization

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour; it requests an unlimited number of values.
    ///
    /// On a fusable chain the whole stream runs here, inline, as one loop (see `Runtime/Runtime.swift`).
    @inlinable @inline(__always)
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        if Self._isFusable {
            sink._run(_makeCursor(), receiveValue: receiveValue, receiveCompletion: receiveCompletion)
        } else {
            subscribe(sink)
        }
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable @inline(__always)
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        /// The closure to execute on receipt of a value.
        public let receiveValue: (Input) -> Void
        /// The closure to execute on completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        @usableFromInline static var awaiting: UInt8 { 0 }
        @usableFromInline static var active: UInt8 { 1 }
        @usableFromInline static var done: UInt8 { 2 }

        /// `awaiting` → `active` → `done`; changed under `lock`, read without it.
        @usableFromInline let status = Atomic<UInt8>(0)
        @usableFromInline let lock = Lock()
        @exclusivity(unchecked)
        @usableFromInline var subscription: (any Subscription)?

        /// Initializes a sink with the provided closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public var description: String { "Sink" }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard status.load(ordering: .relaxed) == Self.awaiting else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status.store(Self.active, ordering: .releasing)
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if status.load(ordering: .acquiring) == Self.active { receiveValue(value) }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            if end() { receiveCompletion(completion) }
        }

        public func cancel() {
            lock.lock()
            let current = subscription
            subscription = nil
            status.store(Self.done, ordering: .releasing)
            lock.unlock()
            current?.cancel()
        }

        /// Moves to `done`; true for the one caller that did it while active.
        @usableFromInline
        func end() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard status.load(ordering: .relaxed) == Self.active else { return false }
            status.store(Self.done, ordering: .releasing)
            subscription = nil
            return true
        }

        /// Runs a fused chain into this sink: the stream's whole life, in the caller.
        ///
        /// There is no subscription object: nobody outside could observe one, and a `cancel()`
        /// from another thread flips `status`, which the loop reads before every element.
        @inlinable @inline(__always)
        public func _run<Cursor: _FusedCursor>(
            _ cursor: Cursor,
            receiveValue: (Input) -> Void,
            receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) where Cursor.Output == Input, Cursor.Failure == Failure {
            status.store(Self.active, ordering: .relaxed)
            var cursor = cursor
            while status.load(ordering: .relaxed) == Self.active {
                let completion: Subscribers.Completion<Failure>
                switch cursor.next() {
                case .value(let value):
                    receiveValue(value)
                    guard cursor.isExhausted else { continue }
                    completion = cursor._completion()
                case .skip:
                    guard cursor.isExhausted else { continue }
                    completion = cursor._completion()
                case .finished:
                    completion = .finished
                case .failure(let error):
                    completion = .failure(error)
                }
                if end() { receiveCompletion(completion) }
                return
            }
        }
    }
}
