// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The machine behind `zip` and `combineLatest` of every arity.
//
// One class (`FanInSubscription`) per subscription, generic over its slots: a struct of 2, 3 or 4 typed slots
// (`Slots2`...`Slots4`), each a `ZipSlot` (a ring buffer of unpaired values) or a `LatestSlot` (the
// latest value). Zip makes a tuple when it delivers one; combineLatest makes one when a value arrives
// (from the latest values at that moment) and queues it in a ring until delivered, so that with
// demand every value gets its tuple even when it arrives while another thread delivers. Each upstream is subscribed through a `FanInSide` whose lane type (`Lane0`...`Lane3`)
// knows statically which slot its values go to, so a value is stored without boxing, casting or a
// key path, and the only allocation on the way is a ring's amortised growth.
//
// Threads meet here (each upstream may send from its own thread), so the state is guarded by one
// inline `Lock`, held only to change the state (`FanInState`). One thread at a time delivers (the
// holder of the state's delivering turn); whatever arrives meanwhile is stored and picked up by that
// thread before it gives the turn back.

/// One upstream's storage in a fan-in.
@usableFromInline
protocol FanInSlot {
    associatedtype Value
    /// Zip slots pair values one to one and end the stream when they run dry after their upstream
    /// finished; latest-value slots repeat their value in every tuple.
    static var pairs: Bool { get }
    init()
    /// Whether the slot can give a value to a tuple.
    var isFilled: Bool { get }
    mutating func put(_ value: Value)
    mutating func take() -> Value
}

/// A zip upstream's values not yet paired, oldest first.
@frozen @usableFromInline
struct ZipSlot<Value>: FanInSlot {
    @usableFromInline var queue = RingBuffer<Value>()

    @inlinable init() {}
    @inlinable static var pairs: Bool { true }
    @inlinable var isFilled: Bool { !queue.isEmpty }
    @inlinable mutating func put(_ value: Value) { queue.append(value) }
    @inlinable mutating func take() -> Value { queue.removeFirst() }
}

/// A combineLatest upstream's latest value.
@frozen @usableFromInline
struct LatestSlot<Value>: FanInSlot {
    @usableFromInline var latest: Value?

    @inlinable init() { latest = nil }
    @inlinable static var pairs: Bool { false }
    @inlinable var isFilled: Bool { latest != nil }
    @inlinable mutating func put(_ value: Value) { latest = value }
    @inlinable mutating func take() -> Value { latest.unsafelyUnwrapped }
}

/// The slots of all of a fan-in's upstreams, and the tuple they make. Lanes past `count` have
/// `Never` values and are never used.
@usableFromInline
protocol FanInSlots {
    associatedtype Output
    associatedtype V0
    associatedtype V1
    associatedtype V2
    associatedtype V3
    static var count: Int { get }
    static var pairs: Bool { get }
    init()
    /// A bit per lane whose slot cannot give a value.
    var unfilled: UInt8 { get }
    mutating func take() -> Output
    mutating func put0(_ value: V0)
    mutating func put1(_ value: V1)
    mutating func put2(_ value: V2)
    mutating func put3(_ value: V3)
}

@frozen @usableFromInline
struct Slots2<S0: FanInSlot, S1: FanInSlot>: FanInSlots {
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()

    @inlinable init() {}
    @inlinable static var count: Int { 2 }
    @inlinable static var pairs: Bool { S0.pairs }
    @inlinable var unfilled: UInt8 { (s0.isFilled ? 0 : 1) | (s1.isFilled ? 0 : 2) }
    @inlinable mutating func take() -> (S0.Value, S1.Value) { (s0.take(), s1.take()) }
    @inlinable mutating func put0(_ value: S0.Value) { s0.put(value) }
    @inlinable mutating func put1(_ value: S1.Value) { s1.put(value) }
    @inlinable mutating func put2(_ value: Never) {}
    @inlinable mutating func put3(_ value: Never) {}
}

@frozen @usableFromInline
struct Slots3<S0: FanInSlot, S1: FanInSlot, S2: FanInSlot>: FanInSlots {
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()
    @usableFromInline var s2 = S2()

