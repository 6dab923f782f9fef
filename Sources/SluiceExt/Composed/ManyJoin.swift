// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// How the collection forms of `zip` and `combineLatest` join any number of publishers: with
/// Combine's own `zip` or `combineLatest` of two, three or four at each node of a tree, level by
/// level. The first level joins the publishers themselves; each level above joins the arrays of
/// the level below, so an array is made once per node (one allocation per array published for
/// four publishers), and 100,000 publishers make 9 levels.
@usableFromInline
enum ManyJoin: Sendable {
    case zip
    case combineLatest

    /// All of `publishers`, joined; no publishers make `Empty`.
    @inlinable
    func joined<P: Publisher>(_ publishers: [P]) -> AnyPublisher<[P.Output], P.Failure> {
        guard !publishers.isEmpty else { return Empty().eraseToAnyPublisher() }
        var level = Self.fours(publishers).map { join($0) { values in values } }
        while level.count > 1 {
            level = Self.fours(level).map { join($0, Self.concatenated) }
        }
        return level[0]
    }

    /// One node: one to four publishers, joined; `make` turns their values, in order, into what
    /// the node publishes.
    @inlinable
    func join<P: Publisher, T>(
        _ group: [P], _ make: @escaping ([P.Output]) -> T
    ) -> AnyPublisher<T, P.Failure> {
        switch (self, group.count) {
        case (_, 1): group[0].map { make([$0]) }.eraseToAnyPublisher()
        case (.zip, 2): group[0].zip(group[1]) { make([$0, $1]) }.eraseToAnyPublisher()
        case (.zip, 3): group[0].zip(group[1], group[2]) { make([$0, $1, $2]) }.eraseToAnyPublisher()
        case (.zip, _): group[0].zip(group[1], group[2], group[3]) { make([$0, $1, $2, $3]) }.eraseToAnyPublisher()
        case (.combineLatest, 2): group[0].combineLatest(group[1]) { make([$0, $1]) }.eraseToAnyPublisher()
        case (.combineLatest, 3):
            group[0].combineLatest(group[1], group[2]) { make([$0, $1, $2]) }.eraseToAnyPublisher()
        case (.combineLatest, _):
            group[0].combineLatest(group[1], group[2], group[3]) { make([$0, $1, $2, $3]) }.eraseToAnyPublisher()
        }
    }

    /// `elements` in groups of four (the last may be smaller).
    @inlinable
    static func fours<Element>(_ elements: [Element]) -> [[Element]] {
        stride(from: 0, to: elements.count, by: 4).map { Array(elements[$0..<min($0 + 4, elements.count)]) }
    }

    /// The arrays one after the other, in one allocation.
    @inlinable
    static func concatenated<Element>(_ parts: [[Element]]) -> [Element] {
        var whole: [Element] = []
        whole.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { whole.append(contentsOf: part) }
        return whole
    }
}
