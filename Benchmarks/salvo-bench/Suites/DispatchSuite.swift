import Foundation

/// The dispatch suite: small GETs against the loopback nginx, every client in a child
/// process, several rounds with the clients alternating, medians and ratios.
struct DispatchSuite {
    let options: BenchOptions
    let nginx: LoopbackNginx

    private var rounds: Int { options.rounds ?? (options.quick ? 1 : 3) }
    private var requests: Int { options.requests ?? (options.quick ? 400 : 20_000) }

    /// Runs every case; returns `false` when a client failed or lost requests.
    func run(into report: inout BenchReport) -> Bool {
        Console.line("\n== dispatch: GET \(NginxConfiguration.smallBody.utf8.count)-byte body (salvo-decodable: "
              + "\(NginxConfiguration.smallJSON.utf8.count)-byte JSON) from nginx on loopback "
              + "(\(nginx.version), \(options.nginxWorkers) workers); \(rounds) round(s), clients alternating, medians ==")
        Console.line(Self.legend)
        var summary = DispatchSummary(clients: options.clients)
        var healthy = true
        for proto in options.protocols {
            for inflight in options.inflight where !Cleanup.shared.isStopping {
                let outcome = runCase(protocol: proto, inflight: inflight)
                outcome.printTable()
                outcome.record(into: &report)
                summary.add(outcome)
                healthy = healthy && outcome.healthy
            }
        }
        Console.line(summary.rendered)
        return healthy
    }

    static let legend = """
        Each client runs in a child process of its own: a warm-up, then the measured requests; CPU is the
        child's user + system time over the measured requests, peak RSS the child's (the Swift runtime
        included: "client MiB" is what the client added). Spread: ± half the range of the rounds.
        "time µs p50", "p99": each measured request's time from the moment the client issues it to the moment
        its completion (handler, await, the C driver's CURLMSG_DONE) is seen, monotonic clock, every round's
        requests together: the median and the 99th percentile; "time × C poll" is the median's ratio.
        "conns": connections nginx accepted from the child (stub_status), warm-up and measured requests
        together, then in brackets those opened during the measured requests (0 when every connection of
        the warm-up was kept); medians of the rounds.
        TLS cases (h1s, h2): TLS 1.3 to nginx's TLS port, verified against the bench's own CA
        (CURLOPT_CAINFO, TransportConfiguration(caBundlePath:)), no session resumption; nginx allows 128
        HTTP/2 streams a connection, the clients ask for 100 at most (libcurl's and Salvo's default).
        "× C poll": the row's CPU per request, median time and requests per second over libcurl C, poll (curl-poll).
          libcurl C      Benchmarks/CurlBaseline: easy handles reused, bodies counted, headers left to libcurl;
                         h1s: CURL_HTTP_VERSION_1_1; h2: CURL_HTTP_VERSION_2TLS with CURLOPT_PIPEWAIT
          Salvo          Session(configuration: .af.default, transport:, responseQueue:), handlers on one serial
                         queue; HTTP/1.1: httpMaximumConnectionsPerHost = in flight; h2c: .http2PriorKnowledge;
                         h1s: .http1_1, h2: .automatic, both with httpMaximumConnectionsPerHost = in flight
            salvo               request(url).validate().responseData(queue:): status from response.response,
                                body from the result (the headline row)
            salvo-async         await request(url).validate().serializingData().response, read the same way
                                (the headline async row)
            salvo-decodable     request(jsonURL).validate().responseDecodable(of: Small.self, queue:), a
                                \(NginxConfiguration.smallJSON.utf8.count)-byte JSON object; "JSONDecoder alone" is
                                JSONDecoder().decode(Small.self, from:) on the same bytes, in the same child
            salvo-noread        request(url).response(queue:), body bytes counted: no validation, no serializer
            salvo-async-noread  try await request(url).serializingData().value: no validation, no status read
            salvo-bare          salvo-noread without default headers or decoding: the C drivers' exact bytes
          URLSession     FoundationNetworking, completion handlers, no cache; cannot speak h2c, and cannot
                         be given a private CA (h1s, h2)
        """

    /// Requests one client runs in one round of a case. Latency-bound and slow clients
    /// run fewer: the figures are per request and per second.
    private func requestCount(_ client: DispatchClient, inflight: Int) -> Int {
        var count = requests
        if inflight == 1 { count /= 4 }
        if client == .urlSession { count /= 4 }
        return max(count, min(requests, 50))
    }

    private func runCase(protocol proto: BenchProtocol, inflight: Int) -> DispatchCaseOutcome {
        var outcome = DispatchCaseOutcome(protocol: proto, inflight: inflight, clients: options.clients)
        let runnable = options.clients.filter { client in
            if let reason = client.unavailability(for: proto) {
                outcome.unavailable[client] = reason
                return false
            }
            return true
        }
        guard let small = nginx.smallURL(for: proto) else {
            for client in runnable { outcome.errors[client] = "nginx has no TLS port" }
            return outcome
        }
        let base = small.deletingLastPathComponent()
        let caFile = proto.usesTLS ? nginx.tls?.caPath : nil
        for round in 0..<rounds where !Cleanup.shared.isStopping {
            Console.progress("  \(proto.title), \(inflight) in flight, round \(round + 1)/\(rounds):")
            // Rotate the order each round, so no client always runs first or last.
            let order = runnable.indices.map { runnable[($0 + round) % runnable.count] }
            for client in order where outcome.errors[client] == nil {
                let count = requestCount(client, inflight: inflight)
                let warmup = min(count, max(2 * inflight, count / 10))
                let url = base.appendingPathComponent(client.path)
                let request = DispatchChild.Request(client: client, url: url, protocol: proto, count: count,
                                                    inflight: inflight, warmup: warmup, caFile: caFile, statusPort: nginx.statusPort)
                Console.progress(" \(client.rawValue)")
                do {
                    let timeout = 30 + Double(count + warmup) * 0.005
                    outcome.samples[client, default: []].append(try ChildProcess.run(request, timeout: timeout))
                } catch {
                    outcome.errors[client] = "\(error)"
                    Console.progress("(failed)")
                }
            }
            Console.progress("\n")
        }
        return outcome
    }
}
