/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A subscriber receives the current value when it first asks for demand, then every later value;
/// one that had no demand when a value was sent receives the then-current value when it next asks.
/// Once completed, the subject publishes nothing; `send(_:)` leaves the value alone, while setting
/// `value` still stores it.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    /// The value, guarded by the core's lock.
    @usableFromInline final class Storage {
        @exclusivity(unchecked)
        @usableFromInline var value: Output
        @usableFromInline init(_ value: Output) { self.value = value }
    }

    @usableFromInline let storage: Storage
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// The value wrapped by this subject, published as a new element whenever it changes.
    /// After completion, setting it stores the value without publishing it.
    public var value: Output {
        get { core.lock.withLock { storage.value } }
        set {
            core.lock.lock()
            defer { core.lock.unlock() }
            storage.value = newValue
            if core.completion == nil { core.send(newValue) }
        }
    }

    /// Creates a current value subject with the given initial value.
    public init(_ value: Output) {
        let storage = Storage(value)
        self.storage = storage
        core = SubjectCore(name: "CurrentValueSubject", currentValue: { storage.value }, asksUpstreamAtOnce: true)
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    @inlinable
    public func send(_ input: Output) {
        core.lock.lock()
        defer { core.lock.unlock() }
        guard core.completion == nil else { return }
        storage.value = input
        core.send(input)
    }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
