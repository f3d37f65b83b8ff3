import Foundation

/// The tls-connect suite: what a new verified TLS connection costs the client. Many GETs
/// at once, each on a fresh connection to the loopback nginx's TLS port, every client in a
/// child process, several rounds with the clients alternating.
struct TLSConnectSuite {
    let options: BenchOptions
    let nginx: LoopbackNginx

    private var rounds: Int { options.rounds ?? (options.quick ? 1 : 3) }
    /// Runs in each child: one child's runs share its process's one-time costs.
    private var runsPerChild: Int { options.quick ? 2 : 5 }

    /// Runs every case; returns `false` when a client failed or lost requests.
    func run(into report: inout BenchReport) -> Bool {
        Console.line("\n== tls-connect: \(options.connections) GETs of /small at once, each on a new verified TLS connection "
                     + "(HTTP/1.1, TLS 1.3) to nginx on loopback; \(rounds) round(s) of \(runsPerChild) runs, clients alternating, "
                     + "medians of the runs ==")
        Console.line(Self.legend)
        guard let tls = nginx.tls, let url = nginx.tlsURL else {
            FileHandle.standardError.write(Data("salvo-bench: tls-connect: nginx has no TLS port\n".utf8))
            return false
        }
        var healthy = true
        for bundle in options.caBundles where !Cleanup.shared.isStopping {
            let outcome = runCase(bundle: bundle, url: url, tls: tls)
            outcome.printTable()
            outcome.record(into: &report)
            healthy = healthy && outcome.healthy
        }
        return healthy
    }

    static let legend = """
        CPU ms/run: the child's user + system time (every thread) from the first request of a run to its
        last response; making the client before the run (a new multi handle and its easy handles, or a new
        Session) and freeing it after are not counted, nor is the process's start-up. "conns opened":
        connections nginx accepted during a run (stub_status); CPU µs/conn is a run's CPU over them. A
        "short run" opened fewer connections than it had requests (some waited for another's connection
        and went over it): the CPU and time figures come from the other runs, unless every run was short.
        nginx resumes no TLS session, so every connection is a full handshake with verification.
        "first conn": the child's first connection, with a client of its own, before the runs: every
        one-time cost is there (libcurl's and OpenSSL's set-up; for Salvo, building the CA store it then
        shares with every later connection, which the runs therefore leave out).
          libcurl C   Benchmarks/CurlBaseline/curl_fresh_batch.c: a new multi handle (CURLMOPT_MAXCONNECTS = N),
                      N easy handles with CURLOPT_FRESH_CONNECT, CURLOPT_CAINFO, HTTP/1.1; libcurl 7.88 loads the
                      CA file for every connection
          Salvo       a new Session per run, httpMaximumConnectionsPerHost = N, TransportConfiguration(httpVersion:
                      .http1_1, caBundlePath:); request(url).validate().responseData(queue:)
        """

    private func runCase(bundle: TLSConnectBundle, url: URL, tls: TLSFiles) -> TLSConnectCaseOutcome {
        var outcome = TLSConnectCaseOutcome(bundle: bundle, connections: options.connections, clients: TLSConnectClient.allCases)
        let caFile: String
        do {
            caFile = try self.caFile(for: bundle, tls: tls)
        } catch {
            for client in outcome.clients { outcome.unavailable[client] = "\(error)" }
            return outcome
        }
        let clients = outcome.clients
        for round in 0..<rounds where !Cleanup.shared.isStopping {
            Console.progress("  \(outcome.name), round \(round + 1)/\(rounds):")
            let order = clients.indices.map { clients[($0 + round) % clients.count] }
            for client in order where outcome.errors[client] == nil {
                let request = TLSConnectChild.Request(client: client, url: url, caFile: caFile, connections: options.connections,
                                                      runs: runsPerChild, statusPort: nginx.statusPort)
                Console.progress(" \(client.rawValue)")
                do {
                    // A generous 50 ms of CPU a connection, on two cores shared with nginx.
                    let timeout = 30 + Double(runsPerChild * options.connections) * 0.1
                    let measurement = try ChildProcess.run(arguments: request.arguments, timeout: timeout,
                                                           decoding: TLSConnectMeasurement.self)
                    outcome.samples[client, default: []].append(measurement)
                } catch {
                    outcome.errors[client] = "\(error)"
                    Console.progress("(failed)")
                }
            }
            Console.progress("\n")
        }
        return outcome
    }

    private func caFile(for bundle: TLSConnectBundle, tls: TLSFiles) throws -> String {
        switch bundle {
        case .privateCA:
            return tls.caPath
        case .system:
            guard let system = CurlDriverClient.defaultCAFile, FileManager.default.fileExists(atPath: system) else {
                throw BenchError("libcurl has no built-in CA bundle to start from")
            }
            return try tls.systemBundleWithCA(system)
        }
    }
}
