import Foundation

extension BulkDownloader {
    /// How a `BulkDownloader` runs: where files go, how many at once, how hard it tries.
    public struct Options: Sendable {
        /// The directory files are written into; created when missing. An entry's relative
        /// `directory` is taken inside it, an absolute one as it is.
        public var outputDirectory: URL
        /// Files downloaded at once (aria2's `-j`). 16 by default; at least 1.
        public var filesInFlight: Int
        /// Connections to one host at once (aria2's `-x`), the session's
        /// `URLSessionConfiguration.httpMaximumConnectionsPerHost`. 8 by default.
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
        public init(outputDirectory: URL, filesInFlight: Int = 16, connectionsPerHost: Int = 8,
                    continuePartial: Bool = false, maxTries: Int = 5, retryWait: TimeInterval = 1,
                    timeout: TimeInterval = 60, connectTimeout: TimeInterval = 60, headers: HTTPHeaders = HTTPHeaders()) {
            self.outputDirectory = outputDirectory
            self.filesInFlight = filesInFlight
            self.connectionsPerHost = connectionsPerHost
            self.continuePartial = continuePartial
            self.maxTries = maxTries
            self.retryWait = retryWait
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.headers = headers
        }
    }
}
