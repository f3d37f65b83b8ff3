import Foundation
import Salvo

// Until the bulk download tool lands, `salvo` shows what the routing and encoding layer
// builds: the seed router's requests, as they would be handed to the engine.

enum APIRouter: URLRequestConvertible {
    case listUsers(page: Int)
    case userDetail(id: Int)
    case createUser(name: String, email: String)

    private var baseURL: URL { URL(string: "https://api.example.com")! }

    private var method: HTTPMethod {
        switch self {
        case .listUsers, .userDetail: return .get
        case .createUser: return .post
        }
    }

    private var path: String {
        switch self {
        case .listUsers: return "/users"
        case let .userDetail(id): return "/users/\(id)"
        case .createUser: return "/users"
        }
    }

    func asURLRequest() throws -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.method = method
        request.timeoutInterval = 20
        switch self {
        case let .listUsers(page): return try URLEncoding.default.encode(request, with: ["page": page])
        case .userDetail: return request
        case let .createUser(name, email):
            return try JSONEncoding.default.encode(request, with: ["name": name, "email": email])
        }
    }
}

let routes: [APIRouter] = [.listUsers(page: 1), .userDetail(id: 42), .createUser(name: "Ada", email: "ada@example.com")]
for route in routes {
    do {
        let request = try route.asURLRequest()
        print("\(request.method?.rawValue ?? "?") \(request.url?.absoluteString ?? "?")")
        for header in request.headers { print("  \(header)") }
        if let body = request.httpBody { print("  body: \(String(decoding: body, as: UTF8.self))") }
    } catch {
        print("error: \(error)")
    }
}
print("User-Agent: \(HTTPHeaders.default["User-Agent"] ?? "")")
