import Testing

@testable import PDFCore

/// The core's errors in the shape every module's errors share (``AutographError``).
@Suite("Core errors share the one error shape")
struct CoreErrorShapeTests {
    @Test(
        "every core error code is an AutographError: its code's name, a message, its signo code, a category",
        arguments: PDFError.Code.allCases)
    func coreErrors(code: PDFError.Code) {
        let error: any AutographError = PDFError(code, "the file is wrong", offset: 7)
        #expect(error.codeName == code.rawValue)
        #expect(error.message == "the file is wrong")
        #expect(error.description == "the file is wrong at offset 7")
        #expect(error.seedCode == PDFError(code, "").signoCode)
        #expect((-150 ... -120).contains(error.seedCode ?? 0))
        #expect(error.underlying == nil)
    }

    @Test("core categories: the document's fault, a missing file, a limit, a feature, a failed write")
    func categories() {
        #expect(PDFError(.notAPDF, "").category == .badInput)
        #expect(PDFError(.wrongPassword, "").category == .badInput)
        #expect(PDFError(.fileUnreadable, "").category == .notFound)
        #expect(PDFError(.limitExceeded, "").category == .tooLarge)
        #expect(PDFError(.unsupported, "").category == .unsupported)
        #expect(PDFError(.writeFailed, "").category == .internal)
    }
}
