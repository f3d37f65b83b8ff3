/// Where a response body goes when it does not collect in memory: a file
/// (`ResponseFileSink`) or a consumer fed chunk by chunk (`ResponseStreamSink`).
///
/// A class rather than a protocol so the write callback pays one optional check and a
/// vtable call; a data request has no sink and pays only the check.
package class ResponseSink {
    /// Takes a piece of the body (loop thread). Returns `count` when taken, 0 to fail the
    /// transfer with a write error, or `CURL_WRITEFUNC_PAUSE` to pause it.
    package func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int { count }

    /// Told when a response's header block ends (loop thread), before its body arrives.
    /// `rangeStart` is the first byte of a `206` answer's `Content-Range`, when it is one.
    package func headersEnded(status: Int, isRedirect: Bool, rangeStart: Int64?) {}

    /// Whether the sink wants the whole head of the final response (`headReceived`), on the
    /// loop thread, right after `headersEnded`.
    package var wantsHead: Bool { false }

    /// The final response's head, when `wantsHead` (loop thread).
    package func headReceived(_ head: ResponseHead) {}

    /// Whether the sink holds the transfer paused for its consumer (loop thread): a pause the
    /// client chose, which the idle timeout does not count as the server's silence.
    package var holdsTransfer: Bool { false }
}
