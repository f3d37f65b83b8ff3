// The project's founding document's SessionDelegate subclass, verbatim but for line breaks:
// it must compile against Salvo in Swift 5 and Swift 6 language modes.
import Salvo
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

class LoggingSessionDelegate: SessionDelegate {
    override func urlSession(_ session: URLSession, task: URLSessionTask,
                             willPerformHTTPRedirection response: HTTPURLResponse,
                             newRequest request: URLRequest,
                             completionHandler: @escaping (URLRequest?) -> Void) {
        print("URLSession will perform HTTP redirection to request: \(request)")
        super.urlSession(session, task: task, willPerformHTTPRedirection: response,
                         newRequest: request, completionHandler: completionHandler)
    }
}

let loggingSession = Session(delegate: LoggingSessionDelegate())
