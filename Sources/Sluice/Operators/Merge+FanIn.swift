// The merge family's machinery: the fan-in every arity of `Merge` (and `MergeMany`) subscribes
// through, its inlets and its lanes. The public types are in Merge.swift.

/// The subscriber a merge hands to one upstream: the fan-in and the upstream's position. It
/// carries the fan-in's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct _MergeInlet<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let fanIn: _MergeFanIn<Downstream>
    @usableFromInline let index: Int

    @inlinable
    init(fanIn: _MergeFanIn<Downstream>, index: Int) {
        self.fanIn = fanIn
        self.index = index
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(fanIn) }

    @inlinable
    func receive(subscription: any Subscription) { fanIn.attach(subscription, at: index) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        fanIn.lifetime.call(fanIn) { fanIn.offer(input, from: index) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        fanIn.lifetime.call(fanIn) { fanIn.end(completion, from: index) }
    }
}

/// One upstream's place in the fan-in: its subscription while live, and the values of it that wait
/// for demand or for another thread's delivery to end. The queue keeps its storage when it empties,
/// so a steady stream of waiting values allocates nothing.
@frozen @usableFromInline
struct _MergeLane<Value> {
    @usableFromInline var subscription: (any Subscription)?
    /// False before the subscription arrives and after the upstream has ended.
    @usableFromInline var isLive = false
    @usableFromInline var hasEnded = false
    @usableFromInline var queue: ContiguousArray<Value> = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == queue.count }

    @inlinable
    mutating func pop() -> Value {
        let value = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return value
    }
}

/// The fan-in behind every merge: any number of upstreams, one downstream.
///
/// One inline `Lock` guards every field below and is never held while calling out. Delivery is
/// serial without blocking anyone: the call that finds nobody delivering takes the `delivering`
/// turn, calls downstream, and before giving the turn back delivers whatever arrived meanwhile
/// (from other threads, or re-entrantly) and was queued on its lane. So a value costs two
/// uncontended lock round trips and no allocation, and a synchronous upstream's drain loop runs
/// straight through. `owed` is downstream's outstanding demand as a count, `UInt.max` meaning
/// unlimited.
@usableFromInline
final class _MergeFanIn<Downstream: Subscriber>: Subscription, Introspected {
    @usableFromInline typealias Value = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline static var running: UInt8 { 0 }
    /// Every upstream finished: `.finished` goes out after the last waiting value.
    @usableFromInline static var finishing: UInt8 { 1 }
    /// An upstream failed during another call's delivery; that call sends `failure` on.
    @usableFromInline static var failing: UInt8 { 2 }
    @usableFromInline static var done: UInt8 { 3 }

