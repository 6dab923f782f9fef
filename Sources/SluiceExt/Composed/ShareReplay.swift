// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, replaying the last `count`
    /// values, and the completion, to each new one.
    ///
    /// `share()` with memory: the first subscriber subscribes upstream; later ones join the same
    /// stream and first receive what a `ReplaySubject(bufferSize: count)` holds. As with
    /// `share()`, the upstream subscription is cancelled when the last subscriber cancels, and the
    /// next subscriber subscribes again, to the same subject (which, once completed, replays).
    @inlinable
    public func share(replay count: Int)
        -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>>
    {
        multicast { ReplaySubject(bufferSize: count) }.autoconnect()
    }
}
