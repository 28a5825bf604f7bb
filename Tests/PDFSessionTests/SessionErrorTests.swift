import PDFCore
import PDFSigning
import Testing

@testable import PDFSession

@Suite struct SessionErrorTests {
    @Test func signingErrorsKeepTheirSignoCode() {
        #expect(SessionError(SigningError(.signatureTooLarge, "big")).signoCode == -136)
        #expect(SessionError(SigningError(.wrongKeyContainerPassword, "pw")).signoCode == -125)
        #expect(SessionError(SigningError(.invalidFieldName, "x")).code == .invalidField)
        #expect(SessionError(SigningError(.invalidFieldName, "x")).signoCode == -130)
    }

    @Test func coreErrorsMapToLoadAndReadCodes() {
        #expect(SessionError(PDFError(.notAPDF, "no header")).signoCode == -120)
        #expect(SessionError(PDFError(.passwordRequired, "encrypted")).code == .passwordRequired)
        #expect(SessionError(PDFError(.xref, "bad xref")).signoCode == -145)
    }
}
