/// A type-erasing subscriber.
///
/// Wraps an existing subscriber whose details you don't want to expose, or builds a subscriber
/// from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    public let combineIdentifier: CombineIdentifier
    private let receiveSubscriptionBody: (any Subscription) -> Void
    private let receiveValueBody: (Input) -> Subscribers.Demand
    private let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void
    /// What it introspects as: the wrapped subscriber, or a name for a closure-based one.
    private let wrapped: Any

    /// Wraps the given subscriber.
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = s.combineIdentifier
        receiveSubscriptionBody = s.receive(subscription:)
        receiveValueBody = s.receive(_:)
        receiveCompletionBody = s.receive(completion:)
        wrapped = s
    }

    /// Wraps the given subject: values and completions are sent to it, and the upstream
    /// subscription is handed to the subject, which asks for values when it wants them. The
    /// same subscriber as `Publisher.subscribe(_:)` with a subject.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Creates a subscriber from closures; a missing closure ignores its event (and a missing
    /// value closure asks for no more demand).
    ///
    /// The closures are let go of once the completion has been delivered; after it, every event
    /// is ignored.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        let closures = SubscriberClosures(
            receiveSubscription: receiveSubscription ?? { _ in },
            receiveValue: receiveValue ?? { _ in .none },
            receiveCompletion: receiveCompletion ?? { _ in })
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionBody = closures.receive(subscription:)
        receiveValueBody = closures.receive(_:)
        receiveCompletionBody = closures.receive(completion:)
        wrapped = "Anonymous AnySubscriber"
    }

    public var description: String { String(describing: wrapped) }

    public var customMirror: Mirror { Mirror(reflecting: wrapped) }

    public var playgroundDescription: Any { description }

    public func receive(subscription: any Subscription) { receiveSubscriptionBody(subscription) }

    public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}

/// The closures of a closure-based `AnySubscriber`. A struct cannot let go of its own fields (and
/// its copies must all let go at once), so they live in this box, which drops them when the
/// completion arrives. Each call reads them under the lock and runs them after it.
private final class SubscriberClosures<Input, Failure: Error> {
    private struct Closures {
        let receiveSubscription: (any Subscription) -> Void
        let receiveValue: (Input) -> Subscribers.Demand
        let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    }

    private let lock = Lock()
    /// `nil` once the completion has been delivered.
    private var closures: Closures?

    init(
        receiveSubscription: @escaping (any Subscription) -> Void,
        receiveValue: @escaping (Input) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        closures = Closures(
            receiveSubscription: receiveSubscription, receiveValue: receiveValue, receiveCompletion: receiveCompletion)
    }

    func receive(subscription: any Subscription) {
        lock.withLock { closures }?.receiveSubscription(subscription)
    }

    func receive(_ value: Input) -> Subscribers.Demand {
        lock.withLock { closures }?.receiveValue(value) ?? .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // Taken out under the lock, run and dropped after it.
        lock.withLock { closures.take() }?.receiveCompletion(completion)
    }
}
