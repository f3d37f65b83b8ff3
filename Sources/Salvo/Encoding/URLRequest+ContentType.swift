import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `Content-Type` to `value` when the request has none under any spelling of the
    /// name, as Alamofire's encoders do.
    ///
    /// Written through `allHTTPHeaderFields`, where Alamofire's `headers.update` writes it too:
    /// on Linux, `setValue(_:forHTTPHeaderField:)` also capitalizes the name and checks the
    /// value character by character, ~12,000 instructions a request for a constant name and
    /// value that need neither.
    mutating func setContentTypeIfAbsent(_ value: String) {
        guard self.value(forHTTPHeaderField: "Content-Type") == nil else { return }
        var fields = allHTTPHeaderFields ?? [:]
        fields["Content-Type"] = value
        allHTTPHeaderFields = fields
    }
}
