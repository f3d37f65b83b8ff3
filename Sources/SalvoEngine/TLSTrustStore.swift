import Foundation
import Synchronization
internal import CCurl
internal import CSalvoTLS
#if canImport(Glibc)
import Glibc
#endif

/// The parsed CA certificates an event loop's verified TLS connections trust, built once and
/// handed to each new connection by reference.
///
/// libcurl 7.88 with OpenSSL 3.0 parses the whole CA bundle again for every new connection
/// (~20 ms of CPU for Debian's ~140 certificates; its own CA cache stays off while a CA
/// directory is set, as Debian's default is). A store built here from the same file and
/// directory is installed in each connection's `SSL_CTX` from `CURLOPT_SSL_CTX_FUNCTION`
/// instead, with libcurl's own loading switched off, so a fresh verified connection costs
/// its handshake alone.
///
/// Stores are kept per trust configuration (the CA file and directory), process-wide: two
/// configurations never share one. A store is rebuilt when its file or directory changes
/// (checked at most every `checkInterval`) and at least every `maximumAge`; connections that
/// still hold the old one keep it alive (OpenSSL counts references).
package final class TLSTrustStore: Sendable {
    /// Where the certificates come from: libcurl's `CURLOPT_CAINFO` and `CURLOPT_CAPATH`.
    package struct Source: Hashable, Sendable {
        package var file: String?
        package var directory: String?

        package init(file: String?, directory: String?) {
            self.file = file
            self.directory = directory
        }
    }

    /// A file's identity and contents' age, to see that it was replaced or rewritten.
    private struct Stamp: Equatable {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int64 = 0
        var modified: timespec = timespec()

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }

        init?(path: String?) {
            guard let path else { return nil }
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
        }
    }

    private struct Built {
        /// An `X509_STORE *` holding one reference of its own.
        var store: UnsafeMutableRawPointer
        var builtAt: UInt64
        var checkedAt: UInt64
        var file: Stamp?
        var directory: Stamp?
    }

    /// How often, at most, the files are looked at again (ns).
    package static let checkInterval: UInt64 = 5_000_000_000
    /// How long a store is used before it is built again whatever the files say (ns): a
    /// certificate in the directory can be replaced without the directory changing.
    package static let maximumAge: UInt64 = 3_600_000_000_000

    package static let shared = TLSTrustStore()

    private let stores = Mutex<[Source: Built]>([:])
    /// How many stores were built, for tests.
    package let builds = Atomic<Int>(0)

    /// The store for `source`, with a reference the caller owns (`release(_:)`), or `nil`
    /// when the file cannot be read: libcurl then loads the locations itself and reports the
    /// problem as it always did.
    package func retainedStore(for source: Source, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> UnsafeMutableRawPointer? {
        stores.withLock { stores -> UnsafeMutableRawPointer? in
            if var built = stores[source] {
                if now &- built.checkedAt < Self.checkInterval {
                    return Self.retained(built.store)
                }
                built.checkedAt = now
                let file = Stamp(path: source.file), directory = Stamp(path: source.directory)
                if now &- built.builtAt < Self.maximumAge && file == built.file && directory == built.directory {
                    stores[source] = built
                    return Self.retained(built.store)
                }
                salvo_tls_store_release(built.store)
                stores[source] = nil
            }
            // Stamped before reading: a change made while the store is built is seen next time.
            let file = Stamp(path: source.file), directory = Stamp(path: source.directory)
            guard let store = salvo_tls_store_create(source.file, source.directory) else { return nil }
            builds.add(1, ordering: .relaxed)
            stores[source] = Built(store: store, builtAt: now, checkedAt: now, file: file, directory: directory)
            return Self.retained(store)
        }
    }

    private static func retained(_ store: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        salvo_tls_store_retain(store)
        return store
    }

    /// Takes one more reference to a store.
    package static func retain(_ store: UnsafeMutableRawPointer) {
        salvo_tls_store_retain(store)
    }

    /// Drops a reference `retainedStore(for:)` gave.
    package static func release(_ store: UnsafeMutableRawPointer) {
        salvo_tls_store_release(store)
    }

    /// libcurl's built-in CA file and directory (`CURLINFO_CAINFO`, `CURLINFO_CAPATH`,
    /// libcurl 7.84 and later), `nil` when it reports neither.
    package static let libcurlDefaults: Source? = {
        CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(handle) }
        func read(_ info: CURLINFO) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard salvo_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
            return String(cString: value)
        }
        let source = Source(file: read(CURLINFO_CAINFO), directory: read(CURLINFO_CAPATH))
        return source.file == nil && source.directory == nil ? nil : source
    }()
}
