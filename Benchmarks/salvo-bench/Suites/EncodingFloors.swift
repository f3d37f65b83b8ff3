import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor of each encoder case: the very `URLRequest` the encoder makes, built by hand
/// with Foundation from the query string or body computed once beforehand. No encoder can
/// beat it (it still pays for `URL` parsing and `URLRequest`'s copy-on-write), so an
/// encoder's time over its floor is what its encoding costs.
enum EncodingFloors {
    static let queryGET = "floor: URLRequest with a precomputed query URL"
    static let formPOST = "floor: URLRequest with a precomputed form body"
    static let formEncoderGET = "floor: URLRequest with the form encoder's query URL"
    static let formEncoderPOST = "floor: URLRequest with the form encoder's body"
    static let jsonPOST = "floor: URLRequest with a precomputed JSON body"
    static let routerGET = "floor: the router's GET built by hand"

    static func all() throws -> [EncodingCase] {
        let get = EncodingInputs.getRequest, post = EncodingInputs.postRequest
        let queryURL = try URLEncoding.default.encode(get, with: EncodingInputs.query).url!.absoluteString
        let formBody = try URLEncoding.default.encode(post, with: EncodingInputs.query).httpBody!
        let encoderURL = try URLEncodedFormParameterEncoder.default.encode(EncodingInputs.Query(), into: get).url!.absoluteString
        let encoderBody = try URLEncodedFormParameterEncoder.default.encode(EncodingInputs.Query(), into: post).httpBody!
        let jsonBody = try JSONEncoding.default.encode(post, with: EncodingInputs.user).httpBody!
        let routerURL = try APIRouter.listUsers(page: 2).asURLRequest().url!.absoluteString
        let form = "application/x-www-form-urlencoded; charset=utf-8"
        return [
            EncodingCase(name: queryGET, isFoundation: true) { byURL(get, queryURL) },
            EncodingCase(name: formPOST, isFoundation: true) { byBody(post, formBody, form) },
            EncodingCase(name: formEncoderGET, isFoundation: true) { byURL(get, encoderURL) },
            EncodingCase(name: formEncoderPOST, isFoundation: true) { byBody(post, encoderBody, form) },
            EncodingCase(name: jsonPOST, isFoundation: true) { byBody(post, jsonBody, "application/json") },
            EncodingCase(name: routerGET, isFoundation: true) {
                var request = URLRequest(url: URL(string: routerURL)!)
                request.httpMethod = "GET"
                return request.url!.absoluteString.utf8.count
            },
        ]
    }

    private static func byURL(_ request: URLRequest, _ url: String) -> Int {
        var request = request
        request.url = URL(string: url)!
        return request.url!.absoluteString.utf8.count
    }

    /// Sets `Content-Type` the cheapest way on Linux, and the one Alamofire's encoders take:
    /// `setValue(_:forHTTPHeaderField:)` also capitalizes the name and checks the value.
    static func setContentType(_ type: String, on request: inout URLRequest) {
        var fields = request.allHTTPHeaderFields ?? [:]
        fields["Content-Type"] = type
        request.allHTTPHeaderFields = fields
    }

    private static func byBody(_ request: URLRequest, _ body: Data, _ contentType: String) -> Int {
        var request = request
        setContentType(contentType, on: &request)
        request.httpBody = body
        return request.httpBody!.count
    }
}
