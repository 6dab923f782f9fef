// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The benchmark scenarios, written once against the Combine API and compiled against each
// implementation (see Package.swift). Every scenario returns a checksum; the harness checks that
// all implementations and the hand-written loop agree.
#if SLUICE
import Sluice
#elseif SLUICE_REFERENCE
import SluiceReference
#elseif OPENCOMBINE
import OpenCombine
#endif

/// A sink's running total. A class: a `var` captured by a subscriber's closure would add a dynamic
/// exclusivity check (about 76 instructions) per value to what is measured.
final class Total: @unchecked Sendable {
    var sum = 0
}

/// The stream operations of scenarios 1 and 2, also used by the hand-written loop.
public enum Stages {
    @inlinable public static func triple(_ x: Int) -> Int { x &* 3 }
    @inlinable public static func isEven(_ x: Int) -> Bool { x & 1 == 0 }
}

// MARK: 1. Sequence → map → filter → sink

/// The chain built in generic code, as a library would build it: `map` and `filter` are the
/// operators, not the eager overloads on `Publishers.Sequence`.
@inline(__always)
func mapFilterSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let token = source.map(Stages.triple).filter(Stages.isEven).sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func sequenceMapFilter(_ input: [Int]) -> Int {
    mapFilterSum(input.publisher)
}

/// The same chain written directly on `[Int].publisher`, where Combine's eager overloads apply:
/// `map` and `filter` each build a new array, and the sink walks the last one.
@inline(never)
public func sequenceMapFilterEager(_ input: [Int]) -> Int {
    var sum = 0
    let token = input.publisher.map(Stages.triple).filter(Stages.isEven).sink { sum &+= $0 }
    token.cancel()
    return sum
}

// MARK: 2. An 8-stage map/filter chain

@inline(__always)
func eightStageSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let first = source.map { $0 &+ 1 }.filter { $0 & 7 != 0 }
    let second = first.map { $0 &* 3 }.filter { $0 & 1 == 0 }
    let third = second.map { $0 &- 2 }.filter { $0 > 5 }
    let token = third.map { $0 ^ 1 }.filter { $0 != 100 }.sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func eightStage(_ input: [Int]) -> Int {
    eightStageSum(input.publisher)
}

// MARK: 2b. A 16-stage map/filter chain: the 8-stage chain, then eight stages more

@inline(__always)
func sixteenStageSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let first = source.map { $0 &+ 1 }.filter { $0 & 7 != 0 }
    let second = first.map { $0 &* 3 }.filter { $0 & 1 == 0 }
    let third = second.map { $0 &- 2 }.filter { $0 > 5 }
    let fourth = third.map { $0 ^ 1 }.filter { $0 != 100 }
    let fifth = fourth.map { $0 &+ 7 }.filter { $0 % 5 != 0 }
    let sixth = fifth.map { $0 &* 5 }.filter { $0 & 2 == 0 }
    let seventh = sixth.map { $0 &- 11 }.filter { $0 > 20 }
    let token = seventh.map { $0 ^ 6 }.filter { $0 != 1000 }.sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func sixteenStage(_ input: [Int]) -> Int {
    sixteenStageSum(input.publisher)
}

// MARK: 2c. A 32-stage map/filter chain: the 16-stage chain, then sixteen stages more

@inline(__always)
func thirtyTwoStageSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let first = source.map { $0 &+ 1 }.filter { $0 & 7 != 0 }
    let second = first.map { $0 &* 3 }.filter { $0 & 1 == 0 }
    let third = second.map { $0 &- 2 }.filter { $0 > 5 }
    let fourth = third.map { $0 ^ 1 }.filter { $0 != 100 }
    let fifth = fourth.map { $0 &+ 7 }.filter { $0 % 5 != 0 }
    let sixth = fifth.map { $0 &* 5 }.filter { $0 & 2 == 0 }
    let seventh = sixth.map { $0 &- 11 }.filter { $0 > 20 }
    let eighth = seventh.map { $0 ^ 6 }.filter { $0 != 1000 }
    let ninth = eighth.map { $0 &+ 3 }.filter { $0 % 3 != 0 }
    let tenth = ninth.map { $0 &* 2 }.filter { $0 > 0 }
    let eleventh = tenth.map { $0 &- 1 }.filter { $0 & 4 == 0 }
    let twelfth = eleventh.map { $0 ^ 3 }.filter { $0 != 77 }
    let thirteenth = twelfth.map { $0 &+ 9 }.filter { $0 % 7 != 0 }
    let fourteenth = thirteenth.map { $0 &* 3 }.filter { $0 & 8 == 0 }
    let fifteenth = fourteenth.map { $0 &- 5 }.filter { $0 > 50 }
    let token = fifteenth.map { $0 ^ 2 }.filter { $0 != 5000 }.sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func thirtyTwoStage(_ input: [Int]) -> Int {
    thirtyTwoStageSum(input.publisher)
}

// MARK: 2d. An 8-stage chain of stateful and ending stages

