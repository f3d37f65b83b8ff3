import Foundation
import Synchronization
internal import CCurl

/// Feeds a streaming response to its consumer chunk by chunk, and pauses the transfer
/// (`CURL_WRITEFUNC_PAUSE`) while the consumer holds more than `window.highWater` bytes it
/// has not finished with, so memory stays bounded however slow the consumer is.
package final class ResponseStreamSink: ResponseSink {
    package let window: StreamWindow
    /// Hands a chunk to the request layer, which queues it; never user code.
    private let deliver: (Data) -> Void
    private var discarding = false

    package init(window: StreamWindow, deliver: @escaping (Data) -> Void) {
        self.window = window
        self.deliver = deliver
    }

    /// A redirect's body, kept (up to `heldRedirectLimit` bytes) until the request layer
    /// knows whether it follows the redirect: a refused one is the stream's answer, and its
    /// body is streamed then (`takeRedirectBody()`), as URLSession delivers it.
    private var redirectBody: Data?
    /// Redirect bodies are a few hundred bytes of HTML; past this, the rest is dropped rather
    /// than held in memory by a server that sends a large one.
    package static let heldRedirectLimit = 1 << 20

    package override func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        if redirectBody != nil {
            let room = Self.heldRedirectLimit - redirectBody!.count
            if room > 0 { redirectBody!.append(bytes.assumingMemoryBound(to: UInt8.self), count: min(room, count)) }
            return count
        }
        if discarding { return count }
        // Refused: libcurl keeps the chunk and offers it again once unpaused.
        guard window.admit(count) else { return SALVO_WRITEFUNC_PAUSE }
        deliver(Data(bytes: bytes, count: count))
        return count
    }

    package override func headersEnded(status: Int, isRedirect: Bool, rangeStart: Int64?) {
        // An intermediate (1xx) response's body is not the stream's.
        discarding = status < 200
        redirectBody = isRedirect ? Data() : nil
    }

    /// The body of the redirect the transfer ended with; read on the delivery queue once the
    /// transfer's outcome is delivered (the hand-off orders it after the loop's writes).
    package override var holdsTransfer: Bool { window.isPaused }

    package func takeRedirectBody() -> Data? {
        defer { redirectBody = nil }
        return redirectBody
    }
}

/// How many streamed bytes the consumer has not finished with, shared by the loop thread
/// (which admits chunks) and the consumer's queues (which release them).
package final class StreamWindow: Sendable {
    /// Above this many outstanding bytes, the transfer pauses.
    package let highWater: Int
    /// At or below this many, a paused transfer continues.
    package let lowWater: Int
    private let state = Mutex<(outstanding: Int, paused: Bool)>((0, false))

    package init(highWater: Int) {
        self.highWater = max(highWater, 1)
        lowWater = max(highWater, 1) / 2
    }

    /// Counts a chunk in, or refuses it and marks the window paused. A chunk always fits
    /// an empty window, whatever its size, so the stream cannot stall for good.
    package func admit(_ count: Int) -> Bool {
        state.withLock { state in
            if state.outstanding > 0 && state.outstanding + count > highWater {
                state.paused = true
                return false
            }
            state.outstanding += count
            return true
        }
    }

    /// Counts in a chunk that is not the loop's to refuse (one handed over after the
    /// transfer ended).
    package func add(_ count: Int) {
        state.withLock { $0.outstanding += count }
    }

    /// Counts a chunk out. Returns `true` when a paused transfer should now continue.
    package func release(_ count: Int) -> Bool {
        state.withLock { state in
            state.outstanding -= count
            guard state.paused, state.outstanding <= lowWater else { return false }
            state.paused = false
            return true
        }
    }

    /// Whether the window refused a chunk and has not yet drained to `lowWater`.
    package var isPaused: Bool { state.withLock { $0.paused } }

    /// The bytes handed out and not yet released.
    package var outstanding: Int { state.withLock { $0.outstanding } }
}
