// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The merge family's one machine: the subscription every arity of `Merge` (and `MergeMany`) runs
// on, and the side that subscribes to each upstream. The public types are in Merge.swift.

/// Subscribes to one upstream on behalf of the merge, telling it which upstream a signal comes
/// from. It carries the merge's identifier, as Combine's inner subscribers do.
struct MergeSide<Downstream: Subscriber>: Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let parent: MergeSubscription<Downstream>
    let index: Int

    var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    func receive(subscription: any Subscription) { parent.receive(subscription, from: index) }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, from: index) }

    func receive(completion: Subscribers.Completion<Failure>) { parent.receive(completion, from: index) }
}

/// The merge of any number of upstreams. One lock over the fields below, never held while calling
/// out.
///
/// Delivery is serial without holding a lock while calling downstream: the thread that delivers
/// marks itself `delivering`; a value that arrives meanwhile (from another thread, or re-entrantly
/// from inside `receive`) waits in its upstream's queue, and the delivering thread drains the
/// queues before it lets go. The same queues hold values that arrive while downstream has no
/// demand.
///
/// Lifetimes: downstream lives in the phase while the stream is live; whoever ends the stream (a
/// cancel, or the call that delivers the completion) moves the phase to `.terminated` and drops
/// downstream after releasing the lock. A delivery in flight holds its own copy.
final class MergeSubscription<Downstream: Subscriber>: Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum UpstreamState {
        case awaitingSubscription
        case active(any Subscription)
        case finished
    }

    private enum Phase {
        case running(Downstream)
        /// Every upstream has finished; `.finished` follows the last waiting value.
        case finishing(Downstream)
        /// An upstream failed while another call was delivering; that call delivers the failure.
        case failing(Downstream, Failure)
        case terminated
    }

    private let lock = Lock()
    private var phase: Phase
    private var upstreams: [UpstreamState]
    private var waiting: [[Input]]
    /// How many values wait, over all the queues; and no queue below `firstWaiting` holds one. With
    /// them a delivery finds the next waiting value without looking at every upstream's queue, so
    /// that a merge of n upstreams stays linear in n.
    private var waitingCount = 0
    private var firstWaiting = 0
    private var finishedCount = 0
    /// What downstream asked for and has not received.
    private var demand = Subscribers.Demand.none
    /// Whether some call is delivering to downstream (or about to, or draining the queues).
    private var delivering = false

    init(downstream: Downstream, count: Int) {
        phase = .running(downstream)
        upstreams = Array(repeating: .awaitingSubscription, count: count)
        waiting = Array(repeating: [], count: count)
    }

    var description: String { "Merge" }

    // MARK: Upstreams

    func receive(_ subscription: any Subscription, from index: Int) {
        lock.lock()
        guard case .running = phase, case .awaitingSubscription = upstreams[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams[index] = .active(subscription)
        // Combine pulls one value at a time from each upstream unless downstream wants everything.
        let ask: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(ask)
    }

    func receive(_ input: Input, from index: Int) -> Subscribers.Demand {
        lock.lock()
        guard case .running(let downstream) = phase, case .active = upstreams[index] else {
            lock.unlock()
            return .none
        }
        guard !delivering, demand > 0 else {
            waiting[index].append(input)
            waitingCount += 1
            firstWaiting = min(firstWaiting, index)
            lock.unlock()
            return .none
        }
        delivering = true
        demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        demand += more
        // The upstream may ask for its next value unless downstream wants everything anyway, or
        // the stream (or this upstream) ended while the value was being delivered.
        var answer = Subscribers.Demand.none
        if case .running = phase, case .active = upstreams[index], demand != .unlimited { answer = .max(1) }
        drainLocked()
        return answer
    }

    func receive(_ completion: Subscribers.Completion<Failure>, from index: Int) {
        lock.lock()
        guard case .running(let downstream) = phase, case .active = upstreams[index] else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            upstreams[index] = .finished
            finishedCount += 1
            guard finishedCount == upstreams.count else {
                lock.unlock()
                return
            }
            phase = .finishing(downstream)
            guard !delivering else {
                lock.unlock()
                return
            }
            delivering = true
            drainLocked()
        case .failure(let error):
            // Combine cancels every upstream, the failed one included.
            let live = takeLiveUpstreams()
            let dropped = waiting
            waiting = []
            waitingCount = 0
            let deliverNow = !delivering
            phase = deliverNow ? .terminated : .failing(downstream, error)
            lock.unlock()
            for upstream in live { upstream.cancel() }
            if deliverNow { downstream.receive(completion: completion) }
            withExtendedLifetime(dropped) {}
        }
    }

    /// A `MergeMany` of no publishers: finished as soon as it is subscribed.
    func noUpstreams() {
        lock.lock()
        guard case .running(let downstream) = phase, !delivering else {
            lock.unlock()
            return
        }
        phase = .finishing(downstream)
        delivering = true
        drainLocked()
    }

    // MARK: Downstream

    func request(_ more: Subscribers.Demand) {
        more.assertNonZero(on: description)
        lock.lock()
        switch phase {
        case .running, .finishing: break
        case .failing, .terminated:
            lock.unlock()
            return
        }
        guard demand != .unlimited else {
            lock.unlock()
            return
        }
        demand += more
        // Once downstream wants everything, so is every upstream asked; until then each already
        // has one value outstanding (or waiting).
        let unlimitedNow = more == .unlimited ? liveUpstreams() : []
        guard !delivering else {
            lock.unlock()
            for upstream in unlimitedNow { upstream.request(.unlimited) }
            return
        }
        // Become the deliverer before asking upstream, so that values sent from inside those
        // requests wait their turn behind the ones already waiting.
        delivering = true
        lock.unlock()
        for upstream in unlimitedNow { upstream.request(.unlimited) }
        lock.lock()
        drainLocked()
    }

    func cancel() {
        lock.lock()
        // `previous` and `dropped` keep downstream and the waiting values until the lock is released.
        let previous = phase
        let live = takeLiveUpstreams()
        let dropped = waiting
        waiting = []
        waitingCount = 0
        phase = .terminated
        lock.unlock()
        for upstream in live { upstream.cancel() }
        withExtendedLifetime((previous, dropped)) {}
    }

    // MARK: Delivery

    /// Called with the lock held by the call that is delivering; returns with it released. Delivers
    /// waiting values while there is demand, in upstream order, then a pending completion.
    private func drainLocked() {
        while true {
            let downstream: Downstream
            switch phase {
            case .terminated:
                delivering = false
                lock.unlock()
                return
            case .failing(let failed, let error):
                phase = .terminated
                delivering = false
                lock.unlock()
                failed.receive(completion: .failure(error))
                return
            case .running(let live), .finishing(let live):
                downstream = live
            }
            if demand > 0, waitingCount > 0 {
                while waiting[firstWaiting].isEmpty { firstWaiting += 1 }
                let index = firstWaiting
                let value = waiting[index].removeFirst()
                waitingCount -= 1
                demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                demand += more
                // This value was answered with `.none` when it arrived: its upstream may send the
                // next one now, as it could have had the value been delivered at once.
                if case .running = phase, case .active(let upstream) = upstreams[index], demand != .unlimited {
                    lock.unlock()
                    upstream.request(.max(1))
                    lock.lock()
                }
                continue
            }
            if case .finishing = phase, waitingCount == 0 {
                phase = .terminated
                delivering = false
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }

    private func liveUpstreams() -> [any Subscription] {
        upstreams.compactMap { if case .active(let upstream) = $0 { upstream } else { nil } }
    }

    /// The live upstream subscriptions, which the caller cancels; none stays live.
    private func takeLiveUpstreams() -> [any Subscription] {
        let live = liveUpstreams()
        upstreams = upstreams.map { _ in .finished }
        return live
    }
}
