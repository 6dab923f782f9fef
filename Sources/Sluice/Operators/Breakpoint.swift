// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publisher {
    /// Raises a debugger signal (`SIGTRAP`) when a provided closure returns `true`; otherwise
    /// passes every event through unchanged.
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal (`SIGTRAP`) upon receiving a failure.
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { true } else { false }
        })
    }
}

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure needs to stop the process in the debugger.
    ///
    /// The closures run before their event is passed on, so the debugger stops with the event not
    /// yet delivered. Without a debugger attached, `SIGTRAP` ends the process.
    @frozen
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives a subscription; `true` raises `SIGTRAP`.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// A closure that executes when the publisher receives output from the upstream publisher; `true` raises `SIGTRAP`.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// A closure that executes when the publisher receives completion; `true` raises `SIGTRAP`.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint-raising closures.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                BreakpointSubscriber(
                    stopsOnSubscription: receiveSubscription, stopsOnOutput: receiveOutput,
                    stopsOnCompletion: receiveCompletion, downstream: subscriber))
        }
    }
}

/// `breakpoint`'s subscriber. As Combine's, it hands downstream the upstream subscription itself
/// and passes every signal on whenever it comes (before a subscription, after a completion), asking
/// the user's closure first and stopping in the debugger on `true`. It owns nothing but the closures
/// and downstream, which go when upstream lets go of it.
@usableFromInline
final class BreakpointSubscriber<Downstream: Subscriber>: Subscriber, Introspected {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let stopsOnSubscription: ((any Subscription) -> Bool)?
    @usableFromInline let stopsOnOutput: ((Input) -> Bool)?
    @usableFromInline let stopsOnCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
    @usableFromInline let downstream: Downstream

    @inlinable
    init(
        stopsOnSubscription: ((any Subscription) -> Bool)?, stopsOnOutput: ((Input) -> Bool)?,
        stopsOnCompletion: ((Subscribers.Completion<Failure>) -> Bool)?, downstream: Downstream
    ) {
        self.stopsOnSubscription = stopsOnSubscription
        self.stopsOnOutput = stopsOnOutput
        self.stopsOnCompletion = stopsOnCompletion
        self.downstream = downstream
    }

    @usableFromInline var description: String { "Breakpoint" }

    @inlinable
    func receive(subscription: any Subscription) {
        if stopsOnSubscription?(subscription) == true { raise(SIGTRAP) }
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if stopsOnOutput?(input) == true { raise(SIGTRAP) }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if stopsOnCompletion?(completion) == true { raise(SIGTRAP) }
        downstream.receive(completion: completion)
    }
}
