#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Ends the stream normally where this publisher would fail: the values before the failure are
    /// published, then the stream finishes.
    @inlinable
    public func ignoreFailure() -> Publishers.Catch<Self, Empty<Output, Never>> {
        self.catch { _ in Empty() }
    }
}
