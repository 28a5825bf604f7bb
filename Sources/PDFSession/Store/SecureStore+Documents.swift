/// Documents in progress: the original bytes, one record per incremental update, and the state
/// record that seals the session's state together with the document's manifest.
extension SecureStore {
    /// The ids of the user's documents in progress, sorted.
    /// - Throws: `SessionError` `.storeUnavailable`.
    public func documentIDs() throws(SessionError) -> [String] {
        try locked { () throws(SessionError) -> [String] in
            try backend.keys(owner: cipher.owner, documentID: nil, kind: .state)
                .map(\.documentID).filter { !$0.isEmpty }
        }
    }

    /// Whether a document with this id is in progress (WYSIWYS `documentInProgress:`).
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    public func contains(documentID: String) throws(SessionError) -> Bool {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> Bool in
            try !backend.keys(owner: cipher.owner, documentID: documentID, kind: .state).isEmpty
        }
    }

    /// Starts (or replaces) a document: original bytes + initial state, atomically; old revisions dropped.
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    public func create(documentID: String, original: [UInt8], state: [UInt8]) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            let originalKey = cipher.key(documentID, .original)
            let sealedOriginal = try cipher.seal(original, for: originalKey)
            let manifest = DocumentManifest(originalTag: RecordCipher.tag(of: sealedOriginal), revisionTags: [])
            let stateKey = cipher.key(documentID, .state)
            try backend.commit([
                .deleteDocument(owner: cipher.owner, documentID: documentID),
                .put(originalKey, sealedOriginal),
                .put(stateKey, cipher.seal(manifest.encoded, state, for: stateKey)),
            ])
        }
    }

    /// Appends one incremental update and the new state in one transaction.
    /// - Throws: `SessionError` `.documentNotFound`, `.tamperedRecord` (the state record does not
    ///   open), `.storeUnavailable`.
    public func append(documentID: String, revision: [UInt8], state: [UInt8]) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            var manifest = try manifest(documentID).manifest
            let revisionKey = cipher.key(documentID, .revision, manifest.revisionTags.count)
            let sealedRevision = try cipher.seal(revision, for: revisionKey)
            manifest.revisionTags.append(RecordCipher.tag(of: sealedRevision))
            let stateKey = cipher.key(documentID, .state)
            try backend.commit([
                .put(revisionKey, sealedRevision), .put(stateKey, cipher.seal(manifest.encoded, state, for: stateKey)),
            ])
        }
    }

    /// Replaces the state only.
    /// - Throws: `SessionError` `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    public func save(documentID: String, state: [UInt8]) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            let manifest = try manifest(documentID).manifest
            let stateKey = cipher.key(documentID, .state)
            try backend.commit([.put(stateKey, cipher.seal(manifest.encoded, state, for: stateKey))])
        }
    }

    /// Drops revisions from `revisionCount` on (undo to an earlier revision count) and writes the
    /// state, atomically.
    /// - Throws: `SessionError` `.invalidArgument` (`revisionCount` negative or above the number of
    ///   revisions), `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    public func truncate(documentID: String, revisionCount: Int, state: [UInt8]) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            var manifest = try manifest(documentID).manifest
            let count = manifest.revisionTags.count
            guard (0...count).contains(revisionCount) else {
                throw SessionError(
                    .invalidArgument,
                    "document \"\(documentID)\" has \(count) revisions; cannot keep \(revisionCount)")
            }
            manifest.revisionTags.removeSubrange(revisionCount...)
            let stateKey = cipher.key(documentID, .state)
            var changes: [RecordChange] = (revisionCount..<count).map { .delete(cipher.key(documentID, .revision, $0)) }
            changes.append(.put(stateKey, try cipher.seal(manifest.encoded, state, for: stateKey)))
            try backend.commit(changes)
        }
    }

    /// Replaces the last revision and the state in one transaction (the prepared revision by the
    /// signed one: a crash leaves either, never neither).
    /// - Throws: `SessionError` `.invalidArgument` (no revision), `.documentNotFound`,
    ///   `.tamperedRecord`, `.storeUnavailable`.
    public func replaceLastRevision(documentID: String, with revision: [UInt8], state: [UInt8]) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            var manifest = try manifest(documentID).manifest
            guard let last = manifest.revisionTags.indices.last else {
                throw SessionError(.invalidArgument, "document \"\(documentID)\" has no revision to replace")
            }
            let revisionKey = cipher.key(documentID, .revision, last)
            let sealedRevision = try cipher.seal(revision, for: revisionKey)
            manifest.revisionTags[last] = RecordCipher.tag(of: sealedRevision)
            let stateKey = cipher.key(documentID, .state)
            try backend.commit([
                .put(revisionKey, sealedRevision), .put(stateKey, cipher.seal(manifest.encoded, state, for: stateKey)),
            ])
        }
    }

    /// The number of revisions of a document (reads only its state record).
    /// - Throws: `SessionError` `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    public func revisionCount(documentID: String) throws(SessionError) -> Int {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> Int in
            try manifest(documentID).manifest.revisionTags.count
        }
    }

    /// Reads a whole document, checking every record against the state's manifest.
    /// - Throws: `SessionError` `.documentNotFound` when absent; `.tamperedRecord` naming the
    ///   record when one fails authentication, is missing, extra, or not the one recorded.
    public func load(documentID: String) throws(SessionError) -> StoredDocument {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> StoredDocument in
            let (manifest, state) = try manifest(documentID)
            let indices = try backend.keys(owner: cipher.owner, documentID: documentID, kind: .revision).map(\.index)
            guard indices == Array(0..<manifest.revisionTags.count) else {
                throw SessionError(
                    .tamperedRecord,
                    "document \"\(documentID)\" has \(indices.count) revision records; its state expects "
                        + "\(manifest.revisionTags.count)")
            }
            let originalKey = cipher.key(documentID, .original)
            guard let original = try openRecord(originalKey, expectedTag: manifest.originalTag) else {
                throw SessionError(.tamperedRecord, "\(originalKey) is missing")
            }
            var revisions: [[UInt8]] = []
            revisions.reserveCapacity(indices.count)
            for (index, tag) in manifest.revisionTags.enumerated() {
                let key = cipher.key(documentID, .revision, index)
                guard let revision = try openRecord(key, expectedTag: tag) else {
                    throw SessionError(.tamperedRecord, "\(key) is missing")
                }
                revisions.append(revision)
            }
            return StoredDocument(documentID: documentID, original: original, revisions: revisions, state: state)
        }
    }

    /// Removes a document and all its records (nothing happens when there is none: WYSIWYS
    /// `disposeDocument:`).
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    public func delete(documentID: String) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            try backend.commit([.deleteDocument(owner: cipher.owner, documentID: documentID)])
        }
    }

    /// The state record opened and split (call under the lock).
    private func manifest(_ documentID: String) throws(SessionError) -> (manifest: DocumentManifest, state: [UInt8]) {
        let key = cipher.key(documentID, .state)
        guard let record = try openRecord(key) else {
            throw SessionError(.documentNotFound, "no document in progress has the id \"\(documentID)\"")
        }
        guard let decoded = DocumentManifest.decode(record) else {
            throw SessionError(.tamperedRecord, "\(key) is malformed")
        }
        return decoded
    }
}
