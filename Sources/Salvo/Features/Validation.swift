import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A media type split into type and subtype, parameters dropped.
struct MIMEType {
    let type: String
    let subtype: String

    var isWildcard: Bool { type == "*" && subtype == "*" }

    init?(_ string: String) {
        let essence = string.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = Self.trimmed(essence).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        type = String(parts[0]).lowercased()
        subtype = String(parts[parts.count - 1]).lowercased()
    }

    /// Whether `string` is `*/*` give or take surrounding whitespace and parameters: it
    /// accepts every response, so nothing needs parsing.
    static func isAnyType(_ string: String) -> Bool {
        // The type every request without an `Accept` header accepts: no splitting.
        if string == "*/*" { return true }
        let essence = string.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return trimmed(essence) == "*/*"
    }

    /// `text` without ASCII whitespace at either end (media types are ASCII; Foundation's
    /// `trimmingCharacters` costs a microsecond a call).
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// Wildcards count on the acceptable side only: `text/*` accepts `text/html`.
    func matches(_ other: MIMEType) -> Bool {
        (type == other.type || type == "*") && (subtype == other.subtype || subtype == "*")
    }
}

extension DataRequest {
    /// Status codes `validate()` accepts: 200 to 299.
    var acceptableStatusCodes: Range<Int> { 200..<300 }

    /// Media types `validate()` accepts, for data, download and stream requests alike: the
    /// request's `Accept` header, or `*/*`.
    static func acceptableContentTypes(for context: ResponseContext?) -> [String] {
        if let accept = context?.spec.headers["Accept"] {
            return accept.components(separatedBy: ",")
        }
        return anyContentType
    }

    /// What a request without an `Accept` header accepts, made once.
    private static let anyContentType = ["*/*"]

    /// Fails the request unless its status code is in `acceptableStatusCodes`, with
    /// `AFError.responseValidationFailed(reason: .unacceptableStatusCode(code:))`.
    ///
    /// - Parameter acceptableStatusCodes: The codes that pass.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        appendValidator { _, head, _, _ in
            DataRequest.validate(statusCode: head.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails the request when it has a body whose `Content-Type` matches none of the
    /// acceptable types (`*` wildcards allowed), or no `Content-Type` at all.
    ///
    /// - Parameter acceptableContentTypes: The media types that pass, read when the
    ///   response arrives.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self where S.Element == String {
        appendValidator { _, head, data, _ in
            DataRequest.validate(contentType: Array(acceptableContentTypes()), head: head, data: data)
        }
    }

    /// Validates the status code (200 to 299) and the `Content-Type` against the request's
    /// `Accept` header.
    ///
    /// - Returns: The request.
    @discardableResult
    public func validate() -> Self {
        // Two validators, as Alamofire chains them: monitors hear of each that runs (the
        // second runs only when the first passed). The closures name `DataRequest`, not
        // `Self`: one that says `Self` captures the dynamic type, an allocation per request.
        appendValidator { request, head, _, _ in
            DataRequest.validate(statusCode: head.statusCode, acceptable: request.acceptableStatusCodes)
        }
        return appendValidator { _, head, data, context in
            DataRequest.validate(contentType: DataRequest.acceptableContentTypes(for: context), head: head, data: data)
        }
    }

    static func validate<S: Sequence>(statusCode: Int, acceptable: S) -> ValidationResult where S.Element == Int {
        if acceptable.contains(statusCode) { return .success(()) }
        return .failure(AFError.responseValidationFailed(reason: .unacceptableStatusCode(code: statusCode)))
    }

    static func validate(contentType acceptable: [String], head: ResponseHead, data: Data?) -> ValidationResult {
        guard let data, !data.isEmpty else { return .success(()) }
        // `*/*` (what a request without an `Accept` header accepts) passes any type, or none.
        if acceptable.contains(where: MIMEType.isAnyType) { return .success(()) }
        let responseType = head.contentType.flatMap { type -> String? in
            let essence = type.split(separator: ";", maxSplits: 1).first.map { String(MIMEType.trimmed($0)).lowercased() }
            return essence?.isEmpty == false ? essence : nil
        }
        guard let responseType, let responseMIME = MIMEType(responseType) else {
            if acceptable.contains(where: { MIMEType($0)?.isWildcard == true }) { return .success(()) }
            return .failure(AFError.responseValidationFailed(reason: .missingContentType(acceptableContentTypes: acceptable.sorted())))
        }
        for type in acceptable {
            if let mime = MIMEType(type), mime.matches(responseMIME) { return .success(()) }
        }
        return .failure(AFError.responseValidationFailed(
            reason: .unacceptableContentType(acceptableContentTypes: acceptable.sorted(), responseContentType: responseType)))
    }
}
