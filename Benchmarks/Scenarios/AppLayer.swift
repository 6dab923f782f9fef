// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The app layer's scenarios: a `@Published` property observed by a sink, and `for await` over a
// publisher's `values`. Compiled against each implementation, as Scenarios.swift.
#if SLUICE
import Sluice
#elseif SLUICE_REFERENCE
import SluiceReference
#elseif OPENCOMBINE
import OpenCombine
#endif

// MARK: 14. @Published set → sink

/// A view model with one published property.
final class Counter: ObservableObject {
    @Published var value = 0
}

/// Sets the property `count` times; a sink on `$value` sums what it sees (the initial 0 first).
@inline(never)
public func publishedSets(_ count: Int) -> Int {
    let model = Counter()
    let total = Total()
    let token = model.$value.sink { total.sum &+= $0 }
    for value in 0..<count { model.value = value }
    token.cancel()
    return total.sum
}

// MARK: 15. for await over a publisher's values

/// Sums `input` through `input.publisher.values`: one `.max(1)` request per element.
@inline(never)
public func valuesSum(_ input: [Int]) async -> Int {
    var sum = 0
    for await value in input.publisher.values { sum &+= value }
    return sum
}
