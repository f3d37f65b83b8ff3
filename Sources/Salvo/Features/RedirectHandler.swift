import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides what happens when a response redirects.
///
/// - Note: Alamofire's method receives the `URLSessionTask`; Salvo passes the `Request`
///   under the same label, so conformers that ignore it compile unchanged.
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
}
