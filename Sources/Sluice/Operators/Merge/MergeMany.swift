// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// MergeMany: the merge of any number of upstreams of one type, on the same subscription (MergeSubscription.swift) as
// Merge … Merge8 (Merge.swift).

extension Publishers {
    // Every merge (`Merge` … `Merge8` too) runs on the same subscription.
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    ///
    /// Every merge (`Merge` … `Merge8` too) works the same way. Downstream receives the
    /// subscription first, then the upstreams are subscribed in order. While downstream's demand is
    /// unlimited, each upstream is asked for `.unlimited`; otherwise each upstream is asked for one
    /// value at a time, and asked again (`.max(1)`) once its value has been delivered. A value that
    /// arrives while downstream has no demand waits, one queue per upstream, and waiting values are
    /// delivered in upstream order when demand comes. Values are delivered serially even when the
    /// upstreams send from several threads. The merge finishes once every upstream has finished
    /// (after any waiting values); a failure of any upstream cancels all of them and fails the merge.
    @frozen
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher that merges an arbitrary number of upstream publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges a sequence of upstream publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            publishers = Array(upstream)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription<S>(downstream: subscriber, upstreamCount: publishers.count)
            subscriber.receive(subscription: merger)
            var index = 0
            for publisher in publishers {
                publisher.subscribe(MergeSide(parent: merger, index: index))
                index += 1
            }
            // No upstream at all: all of them (none) have finished.
            if publishers.isEmpty { merger.finishEmpty() }
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> { _Runtime.MergeManyCursor(publishers) }

        /// The fused merge as a loop per upstream (see MergeCursor.swift).
        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            var progress = MergeProgress.running
            for upstream in publishers { runMergeUpstream(upstream, &progress, receiveValue, receiveCompletion) }
            return finishMerge(progress, receiveCompletion)
        }

        /// Combines elements from this publisher with those from another publisher of the same type.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            var all = publishers
            all.append(other)
            return Publishers.MergeMany(all)
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
