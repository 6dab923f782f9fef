// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// One side of `partition(_:)`.
    public typealias Partition = AnyPublisher<Output, Failure>

    /// Splits this publisher's values in two: those that `predicate` accepts, and the others.
    ///
    /// The two publishers share one subscription to this publisher, made when the first of them
    /// is subscribed to (as `share()` does), and `predicate` is called once per value.
    @inlinable
    public func partition(_ predicate: @escaping (Output) -> Bool) -> (matches: Partition, nonMatches: Partition) {
        let judged = map { (value: $0, matches: predicate($0)) }.share()
        return (
            judged.filter(\.matches).map(\.value).eraseToAnyPublisher(),
            judged.filter { !$0.matches }.map(\.value).eraseToAnyPublisher()
        )
    }
}
