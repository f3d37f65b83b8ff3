import Foundation
import Salvo

/// The `salvo` tool's command line, parsed: what to fetch and how, with aria2's option names.
///
/// Options may be written `--name=value` or `--name value`; short ones `-j 4` or `-j4`, and
/// flags may be grouped (`-cq`). aria2's `[true|false]` options are on when named alone
/// (`--dry-run`, `-R`) and take `true` or `false` only after `=` (`--check-certificate=false`). `--` ends the options: every later argument is a URL.
/// Parsing touches no file and no network, so every usage error is found before anything
/// starts.
public struct BulkToolArguments: Equatable, Sendable {
    /// What the command line asks for.
    public enum Action: Equatable, Sendable {
        /// Download the URLs and the input list.
        case download
        /// Print the help text (`--help`).
        case help
        /// Print the version (`--version`).
        case version
    }

    /// What to do; `.help` when `--help` appears, else `.version` when `--version` does.
    public var action: Action = .download
    /// URLs given as arguments, in order.
    public var urls: [URL] = []
    /// The input list (`-i`); `-` for standard input.
    public var inputFile: String?
    /// The output directory (`-d`); `nil` for the current directory.
    public var directory: String?
    /// The file name for a single URL (`-o`).
    public var outputName: String?
    /// Files in flight at once (`-j`). 16 by default, 1 to 10000.
    public var maxConcurrentDownloads = 16
    /// Connections to one host at once (`-x`). 8 by default, 1 to 64.
    public var maxConnectionsPerServer = 8
    /// Ranges of one file fetched at once (`-s`). 1 by default, 1 to 64.
    public var split = 1
    /// Whether partial files are resumed (`-c`).
    public var continuePartial = false
    /// Whether each file is flushed to the disk before its rename; `--no-fsync` turns it off.
    public var flushesFiles = true
    /// The digest of the single URL's file (`--checksum`).
    public var checksum: BulkChecksum?
    /// Attempts per file, the first included (`--max-tries`); 0 for no limit. 5 by default.
    public var maxTries = 5
    /// Seconds between attempts (`--retry-wait`). 1 by default, 0 to 600.
    public var retryWait: TimeInterval = 1
    /// Seconds a transfer may stall before it fails (`--timeout`). 60 by default, over 0 up to 600.
    public var timeout: TimeInterval = 60
    /// Seconds a connection may take to open (`--connect-timeout`). 60 by default, over 0 up to 600.
    public var connectTimeout: TimeInterval = 60
    /// The limit for each file (`--max-download-limit`). Unlimited by default.
    public var maxDownloadLimit = BulkRate.unlimited
    /// The limit for the whole run (`--max-overall-download-limit`). Unlimited by default.
    public var maxOverallDownloadLimit = BulkRate.unlimited
    /// Headers sent with every request (`--header`, repeatable), in order; a later header of
    /// the same name replaces an earlier one.
    public var headers = HTTPHeaders()
    /// Whether events are written as JSON lines on standard output (`--json`).
    public var json = false
    /// Where one JSON line per file is written when the run ends (`--manifest`).
    public var manifest: String?
    /// The share of the list this run takes (`--shard`).
    public var shard: BulkShard?
    /// Whether progress and notices are kept off the terminal (`-q`).
    public var quiet = false
    /// A PEM file of CA certificates trusted beside the system's (`--ca-certificate`).
    public var caCertificate: String?
    /// Whether servers' certificates are verified (`--check-certificate`). `true` by default.
    public var checkCertificate = true
    /// The client certificate, PEM (`--certificate`).
    public var certificate: String?
    /// The client certificate's private key, PEM (`--private-key`).
    public var privateKey: String?
    /// The proxies (`--all-proxy`, `--http-proxy`, `--https-proxy`, `--no-proxy`).
    public var proxies = BulkProxySettings()
    /// The user for HTTP Basic authentication (`--http-user`).
    public var httpUser: String?
    /// Its password (`--http-passwd`).
    public var httpPassword: String?
    /// The netrc file (`--netrc-path`); `nil` for `$HOME/.netrc`.
    public var netrcPath: String?
    /// Whether netrc logins are off (`-n`, `--no-netrc`).
    public var noNetrc = false
    /// The Netscape-format cookie file (`--load-cookies`).
    public var loadCookies: String?
    /// The `User-Agent` (`-U`, `--user-agent`).
    public var userAgent: String?
    /// Whether files take the server's `Last-Modified` as their time (`-R`, `--remote-time`).
    public var remoteTime = false
    /// Whether URLs are only checked, nothing written (`--dry-run`).
    public var dryRun = false
    /// Whether a finished file replaces an existing one of its name (`--allow-overwrite`).
    public var allowOverwrite = false

