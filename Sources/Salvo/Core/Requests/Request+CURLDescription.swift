import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// The last request sent, as a `curl` command line, for logs and bug reports.
    ///
    /// The format is Alamofire's: `$ curl -v`, then `-X METHOD`, `-u user:password` when the
    /// request has a credential (`authenticate(username:password:)`), `-b "cookies"`, one
    /// `-H "Name: value"` per header (the session's `httpAdditionalHeaders` overridden by the
    /// request's own), `-d "body"`, and the quoted URL, joined by `" \\\n\t"`. Returns
    /// `"$ curl command could not be created"` before any request exists.
    ///
    /// Where Salvo differs from Alamofire, it is to describe what Salvo sends and what a shell
    /// runs faithfully:
    /// - Headers are listed sorted by name, so the text is stable; Alamofire's order follows
    ///   Foundation's dictionaries.
    /// - Besides the stored cookies (`-b "a=1;b=2"`, from the configuration's
    ///   `httpCookieStorage` when `httpShouldSetCookies` is true, as in Alamofire), the
    ///   request's own `Cookie` header is shown as a `-b` of its own; Alamofire leaves it out.
    /// - Inside double quotes, `\`, `"`, `$` and the backtick are escaped; Alamofire escapes only
    ///   `"` (and `\"`), which a shell can misread. For ordinary JSON bodies the text is the same.
    /// - A header with an empty value is written `-H "Name;"`, curl's syntax for sending it
    ///   empty (`"Name: "` would make curl drop the header).
    ///
    /// - Returns: The command.
    public func cURLDescription() -> String {
        guard let request = lastRequest, let url = request.url, url.host != nil, let method = request.httpMethod else {
            return "$ curl command could not be created"
        }
        var components = ["$ curl -v", "-X \(method)"]

        if let credential = credentialBox.value {
            components.append("-u \(Self.shellWord("\(credential.user):\(credential.password)"))")
        }
        // The cookies the request sends: the storage's for the host, less those RFC 6265's
        // other rules keep back (`SessionCookies`).
        if request.httpShouldHandleCookies, let stored = delegate?.cookies?.cookies(for: url), !stored.isEmpty {
            let pairs = stored.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
            components.append("-b \"\(Self.escapedForDoubleQuotes(pairs))\"")
        }

        var headers = HTTPHeaders()
        for (name, value) in delegate?.sessionConfiguration.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.update(name: name, value: value)
        }
        for header in request.headers { headers.update(header) }
        if let cookies = headers.value(for: "Cookie") {
            components.append("-b \"\(Self.escapedForDoubleQuotes(cookies))\"")
            headers.remove(name: "Cookie")
        }
        for header in headers.sorted() {
            let line = CurlHeaderList.line(name: header.name, value: header.value)
            components.append("-H \"\(Self.escapedForDoubleQuotes(line))\"")
        }

        if let body = request.httpBody {
            components.append("-d \"\(Self.escapedForDoubleQuotes(String(decoding: body, as: UTF8.self)))\"")
        }

        components.append("\"\(Self.escapedForDoubleQuotes(url.absoluteString))\"")
        return components.joined(separator: " \\\n\t")
    }

    /// Calls `handler` with `cURLDescription()` once the request has been sent.
    ///
    /// - Note: When a request was already sent the handler is called straight away, on
    ///   `queue`; it is then called again each time an attempt is sent (retries included, not
    ///   redirects), as in Alamofire. Only the last handler given is kept. A request that
    ///   fails before anything is sent calls it once (Alamofire never calls it then): with the
    ///   command of the request as built when an adapter failed, or with `"$ curl command
    ///   could not be created"` when no request could be made.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs.
    ///   - handler: Called with the command for each attempt.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func cURLDescription(on queue: DispatchQueue, calling handler: @escaping @Sendable (String) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        // Kept (the last one given, as in Alamofire) and called again for every later attempt.
        let sent = mutableState.withLock { state -> Bool in
            state.cURLHandler = (queue, handler)
            return state.contexts.elements.contains { $0.isCreated }
        }
        if sent { queue.async { handler(self.cURLDescription()) } }
        return self
    }

    /// Calls `handler` with `cURLDescription()` on the request's `underlyingQueue`; see
    /// `cURLDescription(on:calling:)`.
    ///
    /// - Parameter handler: Called with the command for each attempt.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func cURLDescription(calling handler: @escaping @Sendable (String) -> Void) -> Self {
        cURLDescription(on: underlyingQueue, calling: handler)
    }

    /// `text` with the characters a shell still interprets inside double quotes escaped.
    private static func escapedForDoubleQuotes(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "$" || $0 == "`" }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if character == "\\" || character == "\"" || character == "$" || character == "`" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` as one shell word: bare when it holds only characters no shell treats specially
    /// (Alamofire's `-u user:password` form), double-quoted otherwise.
    private static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./-_".unicodeScalars.contains(scalar))
        }
        return plain ? text : "\"\(escapedForDoubleQuotes(text))\""
    }
}
