import XCTest
import Salvo

final class DataRequestThinPathTests: XCTestCase {
    func testGetFromNginxThroughTheLoop() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.nginx, "/small")
        let done = expectation(description: "response")
        session.request(url).responseData { response in
            XCTAssertEqual(response.response?.statusCode, 200)
            XCTAssertEqual(response.value.map { String(decoding: $0, as: UTF8.self) }?.isEmpty, false)
            XCTAssertNotNil(response.metrics)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testHttpbinEchoesHeadersAndQuery() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.httpbin, "/get")
        let done = expectation(description: "response")
        session.request(url, parameters: ["a": "b c"], headers: ["X-Test": "1"]).validate().responseData { response in
            guard let data = response.value,
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                XCTFail("no JSON: \(response.debugDescription)")
                done.fulfill()
                return
            }
            XCTAssertEqual((json["args"] as? [String: Any])?["a"] as? String, "b c")
            XCTAssertEqual((json["headers"] as? [String: Any])?["X-Test"] as? String, "1")
            XCTAssertNotNil((json["headers"] as? [String: Any])?["User-Agent"] as? String)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }
}
