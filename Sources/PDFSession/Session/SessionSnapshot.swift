import FoundationEssentials
import PDFCore
import PDFSigning

/// What the store keeps of a session besides the document's bytes: the workflow, the prepared
/// signature, the settings made during the session. Encoded as JSON, then encrypted by the store.
struct SessionSnapshot: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// `open` / `reopen`: signing allowed.
        case editable
        /// `show`: read only, erased when the session closes.
        case readOnly
    }

    var version = 1
    var kind: Kind
    var workflow = SigningWorkflow()
    /// The prepared signature while the session waits for a confirmation or a CMS.
    var prepared: PreparedSignature?
    /// The number of revisions before the refusal's watermark and the prepared revision: what
    /// remains when they are discarded.
    var revisionsBeforeSigning: Int?
    var currentPageIndex = 0
    var photoFields: PhotoFields?
    /// The signature field the toolbar's "sign" button started last (signo `startSignature`).
    var lastStartedField: String?

    struct PhotoFields: Codable, Sendable, Equatable {
        var names: [String]
        var maxWidth: Int
        var maxHeight: Int
    }

    init(kind: Kind) { self.kind = kind }

    func encoded() throws(SessionError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(self))
        } catch {
            throw SessionError(.storeUnavailable, "the session state cannot be encoded: \(error)")
        }
    }

    static func decoded(_ bytes: [UInt8]) throws(SessionError) -> SessionSnapshot {
        do {
            return try JSONDecoder().decode(SessionSnapshot.self, from: Data(bytes))
        } catch {
            throw SessionError(.tamperedRecord, "the stored session state cannot be read: \(error)")
        }
    }
}

/// A saved handwritten signature as stored (encrypted) in the store.
struct SavedSignaturePayload: Codable, Sendable {
    var strokes: [InkStroke]
    /// When it was captured, in seconds since 1970.
    var created: Int

    func encoded() throws(SessionError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(self))
        } catch {
            throw SessionError(.storeUnavailable, "the signature cannot be encoded: \(error)")
        }
    }

    static func decoded(_ bytes: [UInt8]) throws(SessionError) -> SavedSignaturePayload {
        do {
            return try JSONDecoder().decode(SavedSignaturePayload.self, from: Data(bytes))
        } catch {
            throw SessionError(.tamperedRecord, "a saved signature cannot be read: \(error)")
        }
    }
}
