// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The two ends of a program's chain, for the interpreter (Interpreter.swift): the subscriber,
// which records what it gets and follows the program's demand script, and the test upstream,
// which the script drives and which logs what it is asked.

import DifferentialProgram

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

// MARK: - The subscriber (RecordingSubscriber's behaviour)

final class Recorder<Failure: Error>: Subscriber {
    typealias Input = Int
    private let context: Context
    private let script: SubscriberScript
    /// What its lines in the trace start with: `sub` for the first subscriber, `sub2` for the second.
    private let label: String
    private var subscription: (any Subscription)?
    private var hadSubscription = false
    private var values = 0

    init(context: Context, script: SubscriberScript, label: String) {
        self.context = context
        self.script = script
        self.label = label
    }

    func receive(subscription: any Subscription) {
        context.log("\(label): subscription")
        if self.subscription == nil && !hadSubscription {
            self.subscription = subscription
            hadSubscription = true
        }
        if script.initial != .none { subscription.request(demand(script.initial)) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        context.log("\(label): value(\(input))")
        values += 1
        if let r = script.reentrantRequest, r.afterValues == values { request(demand(r.demand)) }
        if let n = script.cancelAfterValues, n == values {
            cancel()
            return .none
        }
        return demand(script.perValue)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        context.log("\(label): \(describe(completion))")
        subscription = nil
    }

    func request(_ d: Subscribers.Demand) {
        guard d != .none else { return }
        subscription?.request(d)
    }

    func cancel() {
        let current = subscription
        subscription = nil
        current?.cancel()
    }
}

// MARK: - The test upstream

/// A hand-driven publisher that logs what its subscribers ask of it, and sends a scripted value
/// only while it has outstanding demand (so it never breaks the contract itself).
final class ScriptedUpstream: Publisher {
    typealias Output = Int
    typealias Failure = any Error

    private let context: Context
    private var subscriber: AnySubscriber<Int, any Error>?
    private var generation = 0
    /// Outstanding demand of the current subscription; `nil` is unlimited.
    private var outstanding: Int? = 0

    init(context: Context) { self.context = context }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == any Error {
        generation += 1
        context.log("upstream: subscribe #\(generation)")
        self.subscriber = AnySubscriber(subscriber)
        outstanding = 0
        subscriber.receive(subscription: UpstreamSubscription(owner: self, generation: generation))
    }

    fileprivate func requested(_ d: Subscribers.Demand, generation g: Int) {
        context.log("upstream: request(\(describe(d)))" + (g == generation ? "" : " on old #\(g)"))
        guard g == generation, let current = outstanding else { return }
        if let n = d.max { outstanding = current > Int.max - n ? nil : current + n } else { outstanding = nil }
    }

    fileprivate func cancelled(generation g: Int) {
        context.log("upstream: cancel" + (g == generation ? "" : " on old #\(g)"))
        if g == generation { subscriber = nil }
    }

    func send(_ value: Int) {
        guard let subscriber else {
            context.log("upstream: send(\(value)) skipped, no subscriber")
            return
        }
        if let n = outstanding {
            guard n > 0 else {
                context.log("upstream: send(\(value)) skipped, no demand")
                return
            }
            outstanding = n - 1
        }
        let more = subscriber.receive(value)
        context.log("upstream: send(\(value)) -> \(describe(more))")
        if more != .none { requestedByReturn(more) }
    }

    private func requestedByReturn(_ d: Subscribers.Demand) {
        guard let current = outstanding else { return }
        if let n = d.max { outstanding = current > Int.max - n ? nil : current + n } else { outstanding = nil }
    }

    func complete(_ completion: Subscribers.Completion<any Error>) {
        let target = subscriber
        subscriber = nil
        if target == nil { context.log("upstream: completion skipped, no subscriber") }
        target?.receive(completion: completion)
    }

    final class UpstreamSubscription: Subscription, CustomStringConvertible {
        /// What `print` shows of it: the same in both implementations' modules.
        var description: String { "UpstreamSubscription" }
        private weak var owner: ScriptedUpstream?
        private let generation: Int
        init(owner: ScriptedUpstream, generation: Int) {
            self.owner = owner
            self.generation = generation
        }
        func request(_ demand: Subscribers.Demand) { owner?.requested(demand, generation: generation) }
        func cancel() { owner?.cancelled(generation: generation) }
    }
}

final class PromiseBox {
    var promise: Future<Int, any Error>.Promise?
}
