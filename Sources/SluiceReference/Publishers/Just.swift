// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that emits an output to each subscriber just once, and then finishes.
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(output: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}

/// Delivers the value and `.finished` on the first request; a cancel from inside `receive`
/// suppresses the `.finished`.
private final class JustSubscription<Downstream: Subscriber>: Subscription, Introspected {
    private enum State {
        case pending(Downstream.Input, Downstream)
        case delivering(Downstream)
        case terminated
    }

    private let lock = Lock()
    private var state: State

    init(output: Downstream.Input, downstream: Downstream) { state = .pending(output, downstream) }

    var description: String { "Just" }

    /// Combine's one child: the value, until it is delivered.
    var customMirror: Mirror {
        lock.withLock {
            if case .pending(let output, _) = state {
                Mirror(self, children: [(nil, output)])
            } else {
                Mirror(self, children: [:])
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard case .pending(let output, let downstream) = state else {
            lock.unlock()
            return
        }
        state = .delivering(downstream)
        lock.unlock()
        _ = downstream.receive(output)
        lock.lock()
        guard case .delivering = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: .finished)
    }

    func cancel() {
        // Dropped here, after the lock: the subscriber's deinit may run any code.
        let previous = lock.withLock { exchange(&state, with: .terminated) }
        withExtendedLifetime(previous) {}
    }
}
