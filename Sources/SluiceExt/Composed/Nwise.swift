// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Publishes, from the `size`th value on, each value with the `size - 1` values before it,
    /// oldest first: a window that slides by one value.
    ///
    /// Values that do not fill a window yet are asked for again, so downstream's demand counts
    /// windows. `size` must be at least 1.
    @inlinable
    public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
        if size < 1 { trap("nwise(_:) takes windows of at least one value, not \(size)") }
        return scan([Output]()) { window, value in
            var window = window
            if window.count == size { window.removeFirst() }
            window.append(value)
            return window
        }
        .filter { $0.count == size }
        .eraseToAnyPublisher()
    }

    /// Publishes each value with the one before it, as a pair, from the second value on:
    /// `nwise(2)` as tuples.
    @inlinable
    public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
        scan((nil, nil)) { (pair: (Output?, Output?), value) in (pair.1, value) }
            .compactMap { previous, current in
                guard let previous, let current else { return nil }
                return (previous, current)
            }
            .eraseToAnyPublisher()
    }
}
