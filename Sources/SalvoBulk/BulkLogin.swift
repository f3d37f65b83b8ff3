import Foundation
import Salvo

/// A user name and password for HTTP Basic authentication (aria2's `--http-user` and
/// `--http-passwd`, or a `~/.netrc` line).
///
/// Its description shows the user only: a login printed by mistake does not show the password.
public struct BulkLogin: Hashable, Sendable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates a login.
    ///
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The `Authorization` header's value: `Basic` and `user:password` in Base64.
    public var authorization: String { HTTPHeader.authorization(username: user, password: password).value }

    /// `user` and a mask for the password.
    public var description: String { "\(user):***" }
}
