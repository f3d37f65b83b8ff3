import Synchronization

/// The requests a session has started and not yet finished, for `Session.withAllRequests`
/// and `Session.cancelAllRequests`.
///
/// An array whose elements know their index (`Request.activeSlot`), so adding and removing a
/// request hashes nothing: two short critical sections per request.
final class ActiveRequests: Sendable {
    private let requests = Mutex<[Request]>([])

    /// Records a request that starts.
    func insert(_ request: Request) {
        requests.withLock { requests in
            guard request.activeSlot < 0 else { return }
            request.activeSlot = requests.count
            requests.append(request)
        }
    }

    /// Forgets a request that finished; nothing for one never recorded.
    func remove(_ request: Request) {
        requests.withLock { requests in
            let slot = request.activeSlot
            guard slot >= 0, slot < requests.count, requests[slot] === request else { return }
            let last = requests.removeLast()
            if last !== request {
                requests[slot] = last
                last.activeSlot = slot
            }
            request.activeSlot = -1
        }
    }

    /// The requests now recorded.
    var all: Set<Request> { requests.withLock { Set($0) } }
}
