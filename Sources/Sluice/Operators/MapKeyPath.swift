// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes the value of a key path.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths as a tuple.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths as a tuple.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

// Combine declares no public initialisers for the key-path publishers: they are made by `map`.
// Each has its own stage holding the key paths themselves, so that a subscription allocates no
// closure to read them.

extension Publishers {
    /// A publisher that publishes the value of a key path.
    @frozen
    public struct MapKeyPath<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// A stage reading `keyPath`.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.MapKeyPathStage(keyPath: keyPath)
        }
    }

    /// A publisher that publishes the values of two key paths as a tuple.
    @frozen
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: _Runtime.StageOperator {
        public typealias Output = (Output0, Output1)
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// A stage reading both key paths.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.MapKeyPath2Stage(keyPath0: keyPath0, keyPath1: keyPath1)
        }
    }

    /// A publisher that publishes the values of three key paths as a tuple.
    @frozen
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: _Runtime.StageOperator {
        public typealias Output = (Output0, Output1, Output2)
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of a third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// A stage reading the three key paths.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.MapKeyPath3Stage(keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
        }
    }
}

extension _Runtime {
    /// `map(_:)`'s stage for one key path.
    @frozen
    @usableFromInline struct MapKeyPathStage<Input, Output, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("ValueForKey", passesSubscriptionThrough: true)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] { [("keyPath", reader.keyPath)] }
        @usableFromInline let reader: KeyPathReader<Input, Output>

        @inlinable @inline(__always) init(keyPath: KeyPath<Input, Output>) { reader = KeyPathReader(keyPath) }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure> {
            .value(reader.read(input))
        }
    }
}

extension _Runtime {
    /// `map(_:_:)`'s stage for two key paths.
    @frozen
    @usableFromInline struct MapKeyPath2Stage<Input, Output0, Output1, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("ValueForKeys", passesSubscriptionThrough: true)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("keyPath0", reader0.keyPath), ("keyPath1", reader1.keyPath)]
        }
        @usableFromInline let reader0: KeyPathReader<Input, Output0>
        @usableFromInline let reader1: KeyPathReader<Input, Output1>

        @inlinable @inline(__always)
        init(keyPath0: KeyPath<Input, Output0>, keyPath1: KeyPath<Input, Output1>) {
            reader0 = KeyPathReader(keyPath0)
            reader1 = KeyPathReader(keyPath1)
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<(Output0, Output1), Failure> {
            .value((reader0.read(input), reader1.read(input)))
        }
    }
}

extension _Runtime {
    /// `map(_:_:_:)`'s stage for three key paths.
    @frozen
    @usableFromInline struct MapKeyPath3Stage<Input, Output0, Output1, Output2, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("ValueForKeys", passesSubscriptionThrough: true)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("keyPath0", reader0.keyPath), ("keyPath1", reader1.keyPath), ("keyPath2", reader2.keyPath)]
        }
        @usableFromInline let reader0: KeyPathReader<Input, Output0>
        @usableFromInline let reader1: KeyPathReader<Input, Output1>
        @usableFromInline let reader2: KeyPathReader<Input, Output2>

        @inlinable @inline(__always)
        init(keyPath0: KeyPath<Input, Output0>, keyPath1: KeyPath<Input, Output1>, keyPath2: KeyPath<Input, Output2>) {
            reader0 = KeyPathReader(keyPath0)
            reader1 = KeyPathReader(keyPath1)
            reader2 = KeyPathReader(keyPath2)
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<(Output0, Output1, Output2), Failure> {
            .value((reader0.read(input), reader1.read(input), reader2.read(input)))
        }
    }
}

extension _Runtime {
    /// Reads a key path's value, at a closure's cost where it can.
    ///
    /// The standard library projects a key path it cannot see at compile time by walking its
    /// components in generic code, which looks up type metadata on every read (about 400
    /// instructions). A key path made only of stored properties of a struct or tuple has a fixed
    /// offset in its root, asked for once here, at subscription: the read is then a load at that
    /// offset, specialised where the pipeline is built. Any other key path (a class's property, a
    /// computed one, an optional chain) is read through the standard library, as before.
    @frozen
    @usableFromInline struct KeyPathReader<Root, Value> {
        @usableFromInline let keyPath: KeyPath<Root, Value>
        /// The value's offset in the root, for a key path of stored struct or tuple properties.
        @usableFromInline let offset: Int?

        @inlinable @inline(__always)
        init(_ keyPath: KeyPath<Root, Value>) {
            self.keyPath = keyPath
            offset = MemoryLayout<Root>.offset(of: keyPath)
        }

        @inlinable @inline(__always)
        func read(_ root: Root) -> Value {
            guard let offset else { return root[keyPath: keyPath] }
            return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
        }
    }
}
