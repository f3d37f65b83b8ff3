// A RedirectHandler written for Alamofire, against its URLSessionTask method.
import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct SameHostRedirects: RedirectHandler {
    func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping (URLRequest?) -> Void) {
        completion(request.url?.host == task.originalRequest?.url?.host ? request : nil)
    }
}
