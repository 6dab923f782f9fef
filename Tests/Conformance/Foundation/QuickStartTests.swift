// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import FlyingFox
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if !SLUICE_REFERENCE
import SluiceShim
#endif

// The README's quick start, compiled and run here against both implementations. The blocks between
// the "quick start" markers are the README's code, verbatim but for its import line (this suite
// gets the implementation from Support/Implementation.swift); a test below checks that they match.

// quick start: view model
final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []

    init(search: @escaping (String) -> [String]) {
        $query
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .removeDuplicates()
            .map(search)
            .assign(to: &$results)
    }
}
// end of quick start

// quick start: networking
struct Repo: Decodable, Equatable {
    let name: String
    let stars: Int
}

func fetchRepos(from url: URL) -> AnyPublisher<[Repo], Error> {
    URLSession.shared.dataTaskPublisher(for: url)
        .tryMap { output in
            guard let http = output.response as? HTTPURLResponse, http.statusCode == 200 else {
                throw URLError(.badServerResponse)
            }
            return output.data
        }
        .decode(type: [Repo].self, decoder: JSONDecoder())
        .eraseToAnyPublisher()
}
// end of quick start

@Suite struct QuickStartTests {
    @Test func theViewModelPublishesResultsForEachDistinctQuery() {
        let model = SearchModel { query in query.isEmpty ? [] : ["\(query)-1", "\(query)-2"] }
        var changes = 0
        let token = model.objectWillChange.sink { changes += 1 }
        model.query = " Swift "
        #expect(model.results == ["swift-1", "swift-2"])
        model.query = "swift"  // the same query once trimmed: no new search
        #expect(model.results == ["swift-1", "swift-2"])
        // Two query sets, one results set: three changes announced.
        #expect(changes == 3)
        withExtendedLifetime(token) {}
    }

    @Test func theNetworkingPipelineDecodesWhatALoopbackServerSends() async throws {
        let body = #"[{"name":"sluice","stars":42},{"name":"combine","stars":7}]"#
        let respond: @Sendable (Int, HTTPRequest) -> HTTPResponse = { _, request in
            request.path == "/repos"
                ? DataTaskPublisherTests.ok(body, type: "application/json") : HTTPResponse(statusCode: .notFound)
        }
        try await DataTaskPublisherTests.LoopbackServer.with(respond) { server, _ in
            let found = await firstResult(of: fetchRepos(from: URL(string: "http://127.0.0.1:\(server.port)/repos")!))
            let repos = try found.get()
            #expect(repos == [Repo(name: "sluice", stars: 42), Repo(name: "combine", stars: 7)])
            let missing = await firstResult(
                of: fetchRepos(from: URL(string: "http://127.0.0.1:\(server.port)/elsewhere")!))
            #expect(throws: URLError.self) { try missing.get() }
        }
    }

    #if !SLUICE_REFERENCE
    /// On Linux the shim is Sluice and SluiceFoundation, with Foundation's networking.
    @Test func theShimIsSluiceHere() {
        #expect(SluiceShim.Published<Int>.self == Sluice.Published<Int>.self)
        #expect(SluiceShim.ObservableObjectPublisher.self == Sluice.ObservableObjectPublisher.self)
    }
    #endif

    /// The README's code blocks are the code above.
    @Test func theReadmeShowsThisCode() throws {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) {
            root.deleteLastPathComponent()
        }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let shown = Self.quickStartBlocks(readme)
        let compiled = Self.markedBlocks(source)
        #expect(shown.count == 2)
        #expect(shown == compiled)
    }

    /// The Swift blocks of the README's "Quick start" section after the first, without import lines.
    static func quickStartBlocks(_ readme: String) -> [String] {
        guard let start = readme.range(of: "## Quick start") else { return [] }
        let section = readme[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let blocks = section[..<end].components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        return blocks.dropFirst().map { block in
            block.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("import ") }
                .joined(separator: "\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The code between this file's "quick start" markers.
    static func markedBlocks(_ source: String) -> [String] {
        // The markers are spelled in two pieces here, so that this function's text holds neither.
        source.components(separatedBy: "// quick start" + ": ").dropFirst().map { part in
            let body = part.components(separatedBy: "// end of" + " quick start")[0]
            return body.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}

/// The first completion or value of `publisher`, awaited.
private func firstResult<Output: Sendable>(of publisher: AnyPublisher<Output, Error>) async -> Result<Output, Error> {
    do {
        for try await value in publisher.values { return .success(value) }
        return .failure(URLError(.zeroByteResource))
    } catch {
        return .failure(error)
    }
}
