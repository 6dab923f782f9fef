// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A type that publishes a property marked with an attribute.
///
/// `@Published var name = value` in a class: `$name` publishes the current value to a new subscriber (when it
/// first asks) and then each value set, in the property's `willSet`: a subscriber sees the new value while
/// the property still holds the old one. In an `ObservableObject`, the object's default `objectWillChange`
/// fires first. The value lives in the storage that copies of the wrapper share. Setting the property from
/// several threads is safe: each subscriber receives values one at a time, and the property ends with the
/// last value sent.
@propertyWrapper
public struct Published<Value> {
    let storage: PublishedStorage<Value>

    /// Creates the published instance with an initial wrapped value (what `= value` calls).
    public init(wrappedValue: Value) {
        storage = PublishedStorage(wrappedValue)
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Only properties of classes can be `@Published`: their value goes through the subscript below.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher (`$name`). Assigning one changes nothing, as in Combine: it is settable so
    /// that `assign(to: &$name)`, the way to feed the property from a publisher, can take it `inout`.
    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        set {}
    }

    /// The property's value, through the instance that holds it. Setting it fires the object's
    /// `objectWillChange` (when installed), then the subscribers of `$name`, then stores the value.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set { object[keyPath: storageKeyPath].storage.publish(newValue) }
    }

    /// The publisher of a `@Published` property: the current value when a subscriber first asks,
    /// then every value set. It never completes.
    public struct Publisher: SluiceReference.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        let storage: PublishedStorage<Value>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.core.attach(subscriber, holding: storage)
        }
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked as a
    /// publisher (`assign(to: &$name)`).
    ///
    /// The subscription asks for everything, lives as long as the property's storage (there is no
    /// cancellable to keep), and is cancelled when the object that holds the property is freed. A
    /// completion ends it and leaves the property as it is. A later `assign(to:)` on the same
    /// property does not replace an earlier one: as in Combine, both keep assigning.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignment(storage: published.storage))
    }
}

/// What a `@Published` property stores: its value, the subject of `$name`, the owning object's
/// `objectWillChange` once somebody asks for it, and the subscriptions `assign(to:)` made.
final class PublishedStorage<Value>: WillChangeStorage {
    private let lock = Lock()
    private var current: Value
    /// The version of `current`: the number of the send that brought it.
    private var version: UInt64 = 0
    private var sends: UInt64 = 0
    private var objectWillChange: ObservableObjectPublisher?
    /// The subscriptions of every `assign(to:)`: a second one piles up beside the first, as in
    /// Combine ("New subscriptions will pile up"); all are cancelled when the storage is freed.
    private var assignments: [any Subscription] = []
    private(set) var core: SubjectCore<Value, Never>!

    init(_ value: Value) {
        current = value
        core = SubjectCore(
            name: "PublishedSubject", currentValue: { [unowned self] in lock.withLock { (current, version) } },
            asksUpstreamAtOnce: true)
    }

    deinit {
        for assignment in lock.withLock({ assignments }) { assignment.cancel() }
    }

    var value: Value { lock.withLock { current } }

    /// Signals `objectWillChange`, delivers the value, and then stores it (unless a later send has
    /// stored its value already).
    func publish(_ value: Value) {
        let (objectWillChange, number) = lock.withLock { () -> (ObservableObjectPublisher?, UInt64) in
            sends += 1
            return (self.objectWillChange, sends)
        }
        objectWillChange?.send()
        core.send(value, version: number)
        lock.withLock {
            if number > version {
                current = value
                version = number
            }
        }
    }

    func install(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher {
        lock.withLock {
            if objectWillChange == nil { objectWillChange = candidate }
            return objectWillChange!
        }
    }

    var installed: ObservableObjectPublisher? { lock.withLock { objectWillChange } }

    /// Keeps the subscription of an `assign(to:)`, to be cancelled with the storage.
    func assign(_ subscription: any Subscription) {
        lock.withLock { assignments.append(subscription) }
    }
}

/// The subscriber of `assign(to:)`: writes each value into the storage, which it holds weakly (the
/// storage holds the subscription, which holds this).
private final class PublishedAssignment<Value>: Subscriber, CustomStringConvertible {
    typealias Input = Value
    typealias Failure = Never

    weak var storage: PublishedStorage<Value>?

    init(storage: PublishedStorage<Value>) { self.storage = storage }

    var description: String { "Assign" }

    func receive(subscription: any Subscription) {
        guard let storage else { return subscription.cancel() }
        storage.assign(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        storage?.publish(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
