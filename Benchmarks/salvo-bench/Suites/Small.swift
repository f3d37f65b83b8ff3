/// The JSON object the decoding row fetches and decodes: a few string, integer and boolean
/// fields, as a small API answer has. nginx serves `NginxConfiguration.smallJSON`.
struct Small: Decodable, Sendable, Equatable {
    var id: Int
    var name: String
    var kind: String
    var count: Int
    var active: Bool
    var note: String
}
