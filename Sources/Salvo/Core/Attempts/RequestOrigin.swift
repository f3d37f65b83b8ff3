import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request is made from: a convertible (a router, a `URLRequest`, a URL with
/// parameters), or, for a plain URL with a method and headers, the spec alone.
///
/// A plain request keeps no convertible: boxing the URL, method, parameters and encoding
/// into an existential cost an allocation and a dozen reference counts per request, for a
/// value only `DataRequest.convertible` reads. That property rebuilds an equivalent one.
enum RequestOrigin: Sendable {
    case convertible(any URLRequestConvertible, plainSpec: RequestSpec?)
    case plain(RequestSpec)

    /// The spec of a request that needs no `URLRequest` to be built first.
    var plainSpec: RequestSpec? {
        switch self {
        case let .convertible(_, spec): return spec
        case let .plain(spec): return spec
        }
    }

    var convertible: any URLRequestConvertible {
        switch self {
        case let .convertible(convertible, _): return convertible
        case let .plain(spec): return PlainSpecConvertible(spec: spec)
        }
    }
}

/// The convertible of a plain request: the `URLRequest` that the URL, method and headers
/// make, as `URLRequest(url:method:headers:)` builds it (URLRequest's own timeout).
struct PlainSpecConvertible: URLRequestConvertible {
    let spec: RequestSpec

    func asURLRequest() throws -> URLRequest {
        try URLRequest(url: spec.url, method: spec.method, headers: spec.headers.isEmpty ? nil : spec.headers)
    }
}
