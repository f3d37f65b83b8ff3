import Foundation
import Salvo
import SalvoBulk

/// How the parsed command line maps onto the downloader: its options, and the entries of
/// URLs given as arguments.
enum ToolDownloadSettings {
    /// The downloader's options; `--header`s go to every request, and an entry's own header
    /// of the same name wins. The files the options name are read or checked here, before
    /// anything starts: the netrc file (`$HOME/.netrc` unless `--netrc-path` or `-n`), the
    /// cookie file, the CA file and the client certificate and key.
    ///
    /// - Parameter environment: The process's variables: `HOME` and the proxy variables.
    /// - Throws: `ToolSourceError` naming the option whose file cannot be read.
    static func options(_ arguments: BulkToolArguments, environment: [String: String]) throws(ToolSourceError) -> BulkDownloader.Options {
        let directory = arguments.directory ?? FileManager.default.currentDirectoryPath
        var options = BulkDownloader.Options(
            outputDirectory: URL(fileURLWithPath: directory, isDirectory: true),
            filesInFlight: arguments.maxConcurrentDownloads, connectionsPerHost: arguments.maxConnectionsPerServer,
            continuePartial: arguments.continuePartial, maxTries: arguments.maxTries, retryWait: arguments.retryWait,
            timeout: arguments.timeout, connectTimeout: arguments.connectTimeout, headers: arguments.headers,
            split: arguments.split, maximumRatePerFile: arguments.maxDownloadLimit,
            maximumOverallRate: arguments.maxOverallDownloadLimit, flushesFiles: arguments.flushesFiles,
            // Only the manifest and the JSON events show a file's SHA-256.
            recordsSHA256: arguments.manifest != nil || arguments.json)
        for (path, spelling) in [(arguments.caCertificate, "--ca-certificate"), (arguments.certificate, "--certificate"),
                                 (arguments.privateKey, "--private-key")] {
            if let path { try requireReadable(path, for: spelling) }
        }
        options.caCertificatePath = arguments.caCertificate
        options.checksCertificates = arguments.checkCertificate
        options.clientCertificatePath = arguments.certificate
        options.clientKeyPath = arguments.privateKey
        options.userAgent = arguments.userAgent
        options.httpUser = arguments.httpUser
        options.httpPassword = arguments.httpPassword
        options.proxies = arguments.proxies
        // Only when a variable names one: an empty setting would still make every file's
        // requests resolve proxies here, where libcurl finds the variables unset by itself.
        let environmentProxies = BulkProxySettings.environment(environment)
        options.proxyEnvironment = environmentProxies.isEmpty ? nil : environmentProxies
        options.remoteTime = arguments.remoteTime
        options.allowOverwrite = arguments.allowOverwrite
        options.dryRun = arguments.dryRun
        if !arguments.noNetrc {
            if let path = arguments.netrcPath {
                options.netrc = try read("--netrc-path", path) { try BulkNetrc(contentsOfFile: $0) }
            } else if let home = environment["HOME"], !home.isEmpty {
                // The default file is optional: most people have none.
                options.netrc = try? BulkNetrc(contentsOfFile: home + "/.netrc")
            }
        }
        if let path = arguments.loadCookies {
            options.cookies = try read("--load-cookies", path) { try BulkCookieFile(contentsOfFile: $0) }
        }
        return options
    }

    /// One entry per URL argument; `-o` and `--checksum` belong to the single URL (the parser
    /// allows them only then).
    static func entries(_ arguments: BulkToolArguments) -> [BulkEntry] {
        arguments.urls.map { BulkEntry(uris: [$0], outputName: arguments.outputName, checksum: arguments.checksum) }
    }

    private static func read<Value>(_ spelling: String, _ path: String, _ parse: (String) throws -> Value) throws(ToolSourceError) -> Value {
        do {
            return try parse(path)
        } catch {
            throw ToolSourceError(message: "option '\(spelling)': cannot read \(path): \(reason(error))")
        }
    }

    private static func requireReadable(_ path: String, for spelling: String) throws(ToolSourceError) {
        _ = try read(spelling, path) { path in
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            try handle.close()
        }
    }

    /// The system's words for why a file could not be read, without Foundation's wrapping.
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying.map({ Int32($0.code) }), underlying?.domain == NSPOSIXErrorDomain, let text = strerror(code) {
            return String(cString: text)
        }
        return error.localizedDescription
    }
}
