// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Virtual time for `TestScheduler`: a plain count of nanoseconds. Written once and compiled against
// each implementation (SluiceTesting against Sluice, SluiceReferenceTesting against SluiceReference),
// because `SchedulerTimeIntervalConvertible` is each implementation's own protocol.
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// An instant on a virtual clock, in nanoseconds since the clock's origin.
public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the origin of the virtual clock.
    public var nanoseconds: Int

    /// The instant `nanoseconds` after the origin.
    public init(nanoseconds: Int) {
        self.nanoseconds = nanoseconds
    }

    /// The origin of the virtual clock.
    public static let zero = VirtualTime(nanoseconds: 0)

    public func distance(to other: VirtualTime) -> Stride {
        Stride(nanoseconds: other.nanoseconds &- nanoseconds)
    }

    public func advanced(by n: Stride) -> VirtualTime {
        VirtualTime(nanoseconds: nanoseconds &+ n.nanoseconds)
    }

    public var description: String { "t=\(Stride(nanoseconds: nanoseconds))" }

    /// A span of virtual time. Integer and floating-point literals are seconds, as for
    /// `DispatchQueue.SchedulerTimeType.Stride`.
    public struct Stride: SchedulerTimeIntervalConvertible, SignedNumeric, Comparable, Hashable, Sendable,
        ExpressibleByFloatLiteral, CustomStringConvertible
    {
        /// The span in nanoseconds (negative spans point into the past).
        public var nanoseconds: Int

        /// A span of `nanoseconds`.
        public init(nanoseconds: Int) {
            self.nanoseconds = nanoseconds
        }

        public init(integerLiteral seconds: Int) { self = .seconds(seconds) }
        public init(floatLiteral seconds: Double) { self = .seconds(seconds) }

        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = Int(exactly: source) else { return nil }
            let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            if overflow { return nil }
            nanoseconds = product
        }

        public var magnitude: Int { nanoseconds == .min ? .max : abs(nanoseconds) }

        public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s.saturatingTimes(1_000_000_000)) }
        public static func seconds(_ s: Double) -> Stride {
            let ns = (s * 1e9).rounded()
            return Stride(nanoseconds: ns >= Double(Int.max) ? .max : ns <= Double(Int.min) ? .min : Int(ns))
        }
        public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms.saturatingTimes(1_000_000)) }
        public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us.saturatingTimes(1_000)) }
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

        public static func < (a: Stride, b: Stride) -> Bool { a.nanoseconds < b.nanoseconds }
        public static func + (a: Stride, b: Stride) -> Stride { Stride(nanoseconds: a.nanoseconds &+ b.nanoseconds) }
        public static func - (a: Stride, b: Stride) -> Stride { Stride(nanoseconds: a.nanoseconds &- b.nanoseconds) }
        public static func * (a: Stride, b: Stride) -> Stride { Stride(nanoseconds: a.nanoseconds &* b.nanoseconds) }
        public static func += (a: inout Stride, b: Stride) { a = a + b }
        public static func -= (a: inout Stride, b: Stride) { a = a - b }
        public static func *= (a: inout Stride, b: Stride) { a = a * b }

        /// Whole milliseconds print as `Nms`, anything finer as `Nns`.
        public var description: String {
            nanoseconds % 1_000_000 == 0 ? "\(nanoseconds / 1_000_000)ms" : "\(nanoseconds)ns"
        }
    }
}

extension Int {
    fileprivate func saturatingTimes(_ factor: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        return overflow ? (self < 0 ? .min : .max) : product
    }
}
