// Client code as an Alamofire user writes it, with only the import changed. check.sh
// type-checks this file in Swift 5 language mode against the built Salvo module.
import Salvo

enum APIRouter: URLRequestConvertible {
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

struct ServiceEndpoint: URLConvertible {
    let path: String
    func asURL() throws -> URL { try "https://api.example.com\(path)".asURL() }
}

func swift5ModeClientCode() throws -> [URLRequest] {
    var handBuilt = URLRequest(url: URL(string: "https://api.example.com/health")!)
    handBuilt.headers = [.accept("application/json"), .authorization(bearerToken: "token")]
    handBuilt.headers.add(name: "X-Trace", value: "1")
    let convertibles: [URLRequestConvertible] = [APIRouter.listUsers(page: 1), handBuilt]
    var requests = try convertibles.map { try $0.asURLRequest() }
    requests.append(try URLRequest(url: ServiceEndpoint(path: "/users"), method: .get, headers: HTTPHeaders.default))
    requests.append(try URLEncoding(destination: .queryString, arrayEncoding: .noBrackets, boolEncoding: .literal)
        .encode(handBuilt, with: ["ids": [1, 2], "active": true]))
    requests.append(try JSONEncoding.prettyPrinted.encode(handBuilt, withJSONObject: ["a", "b"]))
    if let request = APIRouter.userDetail(id: 7).urlRequest { requests.append(request) }
    do {
        _ = try "http://a b.com".asURL()
    } catch let error as AFError {
        if case .invalidURL = error { requests.removeAll() }
    }
    try requests.first?.validate()
    return requests
}
