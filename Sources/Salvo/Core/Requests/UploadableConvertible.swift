import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A type that makes what an `UploadRequest` sends.
public protocol UploadableConvertible: Sendable {
    /// Makes the body to send.
    ///
    /// - Returns: The `UploadRequest.Uploadable`.
    /// - Throws: Any error making it; an upload request fails with
    ///   `AFError.createUploadableFailed` wrapping it.
    func createUploadable() throws -> UploadRequest.Uploadable
}

extension UploadRequest.Uploadable: UploadableConvertible {
    /// Returns the value itself.
    ///
    /// - Returns: `self`.
    public func createUploadable() throws -> UploadRequest.Uploadable {
        self
    }
}

/// A type that describes a whole upload: the `URLRequest` to send and the body to send with
/// it.
public protocol UploadConvertible: UploadableConvertible & URLRequestConvertible {}
