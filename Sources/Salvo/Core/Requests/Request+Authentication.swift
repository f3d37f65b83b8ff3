import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// Answers the server's authentication challenge (Basic or Digest) with a user name and
    /// password. Nothing is sent until the server asks, as with URLSession's credentials;
    /// to send Basic credentials up front, add `HTTPHeader.authorization(username:password:)`.
    ///
    /// - Parameters:
    ///   - username: The user name.
    ///   - password: The password.
    ///   - persistence: Kept for compatibility; Salvo holds the credential for this request only.
    /// - Returns: The request.
    @discardableResult
    public func authenticate(username: String, password: String, persistence: URLCredential.Persistence = .forSession) -> Self {
        credentialBox.value = Credential(user: username, password: password)
        return self
    }

    /// Answers the server's authentication challenge with a credential's user and password.
    ///
    /// - Parameter credential: A password credential; others are ignored.
    /// - Returns: The request.
    @discardableResult
    public func authenticate(with credential: URLCredential) -> Self {
        if let user = credential.user, let password = credential.password {
            credentialBox.value = Credential(user: user, password: password)
        }
        return self
    }
}
