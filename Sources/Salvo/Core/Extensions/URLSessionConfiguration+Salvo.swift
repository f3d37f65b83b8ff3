import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSessionConfiguration.af` reaches Salvo's configurations (`.default`, `.ephemeral`).
extension URLSessionConfiguration: AlamofireExtended {}

extension URLSessionConfiguration {
    /// `httpAdditionalHeaders` as `HTTPHeaders`: the headers a `Session` made with this
    /// configuration adds to every request that does not set them itself. Setting an empty
    /// value makes a session that sends only what libcurl sends by default.
    public var headers: HTTPHeaders {
        get {
            var headers = HTTPHeaders()
            for (name, value) in httpAdditionalHeaders ?? [:] {
                if let name = name as? String, let value = value as? String { headers.add(name: name, value: value) }
            }
            return headers
        }
        set { httpAdditionalHeaders = newValue.dictionary }
    }
}

extension AlamofireExtension where ExtendedType: URLSessionConfiguration {
    /// `URLSessionConfiguration.default` with `HTTPHeaders.default` as additional headers, and
    /// no `urlCache`.
    ///
    /// Unlike Alamofire's, it leaves out Foundation's shared cache: on Linux `URLCache.shared`
    /// keeps responses on disk, where a lookup that finds nothing costs ~15 µs and storing a
    /// response ~1.7 ms, more than the request itself. Set `urlCache` to cache (a memory-only
    /// `URLCache(memoryCapacity:diskCapacity: 0, diskPath: nil)` finds or stores a response in
    /// ~2 µs).
    public static var `default`: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = HTTPHeaders.default.dictionary
        configuration.urlCache = nil
        return configuration
    }

    /// `URLSessionConfiguration.ephemeral` with `HTTPHeaders.default` as additional headers.
    public static var ephemeral: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = HTTPHeaders.default.dictionary
        return configuration
    }
}
