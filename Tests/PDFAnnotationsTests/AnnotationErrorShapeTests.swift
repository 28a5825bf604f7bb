import PDFCore
import Testing

@testable import PDFAnnotations

/// Annotation errors in the shape every module's errors share (``AutographError``).
@Suite("Annotation errors share the one error shape")
struct AnnotationErrorShapeTests {
    @Test(
        "every annotation error code is an AutographError: its code's name, a message, its signo code, a category",
        arguments: AnnotationError.Code.allCases)
    func annotationErrors(code: AnnotationError.Code) {
        let error: any AutographError = AnnotationError(code, "the photo cannot be placed")
        #expect(error.codeName == code.rawValue)
        #expect(error.message == "the photo cannot be placed")
        #expect(error.description == error.message)
        #expect(error.seedCode == (code == .writeFailed ? -128 : -150))
        #expect(error.underlying == nil)
    }

    @Test("annotation categories, and a failed write keeps the core error it wraps")
    func categories() {
        #expect(AnnotationError(.pdfA1, "").category == .conflict)
        #expect(AnnotationError(.unknownField, "").category == .notFound)
        #expect(AnnotationError(.invalidImage, "").category == .badInput)
        #expect(AnnotationError(.writeFailed, "").category == .internal)
        let wrapped = AnnotationError(PDFError(.writeFailed, "disk full"))
        #expect((wrapped.underlying as? PDFError)?.code == .writeFailed)
    }
}
