import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is written straight to a file, never held in memory.
///
/// The engine writes the body into a partial file in the temporary directory as it arrives.
/// When the response is complete and has passed the request's validations, the file is
/// moved to the place the `Destination` names; a download that fails or is cancelled
/// leaves nothing there, and its partial file is removed (unless resume data was asked
/// for, see `cancel(producingResumeData:)`).
open class DownloadRequest: Request, @unchecked Sendable { // state: Request.mutableState and `attempts`, each a Mutex

    /// How a downloaded file is moved to its destination.
    public struct Options: OptionSet, Sendable {
        /// Creates the destination's missing parent directories.
        public static let createIntermediateDirectories = Options(rawValue: 1 << 0)
        /// Removes a file already at the destination.
        public static let removePreviousFile = Options(rawValue: 1 << 1)

        /// The raw bits.
        public let rawValue: Int

        /// Creates options from raw bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }
    }

    /// Chooses where a finished download goes, from its temporary file and response.
    ///
    /// Called once, on the request's delivery queue, after validation passed.
    public typealias Destination = @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse)
        -> (destinationURL: URL, options: Options)

    /// A validation: inspects the request, response and file and passes or fails.
    ///
    /// - Note: The `URL` is the partial file in the temporary directory: Salvo validates
    ///   before moving the file, so an invalid response never reaches the destination.
    public typealias Validation = @Sendable (_ request: URLRequest?, _ response: HTTPURLResponse, _ fileURL: URL?) -> ValidationResult

    /// What the download was made from.
    public enum Downloadable: Sendable {
        /// A request.
        case request(any URLRequestConvertible)
        /// Resume data from an earlier download.
        case resumeData(Data)
    }

    /// What the download was made from.
    public let downloadable: Downloadable

    let attempts: DownloadAttempts

    /// The resume data made when the request was cancelled with
    /// `cancel(producingResumeData: true)`, or `nil`.
    public var resumeData: Data? { attempts.resumeData }

    /// Where the finished file was moved, or `nil` until then (or when it failed). While
    /// validators run, the file being validated (not yet moved into place), so that a
    /// validator can read it there, as it reads the moved file in Alamofire.
    public var fileURL: URL? { attempts.fileURL }

    init(downloadable: Downloadable, convertible: any URLRequestConvertible, plainSpec: RequestSpec?,
         underlyingQueue: DispatchQueue, serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?,
         interceptor: (any RequestInterceptor)?, delegate: Session, destination: Destination?) {
        self.downloadable = downloadable
        var resumingFrom: DownloadResumeData?
        if case let .resumeData(data) = downloadable { resumingFrom = try? DownloadResumeData(data) }
        attempts = DownloadAttempts(destination: destination, resumingFrom: resumingFrom)
        super.init(origin: .convertible(convertible, plainSpec: plainSpec), underlyingQueue: underlyingQueue,
                   serializationQueue: serializationQueue, eventMonitor: eventMonitor, interceptor: interceptor,
                   delegate: delegate, attemptHooks: attempts)
    }

    // MARK: Destinations

    /// A destination in `directory` of `domain`, named after the response's suggested file
    /// name (or the URL's last path component).
    ///
    /// Either name is the server's: it is reduced to one safe path component
    /// (`NetworkFileName`), so the file always lands inside `directory`; when no usable name
    /// is left, the temporary file's name is used.
    ///
    /// - Parameters:
    ///   - directory: The directory. `.documentDirectory` by default (on Linux, `~/Documents`
    ///     as Foundation defines it).
    ///   - domain: The domain. `.userDomainMask` by default.
    ///   - options: The move options. None by default.
    /// - Returns: The destination.
    public class func suggestedDownloadDestination(for directory: FileManager.SearchPathDirectory = .documentDirectory,
                                                   in domain: FileManager.SearchPathDomainMask = .userDomainMask,
                                                   options: Options = []) -> Destination {
        { temporaryURL, response in
            let directoryURL = FileManager.default.urls(for: directory, in: domain).first ?? FileManager.default.temporaryDirectory
            return (directoryURL.appendingPathComponent(suggestedFilename(for: response) ?? temporaryURL.lastPathComponent), options)
        }
    }

    /// The file name of a `Content-Disposition` header, else the URL's last path component,
    /// sanitized (`NetworkFileName`). (Foundation on Linux answers "Unknown" when there is no
    /// header, where Apple's platforms fall back to the URL, as Alamofire users expect.)
    static func suggestedFilename(for response: HTTPURLResponse) -> String? {
        if let disposition = response.value(forHTTPHeaderField: "Content-Disposition"),
           let name = NetworkFileName.fromContentDisposition(disposition) {
            return name
        }
        // `lastPathComponent` is percent-decoded: "..%2F..%2Fx" arrives as "../../x".
        guard let last = response.url?.lastPathComponent else { return nil }
        return NetworkFileName.sanitized(last)
    }

    /// The destination used when none is given: a new file in the temporary directory,
    /// named `Salvo_` and the partial file's name, which is unique across processes and runs
    /// (random per process, numbered within it). The caller removes it. The move into place
    /// never replaces a file: should the name exist after all, the request fails with
    /// `downloadedFileMoveFailed` and the other file stays.
    public static let defaultDestination: Destination = { temporaryURL, _ in
        let name = "Salvo_" + temporaryURL.deletingPathExtension().lastPathComponent
        return (FileManager.default.temporaryDirectory.appendingPathComponent(name), [])
    }

    // MARK: Cancelling

    /// Cancels the request, optionally keeping what arrived so it can be resumed.
    ///
    /// - Parameter shouldProduceResumeData: Whether to make `resumeData`, readable on the
    ///   request and the response once the request completes. Resume data is made only when
    ///   bytes of the file arrived and the response carried an `ETag` or `Last-Modified`.
    /// - Returns: The request.
    @discardableResult
    public func cancel(producingResumeData shouldProduceResumeData: Bool) -> Self {
        if shouldProduceResumeData { attempts.produceResumeData(then: nil) }
        return cancel()
    }

    /// Cancels the request and makes resume data, handed to `completionHandler` once the
    /// request has completed (`nil` when none could be made).
    ///
    /// - Parameter completionHandler: Called once, on the request's delivery queue.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (_ data: Data?) -> Void) -> Self {
        let willBeAnswered = attempts.produceResumeData(then: completionHandler)
        cancel()
        // Already complete: nothing will be produced, but the handler still runs once.
        if !willBeAnswered { completionHandler(nil) }
        return self
    }
}
