import AutographJSON
import PDFCore
import PDFSession
import PDFSigning
import Testing

@testable import PDFWeb

/// The web layer's one mapping from any error to a status and a JSON body (`WebError.init(_:)`,
/// `HTTPResponse.error(_:)`).
@Suite("Any error becomes one HTTP answer")
struct WebErrorShapeTests {
    /// A failure of no known kind.
    struct Unknown: Error, CustomStringConvertible {
        var description: String { "the disk caught fire" }
    }

    static func body(_ response: HTTPResponse) throws -> JSONValue {
        guard case .bytes(let bytes) = response.body else { throw Unknown() }
        return try #require(try JSONValue.parse(bytes)["error"])
    }

    @Test(
        "the category → HTTP status table",
        arguments: [
            (ErrorCategory.usage, 400), (.badInput, 400), (.notFound, 404), (.conflict, 409), (.forbidden, 403),
            (.unsupported, 501), (.tooLarge, 413), (.cancelled, 400), (.unavailable, 503), (.internal, 500),
        ])
    func statusTable(category: ErrorCategory, status: Int) {
        #expect(category.httpStatus == status)
    }

    @Test("the table covers every category")
    func everyCategory() {
        for category in ErrorCategory.allCases {
            #expect([400, 403, 404, 409, 413, 500, 501, 503].contains(category.httpStatus), "\(category)")
        }
    }

    @Test(
        "every session error code keeps the status the API has always answered it with",
        arguments: SessionError.Code.allCases)
    func sessionStatuses(code: SessionError.Code) {
        let expected =
            switch code {
            case .invalidState, .documentChanged, .certificationViolated, .documentExists, .requiredFieldsEmpty: 409
            case .documentNotFound: 404
            case .invalidStorageKey, .wrongStorageKey, .tamperedRecord, .storeUnavailable, .writeFailed, .signing: 500
            default: 400
            }
        let error = WebError(SessionError(code, "the session says no"))
        #expect(error.status == expected)
        #expect(error.code == code.rawValue)
        #expect(error.message == "the session says no")
        #expect(error.signoCode == SessionError(code, "").signoCode)
        #expect((error.underlying as? SessionError)?.code == code)
    }

    @Test("a session error's JSON body: its code, its signo code, its message")
    func sessionBody() throws {
        let response = HTTPResponse.error(WebError(SessionError(.documentChanged, "another session wrote it")))
        #expect(response.status == 409)
        let body = try Self.body(response)
        #expect(
            body
                == .object([
                    ("code", .string("documentChanged")), ("signoCode", .int(-128)),
                    ("message", .string("another session wrote it")),
                ]))
    }

    @Test("any other module error is answered by its category, code name and seed code")
    func moduleError() throws {
        let error = WebError(SigningError(.signatureTooLarge, "the CMS does not fit"))
        #expect(error.status == 413 && error.category == .tooLarge)
        #expect(error.code == "signatureTooLarge" && error.signoCode == -136)
        let core = WebError(PDFError(.notAPDF, "no header", offset: 0))
        #expect(core.status == 400 && core.code == "notAPDF" && core.message == "no header")
    }

    @Test("an error of no known kind is a 500 internal that keeps its message, with no signo code")
    func unknownError() throws {
        let error = WebError(Unknown())
        #expect(error.status == 500 && error.category == .internal)
        #expect(error.code == "internal")
        #expect(error.message == "the disk caught fire")
        #expect(error.signoCode == nil)
        let body = try Self.body(HTTPResponse.error(error))
        #expect(body == .object([("code", .string("internal")), ("message", .string("the disk caught fire"))]))
    }

    @Test("a web error is answered as it is, headers included")
    func webErrorPassesThrough() {
        let busy = WebError(WebError.busy("too many uploads", retryAfter: 3) as any Error)
        #expect(busy.status == 503 && busy.code == "busy" && busy.category == .unavailable)
        #expect(busy.headers.first?.1 == "3")
        #expect(busy.underlying == nil)
        let bad = WebError(WebError.badRequest("\"page\" is missing", member: "page") as any Error)
        #expect(bad.status == 400 && bad.field == "page")
    }

    @Test("the web layer's own errors take their statuses from their categories, but 405 and 499")
    func ownErrors() {
        let own: [(WebError, ErrorCategory, Int)] = [
            (.badRequest("x"), .usage, 400), (.forbidden("x"), .forbidden, 403), (.notFound("x"), .notFound, 404),
            (.tooLarge(10), .tooLarge, 413), (.busy("x"), .unavailable, 503), (.internal("x"), .internal, 500),
            (.methodNotAllowed("PUT", "/api/state", allowed: ["GET"]), .usage, 405), (.clientGone, .cancelled, 499),
        ]
        for (error, category, status) in own {
            #expect(error.category == category && error.status == status, "\(error)")
            let shaped: any AutographError = error
            #expect(shaped.codeName == error.code && !shaped.message.isEmpty && shaped.seedCode == nil)
        }
    }
}
