// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The value lives in the publisher's subject.
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
    @usableFromInline let subject: PublishedSubject<Value>

    /// Creates the published instance with an initial wrapped value (what `= value` calls).
    public init(wrappedValue: Value) {
        subject = PublishedSubject(wrappedValue)
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// `@Published` is for properties of classes: the value is read and written through the
    /// enclosing instance (the subscript below), never through this property.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher (`$name`). Assigning one changes nothing, as in Combine: it is settable so
    /// that `assign(to: &$name)`, the way to feed the property from a publisher, can take it `inout`.
    public var projectedValue: Publisher {
        get { Publisher(subject) }
        // The setter exists so that `$name` can be passed `inout` to `assign(to:)`.
        set {}
    }

    /// The property's value, read and written through the instance that holds it: a write fires
    /// the object's `objectWillChange` (if it has the default one), then `$name`'s subscribers, then
    /// stores the value.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].subject.value }
        set { object[keyPath: storageKeyPath].subject.publish(newValue) }
    }

    /// The publisher of a `@Published` property: the current value when a subscriber first asks,
    /// then every value set. It never completes.
    public struct Publisher: Sluice.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        @usableFromInline let subject: PublishedSubject<Value>

        @usableFromInline init(_ subject: PublishedSubject<Value>) { self.subject = subject }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            subject.core.attach(subscriber, holding: subject)
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
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignment(published.subject))
    }
}

/// The storage of a `@Published` property and the subject of `$name`: the value, its subscribers,
/// the owning object's `objectWillChange` once that is asked for, and what `assign(to:)` feeds it
/// from.
@usableFromInline
final class PublishedSubject<Value>: WillChangeStorage {
    @usableFromInline let core: SubjectCore<Value, Never>
    /// Written once under `core.lock`, when the object's `objectWillChange` is first asked for.
    @exclusivity(unchecked)
    @usableFromInline var objectWillChange: ObservableObjectPublisher?
    /// The subscriptions of every `assign(to:)`, cancelled when this storage is freed. A second
    /// `assign(to:)` piles up beside the first, as in Combine ("New subscriptions will pile up").
    @exclusivity(unchecked)
    var assignments: [any Subscription] = []

    init(_ value: Value) {
        core = SubjectCore(name: "PublishedSubject", current: value)
    }

    deinit {
        for assignment in core.lock.withLock({ assignments }) { assignment.cancel() }
    }

    @inlinable var value: Value { core.currentValue().value }

    @inlinable
    func publish(_ value: Value) {
        core.lock.lock()
        let objectWillChange = objectWillChange
        core.lock.unlock()
        objectWillChange?.send()
        core.publish(value)
    }

    /// The object's publisher, if one is installed here already; otherwise `candidate`, installed.
    func install(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher {
        core.lock.withLock {
            if let objectWillChange { return objectWillChange }
            objectWillChange = candidate
            return candidate
        }
    }

    var installed: ObservableObjectPublisher? { core.lock.withLock { objectWillChange } }

    /// Keeps `subscription` among the property's assignments, to be cancelled with the storage.
    @usableFromInline
    func assign(_ subscription: any Subscription) {
        core.lock.withLock { assignments.append(subscription) }
    }
}

/// What `assign(to:)` subscribes: it writes each value into the property's storage, which it holds
/// weakly (the storage holds its subscription, and so, through the upstream, this).
///
/// Specialised where `assign(to:)` is called (`@inlinable`): built in unspecialised code, the whole
/// pipeline it subscribes to would run unspecialised, with type-metadata lookups on every value.
@usableFromInline
final class PublishedAssignment<Value>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Value
    @usableFromInline typealias Failure = Never

    @usableFromInline weak var storage: PublishedSubject<Value>?

    @inlinable init(_ storage: PublishedSubject<Value>) { self.storage = storage }

    @usableFromInline var description: String { "Assign" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let storage else { return subscription.cancel() }
        storage.assign(subscription)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Value) -> Subscribers.Demand {
        storage?.publish(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Never>) {}
}
