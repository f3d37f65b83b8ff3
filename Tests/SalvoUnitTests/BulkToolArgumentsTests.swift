import Foundation
import Salvo
import SalvoBulk
import XCTest

final class BulkToolArgumentsTests: XCTestCase {
    private func usageError(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        do {
            _ = try BulkToolArguments(parsing: arguments, environment: environment)
            return nil
        } catch {
            return error.message
        }
    }

    func testDefaults() throws {
        let parsed = try BulkToolArguments(parsing: ["https://a.example/x"])
        XCTAssertEqual(parsed.action, .download)
        XCTAssertEqual(parsed.urls, [URL(string: "https://a.example/x")!])
        XCTAssertNil(parsed.inputFile)
        XCTAssertNil(parsed.directory)
        XCTAssertNil(parsed.outputName)
        XCTAssertEqual(parsed.maxConcurrentDownloads, 16)
        XCTAssertEqual(parsed.maxConnectionsPerServer, 8)
        XCTAssertEqual(parsed.split, 1)
        XCTAssertFalse(parsed.continuePartial)
        XCTAssertNil(parsed.checksum)
        XCTAssertEqual(parsed.maxTries, 5)
        XCTAssertEqual(parsed.retryWait, 1)
        XCTAssertEqual(parsed.timeout, 60)
        XCTAssertEqual(parsed.connectTimeout, 60)
        XCTAssertEqual(parsed.maxDownloadLimit, .unlimited)
        XCTAssertEqual(parsed.maxOverallDownloadLimit, .unlimited)
        XCTAssertTrue(parsed.headers.isEmpty)
        XCTAssertFalse(parsed.json)
        XCTAssertNil(parsed.manifest)
        XCTAssertNil(parsed.shard)
        XCTAssertFalse(parsed.quiet)
        XCTAssertTrue(parsed.flushesFiles, "files are flushed before their rename by default")
    }

