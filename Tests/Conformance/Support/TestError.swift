// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// The errors the tests fail streams with.
enum TestError: Error, Equatable, Hashable, Codable, CustomStringConvertible {
    case oops
    case other

    var description: String {
        switch self {
        case .oops: "oops"
        case .other: "other"
        }
    }
}