    @inlinable init() {}
    @inlinable static var count: Int { 3 }
    @inlinable static var pairs: Bool { S0.pairs }
    @inlinable var unfilled: UInt8 { (s0.isFilled ? 0 : 1) | (s1.isFilled ? 0 : 2) | (s2.isFilled ? 0 : 4) }
    @inlinable mutating func take() -> (S0.Value, S1.Value, S2.Value) { (s0.take(), s1.take(), s2.take()) }
    @inlinable mutating func put0(_ value: S0.Value) { s0.put(value) }
    @inlinable mutating func put1(_ value: S1.Value) { s1.put(value) }
    @inlinable mutating func put2(_ value: S2.Value) { s2.put(value) }
    @inlinable mutating func put3(_ value: Never) {}
}

@frozen @usableFromInline
struct Slots4<S0: FanInSlot, S1: FanInSlot, S2: FanInSlot, S3: FanInSlot>: FanInSlots {
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()
    @usableFromInline var s2 = S2()
    @usableFromInline var s3 = S3()

    @inlinable init() {}
    @inlinable static var count: Int { 4 }
    @inlinable static var pairs: Bool { S0.pairs }
    @inlinable var unfilled: UInt8 {
        (s0.isFilled ? 0 : 1) | (s1.isFilled ? 0 : 2) | (s2.isFilled ? 0 : 4) | (s3.isFilled ? 0 : 8)
    }
    @inlinable mutating func take() -> (S0.Value, S1.Value, S2.Value, S3.Value) {
        (s0.take(), s1.take(), s2.take(), s3.take())
    }
    @inlinable mutating func put0(_ value: S0.Value) { s0.put(value) }
    @inlinable mutating func put1(_ value: S1.Value) { s1.put(value) }
    @inlinable mutating func put2(_ value: S2.Value) { s2.put(value) }
    @inlinable mutating func put3(_ value: S3.Value) { s3.put(value) }
}

/// Which slot an upstream's values go to, known from the type.
@usableFromInline
protocol FanInLane {
    associatedtype Slots: FanInSlots
    associatedtype Value
    static var index: Int { get }
    static func put(_ value: Value, into slots: inout Slots)
}

@frozen @usableFromInline
enum Lane0<Slots: FanInSlots>: FanInLane {
    @inlinable static var index: Int { 0 }
    @inlinable static func put(_ value: Slots.V0, into slots: inout Slots) { slots.put0(value) }
}

@frozen @usableFromInline
enum Lane1<Slots: FanInSlots>: FanInLane {
    @inlinable static var index: Int { 1 }
    @inlinable static func put(_ value: Slots.V1, into slots: inout Slots) { slots.put1(value) }
}

@frozen @usableFromInline
enum Lane2<Slots: FanInSlots>: FanInLane {
    @inlinable static var index: Int { 2 }
    @inlinable static func put(_ value: Slots.V2, into slots: inout Slots) { slots.put2(value) }
}

@frozen @usableFromInline
enum Lane3<Slots: FanInSlots>: FanInLane {
    @inlinable static var index: Int { 3 }
    @inlinable static func put(_ value: Slots.V3, into slots: inout Slots) { slots.put3(value) }
}

/// The upstream subscriptions of a fan-in, one per lane, kept inline.
@frozen @usableFromInline
struct FanInUpstreams {
    @usableFromInline var u0, u1, u2, u3: (any Subscription)?

    @inlinable init() {}

    @inlinable
    subscript(lane: Int) -> (any Subscription)? {
        get {
            switch lane {
            case 0: u0
            case 1: u1
            case 2: u2
            default: u3
            }
        }
        set {
            switch lane {
            case 0: u0 = newValue
            case 1: u1 = newValue
            case 2: u2 = newValue
            default: u3 = newValue
            }
        }
    }

    /// The same, without the lane `skipping` (-1: skip none).
    @inlinable
    func except(_ skipping: Int) -> FanInUpstreams {
        var result = self
        if skipping >= 0 { result[skipping] = nil }
        return result
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        u0?.request(demand)
        u1?.request(demand)
        u2?.request(demand)
        u3?.request(demand)
    }

    @inlinable
    func cancel() {
        u0?.cancel()
        u1?.cancel()
        u2?.cancel()
        u3?.cancel()
    }
}
