// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// SluiceExt's scenarios (16–18): share(replay:), withLatestFrom and an async sequence as a
// publisher. Compiled against Sluice and SluiceReference only: OpenCombine has none of them.
import Dispatch

#if SLUICE
import Sluice
import SluiceExt
#elseif SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceExt
#endif

// MARK: 16. share(replay: 1) send to 1 and 10 sinks

/// A subject shared by `share(replay: 1)` into `subscribers` sinks that sum what they receive.
public final class ShareReplayFixture: SharedSubjectFixture {
    public init(subscribers: Int) {
        super.init(subscribers: subscribers) { $0.share(replay: 1) }
    }
}

// MARK: 17. withLatestFrom per element

/// Sums `value &+ latest` for each element of `input`, the latest being a subject's current value.
@inline(never)
public func withLatestFromSum(_ input: [Int]) -> Int {
    let other = CurrentValueSubject<Int, Never>(1)
    let total = Total()
    let token = input.publisher.withLatestFrom(other) { $0 &+ $1 }.sink { total.sum &+= $0 }
    token.cancel()
    return total.sum
}

// MARK: 18. an async sequence as a publisher

/// Sums `input` taken from an `AsyncStream` (filled up front) through `.publisher` into a sink,
/// waiting for the completion.
@inline(never)
public func asyncSequencePublisherSum(_ input: [Int]) -> Int {
    let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
    for value in input { continuation.yield(value) }
    continuation.finish()
    let total = Total()
    let done = DispatchSemaphore(value: 0)
    let token = stream.publisher.sink(receiveCompletion: { _ in done.signal() }, receiveValue: { total.sum &+= $0 })
    done.wait()
    token.cancel()
    return total.sum
}

// MARK: 19. amb of two subjects, per value of the winner

/// Two subjects raced by `amb` into a sink; the first one sends every value, so it wins.
public final class AmbFixture {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let total = Total()
    var token: AnyCancellable?

    public init() {
        let total = self.total
        token = first.amb(second).sink { total.sum &+= $0 }
    }

    /// Sends `values` values into the winner; returns the running checksum.
    @inline(never)
    public func send(_ values: Int) -> Int {
        for i in 0..<values { first.send(i) }
        return total.sum
    }
}

// MARK: 20–22. Collection.zip(), Collection.merge() and Collection.combineLatest() of four

/// Sums every element of the four arrays, zipped four at a time by `Collection.zip()`.
@inline(never)
public func zipManySum(_ inputs: [[Int]]) -> Int {
    let total = Total()
    let token = inputs.map(\.publisher).zip().sink { total.sum &+= $0.reduce(0, &+) }
    token.cancel()
    return total.sum
}

/// Sums every element of the four arrays, merged by `Collection.merge()`.
@inline(never)
public func mergeManySum(_ inputs: [[Int]]) -> Int {
    let total = Total()
    let token = inputs.map(\.publisher).merge().sink { total.sum &+= $0 }
    token.cancel()
    return total.sum
}

/// Sends `sends` values round-robin into four subjects combined by `Collection.combineLatest()`;
/// sums the first element of every array published.
@inline(never)
public func combineLatestManySends(_ sends: Int) -> Int {
    let total = Total()
    let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let token = subjects.combineLatest().sink { total.sum &+= $0[0] }
    for i in 0..<sends { subjects[i & 3].send(i) }
    token.cancel()
    return total.sum
}
