import XCTest
@testable import Salvo

final class MainQueueIndependenceTests: XCTestCase {
    /// A server process may never drain the main queue: a request whose handler asks for
    /// `.main` must still complete its own bookkeeping (and tell monitors) without it.
    func testRequestsFinishWithoutTheMainQueueBeingDrained() throws {
        let finished = DispatchSemaphore(value: 0)
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        monitor.requestDidFinish = { _ in finished.signal() }
        let session = Session(eventMonitors: [monitor])
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        let handled = expectation(description: "handler on main")
        request.responseData { response in
            dispatchPrecondition(condition: .onQueue(.main))
            XCTAssertNil(response.error)
            handled.fulfill()
        }
        // The main thread blocks here, so nothing queued on main can run meanwhile.
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(request.state, .finished)
        withExtendedLifetime(session) { wait(for: [handled], timeout: 10) }
    }

    /// With a session `responseQueue`, handlers that name `.main` (here by default) run there.
    func testResponseQueueTakesTheMainQueuesHandlers() throws {
        let responses = DispatchQueue(label: "test.responses")
        let session = Session(responseQueue: responses)
        let handled = DispatchSemaphore(value: 0)
        session.request(try TestServers.shared.url(.nginx, "/small")).responseData { response in
            dispatchPrecondition(condition: .onQueue(responses))
            XCTAssertNil(response.error)
            handled.signal()
        }
        // The main thread blocks: the handler can only run if it is not on main.
        XCTAssertEqual(handled.wait(timeout: .now() + 10), .success)
        withExtendedLifetime(session) {}
    }
}
