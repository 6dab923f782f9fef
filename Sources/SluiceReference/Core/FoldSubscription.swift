/// What a folding operator decides after seeing one upstream value.
enum FoldStep<Failure: Error> {
    /// Keep folding.
    case `continue`
    /// The answer is known (`first`, `contains`, `allSatisfy` at its first `false`): cancel
    /// upstream and deliver the result.
    case finishEarly
    /// Cancel upstream and fail (a `try` closure threw).
    case fail(Failure)
}

/// The subscription shared by the operators that fold the whole upstream into at most one value
/// (`collect()`, `reduce`, `count`, `min`/`max`, `first`/`last`, `contains`, `allSatisfy`,
/// `ignoreOutput`).
///
/// As in Combine, it asks upstream for `.unlimited` as soon as it is subscribed, and holds the
/// result until downstream has asked for something. A `nil` result means "no value": downstream
/// just finishes, demand or not.
final class FoldSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
{
    typealias Failure = UpstreamFailure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream is done; the result is being delivered.
        case finishing
        case awaitingDemand(Downstream.Input)
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var downstreamHasAsked = false
    private let downstream: Downstream
    private let fold: (Input) -> FoldStep<Downstream.Failure>
    private let result: () -> Downstream.Input?
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    let description: String

    init(
        _ name: String,
        downstream: Downstream,
        fold: @escaping (Input) -> FoldStep<Downstream.Failure>,
        result: @escaping () -> Downstream.Input?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
    ) {
        description = name
        self.downstream = downstream
        self.fold = fold
        self.result = result
        self.mapFailure = mapFailure
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
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch fold(input) {
        case .continue:
            break
        case .finishEarly:
            if claimUpstream() {
                upstream.cancel()
                deliver(result())
            }
        case .fail(let error):
            if claimUpstream() {
                upstream.cancel()
                fail(error)
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard claimUpstream() else { return }
        switch completion {
        case .finished:
            deliver(result())
        case .failure(let error):
            fail(mapFailure(error))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        downstreamHasAsked = true
        guard case .awaitingDemand(let value) = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let current = state
        state = .terminated
        lock.unlock()
        if case .subscribed(let upstream) = current {
            upstream.cancel()
        }
    }

    /// Moves out of `.subscribed`, so that exactly one path ends the stream. Returns false when
    /// another path (a cancel, say) got there first.
    private func claimUpstream() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .subscribed = state else { return false }
        state = .finishing
        return true
    }

    private func fail(_ error: Downstream.Failure) {
        lock.lock()
        guard case .finishing = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: .failure(error))
    }

    /// Sends the result and `.finished` now if downstream has asked, otherwise when it does.
    private func deliver(_ value: Downstream.Input?) {
        lock.lock()
        guard case .finishing = state else {
            lock.unlock()
            return
        }
        guard let value else {
            state = .terminated
            lock.unlock()
            downstream.receive(completion: .finished)
            return
        }
        guard downstreamHasAsked else {
            state = .awaitingDemand(value)
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }
}

extension FoldSubscription where UpstreamFailure == Downstream.Failure {
    /// A fold that passes an upstream failure on unchanged.
    convenience init(
        _ name: String, downstream: Downstream,
        fold: @escaping (Input) -> FoldStep<Downstream.Failure>, result: @escaping () -> Downstream.Input?
    ) {
        self.init(name, downstream: downstream, fold: fold, result: result, mapFailure: { $0 })
    }
}

extension FoldSubscription where Downstream.Failure == any Error {
    /// A `try` fold: a thrown error fails the stream, and an upstream failure is passed on as `any Error`.
    convenience init(
        _ name: String, downstream: Downstream,
        tryFold: @escaping (Input) throws -> FoldStep<any Error>, result: @escaping () -> Downstream.Input?
    ) {
        self.init(name, downstream: downstream, fold: { input in
            do { return try tryFold(input) } catch { return .fail(error) }
        }, result: result, mapFailure: { $0 })
    }
}
