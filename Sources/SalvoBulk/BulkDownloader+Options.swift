import Foundation
import Salvo

extension BulkDownloader {
    /// How a `BulkDownloader` runs: where files go, how many at once, how hard it tries.
    public struct Options: Sendable {
        /// The directory files are written into; created when missing. An entry's relative
        /// `directory` is taken inside it, an absolute one as it is.
        public var outputDirectory: URL
        /// Files downloaded at once (aria2's `-j`). 16 by default; at least 1.
        public var filesInFlight: Int
        /// Connections to one host at once (aria2's `-x`). 8 by default.
        public var connectionsPerHost: Int
        /// Whether an existing `NAME.part` with its sidecar is continued (aria2's `-c`) rather
        /// than replaced. `false` by default.
        public var continuePartial: Bool
        /// Attempts per URI, the first included (aria2's `--max-tries`); 0 for no limit.
        /// 5 by default.
        public var maxTries: Int
        /// The base of the wait between attempts, in seconds (aria2's `--retry-wait`); the
        /// wait doubles with each failed attempt, with jitter. 1 by default; 0 retries at once.
        public var retryWait: TimeInterval
        /// Seconds a transfer may receive nothing before it fails (aria2's `--timeout`).
        /// 60 by default.
        public var timeout: TimeInterval
        /// Seconds a connection may take to open (aria2's `--connect-timeout`). 60 by default.
        public var connectTimeout: TimeInterval
        /// Headers sent with every request; an entry's own headers of the same name win.
        /// None by default.
        public var headers: HTTPHeaders
        /// Ranges of one file fetched at once, each over its own request (aria2's `-s`).
        /// 1 by default: each file is fetched whole. At most 64.
        ///
        /// With more than 1, a file's first request asks for its first byte only
        /// (`Range: bytes=0-0`). When the answer is a 206 that gives the file's length and a
        /// validator (a strong `ETag` or a `Last-Modified`), the file is cut into `split`
        /// ranges of nearly equal length (fewer for a small file: none shorter than
        /// `minimumRangeLength`), fetched at once by the downloader with `Range`
        /// and `If-Range`, each written at its own offset of the one `NAME.part`; its sidecar
        /// records each range's progress, so `continuePartial` asks only for what is missing
        /// of each. When the server answers with the whole file (it ignores ranges), that
        /// answer is the download, on one connection, and a `rangesUnavailable` event says so.
        public var split: Int
        /// The most bytes per second one file receives (aria2's `--max-download-limit`);
        /// `BulkRate.unlimited` (the default) for no limit.
        ///
        /// Applied by libcurl to each request (`CURLOPT_MAX_RECV_SPEED_LARGE`). With `split`
        /// above 1, each request gets the limit divided by `split` (rounded up), so a file
        /// fetched in ranges keeps to it as a whole; a file the server will not split then
        /// gets that share alone.
        public var maximumRatePerFile: BulkRate
        /// The most bytes per second the whole run receives, all files together (aria2's
        /// `--max-overall-download-limit`); `BulkRate.unlimited` (the default) for no limit.
        ///
        /// Shared as a token bucket by every transfer of a run: a transfer whose next chunk
        /// the bucket cannot pay for yet is paused until it has refilled (see
        /// `BulkRateBudget`). Applies together with `maximumRatePerFile`.
        public var maximumOverallRate: BulkRate
        /// Whether each finished file is flushed to the disk (`fsync`) before it is renamed to
        /// its final name. `true` by default: then a power cut or a crash of the system
        /// cannot leave a final name on bytes the disk never received. `false` renames
        /// without waiting for the disk, as curl and aria2 do; a crash of the tool alone
        /// (even `kill -9`) still never leaves a final name on a partial file.
        public var flushesFiles: Bool
        /// Whether each file's SHA-256 is computed as it is written, for
        /// `FileResult.sha256`. `true` by default; a run that does not read it saves the
        /// hashing (about a third of the CPU a file of 100 KiB costs). An entry whose checksum
        /// is a SHA-256 is hashed either way.
        public var recordsSHA256: Bool

