// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received input.
    ///
    /// The trap message is `prefix`, a space, and the error (just the error when `prefix` is
    /// empty), reported at `file` and `line`.
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received input.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
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
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let (prefix, file, line) = (prefix, file, line)
            upstream.subscribe(
                StageSubscriber(
                    "AssertNoFailure",
                    downstream: subscriber,
                    reflect: { _, _ in [("file", file), ("line", line), ("prefix", prefix)] },
                    step: { .emit($0) },
                    mapCompletion: { completion in
                        switch completion {
                        case .finished:
                            return .finished
                        case .failure(let error):
                            fatalError(prefix.isEmpty ? "\(error)" : "\(prefix) \(error)", file: file, line: line)
                        }
                    }))
        }
    }
}
