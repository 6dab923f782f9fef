// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Marble diagrams: a stream's events along virtual time, as a string. Written once and compiled
// against each implementation (see VirtualTime.swift).
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// One event of a stream as a test sees it.
public enum TimelineEvent<Output, Failure: Error>: CustomStringConvertible {
    /// The subscriber got its subscription.
    case subscription
    /// A value.
    case value(Output)
    /// The stream finished.
    case finished
    /// The stream failed.
    case failure(Failure)

    public var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .finished: "finished"
        case .failure(let error): "failure(\(error))"
        }
    }
}

extension TimelineEvent: Equatable where Output: Equatable, Failure: Equatable {}

/// An event and the virtual time it happened at.
public struct TimedEvent<Output, Failure: Error>: CustomStringConvertible {
    /// When it happened.
    public var time: VirtualTime
    /// What happened.
    public var event: TimelineEvent<Output, Failure>

    /// An event at `time`.
    public init(_ time: VirtualTime, _ event: TimelineEvent<Output, Failure>) {
        self.time = time
        self.event = event
    }

    public var description: String { "\(time) \(event)" }
}

extension TimedEvent: Equatable where Output: Equatable, Failure: Equatable {}

/// The marble notation: one character per frame of virtual time.
///
/// - `-` a frame in which nothing happens;
/// - any letter or digit: a value (what it stands for is given by a table, or it is the
///   character itself);
/// - `|` the stream finishes; `#` it fails;
/// - `(ab)` events in the same frame (the group takes one frame);
/// - spaces are ignored, so a diagram can be lined up under another.
///
/// `"-a-b--c|"` is a value `a` at frame 1, `b` at 3, `c` at 6, then the end at 7.
public enum Marbles {
    /// The events of `diagram` with the frame each happens in, `values` mapping each value's
    /// character (a character missing from the table traps, naming it) and `failure` standing for `#`.
    public static func parse<Output, Failure: Error>(
        _ diagram: String, values: [Character: Output], failure: Failure? = nil
    ) -> [(frame: Int, event: TimelineEvent<Output, Failure>)] {
        var events: [(frame: Int, event: TimelineEvent<Output, Failure>)] = []
        var frame = 0
        var inGroup = false
        for character in diagram where character != " " {
            switch character {
            case "(":
                guard !inGroup else { fatalError("Marbles: a group cannot open inside a group in \"\(diagram)\"") }
                inGroup = true
                continue
            case ")":
                guard inGroup else { fatalError("Marbles: ')' closes no group in \"\(diagram)\"") }
                inGroup = false
            case "-":
                break
            case "|":
                events.append((frame, .finished))
            case "#":
                guard let failure else {
                    fatalError("Marbles: \"\(diagram)\" fails (#), but no failure was given")
                }
                events.append((frame, .failure(failure)))
            default:
                guard let value = values[character] else {
                    fatalError("Marbles: no value for '\(character)' in \"\(diagram)\"")
                }
                events.append((frame, .value(value)))
            }
            if !inGroup { frame += 1 }
        }
        guard !inGroup else { fatalError("Marbles: a group is not closed in \"\(diagram)\"") }
        return events
    }

    /// `events` as a diagram, frame by frame from `start`: the inverse of `parse`. `symbol` gives
    /// each value's character; subscriptions are not drawn.
    public static func diagram<Output, Failure: Error>(
        _ events: [TimedEvent<Output, Failure>], start: VirtualTime = .zero, frame: VirtualTime.Stride,
        symbol: (Output) -> Character
    ) -> String {
        var byFrame: [Int: [Character]] = [:]
        var last = -1
        for timed in events {
            let character: Character
            switch timed.event {
            case .subscription: continue
            case .value(let value): character = symbol(value)
            case .finished: character = "|"
            case .failure: character = "#"
            }
            let index = start.distance(to: timed.time).nanoseconds / frame.nanoseconds
            byFrame[index, default: []].append(character)
            last = max(last, index)
        }
        guard last >= 0 else { return "" }
        return (0...last).map { index in
            switch byFrame[index] {
            case nil: "-"
            case let characters? where characters.count == 1: String(characters)
            case let characters?: "(" + String(characters) + ")"
            }
        }.joined()
    }
}

extension Marbles {
    /// `parse` where each value is its own character.
    public static func parse<Failure: Error>(
        _ diagram: String, failure: Failure? = nil
    ) -> [(frame: Int, event: TimelineEvent<Character, Failure>)] {
        let characters = diagram.filter { !"-|#() ".contains($0) }
        return parse(
            diagram, values: Dictionary(characters.map { ($0, $0) }, uniquingKeysWith: { first, _ in first }),
            failure: failure)
    }
}
