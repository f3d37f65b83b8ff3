import Foundation
import Salvo

/// One file of a bulk download, as one entry of an input list describes it.
public struct BulkEntry: Hashable, Sendable {
    /// Where the file can be fetched: one URI, or several mirrors of the same file. Never
    /// empty; every URI is an absolute `http` or `https` URL.
    public var uris: [URL]

    /// The file name to write (aria2's `out=`), relative to the directory; `nil` to take it
    /// from the response or the URL.
    public var outputName: String?

    /// The directory to write into (aria2's `dir=`); `nil` for the run's directory.
    public var directory: String?

    /// The digest the finished file must have (aria2's `checksum=`), if any.
    public var checksum: BulkChecksum?

    /// Extra request headers for this file (aria2's `header=`), in the order given; one per
    /// name, as `HTTPHeaders` holds them, so a later header of the same name replaces it.
    public var headers: HTTPHeaders

    /// The 1-based line of the input list holding the entry's URIs; 0 for an entry that did
    /// not come from a list.
    public var line: Int

    /// The user for HTTP Basic authentication (aria2's `http-user=`), over the run's; sent
    /// only to the origins of `uris`.
    public var httpUser: String?
    /// The password that goes with the user (aria2's `http-passwd=`), over the run's.
    public var httpPassword: String?
    /// Proxies over the run's, each set value replacing the run's of the same name (aria2's
    /// `all-proxy=`, `http-proxy=`, `https-proxy=`, `no-proxy=`).
    public var proxies = BulkProxySettings()
    /// Whether the run's netrc logins apply (aria2's `no-netrc=` inverted); `nil` for yes.
    public var usesNetrc: Bool?
    /// Whether the file takes the server's `Last-Modified` as its time (aria2's
    /// `remote-time=`); `nil` for the run's choice.
    public var remoteTime: Bool?
    /// Whether an existing file of the same name is replaced (aria2's `allow-overwrite=`);
    /// `nil` for the run's choice.
    public var allowOverwrite: Bool?
    /// Whether the URL is only checked, nothing written (aria2's `dry-run=`); `nil` for the
    /// run's choice.
    public var dryRun: Bool?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - uris: The file's URIs, mirrors of one another; at least one.
    ///   - outputName: The file name to write. `nil` by default.
    ///   - directory: The directory to write into. `nil` by default.
    ///   - checksum: The digest the file must have. `nil` by default.
    ///   - headers: Extra request headers. Empty by default.
    ///   - line: The input list line the entry came from. `0` by default.
    public init(
        uris: [URL], outputName: String? = nil, directory: String? = nil, checksum: BulkChecksum? = nil,
        headers: HTTPHeaders = HTTPHeaders(), line: Int = 0
    ) {
        self.uris = uris
        self.outputName = outputName
        self.directory = directory
        self.checksum = checksum
        self.headers = headers
        self.line = line
    }
}
