// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    ///
    /// Each value and the completion (a failure too) is delivered on `scheduler`, `interval` after it
    /// arrived. Demand passes straight through: downstream's requests go upstream as they are, and so
    /// does the demand downstream returns for each delayed value. Nothing is delivered after a cancel.
    /// On a concurrent scheduler too, values arrive one at a time, in the order they were sent, and
    /// all before the completion.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler to deliver the delayed events.
        public let scheduler: Context
        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the downstream receiver.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DelaySubscription(
                    downstream: subscriber, scheduler: scheduler, options: options, delay: (interval, tolerance)))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `delay`: `receive(on:)`'s hop
/// (`HopSubscription`, in ReceiveOn.swift), each run scheduled `interval` after its signal came. As
/// Combine's, it does not describe itself.
@usableFromInline
typealias DelaySubscription<Downstream: Subscriber, Context: Scheduler> = HopSubscription<Downstream, Context, DelayHop>