    /// The defaults, downloading nothing.
    public init() {}

    /// Parses a command line.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: The variables `--shard auto` reads. Empty by default.
    /// - Throws: `BulkUsageError` for an unknown option, a missing, non-numeric or
    ///   out-of-range value, a bad rate, checksum, header, shard or URL, `--out` or
    ///   `--checksum` without exactly one URL (and no list), or nothing to download.
    ///   `--help` and `--version` skip the checks that need something to download.
    public init(parsing arguments: [String], environment: [String: String] = [:]) throws(BulkUsageError) {
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        func value(for spelling: String, inline: String?) throws(BulkUsageError) -> String {
            if let inline { return inline }
            guard index < arguments.count else { throw BulkUsageError("option '\(spelling)' needs a value") }
            defer { index += 1 }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let equals = body.firstIndex(of: "=")
                let name = String(body[..<(equals ?? body.endIndex)])
                let inline = equals.map { String(body[body.index(after: $0)...]) }
                let spelling = "--" + name
                guard let option = Option.long[name] else { throw BulkUsageError("unknown option '\(spelling)'") }
                if option.isBoolean {
                    try apply(option, spelling: spelling, value: inline ?? "true", environment: environment)
                } else if option.takesValue {
                    try apply(option, spelling: spelling, value: try value(for: spelling, inline: inline), environment: environment)
                } else {
                    guard inline == nil else { throw BulkUsageError("option '\(spelling)' takes no value") }
                    try apply(option, spelling: spelling, value: "", environment: environment)
                }
            } else {
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    let spelling = "-\(letter)"
                    guard let option = Option.short[letter] else { throw BulkUsageError("unknown option '\(spelling)'") }
                    if option.isBoolean {
                        try apply(option, spelling: spelling, value: "true", environment: environment)
                    } else if option.takesValue {
                        let attached = letters.isEmpty ? nil : String(letters)
                        letters = ""
                        try apply(option, spelling: spelling, value: try value(for: spelling, inline: attached), environment: environment)
                    } else {
                        try apply(option, spelling: spelling, value: "", environment: environment)
                    }
                }
            }
        }
        guard action == .download else { return }
        for text in positionals {
            do throws(BulkValueError) {
                urls.append(try BulkURI.parse(text))
            } catch {
                throw BulkUsageError(error.message)
            }
        }
        guard !urls.isEmpty || inputFile != nil else {
            throw BulkUsageError("no URLs given; name them as arguments or in a list with --input-file")
        }
        try requireSingleURL(for: "--out", when: outputName != nil)
        try requireSingleURL(for: "--checksum", when: checksum != nil)
    }

    private func requireSingleURL(for spelling: String, when isSet: Bool) throws(BulkUsageError) {
        guard isSet else { return }
        if inputFile != nil {
            throw BulkUsageError("option '\(spelling)' applies to a single URL, not to --input-file (set it per entry in the list)")
        }
        guard urls.count == 1 else {
            throw BulkUsageError("option '\(spelling)' applies to a single URL, but \(urls.count) were given")
        }
    }

    private mutating func apply(_ option: Option, spelling: String, value: String, environment: [String: String]) throws(BulkUsageError) {
        do throws(BulkValueError) {
            switch option {
            case .inputFile:
                guard !value.isEmpty else { throw BulkValueError("option '\(spelling)' needs a file name, or '-' for standard input") }
                inputFile = value
            case .directory:
                try BulkOutputName.validateDirectory(value)
                directory = value
            case .out:
                try BulkOutputName.validate(value)
                outputName = value
            case .maxConcurrentDownloads:
                maxConcurrentDownloads = try Self.integer(value, in: 1...10_000, for: spelling)
            case .maxConnectionsPerServer:
                maxConnectionsPerServer = try Self.integer(value, in: 1...64, for: spelling)
            case .split:
                split = try Self.integer(value, in: 1...64, for: spelling)
            case .continuePartial:
                continuePartial = true
            case .noFsync:
                flushesFiles = false
            case .checksum:
                checksum = try BulkChecksum(parsing: value)
            case .maxTries:
                maxTries = try Self.integer(value, in: 0...1_000_000, for: spelling)
            case .retryWait:
                retryWait = try Self.seconds(value, allowingZero: true, for: spelling)
            case .timeout:
                timeout = try Self.seconds(value, allowingZero: false, for: spelling)
            case .connectTimeout:
                connectTimeout = try Self.seconds(value, allowingZero: false, for: spelling)
            case .maxDownloadLimit:
                maxDownloadLimit = try BulkRate(parsing: value)
            case .maxOverallDownloadLimit:
                maxOverallDownloadLimit = try BulkRate(parsing: value)
            case .header:
                headers.add(try BulkHeaderLine.parse(value))
            case .json:
                json = true
            case .manifest:
                guard !value.isEmpty else { throw BulkValueError("option '\(spelling)' needs a file name") }
                manifest = value
            case .shard:
                shard = try BulkShard(parsing: value, environment: environment)
            case .quiet:
                quiet = true
            case .caCertificate:
                caCertificate = try Self.fileName(value, for: spelling)
            case .checkCertificate:
                checkCertificate = try Self.boolean(value, for: spelling)
            case .certificate:
                certificate = try Self.fileName(value, for: spelling)
            case .privateKey:
                privateKey = try Self.fileName(value, for: spelling)
            case .allProxy:
                try BulkProxySettings.validate(value, for: spelling)
                proxies.allProxy = value
            case .httpProxy:
                try BulkProxySettings.validate(value, for: spelling)
                proxies.httpProxy = value
            case .httpsProxy:
                try BulkProxySettings.validate(value, for: spelling)
                proxies.httpsProxy = value
            case .noProxy:
                proxies.noProxy = value
            case .httpUser:
                httpUser = value
            case .httpPasswd:
                httpPassword = value
            case .netrcPath:
                netrcPath = try Self.fileName(value, for: spelling)
            case .noNetrc:
                noNetrc = try Self.boolean(value, for: spelling)
            case .loadCookies:
                loadCookies = try Self.fileName(value, for: spelling)
            case .userAgent:
                guard WireCheck.isFieldValue(value) else { throw BulkValueError("option '\(spelling)' has a value with CR, LF or NUL") }
                userAgent = value
            case .remoteTime:
                remoteTime = try Self.boolean(value, for: spelling)
            case .dryRun:
                dryRun = try Self.boolean(value, for: spelling)
            case .allowOverwrite:
                allowOverwrite = try Self.boolean(value, for: spelling)
            case .help:
                action = .help
            case .version:
                if action == .download { action = .version }
            }
        } catch {
            throw BulkUsageError(error.message)
        }
    }

    /// aria2's `true` or `false`, and nothing else.
    static func boolean(_ text: String, for spelling: String) throws(BulkValueError) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw BulkValueError("option '\(spelling)' takes true or false, not '\(text)'")
        }
    }

    private static func fileName(_ text: String, for spelling: String) throws(BulkValueError) -> String {
        guard !text.isEmpty else { throw BulkValueError("option '\(spelling)' needs a file name") }
        return text
    }

    /// Decimal digits only, so `+4`, `0x10` and `4.0` are refused rather than guessed at.
    private static func integer(_ text: String, in range: ClosedRange<Int>, for spelling: String) throws(BulkValueError) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw BulkValueError("option '\(spelling)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        guard let number = Int(text), range.contains(number) else {
            throw BulkValueError("option '\(spelling)' must be from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return number
    }

    /// Digits with at most one decimal point, up to 600 seconds: `Double` alone would also
    /// take `inf`, `nan` and `1e9`.
    private static func seconds(_ text: String, allowingZero: Bool, for spelling: String) throws(BulkValueError) -> TimeInterval {
        let isDecimal = text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
            && text.utf8.filter { $0 == UInt8(ascii: ".") }.count <= 1
            && text.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let lower = allowingZero ? "0" : "more than 0"
        guard isDecimal, let seconds = Double(text) else {
            throw BulkValueError("option '\(spelling)' needs a number of seconds (\(lower) up to 600), not '\(text)'")
        }
        guard seconds <= 600, allowingZero || seconds > 0 else {
            throw BulkValueError("option '\(spelling)' must be \(lower) up to 600 seconds, not \(text)")
        }
        return seconds
    }

    /// The options, with the names aria2 gives them.
    private enum Option: CaseIterable {
        case inputFile, directory, out, maxConcurrentDownloads, maxConnectionsPerServer, split, continuePartial
        case checksum, maxTries, retryWait, timeout, connectTimeout, maxDownloadLimit, maxOverallDownloadLimit
        case header, json, manifest, shard, quiet, help, version, noFsync
        case caCertificate, checkCertificate, certificate, privateKey, allProxy, httpProxy, httpsProxy, noProxy
        case httpUser, httpPasswd, netrcPath, noNetrc, loadCookies, userAgent, remoteTime, dryRun, allowOverwrite

        var longName: String {
            switch self {
            case .inputFile: return "input-file"
            case .directory: return "dir"
            case .out: return "out"
            case .maxConcurrentDownloads: return "max-concurrent-downloads"
            case .maxConnectionsPerServer: return "max-connection-per-server"
            case .split: return "split"
            case .continuePartial: return "continue"
            case .checksum: return "checksum"
            case .maxTries: return "max-tries"
            case .retryWait: return "retry-wait"
            case .timeout: return "timeout"
            case .connectTimeout: return "connect-timeout"
            case .maxDownloadLimit: return "max-download-limit"
            case .maxOverallDownloadLimit: return "max-overall-download-limit"
            case .header: return "header"
            case .json: return "json"
            case .manifest: return "manifest"
            case .shard: return "shard"
            case .quiet: return "quiet"
            case .help: return "help"
            case .version: return "version"
            case .noFsync: return "no-fsync"
            case .caCertificate: return "ca-certificate"
            case .checkCertificate: return "check-certificate"
            case .certificate: return "certificate"
            case .privateKey: return "private-key"
            case .allProxy: return "all-proxy"
            case .httpProxy: return "http-proxy"
            case .httpsProxy: return "https-proxy"
            case .noProxy: return "no-proxy"
            case .httpUser: return "http-user"
            case .httpPasswd: return "http-passwd"
            case .netrcPath: return "netrc-path"
            case .noNetrc: return "no-netrc"
            case .loadCookies: return "load-cookies"
            case .userAgent: return "user-agent"
            case .remoteTime: return "remote-time"
            case .dryRun: return "dry-run"
            case .allowOverwrite: return "allow-overwrite"
            }
        }

        var shortName: Character? {
            switch self {
            case .inputFile: return "i"
            case .directory: return "d"
            case .out: return "o"
            case .maxConcurrentDownloads: return "j"
            case .maxConnectionsPerServer: return "x"
            case .split: return "s"
            case .continuePartial: return "c"
            case .quiet: return "q"
            case .noNetrc: return "n"
            case .userAgent: return "U"
            case .remoteTime: return "R"
            default: return nil
            }
        }

        var takesValue: Bool {
            switch self {
            case .continuePartial, .json, .quiet, .help, .version, .noFsync: return false
            default: return true
            }
        }

        /// aria2's `[true|false]` options: on when named alone.
        var isBoolean: Bool {
            switch self {
            case .checkCertificate, .noNetrc, .remoteTime, .dryRun, .allowOverwrite: return true
            default: return false
            }
        }

        static let long: [String: Option] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.longName, $0) })
        static let short: [Character: Option] = Dictionary(
            uniqueKeysWithValues: allCases.compactMap { option in option.shortName.map { ($0, option) } })
    }
}
