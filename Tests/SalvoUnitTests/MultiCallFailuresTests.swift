import XCTest
@testable import Salvo
@testable import SalvoEngine

/// The loop's record of its own failed libcurl calls: the first failure of each call is
/// described with libcurl's text, later ones only counted.
final class MultiCallFailuresTests: XCTestCase {
    func testTheFirstFailureOfEachCallIsDescribedOnceAndAllAreCounted() throws {
        var failures = MultiCallFailures()
        // CURLM_BAD_HANDLE is 1 in every libcurl.
        let first = try XCTUnwrap(failures.record("curl_multi_poll", code: 1))
        XCTAssertTrue(first.hasPrefix("Salvo: curl_multi_poll failed (CURLMcode 1: "), first)
        XCTAssertTrue(first.lowercased().contains("handle"), "libcurl's own text for CURLM_BAD_HANDLE: \(first)")
        XCTAssertNil(failures.record("curl_multi_poll", code: 1))
        XCTAssertNil(failures.record("curl_multi_poll", code: 2))
        XCTAssertNotNil(failures.record("curl_multi_perform", code: 1), "another call is described on its own")
        XCTAssertEqual(failures.counts, ["curl_multi_poll": 3, "curl_multi_perform": 1])
    }
}