    func testEveryOptionInLongForm() throws {
        let parsed = try BulkToolArguments(parsing: [
            "--input-file", "list.txt", "--dir=out", "--max-concurrent-downloads", "4", "--max-connection-per-server=2",
            "--split", "3", "--continue", "--max-tries=0", "--retry-wait", "0.5", "--timeout=30", "--connect-timeout", "5",
            "--max-download-limit", "500K", "--max-overall-download-limit=2M", "--header", "X-A: 1", "--header=X-B: 2",
            "--json", "--manifest", "m.jsonl", "--shard=1/3", "--quiet", "--no-fsync", "http://a.example/1", "http://a.example/2",
        ])
        XCTAssertFalse(parsed.flushesFiles)
        XCTAssertEqual(parsed.inputFile, "list.txt")
        XCTAssertEqual(parsed.directory, "out")
        XCTAssertEqual(parsed.maxConcurrentDownloads, 4)
        XCTAssertEqual(parsed.maxConnectionsPerServer, 2)
        XCTAssertEqual(parsed.split, 3)
        XCTAssertTrue(parsed.continuePartial)
        XCTAssertEqual(parsed.maxTries, 0)
        XCTAssertEqual(parsed.retryWait, 0.5)
        XCTAssertEqual(parsed.timeout, 30)
        XCTAssertEqual(parsed.connectTimeout, 5)
        XCTAssertEqual(parsed.maxDownloadLimit.bytesPerSecond, 500 * 1024)
        XCTAssertEqual(parsed.maxOverallDownloadLimit.bytesPerSecond, 2 * 1024 * 1024)
        XCTAssertEqual(parsed.headers, [HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "X-B", value: "2")])
        XCTAssertTrue(parsed.json)
        XCTAssertEqual(parsed.manifest, "m.jsonl")
        XCTAssertEqual(parsed.shard, try BulkShard(index: 1, count: 3))
        XCTAssertTrue(parsed.quiet)
        XCTAssertEqual(parsed.urls.map(\.absoluteString), ["http://a.example/1", "http://a.example/2"])
    }

    func testShortOptionsSeparateAttachedAndGrouped() throws {
        let separate = try BulkToolArguments(parsing: ["-i", "-", "-d", "dl", "-j", "4", "-x", "2", "-s", "3", "-c", "-q"])
        let attached = try BulkToolArguments(parsing: ["-i-", "-ddl", "-j4", "-x2", "-s3", "-cq"])
        XCTAssertEqual(separate, attached)
        XCTAssertEqual(separate.inputFile, "-")
        XCTAssertEqual(separate.directory, "dl")
        XCTAssertEqual(separate.maxConcurrentDownloads, 4)
        XCTAssertTrue(separate.continuePartial && separate.quiet)
        let groupedWithValue = try BulkToolArguments(parsing: ["-cj", "7", "-qo", "name.bin", "http://a.example/"])
        XCTAssertEqual(groupedWithValue.maxConcurrentDownloads, 7)
        XCTAssertEqual(groupedWithValue.outputName, "name.bin")
    }

    func testSingleURLOptions() throws {
        let parsed = try BulkToolArguments(parsing: [
            "-o", "x.bin", "--checksum", "md5=098F6BCD4621D373CADE4E832627B4F6", "https://a.example/x",
        ])
        XCTAssertEqual(parsed.outputName, "x.bin")
        XCTAssertEqual(parsed.checksum?.hexDigest, "098f6bcd4621d373cade4e832627b4f6")
    }

    func testDoubleDashEndsOptionsAndValuesMayStartWithADash() throws {
        let parsed = try BulkToolArguments(parsing: ["-o", "-odd-name", "--", "https://a.example/--json"])
        XCTAssertEqual(parsed.outputName, "-odd-name")
        XCTAssertFalse(parsed.json)
        XCTAssertEqual(parsed.urls.map(\.absoluteString), ["https://a.example/--json"])
        XCTAssertEqual(usageError(["--", "--json"]), "'--json' is not an absolute http or https URL")
    }

    func testHelpAndVersionNeedNothingToDownload() throws {
        XCTAssertEqual(try BulkToolArguments(parsing: ["--help"]).action, .help)
        XCTAssertEqual(try BulkToolArguments(parsing: ["--version"]).action, .version)
        XCTAssertEqual(try BulkToolArguments(parsing: ["--version", "--help"]).action, .help)
        XCTAssertEqual(try BulkToolArguments(parsing: ["--help", "--version"]).action, .help)
        XCTAssertEqual(usageError(["--help=yes"]), "option '--help' takes no value")
    }

    func testUsageErrorsAreOneLineMessages() {
        let cases: [([String], String)] = [
            (["--bogus", "http://a.example/"], "unknown option '--bogus'"),
            (["-z", "http://a.example/"], "unknown option '-z'"),
            (["-cz", "http://a.example/"], "unknown option '-z'"),
            (["http://a.example/", "-j"], "option '-j' needs a value"),
            (["http://a.example/", "--dir"], "option '--dir' needs a value"),
            (["-j", "many", "http://a.example/"], "option '-j' needs a whole number from 1 to 10000, not 'many'"),
            (["-j0", "http://a.example/"], "option '-j' must be from 1 to 10000, not 0"),
            (["-j", "+4", "http://a.example/"], "option '-j' needs a whole number from 1 to 10000, not '+4'"),
            (["--split=65", "http://a.example/"], "option '--split' must be from 1 to 64, not 65"),
            (["-x", "99999999999999999999999", "http://a.example/"], "option '-x' must be from 1 to 64, not 99999999999999999999999"),
            (["--max-tries=-1", "http://a.example/"], "option '--max-tries' needs a whole number from 0 to 1000000, not '-1'"),
            (["--timeout", "0", "http://a.example/"], "option '--timeout' must be more than 0 up to 600 seconds, not 0"),
            (["--timeout", "inf", "http://a.example/"], "option '--timeout' needs a number of seconds (more than 0 up to 600), not 'inf'"),
            (["--retry-wait", "601", "http://a.example/"], "option '--retry-wait' must be 0 up to 600 seconds, not 601"),
            (["--connect-timeout", "1.2.3", "http://a.example/"],
             "option '--connect-timeout' needs a number of seconds (more than 0 up to 600), not '1.2.3'"),
            (["-o", "x", "http://a.example/1", "http://a.example/2"], "option '--out' applies to a single URL, but 2 were given"),
            (["-o", "x", "-i", "list.txt"], "option '--out' applies to a single URL, not to --input-file (set it per entry in the list)"),
            (["--checksum=md5=098f6bcd4621d373cade4e832627b4f6", "http://a.example/1", "http://a.example/2"],
             "option '--checksum' applies to a single URL, but 2 were given"),
            (["--checksum", "md5=12", "http://a.example/"], "md5 checksum needs 32 hexadecimal digits, not 2"),
            ([], "no URLs given; name them as arguments or in a list with --input-file"),
            (["-q", "-j4"], "no URLs given; name them as arguments or in a list with --input-file"),
            (["--max-download-limit", "1.5M", "http://a.example/"], "rate '1.5M' is not a number of bytes per second with an optional K or M"),
            (["--max-overall-download-limit=fast", "http://a.example/"],
             "rate 'fast' is not a number of bytes per second with an optional K or M"),
            (["--shard", "2/2", "http://a.example/"], "shard index must be from 0 to 1, not 2"),
            (["--shard=auto", "http://a.example/"],
             "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set"),
            (["--header", "Bad Name: x", "http://a.example/"], "header name 'Bad Name' is not a valid HTTP field name"),
            (["--header", "X: a\r\nInjected: 1", "http://a.example/"], "header 'X' has a value with CR, LF or NUL"),
            (["--json=1", "http://a.example/"], "option '--json' takes no value"),
            (["-o", "../x", "http://a.example/"], "file name '../x' climbs out of the directory with '..'"),
            (["-i", "", "http://a.example/"], "option '-i' needs a file name, or '-' for standard input"),
            (["ftp://a.example/x"], "'ftp://a.example/x' is not an absolute http or https URL"),
            (["-"], "'-' is not an absolute http or https URL"),
        ]
        for (arguments, message) in cases {
            let error = usageError(arguments)
            XCTAssertEqual(error, message, "\(arguments)")
            XCTAssertFalse(error?.contains("\n") ?? false, "\(arguments)")
        }
    }

    func testShardAutoReadsTheGivenEnvironment() throws {
        let parsed = try BulkToolArguments(
            parsing: ["--shard", "auto", "http://a.example/"], environment: ["JOB_COMPLETION_INDEX": "0", "SALVO_SHARDS": "2"])
        XCTAssertEqual(parsed.shard, try BulkShard(index: 0, count: 2))
    }

    func testAccessOptionsParseWithAria2sNames() throws {
        let parsed = try BulkToolArguments(parsing: [
            "--ca-certificate", "ca.pem", "--check-certificate=false", "--certificate=client.pem", "--private-key", "client.key",
            "--all-proxy", "proxy.example:3128", "--http-proxy=http://u:p@p2.example", "--https-proxy", "", "--no-proxy", "a.example",
            "--http-user", "alice", "--http-passwd", "pw", "--netrc-path", "logins", "-n", "--load-cookies", "cookies.txt",
            "-U", "Agent/1", "-R", "--dry-run", "--allow-overwrite=true", "https://a.example/x",
        ])
        XCTAssertEqual(parsed.caCertificate, "ca.pem")
        XCTAssertFalse(parsed.checkCertificate)
        XCTAssertEqual(parsed.certificate, "client.pem")
        XCTAssertEqual(parsed.privateKey, "client.key")
        XCTAssertEqual(parsed.proxies, BulkProxySettings(allProxy: "proxy.example:3128", httpProxy: "http://u:p@p2.example",
                                                         httpsProxy: "", noProxy: "a.example"))
        XCTAssertEqual(parsed.httpUser, "alice")
        XCTAssertEqual(parsed.httpPassword, "pw")
        XCTAssertEqual(parsed.netrcPath, "logins")
        XCTAssertTrue(parsed.noNetrc)
        XCTAssertEqual(parsed.loadCookies, "cookies.txt")
        XCTAssertEqual(parsed.userAgent, "Agent/1")
        XCTAssertTrue(parsed.remoteTime)
        XCTAssertTrue(parsed.dryRun)
        XCTAssertTrue(parsed.allowOverwrite)
        XCTAssertEqual(parsed.urls, [URL(string: "https://a.example/x")!])

        let defaults = try BulkToolArguments(parsing: ["https://a.example/x"])
        XCTAssertNil(defaults.caCertificate)
        XCTAssertTrue(defaults.checkCertificate)
        XCTAssertTrue(defaults.proxies.isEmpty)
        XCTAssertFalse(defaults.noNetrc)
        XCTAssertFalse(defaults.remoteTime)
        XCTAssertFalse(defaults.dryRun)
        XCTAssertFalse(defaults.allowOverwrite)
        XCTAssertNil(defaults.userAgent)
    }

    func testBooleanOptionsTakeAValueOnlyAfterAnEqualsSign() throws {
        // Named alone they are on, and the next argument is a URL, as with aria2.
        let parsed = try BulkToolArguments(parsing: ["--dry-run", "https://a.example/x", "-Rn"])
        XCTAssertTrue(parsed.dryRun)
        XCTAssertTrue(parsed.remoteTime)
        XCTAssertTrue(parsed.noNetrc)
        XCTAssertEqual(parsed.urls.count, 1)
        XCTAssertFalse(try BulkToolArguments(parsing: ["--remote-time=false", "https://a.example/x"]).remoteTime)
        XCTAssertEqual(usageError(["--dry-run=yes", "https://a.example/x"]), "option '--dry-run' takes true or false, not 'yes'")
        XCTAssertEqual(usageError(["--check-certificate=", "https://a.example/x"]),
                       "option '--check-certificate' takes true or false, not ''")
    }

    func testMalformedAccessValuesAreUsageErrorsNamingTheOption() {
        let url = "https://a.example/x"
        for spelling in ["--all-proxy", "--http-proxy", "--https-proxy"] {
            for bad in ["ftp://p.example", "p.example:0", "p.example:http", "http://", "p example:80", "http://u:secret@:80"] {
                let message = usageError([spelling, bad, url])
                XCTAssertTrue(message?.hasPrefix("option '\(spelling)' needs [http://][USER:PASSWORD@]HOST[:PORT]") ?? false,
                              "\(spelling) \(bad): \(message ?? "accepted")")
                XCTAssertFalse(message?.contains("secret") ?? false, "a proxy's password was echoed: \(message ?? "")")
            }
        }
        for spelling in ["--ca-certificate", "--certificate", "--private-key", "--netrc-path", "--load-cookies"] {
            XCTAssertEqual(usageError([spelling, "", url]), "option '\(spelling)' needs a file name")
            XCTAssertEqual(usageError([url, spelling]), "option '\(spelling)' needs a value")
        }
        XCTAssertEqual(usageError(["-U", "a\r\nX-Injected: 1", url]), "option '-U' has a value with CR, LF or NUL")
        XCTAssertEqual(usageError(["--http-user"]), "option '--http-user' needs a value")
    }
}
