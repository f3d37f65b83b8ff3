import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSessionUploadTask` of an `UploadRequest` attempt.
///
/// Made only when asked for (`Request.task`, a `SessionDelegate` subclass, a task monitor), it
/// mirrors the attempt (identifier, requests, response, state, error) and forwards `cancel()`,
/// `suspend()` and `resume()` to the request. It carries no traffic: Salvo's engine does.
public final class RequestUploadTask: URLSessionUploadTask, RequestTask, @unchecked Sendable { // only `let`s; every answer is read from the request under its lock
    private let mirror: RequestTaskMirror

    init(mirror: RequestTaskMirror) {
        self.mirror = mirror
        super.init()
    }

    /// The request whose attempt this task mirrors.
    public var request: Request? { mirror.request }
    /// Unique within the task's session.
    override public var taskIdentifier: Int { mirror.identifier }
    /// The attempt's first request.
    override public var originalRequest: URLRequest? { mirror.originalRequest }
    /// The attempt's request after redirects.
    override public var currentRequest: URLRequest? { mirror.currentRequest }
    /// The attempt's response, once its head arrived.
    override public var response: URLResponse? { mirror.response }
    /// The transport error the attempt ended with.
    override public var error: (any Error)? { mirror.error }
    /// The attempt's state.
    override public var state: URLSessionTask.State { mirror.state }
    /// Body bytes received by the finished attempt.
    override public var countOfBytesReceived: Int64 { mirror.bytesReceived }
    /// Body bytes sent by the finished attempt.
    override public var countOfBytesSent: Int64 { mirror.bytesSent }
    /// Cancels the request.
    override public func cancel() { mirror.cancel() }
    /// Suspends the request.
    override public func suspend() { mirror.suspend() }
    /// Resumes the request.
    override public func resume() { mirror.resume() }
}
