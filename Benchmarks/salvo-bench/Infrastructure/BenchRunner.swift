import Foundation

/// Runs the suites the options name, prints their tables, writes the JSON report.
struct BenchRunner {
    let options: BenchOptions

    /// - Returns: The exit status: 0 when every suite ran cleanly.
    func run() -> Int32 {
        var report = BenchReport(quick: options.quick)
        Console.line("salvo-bench: \(report.machine.cpuModel), \(report.machine.cores) cores, \(report.machine.operatingSystem), "
              + "libcurl \(report.libcurlVersion)\(options.quick ? ", --quick (proves it runs; judges nothing)" : "")")
        if report.machine.loadAverage > 0.5 {
            Console.line("note: load average \(Format.fixed(report.machine.loadAverage, 2)) before the run: "
                         + "other work on this machine will make the figures noisy")
        }

        var nginx: LoopbackNginx?
        if options.suites.contains(where: { $0 != .encoding }) {
            guard let executable = LoopbackNginx.locate() else {
                FileHandle.standardError.write(Data("salvo-bench: \(LoopbackNginx.installHint)\n".utf8))
                return 1
            }
            do {
                let directory = try TemporaryDirectory(prefix: "salvo-bench-")
                raiseDescriptorLimit()
                let tls = options.needsTLS ? try TLSFiles.make(in: directory.path) : nil
                nginx = try LoopbackNginx.start(executable: executable, directory: directory.path, workers: options.nginxWorkers,
                                                tls: tls)
                report.nginxVersion = nginx?.version
            } catch {
                FileHandle.standardError.write(Data("salvo-bench: \(error)\n".utf8))
                return 1
            }
        }

        var healthy = true
        for suite in options.suites {
            switch suite {
            case .encoding:
                healthy = EncodingSuite(quick: options.quick).run(into: &report) && healthy
            case .dispatch:
                guard let nginx else { continue }
                healthy = DispatchSuite(options: options, nginx: nginx).run(into: &report) && healthy
            case .tlsConnect:
                guard let nginx else { continue }
                healthy = TLSConnectSuite(options: options, nginx: nginx).run(into: &report) && healthy
            case .transfers:
                guard let nginx else { continue }
                healthy = TransfersSuite(options: options, nginx: nginx).run(into: &report) && healthy
            }
        }

        if let path = options.jsonPath {
            do {
                try report.write(to: path)
                Console.line("\nwrote \(path)")
            } catch {
                FileHandle.standardError.write(Data("salvo-bench: cannot write \(path): \(error)\n".utf8))
                healthy = false
            }
        }
        if !healthy { FileHandle.standardError.write(Data("salvo-bench: some cases failed (see above)\n".utf8)) }
        return healthy ? 0 : 1
    }

    /// 1024 connections in flight need more descriptors than the usual soft limit of 1024;
    /// nginx and the children inherit the raised limit.
    private func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
