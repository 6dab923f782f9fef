// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The contract check's words: the rules (each citing where it comes from), the report, and what an
// operator declares it asks of its upstream. Written once and compiled against each implementation
// (see VirtualTime.swift).

/// A rule of the contract between a publisher and its subscriber.
public enum PublisherRule: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The subscription comes first, and once (Combine's `Subscriber`; Reactive Streams 1.9, 2.5).
    case subscriptionFirstAndOnce
    /// Never more values than demanded (Combine's `Subscribers.Demand`; Reactive Streams 1.1).
    case demandIsRespected
    /// At most one completion (Reactive Streams 1.7).
    case oneCompletion
    /// Nothing after the completion (Reactive Streams 1.7, 2.4).
    case nothingAfterCompletion
    /// After `cancel()` returns, nothing more is delivered (Reactive Streams 1.8, 3.6): at once when
    /// the publisher delivers synchronously, within the time its `Delivery` allows when it
    /// delivers later.
    case cancelStopsDelivery
    /// After `cancel()`, the publisher lets go of the subscriber (Reactive Streams 3.13).
    case cancelReleasesSubscriber
    /// Demand asked for from inside `receive(_:)` does not deepen the stack without bound (Reactive
    /// Streams 3.3): values keep coming when each `receive` returns `.max(1)`, and when it calls
    /// `request(.max(1))`.
    case synchronousDemandIsBounded
    /// `request` and `cancel` may be called from several threads at once (Combine's `Subscription`
    /// is thread-safe; Reactive Streams 2.7, 3.5): what comes is what was asked for, and nothing
    /// comes once a cancel has returned. Checked when every other rule held.
    case concurrentRequestAndCancel
    /// An operator passes its subscriber's cancel on to its upstream subscription (Combine's
    /// operators all do; Reactive Streams 3.5).
    case cancelReachesUpstream
    /// An operator asks upstream for no more than its subscriber asked of it (map, filter and the
    /// operators documented as passing demand through). Checked when the operator declares it.
    case upstreamDemandFollowsDownstream
    /// With unlimited demand, the stream ends. A promise: checked when the publisher makes it.
    case finishes
    /// Each subscriber gets the whole stream: a second subscriber, after the first, sees the same
    /// events. A promise: checked when the publisher makes it.
    case isCold
    /// A subscriber that comes after values were sent gets the latest of them first
    /// (`CurrentValueSubject`, `share(replay: 1)`). A promise: checked when the publisher makes it.
    case replaysLatest
    /// Each value reaches every subscriber before the next value reaches any, in the order they
    /// subscribed, and so does the completion (subjects, `share()`, `multicast`). A promise: checked
    /// when the publisher makes it, with three subscribers.
    case servesSubscribersInOrder

    /// The rules a publisher may promise beyond the contract; the others are checked always (the
    /// ones on upstream for operators only).
    public static var promises: [PublisherRule] { [.finishes, .isCold, .replaysLatest, .servesSubscribersInOrder] }

    /// The rule in words, as a report prints it.
    public var description: String {
        switch self {
        case .subscriptionFirstAndOnce: "the subscription comes first, and once"
        case .demandIsRespected: "never more values than demanded"
        case .oneCompletion: "at most one completion"
        case .nothingAfterCompletion: "nothing after the completion"
        case .cancelStopsDelivery: "nothing after cancel"
        case .cancelReleasesSubscriber: "a cancel lets go of the subscriber"
        case .synchronousDemandIsBounded: "synchronous demand does not recurse without bound"
        case .concurrentRequestAndCancel: "request and cancel are safe from several threads"
        case .cancelReachesUpstream: "a cancel reaches upstream"
        case .upstreamDemandFollowsDownstream: "upstream is asked for no more than downstream asked for"
        case .finishes: "with unlimited demand, it finishes"
        case .isCold: "every subscriber gets the whole stream"
        case .replaysLatest: "a later subscriber gets the latest value first"
        case .servesSubscribersInOrder: "each event reaches the subscribers in the order they subscribed"
        }
    }
}

/// What `checkContract` found: each rule it checked, kept or broken, with the events that broke it.
public struct ContractReport: CustomStringConvertible {
    /// One rule's outcome.
    public struct Finding: CustomStringConvertible {
        /// The rule.
        public let rule: PublisherRule
        /// Why the rule was broken (`nil`: it held).
        public let violation: String?
        /// The events of the run that broke it, one per line: what the scripted subscriber saw and
        /// did, and (marked `upstream:`) what an operator's upstream was asked.
        public let trace: [String]
        /// Why the rule was not checked (`nil`: it was).
        public let skipped: String?

        /// Whether the rule held (or was not checked).
        public var held: Bool { violation == nil }

