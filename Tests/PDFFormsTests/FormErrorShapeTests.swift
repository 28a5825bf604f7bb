import AutographJSON
import PDFCore
import Testing

@testable import PDFForms

/// Form errors in the shape every module's errors share (``AutographError``).
@Suite("Form errors share the one error shape")
struct FormErrorShapeTests {
    @Test(
        "every form error code is an AutographError: its code's name, a message, its signo code, a category",
        arguments: FormError.Code.allCases)
    func formErrors(code: FormError.Code) {
        let error: any AutographError = FormError(code, field: "Name", "cannot take this value")
        #expect(error.codeName == code.rawValue)
        #expect(error.message == "cannot take this value")
        #expect(error.description == "field 'Name': cannot take this value")
        #expect(error.seedCode == FormError(code, "").signoCode)
        #expect(error.underlying == nil)
    }

    @Test("form categories: unknown field 404-like, read-only forbidden, a bad value bad input, a write internal")
    func categories() {
        #expect(FormError(.unknownField, "").category == .notFound)
        #expect(FormError(.readOnly, "").category == .forbidden)
        #expect(FormError(.tooLong, "").category == .badInput)
        #expect(FormError(.needAppearances, "").category == .conflict)
        #expect(FormError(.writeFailed, "").category == .internal)
    }

    @Test("a failed write keeps the core error it wraps, and -128")
    func wrapsCoreError() {
        let error = FormError(PDFError(.writeFailed, "disk full"))
        #expect(error.code == .writeFailed && error.signoCode == -128)
        #expect((error.underlying as? PDFError)?.code == .writeFailed)
    }

    @Test("a JSON parse error is bad input, with no seed code, and keeps its byte offset in the description")
    func jsonParseError() {
        do {
            _ = try JSONValue.parse(Array(#"{"a": }"#.utf8))
            Issue.record("parsed")
        } catch {
            let shaped: any AutographError = error
            #expect(shaped.codeName == "invalidJSON")
            #expect(shaped.category == .badInput)
            #expect(shaped.seedCode == nil)
            #expect(!shaped.message.isEmpty)
            #expect(shaped.description == "invalid JSON at byte \(error.offset): \(error.message)")
        }
    }
}
