import Foundation
import SalvoBulk
import XCTest

final class BulkNetrcTests: XCTestCase {
    func testMachinesGiveTheirLoginsAndDefaultIsIgnored() {
        let netrc = BulkNetrc(parsing: """
            # logins
            machine data.example.org login alice password s3cret
            machine Files.Example.COM
                login bob
                password "two words"
                account ignored
            macdef init
            machine inside.macro login eve password no

            default login anyone password anything
            """)
        XCTAssertEqual(netrc.login(forHost: "data.example.org"), BulkLogin(user: "alice", password: "s3cret"))
        XCTAssertEqual(netrc.login(forHost: "files.example.com"), BulkLogin(user: "bob", password: "two words"))
        XCTAssertNil(netrc.login(forHost: "inside.macro"), "a macro's lines are not entries")
        XCTAssertNil(netrc.login(forHost: "elsewhere.example"), "the default entry must not go to every host")
    }

    func testFirstEntryOfAHostWinsAndAMissingPasswordIsEmpty() {
        let netrc = BulkNetrc(parsing: "machine a.example login first password one\nmachine a.example login second password two\n"
                                  + "machine b.example login nopass\n")
        XCTAssertEqual(netrc.login(forHost: "a.example"), BulkLogin(user: "first", password: "one"))
        XCTAssertEqual(netrc.login(forHost: "b.example"), BulkLogin(user: "nopass", password: ""))
    }

    /// A file saved with CRLF line ends gives the same logins: no word runs into the next line.
    func testAFileWithCRLFLineEndsGivesTheSameLogins() {
        let netrc = BulkNetrc(parsing: "machine a.example\r\n  login alice\r\n  password s3cret\r\nmachine b.example login bob password pw\r\n")
        XCTAssertEqual(netrc.login(forHost: "a.example"), BulkLogin(user: "alice", password: "s3cret"))
        XCTAssertEqual(netrc.login(forHost: "b.example"), BulkLogin(user: "bob", password: "pw"))
    }

    func testLoginDescriptionHidesThePassword() {
        XCTAssertEqual("\(BulkLogin(user: "alice", password: "s3cret"))", "alice:***")
        XCTAssertEqual(BulkLogin(user: "Aladdin", password: "open sesame").authorization, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }
}
