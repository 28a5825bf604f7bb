/// Documents in progress: the original bytes, one record per incremental update, and the state
/// record that seals the session's state together with the document's manifest.
extension SecureStore {
    /// The ids of the user's documents in progress, sorted.
    ///
    /// The database holds no id: each document's state record is opened and gives the id sealed in it.
    /// - Throws: `SessionError` `.tamperedRecord` when a state record does not open or is not in its
    ///   own document's row, `.storeUnavailable`.
    public func documentIDs() throws(SessionError) -> [String] {
        try locked { () throws(SessionError) -> [String] in
            var ids: [String] = []
            for key in try backend.keys(owner: cipher.owner, document: nil, kind: cipher.kindTag(.state)) {
                // A document deleted between listing and reading is simply not listed.
                guard var value = try backend.read(key) else { continue }
                do throws(RecordCipher.OpenFailure) {
                    let id = try cipher.open(&value, at: key)
                    if !id.isEmpty { ids.append(id) }
                } catch {
                    throw error.error(for: "the state record of a document (\(key))")
                }
            }
            return ids.sorted()
        }
    }

    /// Whether a document with this id is in progress (WYSIWYS `documentInProgress:`).
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    public func contains(documentID: String) throws(SessionError) -> Bool {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> Bool in
            let states = try backend.keys(
                owner: cipher.owner, document: cipher.documentTag(documentID), kind: cipher.kindTag(.state))
            return !states.isEmpty
        }
    }

    /// Starts (or replaces) a document: original bytes + initial state, atomically; old revisions dropped.
    /// - Returns: the version written (for the next write's `expecting`).
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    @discardableResult
    public func create(documentID: String, original: [UInt8], state: [UInt8]) throws(SessionError) -> StoreVersion {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> StoreVersion in
            let originalAddress = try cipher.address(documentID, .original)
            let sealedOriginal = try cipher.seal(original, for: originalAddress)
            let manifest = DocumentManifest(originalTag: RecordCipher.tag(of: sealedOriginal), revisionTags: [])
            let stateAddress = try cipher.address(documentID, .state)
            let sealedState = try cipher.seal(manifest.encoded, state, for: stateAddress)
            try backend.commit([
                .deleteDocument(owner: cipher.owner, document: stateAddress.key.document),
                .put(originalAddress.key, sealedOriginal),
                .put(stateAddress.key, sealedState),
            ])
            return StoreVersion(sealedState: sealedState)
        }
    }

    /// Appends one incremental update and the new state in one transaction.
    /// - Parameters:
    ///   - revision: the update's bytes.
    ///   - state: the session state after it.
    ///   - documentID: the document.
    ///   - version: the version the revision was built on (see ``StoreVersion``); nil appends to
    ///     whatever the document is now.
    /// - Returns: the version written.
    /// - Throws: `SessionError` `.documentChanged` (another session wrote since `version`),
    ///   `.documentNotFound`, `.tamperedRecord` (the state record does not open), `.storeUnavailable`.
    @discardableResult
    public func append(
        documentID: String, revision: [UInt8], state: [UInt8], expecting version: StoreVersion? = nil
    ) throws(SessionError) -> StoreVersion {
        try update(documentID, state: state, expecting: version) { manifest throws(SessionError) in
            let revisionAddress = try cipher.address(documentID, .revision, manifest.revisionTags.count)
            let sealedRevision = try cipher.seal(revision, for: revisionAddress)
            manifest.revisionTags.append(RecordCipher.tag(of: sealedRevision))
            return [.put(revisionAddress.key, sealedRevision)]
        }
    }

    /// Replaces the state only.
    /// - Returns: the version written.
    /// - Throws: `SessionError` `.documentChanged` (another session wrote since `version`),
    ///   `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    @discardableResult
    public func save(
        documentID: String, state: [UInt8], expecting version: StoreVersion? = nil
    ) throws(SessionError) -> StoreVersion {
        try update(documentID, state: state, expecting: version) { _ throws(SessionError) in [] }
    }

    /// Drops revisions from `revisionCount` on (undo to an earlier revision count) and writes the
    /// state, atomically.
    /// - Throws: `SessionError` `.invalidArgument` (`revisionCount` negative or above the number of
    ///   revisions), `.documentChanged`, `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    @discardableResult
    public func truncate(
        documentID: String, revisionCount: Int, state: [UInt8], expecting version: StoreVersion? = nil
    ) throws(SessionError) -> StoreVersion {
        try update(documentID, state: state, expecting: version) { manifest throws(SessionError) in
            let count = manifest.revisionTags.count
            guard (0...count).contains(revisionCount) else {
                throw SessionError(
                    .invalidArgument,
                    "document \"\(documentID)\" has \(count) revisions; cannot keep \(revisionCount)")
            }
            manifest.revisionTags.removeSubrange(revisionCount...)
            var deletions: [RecordChange] = []
            for index in revisionCount..<count {
                deletions.append(.delete(try cipher.key(documentID, .revision, index)))
            }
            return deletions
        }
    }

    /// Replaces the last revision and the state in one transaction (the prepared revision by the
    /// signed one: a crash leaves either, never neither).
    /// - Throws: `SessionError` `.invalidArgument` (no revision), `.documentChanged`,
    ///   `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    @discardableResult
    public func replaceLastRevision(
        documentID: String, with revision: [UInt8], state: [UInt8], expecting version: StoreVersion? = nil
    ) throws(SessionError) -> StoreVersion {
        try update(documentID, state: state, expecting: version) { manifest throws(SessionError) in
            guard let last = manifest.revisionTags.indices.last else {
                throw SessionError(.invalidArgument, "document \"\(documentID)\" has no revision to replace")
            }
            let revisionAddress = try cipher.address(documentID, .revision, last)
            let sealedRevision = try cipher.seal(revision, for: revisionAddress)
            manifest.revisionTags[last] = RecordCipher.tag(of: sealedRevision)
            return [.put(revisionAddress.key, sealedRevision)]
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
    ///
    /// The records are read one by one: a writer on another connection may commit between two
    /// reads, and the records then disagree with the state read first. When they disagree and the
    /// state record changed meanwhile, the document is read again (a few times); when the state is
    /// unchanged, the disagreement is the store's and is reported.
    /// - Throws: `SessionError` `.documentNotFound` when absent; `.tamperedRecord` naming the
    ///   record when one fails authentication, is missing, extra, or not the one recorded.
    public func load(documentID: String) throws(SessionError) -> StoredDocument {
        try Self.validate(documentID)
        var attempts = 0
        while true {
            let (result, sealed) = try locked {
                () throws(SessionError) -> (Result<StoredDocument, SessionError>, [UInt8]) in
                let (manifest, state, sealed) = try manifest(documentID)
                let read = Result { () throws(SessionError) -> StoredDocument in
                    try readRecords(documentID, manifest, state, sealed)
                }
                return (read, sealed)
            }
            switch result {
            case .success(let document):
                return document
            case .failure(let error):
                attempts += 1
                guard error.code == .tamperedRecord, attempts < 8,
                    let stateKey = try? cipher.key(documentID, .state),
                    let current = try? backend.read(stateKey), current != sealed
                else { throw error }
            }
        }
    }

    /// The original and the revisions the manifest names, each checked against its tag.
    private func readRecords(
        _ documentID: String, _ manifest: DocumentManifest, _ state: [UInt8], _ sealed: [UInt8]
    ) throws(SessionError) -> StoredDocument {
        let tag = try cipher.documentTag(documentID)
        let indices = try backend.keys(owner: cipher.owner, document: tag, kind: cipher.kindTag(.revision)).map(\.index)
        guard indices == Array(0..<manifest.revisionTags.count) else {
            throw SessionError(
                .tamperedRecord,
                "document \"\(documentID)\" has \(indices.count) revision records; its state expects "
                    + "\(manifest.revisionTags.count)")
        }
        let originalAddress = cipher.address(documentID, .original, documentTag: tag)
        guard let original = try openRecord(originalAddress, expectedTag: manifest.originalTag) else {
            throw SessionError(.tamperedRecord, "\(originalAddress) is missing")
        }
        var revisions: [[UInt8]] = []
        revisions.reserveCapacity(indices.count)
        for (index, revisionTag) in manifest.revisionTags.enumerated() {
            let address = cipher.address(documentID, .revision, index, documentTag: tag)
            guard let revision = try openRecord(address, expectedTag: revisionTag) else {
                throw SessionError(.tamperedRecord, "\(address) is missing")
            }
            revisions.append(revision)
        }
        return StoredDocument(
            documentID: documentID, original: original, revisions: revisions, state: state,
            version: StoreVersion(sealedState: sealed))
    }

    /// Removes a document and all its records (nothing happens when there is none: WYSIWYS
    /// `disposeDocument:`).
    /// - Throws: `SessionError` `.invalidArgument` (empty id), `.storeUnavailable`.
    public func delete(documentID: String) throws(SessionError) {
        try Self.validate(documentID)
        try locked { () throws(SessionError) in
            try backend.commit([.deleteDocument(owner: cipher.owner, document: cipher.documentTag(documentID))])
        }
    }

    /// Reads the state record, lets `change` edit its manifest and name the other records to
    /// write, then writes them with `state` and the manifest in one transaction that first checks the state
    /// record is still the one read: a read-modify-write no other session (or process) can come
    /// between.
    private func update(
        _ documentID: String, state: [UInt8], expecting version: StoreVersion?,
        _ change: (inout DocumentManifest) throws(SessionError) -> [RecordChange]
    ) throws(SessionError) -> StoreVersion {
        try Self.validate(documentID)
        return try locked { () throws(SessionError) -> StoreVersion in
            var (manifest, _, sealed) = try manifest(documentID)
            let changed = SessionError(
                .documentChanged,
                "document \"\(documentID)\" was written by another session after this one read it; nothing was "
                    + "written (reopen the document to go on from its new state)")
            if let version, version.sealedState != sealed { throw changed }
            let changes = try change(&manifest)
            let stateAddress = try cipher.address(documentID, .state)
            let sealedState = try cipher.seal(manifest.encoded, state, for: stateAddress)
            do throws(SessionError) {
                try backend.commit(
                    [.expect(stateAddress.key, sealed)] + changes + [.put(stateAddress.key, sealedState)])
            } catch {
                throw error.code == .documentChanged ? changed : error
            }
            return StoreVersion(sealedState: sealedState)
        }
    }

    /// The state record opened and split, with its sealed bytes (call under the lock).
    private func manifest(
        _ documentID: String
    ) throws(SessionError) -> (manifest: DocumentManifest, state: [UInt8], sealed: [UInt8]) {
        let address = try cipher.address(documentID, .state)
        guard let sealed = try backend.read(address.key) else {
            throw SessionError(.documentNotFound, "no document in progress has the id \"\(documentID)\"")
        }
        let record = try open(sealed, for: address)
        guard let decoded = DocumentManifest.decode(record) else {
            throw SessionError(.tamperedRecord, "\(address) is malformed")
        }
        return (decoded.manifest, decoded.state, sealed)
    }
}
