// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fused merge (see MergeSubscription.swift for the unfused one).

// A merge of synchronous upstreams, for a consumer whose demand is unlimited from the start, is
// each upstream run to its end in turn: the merge subscribes them in order, and each one, asked
// for `.unlimited`, sends everything and finishes inside its subscription, before the next one is
// subscribed (and its cursor made). When the stream ends early (a failure, or a `prefix` after the
// merge) the unfused merge still subscribes the later upstreams once the completion has gone out,
// and cancels them at once: `_didEnd()` makes their cursors and drops them.

extension _Runtime {
    /// The fused `Merge`…`Merge8`: one upstream, then the merge of the rest (`Rest`, whose last level
    /// is an `_Runtime.Unfusable` cursor: nothing left, finished).
    ///
    /// Each level keeps its upstream's cursor, made when the level is reached, and a flag once that
    /// upstream has finished: a value from the k-th upstream passes k - 1 flags, not k - 1 optional
    /// cursors (nested optionals made LLVM outline their tag reads, about ten calls per value in
    /// `Merge8`).
    @frozen
    @usableFromInline struct MergeCursor<Upstream: Publisher, Rest: _Runtime.FusedCursor>: _Runtime.FusedCursor
    where Rest.Output == Upstream.Output, Rest.Failure == Upstream.Failure {
        @usableFromInline let upstream: Upstream
        /// The upstream's cursor, once this level is reached.
        @usableFromInline var current: Upstream._Cursor?
        @usableFromInline var hasFinished = false
        @usableFromInline var rest: Rest

        /// The first level: its upstream is subscribed at once.
        @inlinable @inline(__always)
        init(first upstream: Upstream, then rest: Rest) {
            self.upstream = upstream
            current = upstream._makeCursor()
            self.rest = rest
        }

        /// A later level: its upstream is subscribed when the one before has finished.
        @inlinable @inline(__always)
        init(later upstream: Upstream, then rest: Rest) {
            self.upstream = upstream
            current = nil
            self.rest = rest
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Upstream.Output, Upstream.Failure> {
            if hasFinished { return rest.next() }
            if current == nil { current = upstream._makeCursor() }
            switch current!.next() {
            case .finished:
                hasFinished = true
                current = nil
                return rest.next()
            case let step:
                return step
            }
        }

        @inlinable var isExhausted: Bool {
            @inline(__always) mutating get { hasFinished && rest.isExhausted }
        }

        /// The levels never reached are subscribed now, and dropped.
        @inlinable
        mutating func _didEnd() {
            if !hasFinished && current == nil { _ = upstream._makeCursor() }
            rest._didEnd()
        }

        /// Every upstream must be fusable under any demand; the last level (`Unfusable`) is the end.
        @inlinable static var _traits: _Runtime.CursorTraits {
            let restFuses = Rest.self == _Runtime.Unfusable<Output, Failure>.self || Rest._traits.contains(.fusable)
            return .needsUnlimitedDemand.union(.fusable(when: Upstream.fusesUnderAnyDemand && restFuses))
        }

        @inlinable var _name: StaticString { "Merge" }
    }
}

extension _Runtime {
    /// The fused `MergeMany`: its upstreams in turn.
    @frozen
    @usableFromInline struct MergeManyCursor<Upstream: Publisher>: _Runtime.FusedCursor {
        @usableFromInline let upstreams: [Upstream]
        /// The next upstream to start.
        @usableFromInline var index: Int
        /// The running upstream's cursor; nil once all have finished.
        @usableFromInline var current: Upstream._Cursor?

        @inlinable @inline(__always)
        init(_ upstreams: [Upstream]) {
            self.upstreams = upstreams
            index = 0
            current = nil
            startNext()
        }

        @inlinable @inline(__always)
        mutating func startNext() {
            if index < upstreams.count {
                current = upstreams[index]._makeCursor()
                index += 1
            } else {
                current = nil
            }
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Upstream.Output, Upstream.Failure> {
            while current != nil {
                switch current!.next() {
                case .finished:
                    startNext()
                case let step:
                    return step
                }
            }
            return .finished
        }

        @inlinable var isExhausted: Bool {
            mutating get { current == nil || (index == upstreams.count && current!.isExhausted) }
        }

        @inlinable
        mutating func _didEnd() {
            while index < upstreams.count {
                _ = upstreams[index]._makeCursor()
                index += 1
            }
        }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .needsUnlimitedDemand.union(.fusable(when: Upstream.fusesUnderAnyDemand))
        }

        @inlinable var _name: StaticString { "Merge" }
    }
}

// The same merge as a loop per upstream: `_forEach`, which the inline `sink`, the folds and
// `assign` call, runs each upstream by its own `_forEach` in turn, with the consumer's body inlined
// into it (continuation passing, as a chain of stages runs), instead of pulling every value through
// the levels of `MergeCursor`. What each upstream sees is what the cursor does: it is subscribed
// (its loop starts, its cursor is made) when the one before has finished, and once the stream has
// ended, the upstreams not reached yet are subscribed and dropped.

/// How far a merge run by its upstreams' own loops has got.
@usableFromInline
enum MergeProgress {
    /// Every upstream so far has finished: the next one runs.
    case running
    /// The stream has ended (a failure, or the consumer's answer): the rest are subscribed and dropped.
    case ended
    /// An upstream neither finished nor ended the stream: nothing more happens.
    case stalled
}

/// Runs one upstream of a merge by its own loop, or subscribes and drops it once the stream has ended.
@inlinable @inline(__always)
func runMergeUpstream<Upstream: Publisher>(
    _ upstream: Upstream, _ progress: inout MergeProgress, _ receiveValue: (Upstream.Output) -> Bool,
    _ receiveCompletion: (Subscribers.Completion<Upstream.Failure>) -> Void
) {
    switch progress {
    case .running:
        var next = MergeProgress.stalled
        upstream._forEach(
            { value in
                guard receiveValue(value) else {
                    next = .ended
                    return false
                }
                return true
            },
            { completion in
                guard case .failure = completion else {
                    next = .running
                    return
                }
                receiveCompletion(completion)
                next = .ended
            })
        progress = next
    case .ended:
        _ = upstream._makeCursor()
    case .stalled:
        break
    }
}

/// After the last upstream: the merge finishes if every upstream did.
@inlinable @inline(__always)
func finishMerge<Failure: Error>(
    _ progress: MergeProgress, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
) -> Bool {
    if case .running = progress { receiveCompletion(.finished) }
    return true
}
