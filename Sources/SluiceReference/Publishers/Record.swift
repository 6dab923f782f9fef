// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that allows for recording a series of inputs and a completion, for later playback
/// to each subscriber.
///
/// Playback honours demand as `Publishers.Sequence` does, and the recorded completion follows the
/// last value at once, without waiting for more demand. A recording with no values completes as
/// soon as the subscriber attaches.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher by letting the closure fill in a fresh recording.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    /// Creates a publisher to play back the given recording.
    public init(recording: Recording) { self.recording = recording }

    /// Creates a publisher to play back the given output and completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receivePlayback(of: recording.output, then: recording.completion, name: nil)
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion.
    public struct Recording {
        /// The type of the values the recording holds.
        public typealias Input = Output

        /// The output to play back.
        public private(set) var output: [Output]
        /// The completion to play back after the output; `.finished` until one is received.
        public private(set) var completion: Subscribers.Completion<Failure>
        /// Whether `receive(completion:)` has been called: nothing may be recorded afterwards.
        private var isComplete: Bool

        /// Creates an empty recording, open for values and a completion.
        public init() {
            output = []
            completion = .finished
            isComplete = false
        }

        /// Creates a complete recording of the given output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isComplete = true
        }

        /// Records a value. Recording a value after the completion is a programming error and traps.
        public mutating func receive(_ input: Input) {
            require(!isComplete, "Record.Recording received a value after its completion")
            output.append(input)
        }

        /// Records the completion. Recording a second completion is a programming error and traps.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            require(!isComplete, "Record.Recording received a completion after its completion")
            self.completion = completion
            isComplete = true
        }
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a recording; a decoded recording is complete.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the output and the completion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording; the same as `encode(to:)`, under Combine's other name for it.
    public func encode(into encoder: any Encoder) throws { try encode(to: encoder) }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record from its recording.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record's recording.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}

extension Subscriber {
    /// Plays `output` back to this subscriber as demand allows, then `completion`: the behaviour of
    /// `Record`, and of `Optional.Publisher` and `Result.Publisher` with one value. With no output,
    /// the completion comes at once, after `Subscriptions.empty`.
    ///
    /// `name` is the subscription's description; `nil` describes it by its output, as Combine does
    /// for `Record`.
    func receivePlayback(of output: [Input], then completion: Subscribers.Completion<Failure>, name: String?) {
        guard !output.isEmpty else {
            receiveEmptySubscription(thenCompletion: completion)
            return
        }
        receive(
            subscription: PlaybackSubscription(output: output, completion: completion, downstream: self, name: name))
    }
}

/// Emits the recorded values while there is demand, then the completion right after the last one.
///
/// A `request` made from inside `receive` only adds demand: the loop already running picks it up,
/// so recursion stays bounded. The subscriber is released on completion and on cancel.
private final class PlaybackSubscription<Downstream: Subscriber>: Subscription, Introspected {
    private let lock = Lock()
    private let output: [Downstream.Input]
    private let completion: Subscribers.Completion<Downstream.Failure>
    private let name: String?
    /// The index of the next value to send.
    private var next = 0
    private var demand = Subscribers.Demand.none
    private var isEmitting = false
    /// `nil` once the stream has completed or been cancelled.
    private var downstream: Downstream?

    init(
        output: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>, downstream: Downstream,
        name: String?
    ) {
        self.output = output
        self.completion = completion
        self.downstream = downstream
        self.name = name
    }

    /// As Combine's: a recording describes itself by its values while it runs, and as
    /// "Cancelled Events" once it has ended.
    var description: String {
        if let name { return name }
        return lock.withLock { downstream != nil } ? String(describing: output) : "Cancelled Events"
    }

    /// Combine's children: a recording's values still to send and its completion; a one-value
    /// publisher's value, until it is sent.
    var customMirror: Mirror {
        lock.withLock {
            let remaining: [Downstream.Input] = downstream == nil ? [] : Array(output[next...])
            if name != nil {
                return Mirror(self, children: remaining.map { Mirror.Child(label: nil, value: $0) })
            }
            let children: [Mirror.Child] = [("sequence", remaining), ("completion", completion)]
            return Mirror(self, children: children)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        // Combine's recording takes a zero request without trapping (RecordTests); the one-value
        // publishers played back here (`Optional`, `Result`) trap (OptionalPublisherTests).
        if name != nil { demand.assertNonZero(on: description) }
        guard demand != .none else { return }
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard !isEmitting else {
            lock.unlock()
            return
        }
        isEmitting = true
        while let downstream, self.demand > 0 {
            self.demand -= 1
            let value = output[next]
            next += 1
            let isLast = next == output.count
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            // A cancel from inside `receive` ends the playback, completion included.
            guard self.downstream != nil else { break }
            if isLast {
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            self.demand += more
        }
        isEmitting = false
        lock.unlock()
    }

    func cancel() {
        // Released outside the lock: the subscriber's deinit may run arbitrary code.
        let released = lock.withLock { () -> Downstream? in
            defer { downstream = nil }
            return downstream
        }
        _ = released
    }
}
