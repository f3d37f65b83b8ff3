import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `DataRequest` whose body is sent from `Data`, a file or a stream, read in pieces by
/// the engine as it goes out, so a file or a stream is never loaded whole.
///
/// Every data response handler and serializer works on it; `uploadProgress` reports the
/// body going out.
open class UploadRequest: DataRequest, @unchecked Sendable { // state: Request.mutableState and `uploads`, each a Mutex

    /// What an upload sends.
    // A stream is handed to the engine once, under the upload's Mutex, and from then on
    // read only on the engine's loop thread.
    public enum Uploadable: @unchecked Sendable { // see the comment above

        /// A body in memory.
        case data(Data)
        /// A file; `shouldRemove` removes it once the request completes.
        case file(URL, shouldRemove: Bool)
        /// A stream, read once: a request that must send its body again fails with
        /// `URLError(.requestBodyStreamExhausted)`.
        case stream(InputStream)
    }

    let uploads: UploadAttempts

    /// What the request sends, once it has been made (for multipart forms, once encoded).
    public var uploadable: Uploadable? { uploads.uploadable }

    /// The request together with the recipe for its body. Its `createUploadable()` makes the
    /// body afresh: for a multipart form, that encodes the form again; the body this request
    /// sends is `uploadable`.
    public let upload: any UploadableConvertible

    /// Removes a multipart form that was encoded to a temporary file, once the request
    /// completes.
    ///
    /// - Note: `Session.upload(...)` accepts a `fileManager:` argument but does not hand it
    ///   to the request yet, so this is `FileManager.default`.
    public let fileManager: FileManager

    init(convertible: any URLRequestConvertible, plainSpec: RequestSpec?, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         delegate: Session, fileManager: FileManager = .default, makeUploadable: @escaping @Sendable () throws -> Uploadable) {
        upload = DeferredUpload(request: convertible, makeUploadable: makeUploadable)
        self.fileManager = fileManager
        uploads = UploadAttempts(makeUploadable: makeUploadable, fileManager: fileManager)
        super.init(origin: .convertible(convertible, plainSpec: plainSpec), underlyingQueue: underlyingQueue,
                   serializationQueue: serializationQueue, eventMonitor: eventMonitor, interceptor: interceptor,
                   delegate: delegate, attemptHooks: uploads)
        uploads.attach(to: self)
    }
}

/// An upload's part in each attempt: a body source for every transfer, made from the
/// uploadable (built once, on the first attempt), and the removal of a temporary file.
final class UploadAttempts: AttemptHooks {
    private struct State {
        var uploadable: UploadRequest.Uploadable?
        var streamTaken = false
        /// The request, for its event monitors; weak, since the request owns this object.
        weak var request: UploadRequest?
    }

    private let makeUploadable: @Sendable () throws -> UploadRequest.Uploadable
    private let fileManager: FileManager
    private let state = Mutex(State())

    init(makeUploadable: @escaping @Sendable () throws -> UploadRequest.Uploadable, fileManager: FileManager) {
        self.makeUploadable = makeUploadable
        self.fileManager = fileManager
    }

    var sendsBodySource: Bool { true }
    var uploadable: UploadRequest.Uploadable? { state.withLock { $0.uploadable } }

    func attach(to request: UploadRequest) {
        state.withLock { $0.request = request }
    }

    func prepare(_ description: TransferDescription, spec: RequestSpec) throws {
        // A redirect that turned the request into a GET sends no body.
        guard spec.method != .get && spec.method != .head else { return }
        typealias Prepared = (made: Result<UploadRequest.Uploadable, AFError>, isNew: Bool, streamAvailable: Bool, request: UploadRequest?)
        let prepared = state.withLock { state -> Prepared in
            if let made = state.uploadable {
                guard case .stream = made else { return (.success(made), false, true, state.request) }
                defer { state.streamTaken = true }
                return (.success(made), false, !state.streamTaken, state.request)
            }
            let made: UploadRequest.Uploadable
            do {
                made = try makeUploadable()
            } catch {
                return (.failure(error.asAFError(or: .createUploadableFailed(error: error))), true, false, state.request)
            }
            state.uploadable = made
            if case .stream = made { state.streamTaken = true }
            return (.success(made), true, true, state.request)
        }
        let monitor = prepared.request?.monitor
        let uploadable: UploadRequest.Uploadable
        switch prepared.made {
        case let .success(made):
            uploadable = made
            if prepared.isNew, let monitor, let request = prepared.request { monitor.request(request, didCreateUploadable: made) }
        case let .failure(error):
            if let monitor, let request = prepared.request { monitor.request(request, didFailToCreateUploadableWithError: error) }
            throw error
        }
        switch uploadable {
        case let .data(data):
            description.bodySource = BodySource(data: data)
        case let .file(url, _):
            do {
                description.bodySource = try BodySource(fileAt: url.path)
            } catch {
                throw AFError.createUploadableFailed(error: error)
            }
        case let .stream(stream):
            // A stream is read once; an attempt that must send the body again cannot.
            guard prepared.streamAvailable else { throw AFError.sessionTaskFailed(error: URLError(.requestBodyStreamExhausted)) }
            description.bodySource = BodySource(stream: stream)
            if let monitor, let request = prepared.request { monitor.request(request, didProvideInputStream: stream) }
        }
    }

    func transferEnded(_ transfer: Transfer, outcome: TransferOutcome) {}

    func attemptSucceeded(_ request: Request) -> AFError? { nil }

    func requestFinishing(_ request: Request) {
        // A multipart form encoded to a temporary file is removed, whatever the outcome.
        if case let .file(url, shouldRemove: true)? = uploadable {
            try? fileManager.removeItem(at: url)
        }
    }
}

/// An upload's `UploadRequest.upload`: the request's convertible and the closure that makes
/// its body.
struct DeferredUpload: UploadConvertible {
    let request: any URLRequestConvertible
    let makeUploadable: @Sendable () throws -> UploadRequest.Uploadable

    func asURLRequest() throws -> URLRequest { try request.asURLRequest() }

    func createUploadable() throws -> UploadRequest.Uploadable { try makeUploadable() }
}
