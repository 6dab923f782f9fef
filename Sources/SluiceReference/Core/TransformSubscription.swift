/// What a one-to-one operator decides for one upstream value.
enum TransformStep<Output, Failure: Error> {
    /// Forward the value downstream; downstream's answer is the new demand upstream.
    case emit(Output)
    /// Drop the value and ask upstream for one more in its place (`filter`, `compactMap`, ...).
    case skip
    /// Forward the value, then cancel upstream and finish (`prefix(_:)` at its last value).
    case emitThenFinish(Output)
    /// Cancel upstream and finish without forwarding (`prefix(while:)` at its first `false`).
    case finish
    /// Cancel upstream and fail (a `try` closure threw).
    case fail(Failure)
}

/// The subscription shared by the one-to-one operators of the reference (`map`, `filter`,
/// `scan`, `removeDuplicates`, `mapError`, `prefix(while:)`, ...).
///
/// It sits between upstream and downstream: demand and cancellation pass straight upstream,
/// each value goes through `step`, and the completion through `mapCompletion`. It holds one lock
/// over one state enum and never calls out while holding it.
final class TransformSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
{
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private let downstream: Downstream
    private let step: (Input) -> TransformStep<Output, Downstream.Failure>
    private let mapCompletion: (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    let description: String

    init(
        _ name: String,
        downstream: Downstream,
        step: @escaping (Input) -> TransformStep<Output, Downstream.Failure>,
        mapCompletion: @escaping (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    ) {
        description = name
        self.downstream = downstream
        self.step = step
        self.mapCompletion = mapCompletion
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch step(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .emitThenFinish(let output):
            _ = downstream.receive(output)
            terminate(upstream, with: .finished)
        case .finish:
            terminate(upstream, with: .finished)
        case .fail(let error):
            terminate(upstream, with: .failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: mapCompletion(completion))
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            state = .terminated
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        upstream.cancel()
    }

    /// Ends the stream from the middle: upstream is cancelled first, then downstream completes,
    /// unless a cancel from downstream got there first.
    private func terminate(_ upstream: any Subscription, with completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        upstream.cancel()
        downstream.receive(completion: completion)
    }
}

extension TransformSubscription where UpstreamFailure == Downstream.Failure {
    /// An operator that does not touch the completion.
    convenience init(_ name: String, downstream: Downstream, step: @escaping (Input) -> TransformStep<Output, Downstream.Failure>) {
        self.init(name, downstream: downstream, step: step, mapCompletion: { $0 })
    }
}

extension TransformSubscription where Downstream.Failure == any Error {
    /// A `try` operator: an upstream failure is passed on as `any Error`.
    convenience init(_ name: String, downstream: Downstream, tryStep: @escaping (Input) throws -> TransformStep<Output, any Error>) {
        self.init(name, downstream: downstream, step: { input in
            do { return try tryStep(input) } catch { return .fail(error) }
        }, mapCompletion: { completion in
            switch completion {
            case .finished: .finished
            case .failure(let error): .failure(error)
            }
        })
    }
}
