// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Search as you type: the query is debounced, so that typing does not start a search per key;
// a repeated query starts nothing; and each new search replaces the one in flight
// (`switchToLatest`), so a slow answer to an old query never overwrites a newer one.
import Sluice

public final class SearchViewModel<S: Scheduler>: ObservableObject {
    /// What the user typed.
    @Published public var query = ""
    /// The answer to the latest query, once it has come.
    @Published public private(set) var results: [String] = []

    /// `search` starts a search and publishes its one answer; `quietTime` is how long the query
    /// must stay unchanged before a search starts.
    public init(
        search: @escaping (String) -> AnyPublisher<[String], Never>,
        quietTime: S.SchedulerTimeType.Stride,
        scheduler: S
    ) {
        $query
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .debounce(for: quietTime, scheduler: scheduler)
            .removeDuplicates()
            .map { query in query.isEmpty ? Just([]).eraseToAnyPublisher() : search(query) }
            .switchToLatest()
            .assign(to: &$results)
    }
}
