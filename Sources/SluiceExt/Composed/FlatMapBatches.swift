// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Collection where Element: Publisher {
    /// Zips the publishers of this collection in batches of `size`, one batch after the other:
    /// publishes the arrays each batch's `zip()` publishes, then, when that batch has finished,
    /// subscribes to the next. A failure ends the stream; a batch that never finishes stops it.
    @inlinable
    public func flatMapBatches(of size: Int) -> AnyPublisher<[Element.Output], Element.Failure> {
        if size < 1 { trap("flatMapBatches(of:): batch sizes must be positive, not \(size)") }
        let batches = stride(from: 0, to: count, by: size).map { offset in
            let start = index(startIndex, offsetBy: offset)
            return self[start..<(index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex)].zip()
        }
        return batches.publisher
            .setFailureType(to: Element.Failure.self)
            .flatMap(maxPublishers: .max(1)) { $0 }
            .eraseToAnyPublisher()
    }
}
