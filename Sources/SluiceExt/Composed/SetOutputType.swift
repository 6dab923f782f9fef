// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher where Output == Never {
    /// Gives this publisher, which cannot publish a value, the output type that downstream
    /// expects: `setFailureType(to:)`'s counterpart for values.
    @inlinable
    public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
        map { never -> NewOutput in }
    }
}

extension Publisher {
    /// Ignores every value, as `ignoreOutput()` does, and gives the publisher the output type
    /// that downstream expects.
    @inlinable
    public func ignoreOutput<NewOutput>(
        setOutputType newOutputType: NewOutput.Type
    ) -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput> {
        ignoreOutput().setOutputType(to: newOutputType)
    }
}
