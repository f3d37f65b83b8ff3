import Foundation
import Salvo

/// Fixed, realistic inputs of the encoding suite: a search listing's query, a sign-up
/// form, a JSON document creating a user.
enum EncodingInputs {
    static let listURL = URL(string: "https://api.example.com/v1/repositories")!
    static let usersURL = URL(string: "https://api.example.com/v1/users")!

    static var getRequest: URLRequest { URLRequest(url: listURL) }

    static var postRequest: URLRequest {
        var request = URLRequest(url: usersURL)
        request.httpMethod = "POST"
        return request
    }

    /// Eight query parameters: numbers, text needing escapes, an array, a nested object.
    static let query: Parameters = [
        "q": "swift http client & linux",
        "page": 3,
        "per_page": 50,
        "sort": "updated",
        "order": "desc",
        "language": ["swift", "c"],
        "filter": ["archived": "false", "owner": "salvo-team"],
        "since": "2024-01-01T00:00:00Z",
    ]

    /// The same query as an `Encodable` value.
    struct Query: Encodable, Sendable {
        var q = "swift http client & linux"
        var page = 3
        var per_page = 50
        var sort = "updated"
        var order = "desc"
        var language = ["swift", "c"]
        var filter = ["archived": "false", "owner": "salvo-team"]
        var since = "2024-01-01T00:00:00Z"
    }

    /// The same query flattened to what `URLEncoding` sends, for the Foundation baseline.
    static let queryItems: [URLQueryItem] = [
        URLQueryItem(name: "filter[archived]", value: "false"), URLQueryItem(name: "filter[owner]", value: "salvo-team"),
        URLQueryItem(name: "language[]", value: "swift"), URLQueryItem(name: "language[]", value: "c"),
        URLQueryItem(name: "order", value: "desc"), URLQueryItem(name: "page", value: "3"),
        URLQueryItem(name: "per_page", value: "50"), URLQueryItem(name: "q", value: "swift http client & linux"),
        URLQueryItem(name: "since", value: "2024-01-01T00:00:00Z"), URLQueryItem(name: "sort", value: "updated"),
    ]

    /// A user to create: strings, a number, a flag, an array, a nested object.
    static let user: Parameters = [
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "age": 36,
        "admin": false,
        "roles": ["maintainer", "reviewer"],
        "address": ["city": "London", "country": "GB", "postcode": "W1J 7NT"],
    ]

    /// The same user as an `Encodable` value.
    struct User: Encodable, Sendable {
        struct Address: Encodable, Sendable {
            var city = "London"
            var country = "GB"
            var postcode = "W1J 7NT"
        }

        var name = "Ada Lovelace"
        var email = "ada@example.com"
        var age = 36
        var admin = false
        var roles = ["maintainer", "reviewer"]
        var address = Address()
    }

    /// The user as a Foundation JSON object, for JSONSerialization.
    static var userObject: [String: Any] { [
        "name": "Ada Lovelace", "email": "ada@example.com", "age": 36, "admin": false,
        "roles": ["maintainer", "reviewer"], "address": ["city": "London", "country": "GB", "postcode": "W1J 7NT"],
    ] }
}
