// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Form validation: the form is valid when every field is, recomputed from the latest value of
// each field whenever one changes (`combineLatest`), and published only when the verdict changes.
import Sluice

public final class SignUpForm: ObservableObject {
    @Published public var username = ""
    @Published public var password = ""
    @Published public var repeatedPassword = ""
    /// Whether the form can be sent.
    @Published public private(set) var isValid = false
    /// What to tell the user about the password, if anything.
    @Published public private(set) var passwordHint: String?

    public init() {
        let passwordHint = $password.combineLatest($repeatedPassword) { password, repeated -> String? in
            if password.count < 8 { return "at least 8 characters" }
            if password != repeated { return "the passwords differ" }
            return nil
        }
        passwordHint.assign(to: &$passwordHint)
        $username
            .map { $0.count >= 3 && $0.allSatisfy { $0.isLetter || $0.isNumber } }
            .combineLatest(passwordHint) { usernameIsValid, hint in usernameIsValid && hint == nil }
            .removeDuplicates()
            .assign(to: &$isValid)
    }
}
