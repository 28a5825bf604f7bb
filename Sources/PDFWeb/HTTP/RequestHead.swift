import PDFCore

/// A request's head (request line and header fields, RFC 9112 §2–§6) checked before libmicrohttpd
/// reads it: whatever passes here, libmicrohttpd parses as this check does, and fits the memory it
/// is given.
///
/// Refused (`400` unless said otherwise), where libmicrohttpd 0.9.75 would drop, fold or guess:
/// - a request line that is not `METHOD SP TARGET SP HTTP/1.x` (a method of token characters, a
///   target of visible ASCII; `505` for another HTTP version), a target over the limit (`414`);
/// - a header line that starts with white space (obs-fold, RFC 9112 §5.2), that has white space
///   before its colon or no colon (§5.1), whose name is not a token (RFC 9110 §5.1), whose value
///   holds a control character other than a tab (§5.5); a CR not followed by LF anywhere;
/// - `Content-Length` or `Transfer-Encoding` given twice, both given, a length that is not digits
///   (`413` when it has more digits than any body may have), a transfer coding other than
///   `chunked` (`501`), `Transfer-Encoding` in an HTTP/1.0 request (RFC 9112 §6.1);
/// - a head over the limit in bytes, or in fields — header lines, cookies and query parameters
///   counted together, each of which takes libmicrohttpd's memory (`431`).
///
/// Empty lines before the request line are skipped (§2.2), as libmicrohttpd does; a line may end
/// with CRLF or LF alone, as libmicrohttpd reads it.
enum RequestHead {
    /// How large a head may be.
    struct Limits: Sendable {
        /// The request line and every header line, their line ends and the empty line included.
        var headBytes: Int
        /// The request target (path and query).
        var targetBytes: Int
        /// Header lines, cookies and query parameters, together.
        var fields: Int
    }

    /// What the bytes received so far are.
    enum Verdict {
        /// No refusal yet, and not the whole head.
        case incomplete
        /// A whole head, acceptable, of this many bytes (its empty line included).
        case complete(Int)
        /// Refused: the answer's error.
        case refused(WebError)
    }

    /// Checks the head at the start of `bytes` (what has arrived of a connection's first request).
    static func check(_ bytes: UnsafeRawBufferPointer, limits: Limits) -> Verdict {
        var lines = LineReader(bytes: bytes)
        var requestLine: Range<Int>?
        while requestLine == nil {
            switch lines.next() {
            case .none:
                // The request line so far: past the longest target and its method and version, 414.
                if bytes.count - lines.position > limits.targetBytes + 64 { return .refused(uriTooLong(limits)) }
                return bytes.count > limits.headBytes ? .refused(headTooLarge(limits)) : .incomplete
            case .bareCR:
                return .refused(.badRequest("the request holds a CR that does not end a line"))
            case .line(let range):
                if !range.isEmpty { requestLine = range }
            }
        }
        guard let requestLine else { return .incomplete }
        var target = 0..<0
        var http10 = false
        switch parseRequestLine(bytes, requestLine, limits) {
        case .failure(let error): return .refused(error)
        case .success(let parsed): (target, http10) = parsed
        }
        var fields = parameterCount(bytes, target)
        var framing = Framing()
        while true {
            guard lines.position <= limits.headBytes else { return .refused(headTooLarge(limits)) }
            switch lines.next() {
            case .none:
                return bytes.count > limits.headBytes ? .refused(headTooLarge(limits)) : .incomplete
            case .bareCR:
                return .refused(.badRequest("the request holds a CR that does not end a line"))
            case .line(let range):
                if range.isEmpty {
                    guard lines.position <= limits.headBytes else { return .refused(headTooLarge(limits)) }
                    if let error = framing.problem(http10: http10) { return .refused(error) }
                    return .complete(lines.position)
                }
                switch parseField(bytes, range) {
                case .failure(let error): return .refused(error)
                case .success(let field):
                    fields += 1
                    if field.name == "cookie" {
                        // libmicrohttpd splits cookies at `;` and at `,`.
                        fields += count(of: 0x3B, in: bytes, field.value) + count(of: 0x2C, in: bytes, field.value) + 1
                    }
                    guard fields <= limits.fields else {
                        return .refused(
                            headTooLarge(
                                limits,
                                "more than \(limits.fields) header fields, cookies and query parameters together"))
                    }
                    if let error = framing.note(field.name, bytes, field.value) { return .refused(error) }
                }
            }
        }
    }

    // MARK: - Lines

    /// The lines of `bytes`, each without its line end (CRLF, or LF alone).
    private struct LineReader {
        enum Next {
            case line(Range<Int>)
            /// A CR that does not end a line: refused.
            case bareCR
        }
        let bytes: UnsafeRawBufferPointer
        /// Where the next line starts.
        var position = 0