    /// Used only inside calls through `lifetime`: the inlets' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var lanes: ContiguousArray<_MergeLane<Value>>
    @exclusivity(unchecked)
    @usableFromInline var owed: UInt = 0
    @exclusivity(unchecked)
    @usableFromInline var delivering = false
    @exclusivity(unchecked)
    @usableFromInline var phase: UInt8 = 0
    @exclusivity(unchecked)
    @usableFromInline var failure: Failure?
    /// Values waiting across all lanes: the common case (none) is one comparison.
    @exclusivity(unchecked)
    @usableFromInline var waitingCount = 0
    @exclusivity(unchecked)
    @usableFromInline var unfinished: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: _MergeFanIn.self).downstream.release() }
        lanes = ContiguousArray(repeating: _MergeLane(), count: upstreamCount)
        unfinished = upstreamCount
    }

    @usableFromInline var description: String { "Merge" }

    @inlinable var isUnlimited: Bool { owed == .max }

    // MARK: Upstreams

    @inlinable
    func attach(_ subscription: any Subscription, at index: Int) {
        lock.lock()
        guard phase == Self.running, !lanes[index].isLive, !lanes[index].hasEnded else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lanes[index].isLive = true
        lanes[index].subscription = subscription
        let everything = isUnlimited
        lock.unlock()
        // As Combine: one value at a time unless downstream wants everything.
        subscription.request(everything ? .unlimited : .max(1))
    }

    @inlinable
    func offer(_ value: Value, from index: Int) -> Subscribers.Demand {
        lock.lock()
        guard phase == Self.running, lanes[index].isLive else {
            lock.unlock()
            return .none
        }
        if delivering || owed == 0 {
            lanes[index].queue.append(value)
            waitingCount += 1
            lock.unlock()
            return .none
        }
        delivering = true
        if owed != .max { owed -= 1 }
        lock.unlock()
        let more = downstream.with { $0.receive(value) }
        lock.lock()
        if more != .none { owed = more._adding(to: owed) }
        // The upstream may send its next value, unless it was asked for everything already or the
        // stream or this upstream ended meanwhile.
        let answer: Subscribers.Demand = !isUnlimited && phase == Self.running && lanes[index].isLive ? .max(1) : .none
        if waitingCount == 0 && phase == Self.running {
            delivering = false
            lock.unlock()
        } else {
            drainHoldingLock()
        }
        return answer
    }

    @inlinable
    func end(_ completion: Subscribers.Completion<Failure>, from index: Int) {
        lock.lock()
        guard phase == Self.running, lanes[index].isLive else {
            lock.unlock()
            return
        }
        if case .failure(let error) = completion {
            let live = cutLanes()
            if delivering {
                phase = Self.failing
                failure = error
                lock.unlock()
                for upstream in live { upstream.cancel() }
            } else {
                phase = Self.done
                lock.unlock()
                // Combine cancels every upstream, the failed one included.
                for upstream in live { upstream.cancel() }
                if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
            }
            return
        }
        lanes[index].isLive = false
        lanes[index].hasEnded = true
        lanes[index].subscription = nil
        unfinished -= 1
        guard unfinished == 0 else {
            lock.unlock()
            return
        }
        phase = Self.finishing
        if delivering {
            lock.unlock()
        } else {
            delivering = true
            drainHoldingLock()
        }
    }

    /// A merge of no upstreams finishes as soon as it is subscribed.
    @usableFromInline
    func finishEmpty() {
        lifetime.call(self) { finishEmptyLive() }
    }

    @usableFromInline
    func finishEmptyLive() {
        lock.lock()
        guard phase == Self.running, !delivering else {
            lock.unlock()
            return
        }
        phase = Self.finishing
        delivering = true
        drainHoldingLock()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        lifetime.call(self) { requestLive(demand) }
    }

    /// `request`, inside a `lifetime` call (it may drain).
    @inlinable
    func requestLive(_ demand: Subscribers.Demand) {
        lock.lock()
        guard phase == Self.running || phase == Self.finishing, !isUnlimited else {
            lock.unlock()
            return
        }
        owed = demand._adding(to: owed)
        var everything: ContiguousArray<any Subscription> = []
        if isUnlimited {
            // From now on every upstream is asked for everything; until now each had one value
            // outstanding or waiting.
            for lane in lanes where lane.isLive { everything.append(lane.subscription!) }
        }
        if delivering || (waitingCount == 0 && phase == Self.running) {
            lock.unlock()
            for upstream in everything { upstream.request(.unlimited) }
            return
        }
        delivering = true
        if everything.isEmpty {
            drainHoldingLock()
            return
        }
        // Holding the turn while asking: whatever upstream sends from inside the request queues up
        // behind the values that already wait.
        lock.unlock()
        for upstream in everything { upstream.request(.unlimited) }
        lock.lock()
        drainHoldingLock()
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase != Self.done else {
            lock.unlock()
            return
        }
        phase = Self.done
        failure = nil
        let live = cutLanes()
        lock.unlock()
        for upstream in live { upstream.cancel() }
        lifetime.end(self)
    }

    // MARK: Delivery

    /// Ends every lane, dropping waiting values; returns the subscriptions to cancel. Lock held.
    @inlinable
    func cutLanes() -> ContiguousArray<any Subscription> {
        var live: ContiguousArray<any Subscription> = []
        for index in lanes.indices {
            if lanes[index].isLive, let upstream = lanes[index].subscription { live.append(upstream) }
            lanes[index] = _MergeLane()
            lanes[index].hasEnded = true
        }
        waitingCount = 0
        return live
    }

    /// Runs inside a `lifetime` call, with the `delivering` turn and the lock held; returns with the
    /// lock released and the turn given back. Sends waiting values, lowest lane first, while there is demand, then a
    /// completion that waits for them.
    @usableFromInline
    func drainHoldingLock() {
        while true {
            if phase == Self.done {
                delivering = false
                lock.unlock()
                return
            }
            if phase == Self.failing {
                phase = Self.done
                delivering = false
                let error = failure!
                failure = nil
                lock.unlock()
                if lifetime.end() { downstream.with { $0.receive(completion: .failure(error)) } }
                return
            }
            if waitingCount > 0 && owed > 0 {
                var index = 0
                while lanes[index].isEmpty { index += 1 }
                let value = lanes[index].pop()
                waitingCount -= 1
                if owed != .max { owed -= 1 }
                lock.unlock()
                let more = downstream.with { $0.receive(value) }
                lock.lock()
                if more != .none { owed = more._adding(to: owed) }
                // The value was answered with `.none` when it came: its upstream may send the next.
                if phase == Self.running, !isUnlimited, lanes[index].isLive, let upstream = lanes[index].subscription {
                    lock.unlock()
                    upstream.request(.max(1))
                    lock.lock()
                }
                continue
            }
            if phase == Self.finishing && waitingCount == 0 {
                phase = Self.done
                delivering = false
                lock.unlock()
                if lifetime.end() { downstream.with { $0.receive(completion: .finished) } }
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }
}

// MARK: Fused

// A merge of synchronous upstreams, for a consumer whose demand is unlimited from the start, is
// each upstream run to its end in turn: the merge subscribes them in order, and each one, asked
// for `.unlimited`, sends everything and finishes inside its subscription, before the next one is
// subscribed (and its cursor made). When the stream ends early (a failure, or a `prefix` after the
// merge) the unfused merge still subscribes the later upstreams once the completion has gone out,
// and cancels them at once: `_didEnd()` makes their cursors and drops them.

/// The fused `Merge`…`Merge8`: one upstream, then the merge of the rest (`Rest`, whose last level
/// is an `_Unfusable` cursor: nothing left, finished).
///
/// Each level keeps its upstream's cursor, made when the level is reached, and a flag once that
/// upstream has finished: a value from the k-th upstream passes k - 1 flags, not k - 1 optional
/// cursors (nested optionals made LLVM outline their tag reads, about ten calls per value in
/// `Merge8`).
@frozen
public struct _MergeCursor<Upstream: Publisher, Rest: _FusedCursor>: _FusedCursor
where Rest.Output == Upstream.Output, Rest.Failure == Upstream.Failure {
    @usableFromInline let upstream: Upstream
    /// The upstream's cursor, once this level is reached.
    @usableFromInline var current: Upstream._Cursor?
    @usableFromInline var hasFinished = false
    @usableFromInline var rest: Rest

    /// The first level: its upstream is subscribed at once.
    @inlinable @inline(__always)
    public init(first upstream: Upstream, then rest: Rest) {
        self.upstream = upstream
        current = upstream._makeCursor()
        self.rest = rest
    }

    /// A later level: its upstream is subscribed when the one before has finished.
    @inlinable @inline(__always)
    public init(later upstream: Upstream, then rest: Rest) {
        self.upstream = upstream
        current = nil
        self.rest = rest
    }

    @inlinable @inline(__always)
    public mutating func next() -> _FusedStep<Upstream.Output, Upstream.Failure> {
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

    @inlinable public var isExhausted: Bool {
        @inline(__always) mutating get { hasFinished && rest.isExhausted }
    }

    /// The levels never reached are subscribed now, and dropped.
    @inlinable
    public mutating func _didEnd() {
        if !hasFinished && current == nil { _ = upstream._makeCursor() }
        rest._didEnd()
    }

    @inlinable public static var _needsUnlimitedDemand: Bool { true }

    @inlinable public var _name: StaticString { "Merge" }

    @inlinable public func _reflection(downstream: Any) -> _Reflection { _Reflection("Merge") }
}

/// The fused `MergeMany`: its upstreams in turn.
@frozen
public struct _MergeManyCursor<Upstream: Publisher>: _FusedCursor {
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
    public mutating func next() -> _FusedStep<Upstream.Output, Upstream.Failure> {
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

    @inlinable public var isExhausted: Bool {
        mutating get { current == nil || (index == upstreams.count && current!.isExhausted) }
    }

    @inlinable
    public mutating func _didEnd() {
        while index < upstreams.count {
            _ = upstreams[index]._makeCursor()
            index += 1
        }
    }

    @inlinable public static var _needsUnlimitedDemand: Bool { true }

    @inlinable public var _name: StaticString { "Merge" }

    @inlinable public func _reflection(downstream: Any) -> _Reflection { _Reflection("Merge") }
}
