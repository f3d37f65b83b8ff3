import Foundation

extension Session {
    /// When a new request is set up: its `URLRequest` built and adapted and its first attempt
    /// prepared.
    public enum RequestSetup: Sendable {
        /// On the request's first `resume()`: until then the request is inert, so adapters,
        /// retriers, monitors and handlers added after its creation all take part in its first
        /// attempt. The default, as in Alamofire 5.11 and later.
        case lazy
        /// At once, on the session's `rootQueue`, as Alamofire did before 5.11; the prepared
        /// attempt is sent on the first `resume()`.
        ///
        /// - Warning: Anything added to the request after its creation (an adapter, a monitor,
        ///   an `onURLRequestCreation` handler) may come too late for the first attempt. Meant
        ///   for code that relies on the older timing.
        case eager
    }
}
