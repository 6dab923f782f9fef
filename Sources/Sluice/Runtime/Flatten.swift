// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fused form of `flatMap` and `switchToLatest` (see `_Runtime.CursorTraits.needsUnlimitedDemand`), and
// the one-shot take both operators use for an inner publisher that yields at most one value.

extension _Runtime {
    /// `flatMap` and `switchToLatest` over synchronous publishers, for a consumer whose demand is
    /// unlimited from the start: each upstream element's publisher is run to its end before the next
    /// element is pulled.
    ///
    /// That is exactly what the operators do there. Upstream is asked for `.unlimited` (or
    /// `maxPublishers`, then one more per finished inner, which a synchronous upstream answers at
    /// once), so it sends an element as soon as the previous one has been dealt with; each inner
    /// publisher is subscribed when its element arrives and, asked for `.unlimited`, sends everything
    /// and finishes inside that call (`switchToLatest` has nothing to switch away from). So the
    /// closures run in the same order, and no subscription, lock or queue is needed.
    @frozen
    @usableFromInline
    struct FlattenCursor<Upstream: _Runtime.FusedCursor, NewPublisher: Publisher>: _Runtime.FusedCursor
    where NewPublisher.Failure == Upstream.Failure {
        @usableFromInline typealias Output = NewPublisher.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline var upstream: Upstream
        @usableFromInline let transform: (Upstream.Output) -> NewPublisher
        /// The publisher of the latest element, while it has something left.
        @usableFromInline var inner: NewPublisher._Cursor?
        /// The failure the latest publisher ended with (seen ahead of time by `isExhausted`).
        @usableFromInline var failure: Failure?
        /// Whether an inner failure cancels upstream (`switchToLatest`) or leaves it be (`flatMap`).
        @usableFromInline let cancelsUpstreamOnFailure: Bool
        @usableFromInline let _isStarved: Bool

        @inlinable @inline(__always)
        init(
            upstream: Upstream, cancelsUpstreamOnFailure: Bool, isStarved: Bool,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.transform = transform
            inner = nil
            failure = nil
            self.cancelsUpstreamOnFailure = cancelsUpstreamOnFailure
            _isStarved = isStarved
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Output, Failure> {
            if let failure { return .failure(failure) }
            if NewPublisher._Cursor._traits.contains(.yieldsAtMostOneValue) { return nextOneShot() }
            while true {
                if inner != nil {
                    switch inner!.next() {
                    case .value(let value): return .value(value)
                    case .skip: return .skip
                    case .finished: inner = nil
                    case .failure(let error):
                        inner = nil
                        failure = error
                        return .failure(error)
                    }
                }
                switch upstream.next() {
                case .value(let element): inner = transform(element)._makeCursor()
                case .skip: return .skip
                case .finished: return .finished
                case .failure(let error): return .failure(error)
                }
            }
        }

        /// `next()` when each publisher yields at most one value: it is taken at once, with its
        /// completion (which runs no closure), and no cursor is kept.
        @inlinable @inline(__always)
        mutating func nextOneShot() -> _Runtime.StageStep<Output, Failure> {
            while true {
                switch upstream.next() {
                case .value(let element):
                    var once = transform(element)._makeCursor()
                    let (value, completion) = once.takeAtMostOne()
                    if case .failure(let error) = completion {
                        failure = error
                        guard let value else { return .failure(error) }
                        return .value(value)
                    }
                    if let value { return .value(value) }
                case .skip: return .skip
                case .finished: return .finished
                case .failure(let error): return .failure(error)
                }
            }
        }

        /// Nothing is left once the latest publisher and upstream have nothing left. Upstream is looked
        /// at only once the latest publisher has finished, as the operator hears of upstream's end only
        /// then; if it failed, the operator has cancelled upstream, which is not looked at.
        @inlinable var isExhausted: Bool {
            @inline(__always) mutating get {
                if failure != nil { return true }
                if inner != nil {
                    guard inner!.isExhausted else { return false }
                    if case .failure(let error) = inner!.next() { failure = error }
                    inner = nil
                    if failure != nil { return true }
                }
                return upstream.isExhausted
            }
        }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .needsUnlimitedDemand.union(
                .fusable(when: Upstream.fusesUnderAnyDemand && NewPublisher.fusesUnderAnyDemand))
        }

        /// As Combine's, `flatMap` does not cancel upstream when an inner publisher fails: a
        /// synchronous upstream runs on to its end, its elements unheard.
        @inlinable
        mutating func _didEnd() {
            guard failure != nil, !cancelsUpstreamOnFailure else { return }
            while !upstream.isExhausted {
                switch upstream.next() {
                case .finished, .failure: return
                case .value, .skip: break
                }
            }
        }

        /// The operator it stands for: only `switchToLatest` cancels upstream on an inner failure.
        @inlinable var _name: StaticString { cancelsUpstreamOnFailure ? "SwitchToLatest" : "FlatMap" }
    }
}

extension _Runtime.FusedCursor where Failure: Error {
    /// Runs a cursor that yields at most one value (`CursorTraits.yieldsAtMostOneValue`) to its end.
    @inlinable @inline(__always)
    mutating func takeAtMostOne() -> (value: Output?, completion: Subscribers.Completion<Failure>) {
        if isExhausted { return (nil, exhaustedCompletion()) }
        switch next() {
        case .value(let value): return (value, exhaustedCompletion())
        case .skip: return (nil, exhaustedCompletion())
        case .finished: return (nil, .finished)
        case .failure(let error): return (nil, .failure(error))
        }
    }
}

// The same flattening as loops: `_forEach` of `flatMap` and `switchToLatest`, which the inline
// `sink`, the folds and `assign` call, runs each element's publisher by its own `_forEach` inside
// upstream's, with the consumer's body inlined (continuation passing), instead of pulling values
// through `FlattenCursor`. The closures run in the cursor's order: each publisher is made and run
// to its end when its element arrives; after an inner failure, `switchToLatest` stops upstream,
// while `flatMap` lets it run on to its end, its elements unheard (as `FlattenCursor._didEnd()`).

extension Publisher {
    /// Runs this publisher's elements' publishers (`transform` makes them) one after the other.
    @inlinable @inline(__always)
    func forEachFlattened<NewPublisher: Publisher>(
        _ transform: (Output) -> NewPublisher, cancelsUpstreamOnFailure: Bool,
        _ receiveValue: (NewPublisher.Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    ) -> Bool where NewPublisher.Failure == Failure {
        var innerFailed = false
        return _forEach(
            { element in
                if innerFailed { return true }
                var stopped = false
                transform(element)._forEach(
                    { value in
                        guard receiveValue(value) else {
                            stopped = true
                            return false
                        }
                        return true
                    },
                    { completion in
                        guard case .failure = completion else { return }
                        receiveCompletion(completion)
                        innerFailed = true
                    })
                return !stopped && !(innerFailed && cancelsUpstreamOnFailure)
            },
            { completion in if !innerFailed { receiveCompletion(completion) } })
    }
}
