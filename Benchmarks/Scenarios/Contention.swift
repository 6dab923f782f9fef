// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Scenarios 23–25: contention. Several threads, started together, send at once: into one
// PassthroughSubject (23), into subjects of their own merged into one sink (24), and into a
// subject delivered with `receive(on:)` (25). Written once against the Combine API and compiled
// against each implementation like Scenarios.swift; OpenCombine 0.14.0 has no `merge`, so 24 is
// compiled only for Sluice and SluiceReference. Each sink keeps its own total: a subject delivers
// to one subscriber at a time, but to its several subscribers from several threads at once.
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if SLUICE
import Sluice
#elseif SLUICE_REFERENCE
import SluiceReference
#elseif OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
#endif

/// What the threads share: set up before they start, and only read by them.
final class Shared<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}

/// Runs `body` on `threads` new threads, released together, with each thread's index; returns once
/// all have finished. Thread `index` sends the values `index`, `index + threads`, ... below `values`.
/// (POSIX threads, not Foundation's `Thread`: Foundation's conformance records, linked into the
/// instruction-count tool, would make every other scenario's first protocol lookups dearer.)
public func onThreads(_ threads: Int, _ body: @escaping @Sendable (_ index: Int) -> Void) {
    let go = DispatchSemaphore(value: 0)
    let handles = (0..<threads).map { index in
        let start = Unmanaged.passRetained(
            Shared<() -> Void>({
                go.wait()
                body(index)
            }))
        var handle = pthread_t()
        let created = pthread_create(
            &handle, nil,
            { context in
                Unmanaged<Shared<() -> Void>>.fromOpaque(context!).takeRetainedValue().value()
                return nil
            }, start.toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        return handle
    }
    for _ in 0..<threads { go.signal() }
    for handle in handles { pthread_join(handle, nil) }
}

// MARK: 23. Threads sending into one PassthroughSubject

@inline(never)
public func contendedSends(_ values: Int, threads: Int, subscribers: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let totals = (0..<subscribers).map { _ in Total() }
    let tokens = totals.map { total in subject.sink { total.sum &+= $0 } }
    let shared = Shared(subject)
    onThreads(threads) { index in
        for value in stride(from: index, to: values, by: threads) { shared.value.send(value) }
    }
    tokens.forEach { $0.cancel() }
    return totals.reduce(0) { $0 &+ $1.sum }
}

// MARK: 24. Threads sending into their own subjects, merged into one sink

#if !OPENCOMBINE
@inline(never)
public func contendedMerge(_ values: Int, threads: Int) -> Int {
    let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
    let total = Total()
    let token = Publishers.MergeMany(subjects).sink { total.sum &+= $0 }
    let shared = Shared(subjects)
    onThreads(threads) { index in
        for value in stride(from: index, to: values, by: threads) { shared.value[index].send(value) }
    }
    token.cancel()
    return total.sum
}
#endif

// 25, threads sending into a subject delivered on a DispatchQueue: `receiveOnQueue(_:queue:producers:)`
// in Combining.swift.
