/// Moving a user's records of format 1 — the document id and the kind's name in clear in the row
/// key — to format 2 (keyed hashes in the row key, the id sealed in the record) when the user opens
/// the store. Only the user's own keys can open their records, so each user's records move when
/// that user first opens the store with this version (the user has no key check of format 2 yet:
/// it is written after the move); until then they stay as they were.
extension SecureStore {
    /// How many times a move that another process overtook is tried again.
    static let migrationAttempts = 4

    /// Moves the user's records of format 1 to format 2 in one backend transaction, and does nothing
    /// when there are none (so a second call, or a second process, finds nothing to do).
    ///
    /// A record that opens is sealed again at its new row key. One that does not (altered,
    /// truncated) is moved as it is, so reading it still reports it tampered. A document's state gets
    /// the tags of the records moved with it in its manifest where it named the record that was
    /// there, so a document whose records agreed with its state still does, and one that did not
    /// still does not. A document of the same id already in format 2 is replaced by the one moved.
    /// Every record read must still be there, unchanged, when the transaction commits: when another
    /// process moved them first, this one looks again and finds nothing left.
    /// - Returns: how many records were moved.
    /// - Throws: `SessionError` `.storeUnavailable`, `.documentChanged` when the records kept
    ///   changing for every attempt; nothing is moved then.
    @discardableResult
    static func migrate(_ backend: any DocumentStore, _ cipher: RecordCipher) throws(SessionError) -> Int {
        for _ in 0..<migrationAttempts {
            var keys: [RecordKey] = []
            for kind in RecordKind.allCases {
                keys += try backend.keys(owner: cipher.owner, document: nil, kind: kind.rawValue)
            }
            guard !keys.isEmpty else { return 0 }
            var move = LegacyMove(backend: backend, cipher: cipher)
            do throws(SessionError) {
                try move.gather(keys)
                try backend.commit(move.expectations + move.replacements + move.deletions + move.puts)
                return keys.count
            } catch {
                guard error.code == .documentChanged else { throw error }
            }
        }
        throw SessionError(
            .documentChanged, "the user's records of format 1 kept changing while they were being moved; none was moved"
        )
    }
}

/// The changes that move one user's records of format 1, as they are gathered.
private struct LegacyMove {
    let backend: any DocumentStore
    let cipher: RecordCipher
    /// Each record read must be unchanged at commit.
    var expectations: [RecordChange] = []
    /// Documents of format 2 with the id of one moved.
    var replacements: [RecordChange] = []
    /// The rows of format 1.
    var deletions: [RecordChange] = []
    /// The records at their new row keys.
    var puts: [RecordChange] = []

    /// The tags of one document's records before and after the move.
    typealias Tags = [RecordAddress: (old: [UInt8], new: [UInt8])]

    init(backend: any DocumentStore, cipher: RecordCipher) {
        self.backend = backend
        self.cipher = cipher
    }

    /// Gathers the move of `keys` (rows of format 1), document by document.
    mutating func gather(_ keys: [RecordKey]) throws(SessionError) {
        var documents: [String: [RecordKey]] = [:]
        for key in keys { documents[key.document, default: []].append(key) }
        for (documentID, keys) in documents.sorted(by: { $0.key < $1.key }) {
            try document(documentID, keys)
        }
    }

    /// One document's records (the user's own for the id ""); its state last, with the new tags.
    private mutating func document(_ documentID: String, _ keys: [RecordKey]) throws(SessionError) {
        if !documentID.isEmpty {
            replacements.append(.deleteDocument(owner: cipher.owner, document: try cipher.documentTag(documentID)))
        }
        var tags: Tags = [:]
        var states: [(address: RecordAddress, record: [UInt8])] = []
        for key in keys {
            guard let kind = RecordCipher.legacyKind(of: key) else { continue }
            let address = try cipher.address(documentID, kind, key.index)
            guard let sealed = try backend.read(key) else {
                throw SessionError(.documentChanged, "\(address) was removed while it was being moved")
            }
            expectations.append(.expect(key, sealed))
            deletions.append(.delete(key))
            var value = sealed
            do throws(RecordCipher.OpenFailure) {
                try cipher.openLegacy(&value, at: key)
            } catch {
                if case .unavailable(let error) = error { throw error }
                // Kept as it is: it opens no better at its new row, so reading it still says so.
                puts.append(.put(address.key, sealed))
                continue
            }
            if kind == .state, !documentID.isEmpty {
                states.append((address, value))
                continue
            }
            let moved = try cipher.seal(value, for: address)
            tags[address] = (RecordCipher.tag(of: sealed), RecordCipher.tag(of: moved))
            puts.append(.put(address.key, moved))
        }
        for (address, record) in states {
            var record = record
            if let (manifest, state) = DocumentManifest.decode(record) {
                var moved = manifest
                moved.originalTag = Self.renamed(manifest.originalTag, try cipher.address(documentID, .original), tags)
                for (index, tag) in manifest.revisionTags.enumerated() {
                    moved.revisionTags[index] = Self.renamed(
                        tag, try cipher.address(documentID, .revision, index), tags)
                }
                record = moved.encoded + state
            }
            // A state that does not decode is sealed as it is: reading it still finds it malformed.
            puts.append(.put(address.key, try cipher.seal(record, for: address)))
        }
    }

    /// The tag a manifest names for `address` after the move: the moved record's when the manifest
    /// named the record that was there; otherwise the tag as it was, which names no record still.
    private static func renamed(_ tag: [UInt8], _ address: RecordAddress, _ tags: Tags) -> [UInt8] {
        guard let moved = tags[address], moved.old == tag else { return tag }
        return moved.new
    }
}
