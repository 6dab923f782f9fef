// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// A network call: a failed request (no connection, or a status other than 200) is tried again a
// few times (`retry`); the body is decoded (`decode`); and whatever still fails becomes a value the
// screen can show (`catch`), so the stream never fails.
import Foundation
import Sluice
import SluiceFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

public struct User: Decodable, Equatable, Sendable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// What the screen shows for a user.
public enum UserState: Equatable, Sendable {
    case loaded(User)
    case unavailable
}

/// Loads `users/<id>` under `base`: up to `retries` more attempts after a failed request, then
/// `.unavailable`; a body that does not decode is `.unavailable` at once (trying again would not
/// change it).
public func loadUser(id: Int, from base: URL, session: URLSession, retries: Int = 2) -> AnyPublisher<UserState, Never> {
    session.dataTaskPublisher(for: base.appendingPathComponent("users/\(id)"))
        .tryMap { output -> Data in
            guard let http = output.response as? HTTPURLResponse, http.statusCode == 200 else {
                throw URLError(.badServerResponse)
            }
            return output.data
        }
        .retry(retries)
        .decode(type: User.self, decoder: JSONDecoder())
        .map(UserState.loaded)
        .catch { _ in Just(UserState.unavailable) }
        .eraseToAnyPublisher()
}
