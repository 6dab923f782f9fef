// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// Each line starts with `prefix` and `": "` (nothing when `prefix` is empty). Without a
    /// stream, lines go to standard output.
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
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let log = PrintObserver(prefix: prefix, stream: stream)
            let hooks = EventHooks<Output, Failure>(
                receiveSubscription: { log.write("receive subscription: (\($0))") },
                receiveOutput: { log.write("receive value: (\($0))") },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: log.write("receive finished")
                    case .failure(let error): log.write("receive error: (\(error))")
                    }
                },
                receiveCancel: { log.write("receive cancel") },
                receiveRequest: { log.write(PrintObserver.describe($0)) },
                receiveReturnedDemand: { log.write(PrintObserver.describe($0) + " (synchronous)") })
            upstream.subscribe(
                EventHookSubscription(name: "Print", downstream: subscriber, hooks: EventHooks(), everyEvent: hooks))
        }
    }
}

/// Where one `print` subscription writes its lines. The lock keeps lines whole when events
/// arrive from several threads; it guards only the stream, never a call to another stage.
private final class PrintObserver {
    private let lock = Lock()
    private let prefix: String
    private var stream: (any TextOutputStream)?

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix
        self.stream = stream
    }

    static func describe(_ demand: Subscribers.Demand) -> String {
        demand.max.map { "request max: (\($0))" } ?? "request unlimited"
    }

    func write(_ message: String) {
        let line = prefix.isEmpty ? message : "\(prefix): \(message)"
        lock.lock()
        defer { lock.unlock() }
        guard var target = stream else {
            Swift.print(line)
            return
        }
        // What `Swift.print(line, to: &target)` writes (the empty separator before its one item,
        // the item, the terminator), as Combine's `print` does; that call on an existential stream
        // crashes the Swift 6.3 compiler (IRGen), so the three writes are spelled out.
        target.write("")
        target.write(line)
        target.write("\n")
        // A value-type stream keeps what was written for the next line.
        stream = target
    }
}
