// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// As in Combine, this is a plain `map`: its type is `Publishers.Map<Self, T>`.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
