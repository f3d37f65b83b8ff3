import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The encoding suite's cases: Salvo's encoders, the router, headers, and the Foundation
/// code a programmer would write instead.
enum EncodingCases {
    static let foundationQuery = "Foundation URLComponents + URLQueryItems"
    static let foundationJSONSerialization = "Foundation JSONSerialization + URLRequest"
    static let foundationJSONEncoder = "Foundation JSONEncoder + URLRequest"
    static let foundationHeaders = "Foundation URLRequest, 3 × setValue"

    static func all() throws -> [EncodingCase] {
        salvo() + foundation() + (try EncodingFloors.all())
    }

    private static func salvo() -> [EncodingCase] {
        let get = EncodingInputs.getRequest, post = EncodingInputs.postRequest
        let query = EncodingInputs.query, user = EncodingInputs.user
        return [
            EncodingCase(name: "URLEncoding GET (query)", baseline: foundationQuery, floor: EncodingFloors.queryGET, alamofireMicroseconds: 49) {
                try URLEncoding.default.encode(get, with: query).url!.absoluteString.utf8.count
            },
            EncodingCase(name: "URLEncoding POST (form body)", baseline: foundationQuery, floor: EncodingFloors.formPOST) {
                try URLEncoding.default.encode(post, with: query).httpBody!.count
            },
            EncodingCase(name: "URLEncodedFormParameterEncoder GET", baseline: foundationQuery, floor: EncodingFloors.formEncoderGET,
                         alamofireMicroseconds: 131) {
                try URLEncodedFormParameterEncoder.default.encode(EncodingInputs.Query(), into: get).url!.absoluteString.utf8.count
            },
            EncodingCase(name: "URLEncodedFormParameterEncoder POST", baseline: foundationQuery, floor: EncodingFloors.formEncoderPOST) {
                try URLEncodedFormParameterEncoder.default.encode(EncodingInputs.Query(), into: post).httpBody!.count
            },
            EncodingCase(name: "JSONEncoding POST", baseline: foundationJSONSerialization, floor: EncodingFloors.jsonPOST,
                         alamofireMicroseconds: 91) {
                try JSONEncoding.default.encode(post, with: user).httpBody!.count
            },
            // Its floor is JSONEncoder itself: the goal allows it 5% over that.
            EncodingCase(name: "JSONParameterEncoder POST", baseline: foundationJSONEncoder, floor: foundationJSONEncoder,
                         alamofireMicroseconds: 17) {
                try JSONParameterEncoder.default.encode(EncodingInputs.User(), into: post).httpBody!.count
            },
            EncodingCase(name: "APIRouter.listUsers asURLRequest()", floor: EncodingFloors.routerGET, alamofireMicroseconds: 27) {
                try APIRouter.listUsers(page: 2).asURLRequest().url!.absoluteString.utf8.count
            },
            EncodingCase(name: "APIRouter.createUser asURLRequest()") {
                try APIRouter.createUser(name: "Ada Lovelace", email: "ada@example.com").asURLRequest().httpBody!.count
            },
            EncodingCase(name: "HTTPHeaders, 4 built + dictionary") {
                var headers: HTTPHeaders = [.authorization(bearerToken: "eyJhbGciOiJIUzI1NiJ9.e30.sample"),
                                            .accept("application/json"), .userAgent("salvo-bench/1.0")]
                headers.add(name: "X-Request-ID", value: "4f1c2a9e-0d7b-4d7e-9a51-6c8f0b3e2d11")
                return headers.dictionary.count
            },
            EncodingCase(name: "URLRequest.headers = 3 HTTPHeaders", baseline: foundationHeaders) {
                var request = get
                request.headers = [.authorization(bearerToken: "eyJhbGciOiJIUzI1NiJ9.e30.sample"),
                                   .accept("application/json"), .userAgent("salvo-bench/1.0")]
                return request.allHTTPHeaderFields!.count
            },
        ]
    }

    private static func foundation() -> [EncodingCase] {
        let get = EncodingInputs.getRequest, post = EncodingInputs.postRequest
        let items = EncodingInputs.queryItems, object = EncodingInputs.userObject
        let encoder = JSONEncoder()
        return [
            EncodingCase(name: foundationQuery, isFoundation: true) {
                var components = URLComponents(url: EncodingInputs.listURL, resolvingAgainstBaseURL: false)!
                components.queryItems = items
                var request = get
                request.url = components.url!
                return request.url!.absoluteString.utf8.count
            },
            EncodingCase(name: foundationJSONSerialization, isFoundation: true) {
                var request = post
                request.httpBody = try JSONSerialization.data(withJSONObject: object)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                return request.httpBody!.count
            },
            EncodingCase(name: foundationJSONEncoder, isFoundation: true) {
                var request = post
                request.httpBody = try encoder.encode(EncodingInputs.User())
                // As the floors set it: this case is JSONParameterEncoder's floor.
                EncodingFloors.setContentType("application/json", on: &request)
                return request.httpBody!.count
            },
            EncodingCase(name: foundationHeaders, isFoundation: true) {
                var request = get
                request.setValue("Bearer eyJhbGciOiJIUzI1NiJ9.e30.sample", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                request.setValue("salvo-bench/1.0", forHTTPHeaderField: "User-Agent")
                return request.allHTTPHeaderFields!.count
            },
        ]
    }
}
