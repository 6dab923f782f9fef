import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock stored inline in its owner: one atomic word. Taking it when free is one
/// compare-and-exchange; when taken, it spins briefly and then yields the CPU. SluiceExt holds it
/// only to change a few words of state, never while calling out.
@usableFromInline
struct Lock: ~Copyable {
    @usableFromInline let isLocked = Atomic<Bool>(false)

    @inlinable init() {}

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            lockContended()
        }
        defer {
            // The fence keeps the optimizer from moving a retain of guarded state past the store.
            atomicMemoryFence(ordering: .releasing)
            isLocked.store(false, ordering: .releasing)
        }
        return try body()
    }

    @usableFromInline
    func lockContended() {
        var spins = 0
        while !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }
}
