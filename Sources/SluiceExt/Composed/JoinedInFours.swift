// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Joins publishers of arrays into one, four at a time, level by level, as a tree: the collection
/// forms of `zip` and `combineLatest` over any number of publishers, with Combine's own `zip` or
/// `combineLatest` (of two, three or four) at each node, and a depth that grows as log4 of the
/// count (100,000 publishers make 9 levels). No publishers make `Empty`.
@inlinable
func joinedInFours<Output, Failure: Error>(
    _ publishers: [AnyPublisher<[Output], Failure>],
    _ join: ([AnyPublisher<[Output], Failure>]) -> AnyPublisher<[Output], Failure>
) -> AnyPublisher<[Output], Failure> {
    var level = publishers
    while level.count > 1 {
        level = stride(from: 0, to: level.count, by: 4).map { start in
            let group = Array(level[start..<min(start + 4, level.count)])
            return group.count == 1 ? group[0] : join(group)
        }
    }
    return level.first ?? Empty().eraseToAnyPublisher()
}

extension Collection where Element: Publisher {
    /// Each publisher's values as one-value arrays, erased: the leaves of `joinedInFours`.
    @inlinable
    var asArrays: [AnyPublisher<[Element.Output], Element.Failure>] {
        map { $0.map { [$0] }.eraseToAnyPublisher() }
    }
}
