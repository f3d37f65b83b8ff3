import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLRequestConvertible` behind `Session.request(_:method:parameters:encoding:headers:...)`.
struct RequestConvertible: URLRequestConvertible {
    let url: any URLConvertible
    let method: HTTPMethod
    let parameters: Parameters?
    let encoding: any ParameterEncoding
    let headers: HTTPHeaders?
    let requestModifier: Session.RequestModifier?

    func asURLRequest() throws -> URLRequest {
        var request = try URLRequest(url: url, method: method, headers: headers)
        try requestModifier?(&request)
        return try encoding.encode(request, with: parameters)
    }

    /// Without parameters or a modifier the `URLRequest` adds nothing, so the spec is built
    /// straight from the URL, skipping Foundation's header setters.
    var plainSpec: RequestSpec? {
        // A custom encoding is asked even without parameters, as Alamofire does; the two
        // built-in ones return the request unchanged then.
        guard parameters == nil, requestModifier == nil, Self.leavesRequestUnchangedWithoutParameters(encoding) else { return nil }
        let text = Self.text(of: url)
        if let text, RequestSpec.isPlainHTTPURL(text) {
            return RequestSpec(plainURLString: text, method: method, headers: headers ?? HTTPHeaders())
        }
        guard let parsed = try? url.asURL() else { return nil }
        return RequestSpec(url: parsed, urlString: text, method: method, headers: headers ?? HTTPHeaders())
    }

    /// Whether the encoding is `URLEncoding` or `JSONEncoding`, compared on the opened type
    /// (a cast of the existential would cost ~800 instructions).
    private static func leavesRequestUnchangedWithoutParameters<Encoding: ParameterEncoding>(_ encoding: Encoding) -> Bool {
        Encoding.self == URLEncoding.self || Encoding.self == JSONEncoding.self
    }

    /// The URL text when the convertible is a `String`. Comparing the opened type costs a
    /// pointer comparison where `as? String` on the existential cost ~800 instructions.
    private static func text<Convertible: URLConvertible>(of convertible: Convertible) -> String? {
        guard Convertible.self == String.self else { return nil }
        return unsafeBitCast(convertible, to: String.self)
    }
}

/// The `URLRequestConvertible` behind `Session.request(_:method:parameters:encoder:headers:...)`.
struct RequestEncodableConvertible<Parameters: Encodable & Sendable>: URLRequestConvertible {
    let url: any URLConvertible
    let method: HTTPMethod
    let parameters: Parameters?
    let encoder: any ParameterEncoder
    let headers: HTTPHeaders?
    let requestModifier: Session.RequestModifier?

    func asURLRequest() throws -> URLRequest {
        var request = try URLRequest(url: url, method: method, headers: headers)
        try requestModifier?(&request)
        return try parameters.map { try encoder.encode($0, into: request) } ?? request
    }
}