/// `compactMap`, `drop(while:)`, `scan`, `removeDuplicates` and `prefix(while:)` between maps and a
/// filter: the stages other than `map` and `filter` run fused too, with their state.
@inline(__always)
func mixedStageSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let token =
        source
        .compactMap { $0 % 5 == 0 ? nil : $0 }
        .map { $0 &* 3 }
        .drop { $0 < 10 }
        .scan(0) { ($0 &+ $1) & 1023 }
        .removeDuplicates()
        .prefix { $0 >= 0 }
        .filter { $0 & 1 == 0 }
        .map { $0 ^ 1 }
        .sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func mixedStages(_ input: [Int]) -> Int {
    mixedStageSum(input.publisher)
}

// MARK: 3. Just → map → filter → sink, per subscription

@inline(never)
public func justMapFilter(_ subscriptions: Int) -> Int {
    var sum = 0
    for i in 0..<subscriptions {
        let token = Just(i).map(Stages.triple).filter(Stages.isEven).sink { sum &+= $0 }
        token.cancel()
    }
    return sum
}

// MARK: 4. Subjects

/// A subject and its subscribers, set up outside the measured region.
public final class SubjectFixture {
    let passthrough = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<Int, Never>(0)
    var tokens: [AnyCancellable] = []
    let total = Total()

    public init(subscribers: Int) {
        for _ in 0..<subscribers {
            let total = self.total
            tokens.append(passthrough.sink { total.sum &+= $0 })
            tokens.append(current.sink { total.sum &+= $0 })
        }
    }

    /// Sends `values` values through the passthrough subject; returns the running checksum.
    @inline(never)
    public func sendPassthrough(_ values: Int) -> Int {
        for i in 0..<values { passthrough.send(i) }
        return total.sum
    }

    /// Sends `values` values through the current-value subject; returns the running checksum.
    @inline(never)
    public func sendCurrentValue(_ values: Int) -> Int {
        for i in 0..<values { current.send(i) }
        return total.sum
    }

    public func reset() { total.sum = 0 }
}

// MARK: 4s. share() send to 1 and 10 sinks

/// A subject shared into `subscribers` sinks that sum what they receive: `share()` here, and
/// SluiceExt's `share(replay:)` in scenario 16 (`ShareReplayFixture`).
public class SharedSubjectFixture {
    let upstream = PassthroughSubject<Int, Never>()
    var tokens: [AnyCancellable] = []
    let total = Total()

    /// `share` makes the shared publisher from the subject (specialised: each subclass calls this
    /// with its own closure, in this module).
    init<Shared: Publisher>(subscribers: Int, sharing share: (PassthroughSubject<Int, Never>) -> Shared)
    where Shared.Output == Int, Shared.Failure == Never {
        let shared = share(upstream)
        for _ in 0..<subscribers {
            let total = self.total
            tokens.append(shared.sink { total.sum &+= $0 })
        }
    }

    /// Sends `values` values into the shared subject; returns the running checksum.
    @inline(never)
    public final func send(_ values: Int) -> Int {
        for i in 0..<values { upstream.send(i) }
        return total.sum
    }
}

/// A subject shared by `share()`: the multicast that SluiceExt's `share(replay:)` (scenario 16)
/// is, with a `PassthroughSubject` in place of a `ReplaySubject`.
public final class ShareFixture: SharedSubjectFixture {
    public init(subscribers: Int) {
        super.init(subscribers: subscribers) { $0.share() }
    }
}

// MARK: 5. scan and reduce

@inline(__always)
func scanSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var last = 0
    let token = source.scan(0) { $0 &+ $1 }.sink { last = $0 }
    token.cancel()
    return last
}

@inline(never)
public func scan(_ input: [Int]) -> Int { scanSum(input.publisher) }

@inline(__always)
func reduceSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var result = 0
    let token = source.reduce(0) { $0 &+ $1 }.sink { result = $0 }
    token.cancel()
    return result
}

@inline(never)
public func reduce(_ input: [Int]) -> Int { reduceSum(input.publisher) }

// MARK: 6. A subscriber that requests .max(1) per element

/// Asks for one value at a time: one request up front, then `.max(1)` returned from each value.
final class OneByOneSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    var sum = 0

    func receive(subscription: any Subscription) { subscription.request(.max(1)) }

    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

@inline(never)
public func demandOneByOne(_ input: [Int]) -> Int {
    let subscriber = OneByOneSubscriber()
    input.publisher.subscribe(subscriber)
    return subscriber.sum
}

// MARK: 7. Build, subscribe, send one value, cancel: a 13-stage chain

@inline(never)
public func thirteenStageLifecycle(_ rounds: Int) -> Int {
    let total = Total()
    for i in 0..<rounds {
        let subject = PassthroughSubject<Int, Never>()
        let a = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.map { $0 &* 2 }.filter { $0 >= 0 }
        let b = a.map { $0 &- 1 }.filter { $0 >= -1 }.map { $0 &+ 1 }.filter { $0 >= 0 }
        let c = b.map { $0 / 2 }.filter { $0 >= 0 }.map { $0 &+ 0 }.filter { $0 >= 0 }.map { $0 &- 1 }
        let token = c.sink { total.sum &+= $0 }
        subject.send(i)
        token.cancel()
    }
    return total.sum
}
