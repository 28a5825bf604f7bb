import PDFCore
import Testing

@testable import PDFSigning

/// Signing errors in the shape every module's errors share (``AutographError``).
@Suite("Signing errors share the one error shape")
struct SigningErrorShapeTests {
    @Test(
        "every signing error code is an AutographError: its code's name, a message, its signo code, a category",
        arguments: SigningError.Code.allCases)
    func signingErrors(code: SigningError.Code) {
        let error: any AutographError = SigningError(code, "signing stopped")
        #expect(error.codeName == code.rawValue)
        #expect(error.message == "signing stopped")
        #expect(error.description == error.message)
        #expect(error.seedCode == SigningError(code, "").signoCode)
        #expect((-150 ... -120).contains(error.seedCode ?? 0))
        #expect(error.underlying == nil)
    }

    @Test("signing categories, and a core error wrapped keeps its meaning and itself")
    func categories() {
        #expect(SigningError(.signatureTooLarge, "").category == .tooLarge)
        #expect(SigningError(.keyContainerNotFound, "").category == .notFound)
        #expect(SigningError(.unsupportedAlgorithm, "").category == .unsupported)
        #expect(SigningError(.certificationViolated, "").category == .conflict)
        #expect(SigningError(.cancelled, "").category == .cancelled)
        #expect(SigningError(.signingFailed, "").category == .internal)
        let wrapped = SigningError(PDFError(.xref, "no xref"))
        #expect(wrapped.code == .xrefProblem && wrapped.signoCode == -145)
        #expect((wrapped.underlying as? PDFError)?.code == .xref)
    }
}
