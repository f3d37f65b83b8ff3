import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides what happens when a response redirects.
///
/// A handler implements one of the two methods: Alamofire's, which receives the attempt's
/// `URLSessionTask` (`Request.task`), or Salvo's, which receives the `Request`. Salvo calls the
/// `Request` one, whose default calls the task one, whose default follows the redirect.
public protocol RedirectHandler: Sendable {
    /// Decides whether and where to follow a redirect.
    ///
    /// - Parameters:
    ///   - task: The request being redirected.
    ///   - request: The request Salvo would send next (method and headers already adjusted
    ///     as URLSession adjusts them).
    ///   - response: The redirect response.
    ///   - completion: Call once with the request to send, or `nil` to stop and deliver the
    ///     redirect response itself.
    func task(_ task: Request, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void)

    /// Decides whether and where to follow a redirect: Alamofire's method.
    ///
    /// - Parameters:
    ///   - task: The attempt's task.
    ///   - request: The request Salvo would send next.
    ///   - response: The redirect response.
    ///   - completion: Call once with the request to send, or `nil` to stop.
    func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping (URLRequest?) -> Void)
}

extension RedirectHandler {
    /// Asks Alamofire's method, with the request's current task.
    public func task(_ task: Request, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
                     completion: @escaping @Sendable (URLRequest?) -> Void) {
        guard let urlSessionTask = task.task else { return completion(request) }
        self.task(urlSessionTask, willBeRedirectedTo: request, for: response, completion: completion)
    }

    /// Follows the redirect: the default of a handler that implements the `Request` method.
    public func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
                     completion: @escaping (URLRequest?) -> Void) {
        completion(request)
    }
}
