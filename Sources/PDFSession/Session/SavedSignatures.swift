import PDFAuthoring
import PDFCore

/// Handwritten signatures kept per user in the store (WYSIWYS signature settings: several per
/// user; add, list, choose, delete).
extension SecureStore {
    /// The user's saved signatures, oldest first.
    func handwrittenSignatures() throws(SessionError) -> [SavedSignature] {
        try savedSignatures().map { record throws(SessionError) in
            let payload = try SavedSignaturePayload.decoded(record.payload)
            return SavedSignature(id: record.id, strokes: payload.strokes, created: PDFDate(seconds: payload.created))
        }
    }

    func addHandwrittenSignature(_ strokes: [InkStroke], created: PDFDate) throws(SessionError) -> SavedSignature {
        // Bounded where every caller (the session, the controller) passes: points inside the pad.
        if let problem = strokes.problem(within: [InkStroke].captureArea) {
            throw SessionError(.invalidArgument, problem)
        }
        guard strokes.pointCount > 1 else {
            throw SessionError(.invalidArgument, "a signature needs at least two points", signoCode: -132)
        }
        let payload = SavedSignaturePayload(strokes: strokes, created: created.seconds)
        let record = try addSignature(payload.encoded())
        return SavedSignature(id: record.id, strokes: strokes, created: created)
    }
}
