import PDFAnnotations
import PDFCore
import PDFForms
import PDFSigning
import Testing

@testable import PDFSession

/// The errors of every module in one shape (``AutographError``), seen from the session that
/// imports them all.
@Suite("Every module's errors share the one error shape")
struct SessionErrorShapeTests {
    /// One error of each code of each module error the session can throw or wrap.
    static let everyError: [any AutographError] =
        PDFError.Code.allCases.map { PDFError($0, "core: \($0)") }
        + FormError.Code.allCases.map { FormError($0, "form: \($0)") }
        + SigningError.Code.allCases.map { SigningError($0, "signing: \($0)") }
        + AnnotationError.Code.allCases.map { AnnotationError($0, "annotation: \($0)") }
        + SessionError.Code.allCases.map { SessionError($0, "session: \($0)") }

    @Test(
        "every module error has a non-empty code name, message and description, and a seed code", arguments: everyError)
    func conforms(error: any AutographError) {
        #expect(!error.codeName.isEmpty)
        #expect(!error.message.isEmpty)
        #expect(!error.description.isEmpty)
        #expect((-150 ... -120).contains(error.seedCode ?? 0), "\(error.codeName)")
    }

    @Test("code names are the codes' raw values, so they stay stable and unique within a module")
    func codeNames() {
        #expect(
            Set(SessionError.Code.allCases.map { SessionError($0, "").codeName }).count
                == SessionError.Code.allCases.count)
        #expect(SessionError(.documentChanged, "").codeName == "documentChanged")
        #expect(SigningError(.signatureTooLarge, "").codeName == "signatureTooLarge")
    }

    @Test("the seed code rides along unchanged: signoCode and seedCode agree")
    func seedCodes() {
        #expect(SigningError(.signatureTooLarge, "").seedCode == -136)
        #expect(SessionError(.documentChanged, "").seedCode == -128)
        #expect(SessionError(.invalidField, "", signoCode: -130).seedCode == -130)
        for error in Self.everyError {
            if let session = error as? SessionError { #expect(session.seedCode == session.signoCode) }
        }
    }

    @Test("session categories keep the web statuses: conflict, not found, internal for the store, bad input")
    func sessionCategories() {
        #expect(SessionError(.invalidState, "").category == .conflict)
        #expect(SessionError(.documentChanged, "").category == .conflict)
        #expect(SessionError(.certificationViolated, "").category == .conflict)
        #expect(SessionError(.documentNotFound, "").category == .notFound)
        #expect(SessionError(.storeUnavailable, "").category == .internal)
        #expect(SessionError(.wrongStorageKey, "").category == .internal)
        #expect(SessionError(.signing, "").category == .internal)
        #expect(SessionError(.passwordRequired, "").category == .badInput)
        #expect(SessionError(.cancelled, "").category == .cancelled)
    }

    @Test("a wrapped error of a layer below is kept as the underlying error")
    func underlying() {
        let core = SessionError(PDFError(.notAPDF, "no header"))
        #expect(core.code == .documentUnloadable && core.signoCode == -120)
        #expect((core.underlying as? PDFError)?.code == .notAPDF)
        let signing = SessionError(SigningError(.signatureTooLarge, "big"))
        #expect((signing.underlying as? SigningError)?.code == .signatureTooLarge)
        let form = SessionError(FormError(.readOnly, field: "Name", "locked"))
        #expect((form.underlying as? FormError)?.code == .readOnly)
        let annotation = SessionError(AnnotationError(.pdfA1, "PDF/A-1"))
        #expect((annotation.underlying as? AnnotationError)?.code == .pdfA1)
        #expect(SessionError(.invalidState, "").underlying == nil)
    }
}