        mutating func next() -> Next? {
            var index = position
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    let line = position..<index
                    position = index + 1
                    return .line(line)
                }
                if byte == 0x0D {
                    guard index + 1 < bytes.count else { return nil }
                    guard bytes[index + 1] == 0x0A else { return .bareCR }
                    let line = position..<index
                    position = index + 2
                    return .line(line)
                }
                index += 1
            }
            return nil
        }
    }

    // MARK: - The request line

    private static func parseRequestLine(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>, _ limits: Limits)
        -> Result<(target: Range<Int>, http10: Bool), WebError>
    {
        guard let firstSpace = line.first(where: { bytes[$0] == 0x20 }),
            let lastSpace = line.last(where: { bytes[$0] == 0x20 }), firstSpace < lastSpace
        else { return .failure(.badRequest("the request line is not METHOD TARGET HTTP/1.1")) }
        let method = line.lowerBound..<firstSpace
        let target = (firstSpace + 1)..<lastSpace
        let version = (lastSpace + 1)..<line.upperBound
        guard !method.isEmpty, method.allSatisfy({ isTokenByte(bytes[$0]) }) else {
            return .failure(.badRequest("the request's method is not a token"))
        }
        guard target.count <= limits.targetBytes else { return .failure(uriTooLong(limits)) }
        guard !target.isEmpty, target.allSatisfy({ (0x21...0x7E).contains(bytes[$0]) }) else {
            return .failure(
                .badRequest("the request target holds white space, a control character or a non-ASCII byte"))
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[version]), as: UTF8.self)
        switch text {
        case "HTTP/1.1": return .success((target, false))
        case "HTTP/1.0": return .success((target, true))
        default:
            let digits = text.utf8.count == 8 && text.hasPrefix("HTTP/") && text.utf8.dropFirst(6).first == 0x2E
            guard digits else { return .failure(.badRequest("the request line is not METHOD TARGET HTTP/1.1")) }
            return .failure(
                WebError(
                    .unsupported, code: "httpVersionNotSupported",
                    message: "only HTTP/1.0 and HTTP/1.1 are spoken here",
                    status: 505))
        }
    }

    /// The query parameters of `target`: each takes libmicrohttpd's memory as a field does.
    private static func parameterCount(_ bytes: UnsafeRawBufferPointer, _ target: Range<Int>) -> Int {
        guard let question = target.first(where: { bytes[$0] == 0x3F }) else { return 0 }
        return count(of: 0x26, in: bytes, (question + 1)..<target.upperBound) + 1
    }

    // MARK: - Header fields

    private struct Field {
        /// The name in lower case.
        let name: String
        /// The value, without the white space around it.
        let value: Range<Int>
    }

    private static func parseField(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> Result<Field, WebError> {
        if bytes[line.lowerBound] == 0x20 || bytes[line.lowerBound] == 0x09 {
            return .failure(.badRequest("a header line starts with white space (a folded line): not accepted"))
        }
        guard let colon = line.first(where: { bytes[$0] == 0x3A }) else {
            return .failure(.badRequest("a header line has no colon"))
        }
        let name = line.lowerBound..<colon
        guard !name.isEmpty, name.allSatisfy({ isTokenByte(bytes[$0]) }) else {
            return .failure(
                .badRequest(
                    "a header name is empty, holds white space before its colon or a character outside the token set"))
        }
        var value = (colon + 1)..<line.upperBound
        while let first = value.first, bytes[first] == 0x20 || bytes[first] == 0x09 {
            value = (first + 1)..<value.upperBound
        }
        while let last = value.last, bytes[last] == 0x20 || bytes[last] == 0x09 { value = value.lowerBound..<last }
        for index in value {
            let byte = bytes[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                return .failure(.badRequest("a header value holds a control character"))
            }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[name]), as: UTF8.self).lowercased()
        return .success(Field(name: text, value: value))
    }

    /// The framing headers seen so far (RFC 9112 §6).
    private struct Framing {
        var lengths = 0
        var codings = 0
        var chunked = false

        /// Notes the field; the error when it alone is wrong.
        mutating func note(_ name: String, _ bytes: UnsafeRawBufferPointer, _ value: Range<Int>) -> WebError? {
            switch name {
            case "content-length":
                lengths += 1
                guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else {
                    return .badRequest("Content-Length must be a number of bytes")
                }
                if value.count > 15 {
                    return WebError(
                        .tooLarge, code: "tooLarge", message: "the body is larger than any this server takes")
                }
            case "transfer-encoding":
                codings += 1
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                guard text.lowercased() == "chunked" else {
                    return WebError(
                        .unsupported, code: "notImplemented",
                        message: "the only transfer coding of a request taken here is chunked", status: 501)
                }
                chunked = true
            default: break
            }
            return nil
        }

        /// The error of the fields together.
        func problem(http10: Bool) -> WebError? {
            if lengths > 1 || codings > 1 {
                return .badRequest("Content-Length or Transfer-Encoding is given more than once")
            }
            if lengths > 0 && codings > 0 {
                return .badRequest("Content-Length and Transfer-Encoding cannot both be given")
            }
            if http10 && codings > 0 { return .badRequest("an HTTP/1.0 request cannot have a Transfer-Encoding") }
            return nil
        }
    }

    // MARK: - Bytes

    /// tchar (RFC 9110 §5.6.2): `!#$%&'*+-.^_`|~`, digits and letters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    private static func count(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int {
        range.reduce(0) { $0 + (bytes[$1] == byte ? 1 : 0) }
    }

    private static func uriTooLong(_ limits: Limits) -> WebError {
        WebError(
            .tooLarge, code: "uriTooLong", message: "the request target is longer than \(limits.targetBytes) bytes",
            status: 414)
    }

    private static func headTooLarge(_ limits: Limits, _ reason: String? = nil) -> WebError {
        WebError(
            .tooLarge, code: "headerFieldsTooLarge",
            message: "the request head has " + (reason ?? "more than \(limits.headBytes) bytes"), status: 431)
    }
}
