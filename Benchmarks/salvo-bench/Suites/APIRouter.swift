import Foundation
import Salvo

/// The seed documents' router enum, as an Alamofire user writes it (only the import
/// changed): what the encoding suite's `asURLRequest()` cases build.
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
