// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The contract and equivalence checks in a test: an issue (Swift Testing) or a failure (XCTest)
// per broken rule, or for the program that tells two operators apart, at the caller's line.
// Written once and compiled against each implementation (see VirtualTime.swift).
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

extension ContractReport {
    /// Each broken rule as one message: the rule, why, and the trace that broke it.
    public var violationMessages: [String] { violations.map(\.description) }
}

extension EquivalenceReport {
    /// The program that told the two operators apart, as one message (none when they agreed).
    fileprivate var messages: [String] { isEquivalent ? [] : [description] }
}

#if canImport(Testing)
import Testing

/// Checks the publishers `makePublisher` makes (see `checkContract(of:promising:)`) and records a Swift
/// Testing issue for each rule broken, at the caller's source location.
@discardableResult
public func expectContract<P: Publisher>(
    of makePublisher: () -> P, promising promises: [PublisherRule] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> ContractReport {
    record(checkContract(of: makePublisher, promising: promises), at: sourceLocation)
}

/// Checks the publishers `makePublisher` makes, which deliver as `delivery` says (see
/// `checkContract(of:delivering:promising:)`), and records a Swift Testing issue for each rule
/// broken, at the caller's source location.
@discardableResult
public func expectContract<P: Publisher>(
    of makePublisher: () -> P, delivering delivery: Delivery, promising promises: [PublisherRule] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> ContractReport {
    record(checkContract(of: makePublisher, delivering: delivery, promising: promises), at: sourceLocation)
}

/// Checks an operator over an upstream that plays `values`, then finishes (see
/// `checkContract(ofOperator:feeding:upstreamDemand:promising:)`), and records an issue per rule broken.
@discardableResult
public func expectContract<Output, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Never>) -> P, feeding values: [Output],
    upstreamDemand: UpstreamDemand = .withinDownstreamDemand, promising promises: [PublisherRule] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> ContractReport {
    let report = checkContract(
        ofOperator: makeOperator, feeding: values, upstreamDemand: upstreamDemand, promising: promises)
    return record(report, at: sourceLocation)
}

/// Checks an operator over an upstream that plays `values`, then fails with `failure`, and records
/// an issue per rule broken.
@discardableResult
public func expectContract<Output, Failure: Error, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Failure>) -> P, feeding values: [Output],
    failingWith failure: Failure, upstreamDemand: UpstreamDemand = .withinDownstreamDemand,
    promising promises: [PublisherRule] = [], sourceLocation: SourceLocation = #_sourceLocation
) -> ContractReport {
    let report = checkContract(
        ofOperator: makeOperator, feeding: values, failingWith: failure, upstreamDemand: upstreamDemand,
        promising: promises)
    return record(report, at: sourceLocation)
}

/// Checks `candidate` against `specification` on generated programs (see
/// `checkEquivalence(of:to:programs:seed:)`) and records a Swift Testing issue, at the caller's
/// source location, with the shrunk program that tells them apart.
@discardableResult
public func expectEquivalence<Candidate: Publisher, Specification: Publisher>(
    of candidate: @escaping (EquivalenceInput) -> Candidate,
    to specification: @escaping (EquivalenceInput) -> Specification, programs: Int = 500, seed: UInt64 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) -> EquivalenceReport where Candidate.Output == Specification.Output {
    let report = checkEquivalence(of: candidate, to: specification, programs: programs, seed: seed)
    record(report.messages, at: sourceLocation)
    return report
}

private func record(_ report: ContractReport, at sourceLocation: SourceLocation) -> ContractReport {
    record(report.violationMessages, at: sourceLocation)
    return report
}

private func record(_ messages: [String], at sourceLocation: SourceLocation) {
    for message in messages { Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation) }
}
#endif

#if canImport(XCTest)
import XCTest

/// Checks the publishers `makePublisher` makes (see `checkContract(of:promising:)`) and fails the running
/// XCTest once for each rule broken, at the caller's line.
@discardableResult
public func assertContract<P: Publisher>(
    of makePublisher: () -> P, promising promises: [PublisherRule] = [], file: StaticString = #filePath,
    line: UInt = #line
) -> ContractReport {
    fail(checkContract(of: makePublisher, promising: promises), file: file, line: line)
}

/// Checks an operator over an upstream that plays `values`, then finishes, and fails the running
/// XCTest once for each rule broken.
@discardableResult
public func assertContract<Output, P: Publisher>(
    ofOperator makeOperator: (ContractUpstream<Output, Never>) -> P, feeding values: [Output],
    upstreamDemand: UpstreamDemand = .withinDownstreamDemand, promising promises: [PublisherRule] = [],
    file: StaticString = #filePath, line: UInt = #line
) -> ContractReport {
    let report = checkContract(
        ofOperator: makeOperator, feeding: values, upstreamDemand: upstreamDemand, promising: promises)
    return fail(report, file: file, line: line)
}

/// Checks `candidate` against `specification` on generated programs (see
/// `checkEquivalence(of:to:programs:seed:)`) and fails the running XCTest, at the caller's line,
/// with the shrunk program that tells them apart.
@discardableResult
public func assertEquivalence<Candidate: Publisher, Specification: Publisher>(
    of candidate: @escaping (EquivalenceInput) -> Candidate,
    to specification: @escaping (EquivalenceInput) -> Specification, programs: Int = 500, seed: UInt64 = 1,
    file: StaticString = #filePath, line: UInt = #line
) -> EquivalenceReport where Candidate.Output == Specification.Output {
    let report = checkEquivalence(of: candidate, to: specification, programs: programs, seed: seed)
    for message in report.messages { XCTFail(message, file: file, line: line) }
    return report
}

private func fail(_ report: ContractReport, file: StaticString, line: UInt) -> ContractReport {
    for message in report.violationMessages { XCTFail(message, file: file, line: line) }
    return report
}
#endif
