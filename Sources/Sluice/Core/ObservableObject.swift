// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

@_spi(Reflection) import Swift
import Synchronization

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
    // The object's `@Published` fields are found once per class, from its field metadata, not by a `Mirror`
    // of each object.
    /// A publisher that emits before any `@Published` property of the object (its superclasses' included) changes.
    ///
    /// The publisher is made on the first access and kept in the storage of each of those properties, so
    /// every later access returns the same one. An object without `@Published` properties gets the same
    /// publisher at each access too, as in Combine (since iOS 13.3), kept in a side table by the object's
    /// identity.
    public var objectWillChange: ObservableObjectPublisher {
        let fields = PublishedFields.of(type(of: self))
        guard let first = fields.first else { return UnpublishedObjects.shared.publisher(of: self) }
        let object = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        if let installed = first.storage(in: object).installed { return installed }
        let publisher = first.storage(in: object).install(ObservableObjectPublisher())
        for field in fields.dropFirst() { _ = field.storage(in: object).install(publisher) }
        return publisher
    }
}

/// The storage every `@Published` property has, seen without its value type: where the owning
/// object's `objectWillChange` is kept.
protocol WillChangeStorage: AnyObject {
    /// The object's publisher, if one is installed here already; otherwise `candidate`, installed.
    func install(_ candidate: ObservableObjectPublisher) -> ObservableObjectPublisher

    /// The object's publisher, if installed.
    var installed: ObservableObjectPublisher? { get }
}

/// A field type that holds a `WillChangeStorage`: `Published`, whatever its value.
protocol PublishedField {
    /// The storage of the field of this type at `address`.
    static func storage(at address: UnsafeRawPointer) -> any WillChangeStorage
}

extension Published: PublishedField {
    static func storage(at address: UnsafeRawPointer) -> any WillChangeStorage {
        address.load(as: Published.self).subject
    }
}

/// Where a class keeps its `@Published` fields: their offsets in an instance, found once per class.
struct PublishedFields: Sendable {
    /// Metatypes are immutable, so a field list may be shared between threads.
    struct Field: @unchecked Sendable {
        let offset: Int
        let type: any PublishedField.Type

        func storage(in object: UnsafeRawPointer) -> any WillChangeStorage { type.storage(at: object + offset) }
    }

    private static let lock = Lock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var known: [ObjectIdentifier: [Field]] = [:]

    /// The `Published` fields of instances of `type`, its superclasses' included.
    static func of(_ type: AnyObject.Type) -> [Field] {
        let key = ObjectIdentifier(type)
        if let fields = lock.withLock({ known[key] }) { return fields }
        var fields: [Field] = []
        // `.classType` (raw value 1), spelled out: the stdlib declares it a mutable static.
        _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { _, offset, fieldType, _ in
            if let published = fieldType as? any PublishedField.Type {
                fields.append(Field(offset: offset, type: published))
            }
            return true
        }
        lock.withLock { known[key] = fields }
        return fields
    }
}

/// The `objectWillChange` of objects without `@Published` fields, which have nowhere of their own to
/// keep it: one per live object, found by its identity (an entry whose object is gone does not
/// match a new object at the same address, and is dropped as the table grows).
final class UnpublishedObjects: @unchecked Sendable {
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
