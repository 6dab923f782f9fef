// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fused concatenation (see Concatenate.swift for the unfused one).

extension _Runtime {
    /// The fused prefix, then the fused suffix.
    ///
    /// The suffix's cursor is made only when the prefix has finished, as Combine subscribes the suffix
    /// only then. The prefix's end is looked at as soon as the prefix is exhausted, so that an empty
    /// suffix (or a prefix failure) ends the stream right after the prefix's last value, without
    /// waiting for more demand.
    @frozen
    @usableFromInline
    struct ConcatenateCursor<PrefixCursor: _Runtime.FusedCursor, Suffix: Publisher>: _Runtime.FusedCursor
    where PrefixCursor.Output == Suffix.Output, PrefixCursor.Failure == Suffix.Failure {
        @usableFromInline var prefix: PrefixCursor
        @usableFromInline let suffixPublisher: Suffix
        @usableFromInline var suffix: Suffix._Cursor?
        /// The prefix's failure, seen ahead of time: it ends the stream instead of the suffix.
        @usableFromInline var failure: Suffix.Failure?

        @inlinable
        init(prefix: PrefixCursor, suffix: Suffix) {
            self.prefix = prefix
            suffixPublisher = suffix
            self.suffix = nil
            failure = nil
            if self.prefix.isExhausted { endPrefix() }
        }

        @inlinable
        mutating func next() -> _Runtime.StageStep<Suffix.Output, Suffix.Failure> {
            if suffix != nil { return suffix!.next() }
            if let failure { return .failure(failure) }
            let step = prefix.next()
            switch step {
            case .value, .skip:
                return step
            case .finished:
                startSuffix()
                return .skip
            case .failure(let error):
                failure = error
                return step
            }
        }

        /// The prefix's end is looked at once its last value has been delivered, as Combine subscribes
        /// the suffix when the prefix completes after that value.
        @inlinable var isExhausted: Bool {
            mutating get {
                if suffix == nil && failure == nil && prefix.isExhausted { endPrefix() }
                return suffix?.isExhausted ?? (failure != nil)
            }
        }

        @inlinable var _name: StaticString { "Concatenate" }

        @inlinable static var _traits: _Runtime.CursorTraits {
            PrefixCursor._traits.intersection(.acceptsZeroDemand.union(.needsUnlimitedDemand))
                .union(.fusable(when: PrefixCursor._traits.contains(.fusable) && Suffix.fusesUnderAnyDemand))
        }

        @inlinable var _isStarved: Bool { prefix._isStarved }

        @inlinable mutating func _didEnd() { if suffix == nil { prefix._didEnd() } else { suffix!._didEnd() } }

        /// An exhausted cursor's next step is its completion: a finish hands over to the suffix.
        @inlinable
        mutating func endPrefix() {
            switch prefix.next() {
            case .failure(let error): failure = error
            default: startSuffix()
            }
        }

        @inlinable
        mutating func startSuffix() { suffix = suffixPublisher._makeCursor() }
    }
}
