// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Whether `prefix(while:behavior:)` publishes the value that ends the prefix.
public enum PrefixWhileBehavior: Sendable {
    /// The value that fails the predicate is published, then the stream finishes.
    case inclusive
    /// The value that fails the predicate is not published: `prefix(while:)`.
    case exclusive
}

extension Publisher {
    /// Republishes values while `predicate` accepts them, then finishes; with `.inclusive`, the
    /// value it rejects is published too, before the stream finishes.
    ///
    /// Both forms keep to downstream's demand: the rejected value of `.inclusive` waits for it.
    @inlinable
    public func prefix(
        while predicate: @escaping (Output) -> Bool, behavior: PrefixWhileBehavior = .exclusive
    ) -> AnyPublisher<Output, Failure> {
        switch behavior {
        case .exclusive:
            return prefix(while: predicate).eraseToAnyPublisher()
        case .inclusive:
            return Deferred {
                // `prefix(while:)` ends the stream at the rejected value; it is kept here and
                // published next, as the last part of the stream.
                let rejected = Rejected<Output>()
                return self.prefix(while: { predicate($0) || rejected.keep($0) })
                    .append(Deferred { rejected.value.publisher.setFailureType(to: Failure.self) })
            }
            .eraseToAnyPublisher()
        }
    }
}

/// The value that ended an inclusive `prefix(while:behavior:)`: written by its predicate, read
/// when the stream's last part is subscribed to, after the predicate's last call.
@usableFromInline
final class Rejected<Value> {
    @usableFromInline var value: Value?

    @inlinable init() {}

    /// Keeps `value`; false, the predicate's answer for it.
    @inlinable
    func keep(_ value: Value) -> Bool {
        self.value = value
        return false
    }
}