        /// "kept" and the rule, "skipped" and why, or "BROKEN", the rule, why, and the trace.
        public var description: String {
            if let skipped { return "skipped \(rule): \(skipped)" }
            guard let violation else { return "kept   \(rule)" }
            let lines = ["BROKEN \(rule): \(violation)"] + diagram.map { "  " + $0 } + trace.map { "         \($0)" }
            return lines.joined(separator: "\n")
        }

        /// The trace as a marble diagram, one lane per party in the order each first appears
        /// (`subscriber`, `second` and `third` for later subscribers, `upstream` for an operator's):
        /// `^` the subscription, a value as itself, `|` the finish, `#` a failure, `?n` a request
        /// for n values (`?∞` unlimited), `+n` demand returned from a receive, `!` a cancel. Events keep their column, so that what
        /// happened in which order reads down and across:
        ///
        ///     subscriber: ^ ?1 0 1 2
        public var diagram: [String] {
            var lanes: [(name: String, marks: [String])] = []
            for (column, line) in trace.enumerated() {
                let (name, event) = Self.party(of: line)
                if !lanes.contains(where: { $0.name == name }) {
                    lanes.append((name, Array(repeating: "", count: column)))
                }
                for index in lanes.indices {
                    lanes[index].marks.append(lanes[index].name == name ? Self.mark(event) : "")
                }
            }
            // Each column as wide as its widest mark, so that the lanes line up.
            let widths = trace.indices.map { column in lanes.map { $0.marks[column].count }.max() ?? 0 }
            let nameWidth = lanes.map(\.name.count).max() ?? 0
            return lanes.map { lane in
                let marks = zip(lane.marks, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                let padding = String(repeating: " ", count: nameWidth - lane.name.count)
                let row = lane.name + ":" + padding + " " + marks.joined(separator: " ")
                return String(row.reversed().drop { $0 == " " }.reversed())
            }
        }

        /// Who a trace line is about, and the event without its label.
        private static func party(of line: String) -> (String, Substring) {
            for label in ["upstream", "second", "third"] where line.hasPrefix(label + ": ") {
                return (label, line.dropFirst(label.count + 2))
            }
            return ("subscriber", line[...])
        }

        /// One event's mark.
        private static func mark(_ event: Substring) -> String {
            func inside(_ prefix: String) -> Substring? {
                guard event.hasPrefix(prefix + "("), event.hasSuffix(")") else { return nil }
                return event.dropFirst(prefix.count + 1).dropLast()
            }
            switch event {
            case "subscription", "subscribed": return "^"
            case "finished": return "|"
            case "cancel": return "!"
            default: break
            }
            if let value = inside("value") { return String(value) }
            if event.hasSuffix(" returned") { return "+" + count(event.dropLast(" returned".count)) }
            if inside("failure") != nil { return "#" }
            if let demand = inside("request") { return "?" + count(demand) }
            return "[\(event)]"
        }

        /// A demand's count as a mark shows it: `max(3)` as `3`, `unlimited` as `∞`.
        private static func count(_ demand: Substring) -> String {
            if demand == "unlimited" { return "∞" }
            return demand.hasPrefix("max(") ? String(demand.dropFirst(4).dropLast()) : String(demand)
        }
    }

    /// The outcome of each rule checked, in `PublisherRule.allCases` order.
    public let findings: [Finding]

    /// The rules that were broken.
    public var violations: [Finding] { findings.filter { !$0.held } }

    /// The outcome for one rule (`nil`: the check does not apply it, as the rules on upstream to a
    /// publisher that is not an operator).
    public subscript(rule: PublisherRule) -> Finding? { findings.first { $0.rule == rule } }

    /// Every finding, one rule per line (a broken rule's trace below it).
    public var description: String { findings.map(\.description).joined(separator: "\n") }
}

/// What an operator asks of its upstream, as its documentation says.
public enum UpstreamDemand: Sendable {
    /// No more than its subscriber asked for: `map`, `filter`, `scan`, `compactMap`, ... (the rule
    /// `upstreamDemandFollowsDownstream` is checked).
    case withinDownstreamDemand
    /// Whatever it needs: `collect`, `reduce`, `flatMap`, `buffer`, `dropFirst`, ... (not checked).
    case unconstrained
}

/// When the publisher under check delivers.
public enum Delivery: Sendable {
    /// From `subscribe` and `request`, before they return, as sequences, `Just`, a fulfilled
    /// `Future` and operators over them do.
    case synchronous
    /// Later, on a scheduler or another thread, as `receive(on:)`, `subscribe(on:)`, `delay` and
    /// timers do: after each step the check waits until the stream ends or sends nothing for
    /// `within` seconds. A cancel must stop delivery within that time (what was on its way may
    /// still come), and the subscriber must be let go within a second more.
    case asynchronous(within: Double)
}
