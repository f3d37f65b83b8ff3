import Foundation
import Salvo

/// The clients the dispatch suite compares, each run in a child process of its own.
///
/// `salvo` and `salvo-async` are the headline Salvo rows: they use Salvo as a server does,
/// validating each response and reading its status and body. The other Salvo rows take
/// parts of that away (or add decoding) to show what each part costs.
enum DispatchClient: String, CaseIterable, Codable, Sendable {
    /// The C driver over epoll and `curl_multi_socket_action`: the ceiling.
    case curlEpoll = "curl-epoll"
    /// The C driver over `curl_multi_poll`, the loop Salvo's engine uses: the baseline of
    /// every Salvo row's ratios.
    case curlPoll = "curl-poll"
    /// The poll C driver (Salvo's loop) sending the request headers Salvo sends by default
    /// (Alamofire's three: Accept-Encoding, Accept-Language, User-Agent) with decoding on.
    /// Not the baseline of the ratios: it shows what those bytes cost libcurl itself, and
    /// Salvo over it is what the Swift layer adds to the same loop sending the same bytes.
    case curlHeaders = "curl-headers"
    /// Salvo with completion handlers, as a server uses it: `.validate()`, then
    /// `responseData(queue:)`, reading the status from the `HTTPURLResponse` and the body
    /// from the result.
    case salvo
    /// Salvo with async/await, as a server uses it: `.validate().serializingData().response`,
    /// reading the status and the body the same way.
    case salvoAsync = "salvo-async"
    /// The handlers row decoding a JSON object: `.validate().responseDecodable(of: Small.self)`.
    case salvoDecodable = "salvo-decodable"
    /// Salvo with completion handlers, without validation or response serializer:
    /// `response(queue:)`, counting the body's bytes only.
    case salvoNoRead = "salvo-noread"
    /// Salvo with async/await, without validation or status read: `serializingData().value`.
    case salvoAsyncNoRead = "salvo-async-noread"
    /// `salvo-noread` with its session configured without default headers
    /// (`configuration.headers = HTTPHeaders()`) and without response decoding, so it sends
    /// the request bytes the bare C drivers send: what the Swift layer costs on identical bytes.
    case salvoBare = "salvo-bare"
    /// URLSession from FoundationNetworking.
    case urlSession = "urlsession"

    var title: String {
        switch self {
        case .curlEpoll: "libcurl C, epoll"
        case .curlPoll: "libcurl C, poll"
        case .curlHeaders: "libcurl C, poll, Salvo's headers"
        case .salvo: "Salvo, handlers, validate + status + data"
        case .salvoAsync: "Salvo, async, validate + status + data"
        case .salvoDecodable: "Salvo, handlers, validate + decodable"
        case .salvoNoRead: "Salvo, handlers, no validate/read"
        case .salvoAsyncNoRead: "Salvo, async, no validate/status"
        case .salvoBare: "Salvo, handlers, no default headers"
        case .urlSession: "URLSession"
        }
    }

    /// Why this client cannot run a case, or `nil` when it can.
    func unavailability(for protocol: BenchProtocol) -> String? {
        if self == .urlSession && `protocol` == .h2c {
            return "URLSession cannot speak h2c with prior knowledge"
        }
        if self == .urlSession && `protocol`.usesTLS {
            // FoundationNetworking reads a CA file from the environment on Android alone and
            // offers no server-trust challenge on Linux: only the system's store would do.
            return "URLSession on Linux cannot be given a private CA (it verifies against the system's bundle only)"
        }
        return nil
    }

    /// The path this client fetches from the loopback nginx: the JSON object for the decoding
    /// row, the text body for every other.
    var path: String {
        self == .salvoDecodable ? "small.json" : "small"
    }

    /// Whether the client reads `response.response`, so that its child also times
    /// Foundation's `HTTPURLResponse` alone on the served headers.
    var readsResponseObject: Bool {
        [.salvo, .salvoAsync, .salvoDecodable].contains(self)
    }

    /// The C driver sending the same request bytes as this Salvo client, over the same loop
    /// (`curl_multi_poll`): the difference is the Swift layer alone. The decoding row asks
    /// for another path, so no driver sends its bytes.
    var sameBytesDriver: DispatchClient? {
        switch self {
        case .salvo, .salvoAsync, .salvoNoRead, .salvoAsyncNoRead: .curlHeaders
        case .salvoBare: .curlPoll
        default: nil
        }
    }

    /// Makes the workload that runs this client in the child process.
    /// - Parameter caFile: The CA certificates a TLS case verifies against.
    func makeWorkload(url: URL, protocol: BenchProtocol, inflight: Int, caFile: String?) throws -> any DispatchWorkload {
        let proto = `protocol`
        return switch self {
        case .curlEpoll: try CurlDriverClient(loop: .socketAction, url: url, protocol: proto, inflight: inflight, caFile: caFile)
        case .curlPoll: try CurlDriverClient(loop: .poll, url: url, protocol: proto, inflight: inflight, caFile: caFile)
        case .curlHeaders:
            try CurlDriverClient(loop: .poll, url: url, protocol: proto, inflight: inflight, caFile: caFile,
                                 headerLines: HTTPHeaders.default.map { "\($0.name): \($0.value)" })
        case .salvo, .salvoNoRead, .salvoBare:
            SalvoCompletionClient(client: self, url: url, protocol: proto, inflight: inflight, caFile: caFile)
        case .salvoAsync: SalvoAsyncClient(url: url, protocol: proto, inflight: inflight, caFile: caFile, readsResponse: true)
        case .salvoAsyncNoRead: SalvoAsyncClient(url: url, protocol: proto, inflight: inflight, caFile: caFile, readsResponse: false)
        case .salvoDecodable: SalvoDecodableClient(url: url, protocol: proto, inflight: inflight, caFile: caFile)
        case .urlSession: URLSessionClient(url: url, inflight: inflight)
        }
    }
}


/// One client's way of running `count` GETs with a fixed number in flight.
protocol DispatchWorkload {
    /// Runs `count` requests, keeping the workload's in-flight count outstanding.
    /// - Parameter times: Where each request's time goes (room for `count`), or `nil` (the warm-up).
    /// - Returns: How many failed.
    func run(count: Int, times: RequestTimes?) throws -> Int
}
