import Foundation

/// The transfers suite: many small and a few large downloads, one large file fetched in
/// ranges from a rate-limited location, and one large upload, against the loopback nginx
/// over HTTP/1.1; every client in a child process of its own, several rounds with the
/// clients alternating, medians and ratios to the best outside client (curl or aria2c).
struct TransfersSuite {
    let options: BenchOptions
    let nginx: LoopbackNginx

    private var rounds: Int { options.rounds ?? (options.quick ? 1 : 3) }

    /// Runs every case; returns `false` when a client failed or lost files.
    func run(into report: inout BenchReport) -> Bool {
        let cases = TransferCase.all(quick: options.quick)
        Console.line("\n== transfers: files from nginx on loopback (\(nginx.version), \(options.nginxWorkers) workers, "
                     + "sendfile), HTTP/1.1; \(rounds) round(s), clients alternating, medians ==")
        Console.line(Self.legend)
        let source: String
        let outputParent: TemporaryDirectory
        do {
            Console.progress("  writing the files into nginx's document root…")
            source = try TransferFiles.make(for: cases, documentRoot: nginx.documentRoot)
            outputParent = try TemporaryDirectory(prefix: "salvo-bench-transfers-")
            Console.progress(" done\n")
        } catch {
            FileHandle.standardError.write(Data("salvo-bench: transfers: \(error)\n".utf8))
            return false
        }
        let base = nginx.http1URL.deletingLastPathComponent()
        var healthy = true
        for transfer in cases where !Cleanup.shared.isStopping {
            let outcome = runCase(transfer, base: base, source: source, outputParent: outputParent.path)
            outcome.printTable()
            outcome.record(into: &report)
            healthy = healthy && outcome.healthy
        }
        return healthy
    }

    private static let rate = TransferCase.sizeText(NginxConfiguration.limitedRate)

    static let legend = """
        Each client runs in a child process of its own and writes the files into a fresh directory, removed
        afterwards; for many small files only after the case's last round, so that no client creates its files
        right after another's thousand were deleted (ext4 then scans the freed inodes). The library rows (salvo,
        salvo-100k) run inside that child: CPU and peak RSS of its process from the first transfer on ("client
        MiB" is what the transfers added to the resident size then). The tools (salvo-tool, curl, aria2c) run as
        its child: their own CPU (getrusage of the waited-for child) and peak RSS (VmHWM, read every 2 ms), wall
        time from spawn to exit. "/ best": over the fastest outside
        client (curl or aria2c). N below is the case's files at once.
          salvo               session.download(url, to:) / session.upload(fileURL, to:, method: .put), handlers on
                              one serial queue, httpMaximumConnectionsPerHost = N, libcurl's 16 KiB receive buffer
          salvo-100k          the same with TransportConfiguration(receiveBufferSize: 100 KiB), curl's own setting
          salvo-tool          the salvo executable built beside salvo-bench, as run by default (each file flushed
                              with fsync before its rename): salvo -q -i list -d DIR -j N -x N; downloads only
          salvo-tool-nofsync  the same with --no-fsync: the durability of curl and aria2c, which do not fsync
          curl                curl --parallel --parallel-max N --fail -K list (url + output per file); upload: curl -T FILE
          aria2c              aria2c -i list -j N -x 1 -s 1 --file-allocation=none; downloads only
        The split case (S ranges): one file from a location nginx holds to \(rate)/s per connection; salvo-tool
        with -j 1 -x S -s S, aria2c with -j 1 -x S -s S --min-split-size=1M, curl over one connection: the
        one-connection rate ("× 1 conn" is curl's time over each client's). The library fetches one range per
        request, so its rows do not run there.
        """

    private func runCase(_ transfer: TransferCase, base: URL, source: String, outputParent: String) -> TransferCaseOutcome {
        let clients = TransferClient.allCases
        var outcome = TransferCaseOutcome(transfer: transfer, clients: clients)
        let runnable = clients.filter { client in
            if let reason = client.unavailability(for: transfer) {
                outcome.unavailable[client] = reason
                return false
            }
            return true
        }
        let bytes = Double(transfer.count * transfer.size)
        for round in 0..<rounds where !Cleanup.shared.isStopping {
            Console.progress("  \(transfer.name), round \(round + 1)/\(rounds):")
            // Rotate the order each round, so no client always runs first or last.
            let order = runnable.indices.map { runnable[($0 + round) % runnable.count] }
            for client in order where outcome.errors[client] == nil {
                let request = TransferChild.Request(client: client, baseURL: base, sourceDirectory: source,
                                                    outputParent: outputParent, transfer: transfer)
                Console.progress(" \(client.rawValue)")
                do {
                    // Generous: 30 s plus 20 MB/s (loopback moves over 1 GB/s), plus the
                    // whole file at the one-connection rate where nginx limits it.
                    let limited = transfer.split > 1 ? bytes / Double(NginxConfiguration.limitedRate) : 0
                    let timeout = 30 + bytes / 20e6 + limited
                    outcome.samples[client, default: []].append(try ChildProcess.run(arguments: request.arguments, timeout: timeout))
                } catch {
                    outcome.errors[client] = "\(error)"
                    Console.progress("(failed)")
                }
            }
            Console.progress("\n")
        }
        if transfer.keepsFilesUntilItEnds { Self.removeContents(of: outputParent) }
        return outcome
    }

    /// Removes the clients' directories a case kept until its end.
    private static func removeContents(of directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}
