// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

@_spi(Reflection) import Swift

/// A type of object with a publisher that emits before the object has changed.
///
/// By default `objectWillChange` is an `ObservableObjectPublisher` that emits before any
/// `@Published` property of the object changes, those its superclasses declare included.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    // The properties are found in the class's field metadata, not by a `Mirror`.
    /// A publisher that emits before any `@Published` property of the object (its superclasses' included) changes.
    ///
    /// The publisher is made on the first access and kept in the storage of each of those properties, so
    /// every later access returns the same one. An object without `@Published` properties gets the same
    /// publisher at each access too, as in Combine (since iOS 13.3), kept in a side table by the object's
    /// identity.
    public var objectWillChange: ObservableObjectPublisher {
        let storages = publishedStorages(of: self)
        guard let first = storages.first else { return UnpublishedObjects.shared.publisher(of: self) }
        let publisher = first.install(ObservableObjectPublisher())
        for storage in storages.dropFirst() { _ = storage.install(publisher) }
        return publisher
    }
}

/// The storage of a `@Published` property, whatever its value type.
protocol WillChangeStorage: AnyObject {
    /// The publisher installed here; `candidate` if there was none (it is installed then).
    func install(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher

    /// The publisher installed here, if any.
    var installed: ObservableObjectPublisher? { get }
}

/// A type that is a `Published` of some value type.
private protocol PublishedField {
    static func storage(at address: UnsafeRawPointer) -> any WillChangeStorage
}

extension Published: PublishedField {
    fileprivate static func storage(at address: UnsafeRawPointer) -> any WillChangeStorage {
        address.load(as: Published.self).storage
    }
}

/// The storages of `object`'s `Published` fields, its superclasses' included, read at the offsets
/// its class's field metadata gives.
private func publishedStorages(of object: AnyObject) -> [any WillChangeStorage] {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    var storages: [any WillChangeStorage] = []
    // `_EachFieldOptions.classType` is raw value 1 (the stdlib declares it a mutable static).
    _forEachField(of: type(of: object), options: _EachFieldOptions(rawValue: 1)) { _, offset, fieldType, _ in
        if let published = fieldType as? any PublishedField.Type {
            storages.append(published.storage(at: base + offset))
        }
        return true
    }
    return withExtendedLifetime(object) { storages }
}

/// The `objectWillChange` of objects without `@Published` properties, which have nowhere of their
/// own to keep it: one per live object, by identity. An entry whose object is gone does not match a
/// new object at the same address, and is dropped as the table grows.
private final class UnpublishedObjects: @unchecked Sendable {
    static let shared = UnpublishedObjects()

    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The size at which entries of objects that are gone are dropped.
    private var pruneAt = 64

    func publisher(of object: AnyObject) -> ObservableObjectPublisher {
        lock.withLock {
            let id = ObjectIdentifier(object)
            if let entry = entries[id], entry.object === object { return entry.publisher }
            if entries.count >= pruneAt {
                entries = entries.filter { $0.value.object != nil }
                pruneAt = max(64, entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            entries[id] = Entry(object: object, publisher: publisher)
            return publisher
        }
    }
}
