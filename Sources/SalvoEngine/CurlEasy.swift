internal import CCurl
internal import CSalvoHeaders
#if canImport(Glibc)
import Glibc
#endif

/// One libcurl easy handle, owned by an `EventLoop` and touched only on its thread.
///
/// Handles are pooled by the loop and reset between transfers, so the allocation and the
/// connection bookkeeping libcurl keeps in a handle are paid once per handle, not per request.
package final class CurlEasy {
    package let handle: UnsafeMutableRawPointer
    /// libcurl writes a transfer's detailed error text here (`CURLOPT_ERRORBUFFER`).
    package let errorBuffer: UnsafeMutablePointer<CChar>
    /// What the last `configure` set, when that transfer was a plain one (see
    /// `PlainProfile`); `nil` otherwise. A plain transfer with the same profile skips the
    /// reset and sets only its own pointers and URL, as a C program reusing handles would.
    /// Loop thread only, so no runtime exclusivity check.
    @exclusivity(unchecked) package var plainProfile: PlainProfile?
    /// Whether `CURLOPT_COOKIEFILE` started this handle's cookie engine. Once is enough (a
    /// reset keeps the engine and the share's jar), and more is harmful: libcurl 7.88 appends
    /// each call's file name to a list it keeps for the handle's life, 16 bytes a transfer
    /// that a pooled handle never gives back.
    @exclusivity(unchecked) package var cookieEngineStarted = false

    /// The options a plain transfer (a GET with no body, progress, credential or verbose
    /// logging, whose body goes to memory or to a download's file) sets beyond its pointers
    /// and URL. The session's engine options are the same for every handle of a loop, so
    /// they need no place here.
    package struct PlainProfile: Equatable {
        /// `CURLOPT_HTTPHEADER`: the list libcurl reads when it sends, compared by address.
        let headers: UnsafeMutablePointer<curl_slist>?
        /// Sets the connect timeout (ns).
        package let idleTimeout: UInt64
        package let priorKnowledge: Bool
        /// A download to a file, which sets a larger receive buffer.
        package let toFile: Bool
        /// Sets `CURLOPT_PIPEWAIT` under the automatic policy.
        package let isHTTPS: Bool
        /// The CA store new connections get (`TLSTrustStore`): a store rebuilt since is a new
        /// address, and the handle is configured again.
        let trustStore: UnsafeMutableRawPointer?
    }

    /// The CA store this handle's connections are given, with a reference of the handle's
    /// own: a connection the handle opens mid-transfer (libcurl retries on a new one when a
    /// reused one died) may still need it after the loop moved to a newer store.
    @exclusivity(unchecked) private var heldTrustStore: UnsafeMutableRawPointer?

    /// Keeps a reference to `store` (and drops the one to the store held before).
    func hold(_ store: UnsafeMutableRawPointer?) {
        guard store != heldTrustStore else { return }
        if let store { TLSTrustStore.retain(store) }
        if let old = heldTrustStore { TLSTrustStore.release(old) }
        heldTrustStore = store
    }

    /// The current response's header lines, collected in C (`CURLOPT_HEADERDATA`); its
    /// storage is kept from transfer to transfer.
    let headerBlock: UnsafeMutablePointer<salvo_header_block>

    package init?() {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        headerBlock = .allocate(capacity: 1)
        headerBlock.initialize(to: salvo_header_block(bytes: nil, count: 0, capacity: 0, context: nil, event: nil, requests_sent: 0,
                                                        bytes_seen: 0, content_length: 0, content_length_seen: 0,
                                                        invalid_length: 0, too_large: 0, may_set_cookie: 0))
    }

    deinit {
        curl_easy_cleanup(handle)
        if let heldTrustStore { TLSTrustStore.release(heldTrustStore) }
        errorBuffer.deallocate()
        free(headerBlock.pointee.bytes)
        headerBlock.deallocate()
    }

    /// Whether libcurl sent the current transfer's request more than once (it re-sends after
    /// finding a reused connection dead), which leaves state only a reset clears.
    package var requestWasResent: Bool { headerBlock.pointee.requests_sent > 1 }

    /// A copy of the header lines received so far for the current response.
    package func headerBytes() -> [UInt8] {
        let block = headerBlock.pointee
        guard let bytes = block.bytes, block.count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: block.count))
    }

    package func reset() {
        curl_easy_reset(handle)
        plainProfile = nil
    }

    /// Pauses the handle's transfer both ways. A handle that was paused is reset before its
    /// next transfer, so its plain profile goes with the pause.
    package func pause() {
        plainProfile = nil
        curl_easy_pause(handle, SALVO_PAUSE_ALL)
    }

    /// For a transfer that a callback's answer pauses: as with `pause()`, the handle is reset
    /// before its next transfer.
    package func forgetPlainProfile() {
        plainProfile = nil
    }

    @inline(__always)
    func set(_ option: CURLoption, _ value: Int) {
        CurlCheck.easy(salvo_easy_setopt_long(handle, option, value), "curl_easy_setopt", option.rawValue)
    }

    @inline(__always)
    func set(_ option: CURLoption, offset value: Int64) {
        CurlCheck.easy(salvo_easy_setopt_off(handle, option, curl_off_t(value)), "curl_easy_setopt", option.rawValue)
    }

    /// libcurl copies string options (all but `CURLOPT_POSTFIELDS`), so a temporary C
    /// string is enough.
    @inline(__always)
    func set(_ option: CURLoption, string value: String) {
        CurlCheck.easy(value.withCString { salvo_easy_setopt_string(handle, option, $0) }, "curl_easy_setopt", option.rawValue)
    }

    @inline(__always)
    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        CurlCheck.easy(salvo_easy_setopt_ptr(handle, option, value), "curl_easy_setopt", option.rawValue)
    }

    @inline(__always)
    func getLong(_ info: CURLINFO) -> Int {
        var value = 0
        CurlCheck.easy(salvo_easy_getinfo_long(handle, info, &value), "curl_easy_getinfo", info.rawValue)
        return value
    }

    @inline(__always)
    func getOffset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        CurlCheck.easy(salvo_easy_getinfo_off(handle, info, &value), "curl_easy_getinfo", info.rawValue)
        return Int64(value)
    }

    func getString(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard salvo_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
