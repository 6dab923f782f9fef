// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// Each line starts with `prefix` and `": "` (nothing when `prefix` is empty). Without a
    /// stream, lines go to standard output.
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed with a given string.
    ///
    /// The lines, as Combine prints them: `receive subscription: (<subscription>)`,
    /// `request unlimited`, `request max: (<n>)`, `receive value: (<value>)`, `receive finished`,
    /// `receive error: (<error>)`, `receive cancel`. Demand that downstream returns from
    /// `receive(_:)` is logged with a ` (synchronous)` suffix.
    ///
    /// As Combine's, it logs every event it sees: before upstream's subscription, and after the
    /// end too (a `receive cancel` or a `request max: (1)` that comes after the stream finished). It
    /// passes nothing on after the end.
    @frozen
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The stream that receives the messages; `nil` prints to standard output.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events.
        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let observer = PrintObserver<Output, Failure>(prefix: prefix, stream: stream)
            upstream.subscribe(PassThroughSubscription(observer: observer, downstream: subscriber))
        }
    }
}

/// The observer of `print`: one per subscription, because it owns its copy of the stream (a
/// value-type stream keeps what it was written). The lock keeps lines whole when events come from
/// several threads; it guards only the stream and is never held while calling another stage.
@usableFromInline
final class PrintObserver<Input, Failure: Error>: EventObserver {
    @usableFromInline let prefix: String
    @exclusivity(unchecked)
    @usableFromInline var stream: (any TextOutputStream)?
    @usableFromInline let lock = Lock()

    @inlinable
    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix
        self.stream = stream
    }

    @inlinable static var name: String { "Print" }
    @inlinable static var observesEveryEvent: Bool { true }

    @inlinable func receive(subscription: any Subscription) { log("receive subscription: (\(subscription))") }
    @inlinable func receive(_ input: Input) { log("receive value: (\(input))") }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log("receive finished")
        case .failure(let error): log("receive error: (\(error))")
        }
    }

    @inlinable func cancel() { log("receive cancel") }

    @inlinable
    func request(_ demand: Subscribers.Demand, synchronous: Bool) {
        let amount = demand.max.map { "request max: (\($0))" } ?? "request unlimited"
        log(synchronous ? amount + " (synchronous)" : amount)
    }

    @usableFromInline
    func log(_ message: String) {
        let line = prefix.isEmpty ? message : prefix + ": " + message
        lock.lock()
        defer { lock.unlock() }
        guard var target = stream else {
            Swift.print(line)
            return
        }
        // What `Swift.print(line, to: &target)` writes (the empty separator before its one item,
        // the item, the terminator), as Combine's `print` does, spelled out: that call on an
        // existential stream crashes the Swift 6.3 compiler.
        target.write("")
        target.write(line)
        target.write("\n")
        stream = target
    }
}