        /// A PEM file of CA certificates trusted in addition to the system's (aria2's
        /// `--ca-certificate`); `nil` for the system's alone.
        public var caCertificatePath: String?
        /// Whether servers' certificates are verified (aria2's `--check-certificate`).
        /// `true` by default.
        public var checksCertificates = true
        /// A client certificate in PEM shown to servers that ask for one (aria2's
        /// `--certificate`).
        public var clientCertificatePath: String?
        /// The client certificate's private key, unencrypted PEM (aria2's `--private-key`);
        /// `nil` when the certificate's file holds it.
        public var clientKeyPath: String?
        /// The `User-Agent` of every request whose headers do not name one (aria2's `-U`);
        /// `nil` for Salvo's.
        public var userAgent: String?
        /// The user for HTTP Basic authentication (aria2's `--http-user`), sent with the
        /// first request to each entry's own origins and never to another host.
        public var httpUser: String?
        /// The password that goes with `httpUser` (aria2's `--http-passwd`).
        public var httpPassword: String?
        /// Logins by host (aria2's netrc support), sent to their host when no other login
        /// applies; `nil` for none.
        public var netrc: BulkNetrc?
        /// Cookies sent to the hosts they belong to (aria2's `--load-cookies`); `nil` for none.
        public var cookies: BulkCookieFile?
        /// Proxies for every request (aria2's `--all-proxy`, `--http-proxy`, `--https-proxy`,
        /// `--no-proxy`); an entry's own replace them by name.
        public var proxies = BulkProxySettings()
        /// The environment's proxies, below every option (`BulkProxySettings.environment`);
        /// `nil` leaves libcurl to read the variables itself when no option names a proxy.
        public var proxyEnvironment: BulkProxySettings?
        /// Whether each file's time is set from the server's `Last-Modified` (aria2's `-R`).
        /// `false` by default.
        public var remoteTime = false
        /// Whether a finished file replaces an existing file of its name instead of taking
        /// the next free number (aria2's `--allow-overwrite`). `false` by default.
        public var allowOverwrite = false
        /// Whether each URL is only checked: its first request's answer is read and nothing
        /// is written (aria2's `--dry-run`). `false` by default.
        public var dryRun = false

        /// The shortest range a file is cut into when it is fetched in ranges: 64 KiB.
        public static let minimumRangeLength: Int64 = 64 * 1024

        /// The limit each request gets for `maximumRatePerFile` and `split`,
        /// in bytes per second; 0 for none.
        public var maximumRatePerRequest: Int64 {
            let rate = maximumRatePerFile.bytesPerSecond
            let parts = Int64(max(1, min(split, 64)))
            return rate == 0 ? 0 : (rate + parts - 1) / parts
        }

        /// Creates options.
        ///
        /// - Parameters:
        ///   - outputDirectory: Where files are written.
        ///   - filesInFlight: Files at once. 16 by default.
        ///   - connectionsPerHost: Connections to one host at once. 8 by default.
        ///   - continuePartial: Whether partial files are continued. `false` by default.
        ///   - maxTries: Attempts per URI; 0 for no limit. 5 by default.
        ///   - retryWait: The back-off base in seconds. 1 by default.
        ///   - timeout: The stall timeout in seconds. 60 by default.
        ///   - connectTimeout: The connect timeout in seconds. 60 by default.
        ///   - headers: Headers for every request. None by default.
        ///   - split: Ranges of one file fetched at once, 1 to 64. 1 by default.
        ///   - maximumRatePerFile: The most bytes per second for one file. Unlimited by default.
        ///   - maximumOverallRate: The most bytes per second for the whole run. Unlimited by default.
        ///   - flushesFiles: Whether files are flushed to the disk before their rename. `true`
        ///     by default.
        ///   - recordsSHA256: Whether each file's SHA-256 is computed. `true` by default.
        public init(outputDirectory: URL, filesInFlight: Int = 16, connectionsPerHost: Int = 8,
                    continuePartial: Bool = false, maxTries: Int = 5, retryWait: TimeInterval = 1,
                    timeout: TimeInterval = 60, connectTimeout: TimeInterval = 60, headers: HTTPHeaders = HTTPHeaders(),
                    split: Int = 1, maximumRatePerFile: BulkRate = .unlimited, maximumOverallRate: BulkRate = .unlimited,
                    flushesFiles: Bool = true, recordsSHA256: Bool = true) {
            self.outputDirectory = outputDirectory
            self.filesInFlight = filesInFlight
            self.connectionsPerHost = connectionsPerHost
            self.continuePartial = continuePartial
            self.maxTries = maxTries
            self.retryWait = retryWait
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.headers = headers
            self.split = split
            self.maximumRatePerFile = maximumRatePerFile
            self.maximumOverallRate = maximumOverallRate
            self.flushesFiles = flushesFiles
            self.recordsSHA256 = recordsSHA256
        }
    }
}
