// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A namespace for the types that serve as publishers.
public enum Publishers {}

/// A namespace for the types that act as subscribers.
public enum Subscribers {}

/// A namespace for the subscriptions that do not belong to one particular publisher.
public enum Subscriptions {}
