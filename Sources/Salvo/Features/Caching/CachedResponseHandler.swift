import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides whether, and how, a response is stored in the session's `URLCache`.
///
/// Asked only about responses the cache may keep (see `Session`'s caching notes): a `GET`
/// data request's final response that no `no-store` forbids. The request's own handler
/// (`cacheResponse(using:)`) is asked instead of the session's.
public protocol CachedResponseHandler: Sendable {
    /// Answers with the response to store, changed or not, or `nil` to store nothing.
    ///
    /// - Parameters:
    ///   - task: The request whose response it is (Alamofire passes its `URLSessionDataTask`).
    ///   - response: The response and body the cache would store.
    ///   - completion: Called once with what to store.
    func dataTask(_ task: Request, willCacheResponse response: CachedURLResponse,
                  completion: @escaping @Sendable (CachedURLResponse?) -> Void)
}

/// A `CachedResponseHandler` that stores, skips or changes every response the same way.
public struct ResponseCacher: CachedResponseHandler {
    /// What to do with a response.
    public enum Behavior: Sendable {
        /// Store it as it is.
        case cache
        /// Store nothing.
        case doNotCache
        /// Store what the closure returns (`nil`: nothing).
        case modify(@Sendable (_ task: Request, _ response: CachedURLResponse) -> CachedURLResponse?)
    }

    /// Stores every response as it is.
    public static let cache = ResponseCacher(behavior: .cache)
    /// Stores nothing.
    public static let doNotCache = ResponseCacher(behavior: .doNotCache)

    /// What this cacher does.
    public let behavior: Behavior

    /// Creates a cacher that treats every response the same way.
    ///
    /// - Parameter behavior: What to do with each response.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }

    /// Answers as `behavior` says.
    public func dataTask(_ task: Request, willCacheResponse response: CachedURLResponse,
                         completion: @escaping @Sendable (CachedURLResponse?) -> Void) {
        switch behavior {
        case .cache: completion(response)
        case .doNotCache: completion(nil)
        case let .modify(closure): completion(closure(task, response))
        }
    }
}

extension CachedResponseHandler where Self == ResponseCacher {
    /// Stores every response as it is.
    public static var cache: ResponseCacher { .cache }
    /// Stores nothing.
    public static var doNotCache: ResponseCacher { .doNotCache }

    /// Stores what `closure` returns for each response.
    /// - Parameter closure: Returns the response to store, or `nil` for none.
    public static func modify(using closure: @escaping @Sendable (Request, CachedURLResponse) -> CachedURLResponse?) -> ResponseCacher {
        ResponseCacher(behavior: .modify(closure))
    }
}
