import Foundation

/// What a download or an upload adds to each attempt of its request: a file for the body,
/// a source for the request body, and the work done when an attempt or the request ends.
///
/// A request holds its hooks in a `let` that is `nil` for data requests, so their path pays
/// a single check for all of this.
protocol AttemptHooks: AnyObject, Sendable {
    /// Whether attempts send a body from a source, so the header list must turn off
    /// libcurl's `Expect: 100-continue` wait.
    var sendsBodySource: Bool { get }

    /// The spec an attempt sends instead of the one the request would send, or `nil` to send
    /// that one (a resumed download that had to start over no longer asks for a range). Only
    /// its headers may differ: the attempt's `URLRequest` is the caller's with these headers.
    func attemptSpec(_ spec: RequestSpec) -> RequestSpec?

    /// Completes the description of an attempt's transfer (its sink, its body source, its
    /// head handler) before the transfer is made, on the thread sending the attempt.
    ///
    /// - Throws: An `AFError`, which fails the request without a retry.
    func prepare(_ description: TransferDescription, spec: RequestSpec) throws

    /// Runs on the delivery queue for every transfer the request made, once its outcome is
    /// delivered and before the session acts on it. The loop is done with the transfer.
    func transferEnded(_ transfer: Transfer, outcome: TransferOutcome)

    /// Asked first when a transfer's outcome is delivered: `true` holds the end back, and
    /// `resume` delivers it again later (a stream's handlers still working through chunks);
    /// `false` lets it go on now.
    func holdsTransferEnd(_ resume: @escaping @Sendable () -> Void) -> Bool

    /// Runs on the delivery queue when a redirect that ended a transfer is not followed (the
    /// redirect handler refused it, or its target is not a URL): the redirect is the
    /// attempt's answer.
    func redirectNotFollowed(_ transfer: Transfer, on queue: DispatchQueue)

    /// Runs on the delivery queue when the response passed validation, before the request
    /// finishes.
    ///
    /// - Returns: An error that fails the request instead, or `nil`.
    func attemptSucceeded(_ request: Request) -> AFError?

    /// Runs once, when the request completes by any path, before its handlers run.
    func requestFinishing(_ request: Request)
}

extension AttemptHooks {
    func attemptSpec(_ spec: RequestSpec) -> RequestSpec? { nil }
    func holdsTransferEnd(_ resume: @escaping @Sendable () -> Void) -> Bool { false }
    func redirectNotFollowed(_ transfer: Transfer, on queue: DispatchQueue) {}
}
