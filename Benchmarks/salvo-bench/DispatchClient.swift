import Foundation
import Salvo

/// The clients the dispatch suite compares, each run in a child process of its own.
enum DispatchClient: String, CaseIterable, Codable, Sendable {
    /// The C driver over epoll and `curl_multi_socket_action`: the ceiling.
    case curlEpoll = "curl-epoll"
    /// The C driver over `curl_multi_poll`, the loop Salvo's engine uses.
    case curlPoll = "curl-poll"
    /// The poll C driver (Salvo's loop) sending the request headers Salvo sends by default
    /// (Alamofire's three: Accept-Encoding, Accept-Language, User-Agent) with decoding on.
    /// Not the baseline of the ratios: it shows what those bytes cost libcurl itself, and
    /// Salvo over it is what the Swift layer adds to the same loop sending the same bytes.
    case curlHeaders = "curl-headers"
    /// Salvo with completion handlers.
    case salvo
    /// Salvo with completion handlers, its session configured without default headers
    /// (`configuration.headers = HTTPHeaders()`) and without response decoding, so it sends
    /// the request bytes the bare C drivers send: what the Swift layer costs on identical bytes.
    case salvoBare = "salvo-bare"
    /// Salvo with async/await.
    case salvoAsync = "salvo-async"
    /// URLSession from FoundationNetworking.
    case urlSession = "urlsession"

    var title: String {
        switch self {
        case .curlEpoll: "libcurl C, epoll"
        case .curlPoll: "libcurl C, poll"
        case .curlHeaders: "libcurl C, poll, Salvo's headers"
        case .salvo: "Salvo, handlers"
        case .salvoBare: "Salvo, handlers, no default headers"
        case .salvoAsync: "Salvo, async"
        case .urlSession: "URLSession"
        }
    }

    /// Why this client cannot run a case, or `nil` when it can.
    func unavailability(for protocol: BenchProtocol) -> String? {
        if self == .urlSession && `protocol` == .h2c {
            return "URLSession cannot speak h2c with prior knowledge"
        }
        return nil
    }

    /// The C driver sending the same request bytes as this Salvo client, over the same loop
    /// (`curl_multi_poll`): the difference is the Swift layer alone.
    var sameBytesDriver: DispatchClient? {
        switch self {
        case .salvo, .salvoAsync: .curlHeaders
        case .salvoBare: .curlPoll
        default: nil
        }
    }

    /// Makes the workload that runs this client in the child process.
    func makeWorkload(url: URL, protocol: BenchProtocol, inflight: Int) throws -> any DispatchWorkload {
        switch self {
        case .curlEpoll: try CurlDriverClient(loop: .socketAction, url: url, protocol: `protocol`, inflight: inflight)
        case .curlPoll: try CurlDriverClient(loop: .poll, url: url, protocol: `protocol`, inflight: inflight)
        case .curlHeaders:
            try CurlDriverClient(loop: .poll, url: url, protocol: `protocol`, inflight: inflight,
                                 headerLines: HTTPHeaders.default.map { "\($0.name): \($0.value)" })
        case .salvo: SalvoCompletionClient(url: url, protocol: `protocol`, inflight: inflight)
        case .salvoBare: SalvoCompletionClient(url: url, protocol: `protocol`, inflight: inflight, defaultHeaders: false)
        case .salvoAsync: SalvoAsyncClient(url: url, protocol: `protocol`, inflight: inflight)
        case .urlSession: URLSessionClient(url: url, inflight: inflight)
        }
    }
}


/// One client's way of running `count` GETs with a fixed number in flight.
protocol DispatchWorkload {
    /// Runs `count` requests, keeping the workload's in-flight count outstanding.
    /// - Returns: How many failed.
    func run(count: Int) throws -> Int
}
