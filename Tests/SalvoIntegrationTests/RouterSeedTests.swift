import Salvo
import XCTest

// The seed router pattern, as an Alamofire user writes it.
private enum APIRouter: URLRequestConvertible {
    case listUsers(page: Int)
    case userDetail(id: Int)
    case createUser(name: String, email: String)
    private var baseURL: URL { URL(string: "https://api.example.com")! }
    private var method: HTTPMethod {
        switch self { case .listUsers, .userDetail: return .get; case .createUser: return .post }
    }
    private var path: String {
        switch self {
        case .listUsers: return "/users"
        case .userDetail(let id): return "/users/\(id)"
        case .createUser: return "/users"
        }
    }
    func asURLRequest() throws -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.method = method
        request.timeoutInterval = 20
        switch self {
        case .listUsers(let page): return try URLEncoding.default.encode(request, with: ["page": page])
        case .userDetail: return request
        case .createUser(let name, let email):
            return try JSONEncoding.default.encode(request, with: ["name": name, "email": email])
        }
    }
}

/// A custom `URLConvertible` that builds its URL through `String.asURL()`.
private struct ServiceEndpoint: URLConvertible {
    let host: String
    let path: String
    func asURL() throws -> URL { try "https://\(host)\(path)".asURL() }
}

final class RouterSeedTests: XCTestCase {
    func testListUsers() throws {
        let request = try APIRouter.listUsers(page: 1).asURLRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users?page=1")
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.timeoutInterval, 20)
        XCTAssertNil(request.httpBody)
        XCTAssertNil(request.allHTTPHeaderFields)
        XCTAssertTrue(request.headers.isEmpty)
        XCTAssertNoThrow(try request.validate())

        XCTAssertEqual(try APIRouter.listUsers(page: -3).asURLRequest().url?.absoluteString, "https://api.example.com/users?page=-3")
        XCTAssertEqual(try APIRouter.listUsers(page: 0).asURLRequest().url?.query, "page=0")
    }

    func testUserDetail() throws {
        let request = try APIRouter.userDetail(id: 42).asURLRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/42")
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.timeoutInterval, 20)
        XCTAssertNil(request.httpBody)
        XCTAssertNil(request.allHTTPHeaderFields)
        XCTAssertNil(request.url?.query)
    }

    func testCreateUser() throws {
        let request = try APIRouter.createUser(name: "Ada Lovelace", email: "ada@example.com").asURLRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users")
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.timeoutInterval, 20)
        XCTAssertEqual(request.allHTTPHeaderFields, ["Content-Type": "application/json"])
        XCTAssertEqual(request.headers, [.contentType("application/json")])
        XCTAssertNoThrow(try request.validate())

        // Two keys: either order is what JSONSerialization may write.
        let body = try XCTUnwrap(request.httpBody.map { String(decoding: $0, as: UTF8.self) })
        XCTAssertTrue([#"{"name":"Ada Lovelace","email":"ada@example.com"}"#,
                       #"{"email":"ada@example.com","name":"Ada Lovelace"}"#].contains(body), body)
        let decoded = try JSONSerialization.jsonObject(with: XCTUnwrap(request.httpBody)) as? [String: String]
        XCTAssertEqual(decoded, ["name": "Ada Lovelace", "email": "ada@example.com"])
    }

    func testCreateUserEscapesAsJSONSerializationDoes() throws {
        let request = try APIRouter.createUser(name: "Zoë \"Z\" O'Neil/😀", email: "z\\o@example.com").asURLRequest()
        let body = try XCTUnwrap(request.httpBody.map { String(decoding: $0, as: UTF8.self) })
        XCTAssertTrue([#"{"name":"Zoë \"Z\" O'Neil\/😀","email":"z\\o@example.com"}"#,
                       #"{"email":"z\\o@example.com","name":"Zoë \"Z\" O'Neil\/😀"}"#].contains(body), body)
    }

    func testRouterUsedAsAConvertible() throws {
        let routes: [any URLRequestConvertible] = [
            APIRouter.listUsers(page: 2), APIRouter.userDetail(id: 1), APIRouter.createUser(name: "a", email: "b"),
        ]
        XCTAssertEqual(routes.map { $0.urlRequest?.url?.absoluteString }, [
            "https://api.example.com/users?page=2", "https://api.example.com/users/1", "https://api.example.com/users",
        ])
        XCTAssertEqual(routes.map { $0.urlRequest?.httpMethod }, ["GET", "GET", "POST"])

        // Encoders accept the router where they take a convertible.
        let reencoded = try URLEncoding.queryString.encode(APIRouter.listUsers(page: 2), with: ["sort": "name"])
        XCTAssertEqual(reencoded.url?.absoluteString, "https://api.example.com/users?page=2&sort=name")
        XCTAssertEqual(reencoded.timeoutInterval, 20)
    }

    func testCustomURLConvertibleThroughStringAsURL() throws {
        let endpoint = ServiceEndpoint(host: "api.example.com", path: "/users/7")
        XCTAssertEqual(try endpoint.asURL().absoluteString, "https://api.example.com/users/7")

        let request = try URLRequest(url: endpoint, method: .delete, headers: [.authorization(bearerToken: "secret")])
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/7")
        XCTAssertEqual(request.method, .delete)
        XCTAssertEqual(request.allHTTPHeaderFields, ["Authorization": "Bearer secret"])
        XCTAssertEqual(request.timeoutInterval, 60)

        let encoded = try URLEncoding.default.encode(request, with: ["force": true])
        XCTAssertEqual(encoded.url?.absoluteString, "https://api.example.com/users/7?force=1")

        XCTAssertThrowsError(try URLRequest(url: ServiceEndpoint(host: "api example", path: "/x"), method: .get)) { error in
            guard case let .invalidURL(url)? = error as? AFError else {
                return XCTFail("expected AFError.invalidURL, got \(error)")
            }
            XCTAssertEqual(url as? String, "https://api example/x")
        }
    }

    func testHandBuiltURLRequestWhereAConvertibleIsExpected() throws {
        var handBuilt = URLRequest(url: URL(string: "https://api.example.com/search")!)
        handBuilt.method = .post
        handBuilt.headers = [.accept("application/json"), HTTPHeader(name: "X-Request-ID", value: "abc")]
        handBuilt.timeoutInterval = 9

        func build(_ convertible: some URLRequestConvertible) throws -> URLRequest { try convertible.asURLRequest() }
        func buildAny(_ convertible: any URLRequestConvertible) throws -> URLRequest { try convertible.asURLRequest() }
        XCTAssertEqual(try build(handBuilt), handBuilt)
        XCTAssertEqual(try buildAny(handBuilt), handBuilt)
        XCTAssertEqual(handBuilt.urlRequest, handBuilt)

        let form = try URLEncoding.default.encode(handBuilt, with: ["q": "swift on linux"])
        XCTAssertEqual(form.httpBody, Data("q=swift%20on%20linux".utf8))
        XCTAssertEqual(form.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(form.value(forHTTPHeaderField: "X-Request-ID"), "abc")
        XCTAssertEqual(form.timeoutInterval, 9)

        let json = try JSONEncoding.default.encode(handBuilt, withJSONObject: ["q", 1])
        XCTAssertEqual(json.httpBody, Data(#"["q",1]"#.utf8))
        XCTAssertEqual(json.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(json.url?.absoluteString, "https://api.example.com/search")
    }
}
