import PDFCore
import PDFSigning

/// The signature panel: each signature's verdict and what changed after it.
extension WebRouter {
    /// `GET /api/validation`: `{"revisions": n, "signatures": [verify --json's object + "summary"]}`,
    /// against the server's trust roots.
    func validation() async throws(WebError) -> JSONValue {
        let (document, statuses) = try await backend.validate(trustRoots: configuration.trustRoots)
        let signatures = statuses.map { status -> JSONValue in
            guard case .object(var members) = status.json else { return status.json }
            members.append(("summary", .string(status.summary)))
            return .object(members)
        }
        return .object([("revisions", .int(document.revisions.count)), ("signatures", .array(signatures))])
    }
}
