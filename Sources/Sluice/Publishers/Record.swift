// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that allows for recording a series of inputs and a completion, for later playback
/// to each subscriber.
///
/// Playback honours demand as `Publishers.Sequence` does, and the recorded completion follows the
/// last value at once, without waiting for more demand. A recording with no values completes as
/// soon as the subscriber attaches.
@frozen
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher by letting the closure fill in a fresh recording.
    @inlinable
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a publisher to play back the given recording.
    @inlinable public init(recording: Recording) { self.recording = recording }

    /// Creates a publisher to play back the given output and completion.
    @inlinable
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeFused(subscriber)
    }

    @inlinable @inline(__always)
    public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
        _Runtime.RecordCursor(output: recording.output, completion: recording.completion)
    }
}

extension Record {
    // Built once, before any subscription: its members are not inlinable, so that its fields can stay
    // read-only from outside.
    /// A recorded sequence of outputs, followed by a completion.
    public struct Recording {
        /// The type of the values the recording holds.
        public typealias Input = Output

        /// The output to play back.
        public private(set) var output: [Output]
        /// The completion once one is recorded; `nil` while the recording is still open.
        private var ending: Subscribers.Completion<Failure>?

        /// The completion to play back after the output; `.finished` until one is received.
        public var completion: Subscribers.Completion<Failure> { ending ?? .finished }

        /// Creates an empty recording, open for values and a completion.
        public init() {
            output = []
        }

        /// Creates a complete recording of the given output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            ending = completion
        }

        /// Records a value. Recording a value after the completion is a programming error and traps.
        public mutating func receive(_ input: Input) {
            guard ending == nil else { trap("Record.Recording received a value after its completion") }
            output.append(input)
        }

        /// Records the completion. Recording a second completion is a programming error and traps.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            guard ending == nil else {
                trap("Record.Recording received a completion after its completion")
            }
            ending = completion
        }
    }
}

// A recording is archived as its output and its completion (a decoded recording is complete);
// `Archive` lets the compiler write the coding for that shape.
extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private struct Archive: Codable {
        var output: [Output]
        var completion: Subscribers.Completion<Failure>
    }

    /// Decodes a recording; a decoded recording is complete.
    public init(from decoder: any Decoder) throws {
        let archive = try Archive(from: decoder)
        self.init(output: archive.output, completion: archive.completion)
    }

    /// Encodes the output and the completion.
    public func encode(to encoder: any Encoder) throws {
        try Archive(output: output, completion: completion).encode(to: encoder)
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

extension _Runtime {
    /// Plays a recording back: its values in order, then its completion. Exhausted after the last
    /// value, so that the completion (a failure too) follows it without waiting for demand.
    @frozen
    @usableFromInline struct RecordCursor<Output, Failure: Error>: _Runtime.FusedCursor {
        @usableFromInline let output: [Output]
        @usableFromInline let completion: Subscribers.Completion<Failure>
        @usableFromInline var index: Int

        @inlinable @inline(__always)
        init(output: [Output], completion: Subscribers.Completion<Failure>) {
            self.output = output
            self.completion = completion
            index = output.startIndex
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Output, Failure> {
            guard index < output.endIndex else {
                switch completion {
                case .finished: return .finished
                case .failure(let error): return .failure(error)
                }
            }
            defer { index += 1 }
            return .value(output[index])
        }

        @inlinable var isExhausted: Bool { index == output.endIndex }

        /// What Combine's recording subscription says once it has ended.
        @inlinable var _name: StaticString { "Cancelled Events" }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .showsSourceSubscription.union(.acceptsZeroDemand).union(.fusable)
        }

        /// Combine's ended recording subscription shows no values and the completion (the one it
        /// delivered; none after a cancel).
        @usableFromInline static func _endedChildren(completion: Any?) -> [Mirror.Child] {
            guard let completion else { return [("sequence", [Output]())] }
            return [("sequence", [Output]()), ("completion", completion)]
        }

        /// Combine's describes a recording's playback by its values while it runs.
        @inlinable
        func _reflection(downstream: Any) -> _Runtime.Reflection {
            _Runtime.Reflection("\(output)", [("sequence", output), ("completion", completion)])
        }
    }
}
