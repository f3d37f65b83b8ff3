import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ready-made `RedirectHandler`: follow every redirect, follow none, or rewrite each one
/// with a closure.
///
/// Set it for a whole session (`Session(redirectHandler: Redirector.doNotFollow)`) or for
/// one request (`request.redirect(using: .doNotFollow)`), which takes precedence.
public struct Redirector: Sendable {
    /// What a `Redirector` does with a redirect.
    public enum Behavior: Sendable {
        /// Send the request Salvo prepared for the new location.
        case follow
        /// Stop, and deliver the redirect response (its status, headers and body) as the
        /// request's response.
        case doNotFollow
        /// Ask the closure: it receives the task of the attempt being redirected (Salvo's
        /// mirror of the request's attempt, `Request.task`), the request Salvo prepared for
        /// the new location and the redirect response, and returns the request to send, or
        /// `nil` to stop as `.doNotFollow` does.
        case modify(@Sendable (_ task: URLSessionTask, _ request: URLRequest, _ response: HTTPURLResponse) -> URLRequest?)
    }

    /// A `Redirector` that follows redirects; what Salvo does without any handler.
    public static let follow = Redirector(behavior: .follow)
    /// A `Redirector` that never follows redirects.
    public static let doNotFollow = Redirector(behavior: .doNotFollow)

    /// What this redirector does.
    public let behavior: Behavior

    /// Creates a redirector.
    ///
    /// - Parameter behavior: What it does with each redirect.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }
}

extension Redirector: RedirectHandler {
    /// Applies the behavior: passes `request` on, passes `nil`, or passes what the closure
    /// returns.
    ///
    /// - Parameters:
    ///   - task: The request being redirected.
    ///   - request: The request Salvo prepared for the new location (method, body and
    ///     credentials already adjusted as URLSession adjusts them).
    ///   - response: The redirect response.
    ///   - completion: Receives the request to send, or `nil`; called synchronously.
    public func task(_ task: Request, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
                     completion: @escaping @Sendable (URLRequest?) -> Void) {
        switch behavior {
        case .follow:
            completion(request)
        case .doNotFollow:
            completion(nil)
        case let .modify(closure):
            // The task is made here, on the first redirect that asks for it. Without one the
            // closure cannot be asked, and a closure may be a filter: the redirect is not followed.
            guard let urlSessionTask = task.task else { return completion(nil) }
            completion(closure(urlSessionTask, request, response))
        }
    }
}

extension RedirectHandler where Self == Redirector {
    /// A `Redirector` that follows redirects; the same as `Redirector.follow`.
    public static var follow: Redirector { Redirector.follow }

    /// A `Redirector` that never follows redirects; the same as `Redirector.doNotFollow`.
    public static var doNotFollow: Redirector { Redirector.doNotFollow }

    /// A `Redirector` that lets `closure` rewrite or refuse each redirect.
    ///
    /// - Parameter closure: Receives the task of the attempt being redirected, the request
    ///   prepared for the new location and the redirect response; returns the request to
    ///   send, or `nil` to deliver the redirect response instead.
    /// - Returns: The redirector.
    public static func modify(using closure: @escaping @Sendable (URLSessionTask, URLRequest, HTTPURLResponse) -> URLRequest?) -> Redirector {
        Redirector(behavior: .modify(closure))
    }
}
