// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received input.
    ///
    /// The trap message is `prefix`, a space, and the error (just the error when `prefix` is
    /// empty), reported at `file` and `line`.
    @inlinable
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    // A stage: values pass unchanged, and only the failure path does something (it traps), so the operator
    // fuses over a synchronous upstream at no cost.
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received input.
    @frozen
    public struct AssertNoFailure<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The string used at the beginning of the fatal error message.
        public let prefix: String
        /// The filename used in the error message.
        public let file: StaticString
        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received input.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.AssertNoFailureStage(prefix: prefix, file: file, line: line)
        }
    }
}

extension _Runtime {
    /// The stage of `assertNoFailure`: the identity on values; an upstream failure traps.
    @frozen
    @usableFromInline struct AssertNoFailureStage<Value, UpstreamFailure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("AssertNoFailure", passesSubscriptionThrough: true)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("file", file), ("line", line), ("prefix", prefix)]
        }
        @usableFromInline let prefix: String
        @usableFromInline let file: StaticString
        @usableFromInline let line: UInt

        @inlinable @inline(__always)
        init(prefix: String, file: StaticString, line: UInt) {
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Never> { .value(input) }

        /// Never returns: the failure is the programmer error this operator exists to catch.
        @inlinable
        func mapFailure(_ error: UpstreamFailure) -> Never {
            fatalError(prefix.isEmpty ? "\(error)" : "\(prefix) \(error)", file: file, line: line)
        }
    }
}
