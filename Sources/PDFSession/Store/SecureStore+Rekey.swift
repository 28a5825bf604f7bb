import AutographCrypto

/// Moving a store to another storage key: every record of every user is opened with the old key,
/// checked as `load` checks it, and sealed again with the new key (new owner tags, new record keys,
/// the same additional-data binding), and the store-wide key check is replaced — in one backend
/// transaction, so a failure leaves the store as it was. The salt stays.
extension SecureStore {
    /// What `rekey(backend:usernames:from:to:)` moved.
    public struct RekeySummary: Sendable, Hashable {
        /// The users whose records were moved.
        public var users: Int
        /// Their documents in progress.
        public var documents: Int
        /// Every record sealed again (key checks, documents' records, signatures, settings).
        public var records: Int
    }

    /// Re-encrypts the whole store under `newKey`, atomically; the old key opens nothing afterwards.
    ///
    /// Every owner in the store must be one of `usernames`: records of a user not named could not
    /// be opened with either key afterwards, so the store is refused instead. Nothing is written
    /// when any check fails. Sessions open on the store meanwhile fail their next write with
    /// `.documentChanged`; records written by another process between the reading and the commit
    /// make the commit fail the same way.
    /// - Parameters:
    ///   - backend: The store's database.
    ///   - usernames: Every user of the store.
    ///   - oldKey: The 64-byte key the store was written with.
    ///   - newKey: The 64-byte key to move to (not the old one).
    /// - Returns: what was moved.
    /// - Throws: `SessionError` `.invalidStorageKey` (a key not 64 bytes), `.wrongStorageKey` (the
    ///   old key, or the old key with a user name, is not the one the store was written with),
    ///   `.invalidArgument` (no user, the new key is the old one, the store is empty, a named user
    ///   has no records, an owner is not named), `.tamperedRecord` (a record does not open or is
    ///   not the one its document's state recorded), `.documentChanged` (written meanwhile),
    ///   `.storeUnavailable`.
    public static func rekey(
        backend: any DocumentStore, usernames: [String], from oldKey: [UInt8], to newKey: [UInt8]
    ) throws(SessionError) -> RekeySummary {
        for key in [oldKey, newKey] where key.count != 64 {
            throw SessionError(.invalidStorageKey, "a storage key has \(key.count) bytes; it must have exactly 64")
        }
        guard oldKey != newKey else { throw SessionError(.invalidArgument, "the new storage key is the old one") }
        var names: [String] = []
        for name in usernames where !names.contains(name) { names.append(name) }
        guard !names.isEmpty else { throw SessionError(.invalidArgument, "name the store's users") }
        let owners = try backend.owners()
        guard !owners.isEmpty else { throw SessionError(.invalidArgument, "the store is empty: nothing to move") }
        let freshSalt: [UInt8]
        do {
            freshSalt = try SecureRandom.bytes(32)
        } catch {
            throw SessionError(.storeUnavailable, "store: no random bytes for the salt", crypto: error)
        }
        let salt = try backend.metadata("salt", insertingIfAbsent: freshSalt)
        guard salt.count == 32 else {
            throw SessionError(.tamperedRecord, "the store's salt has \(salt.count) bytes instead of 32")
        }
        let checkKey = RecordKey(owner: "", documentID: "", kind: .check)
        let oldCheck = try RecordCipher.storeCheck(storageKey: oldKey, salt: salt)
        let sealedCheck = try backend.metadata("key check", insertingIfAbsent: oldCheck.seal(checkText, for: checkKey))
        guard try oldCheck.check(sealedCheck, for: checkKey, is: checkText) else {
            throw SessionError(
                .wrongStorageKey, "the old storage key is not the one this store was written with; nothing was changed")
        }
        let users = try names.map { name throws(SessionError) in
            try (
                old: RecordCipher(storageKey: oldKey, salt: salt, username: name),
                new: RecordCipher(storageKey: newKey, salt: salt, username: name), name: name
            )
        }
        let strangers = Set(owners).subtracting(users.map(\.old.owner))
        guard strangers.isEmpty else {
            throw SessionError(
                .invalidArgument,
                "the store holds the records of \(strangers.count) user(s) not named: name every user of the store "
                    + "(their records would open with neither key); nothing was changed")
        }
        var move = RekeyMove(backend: backend)
        var summary = RekeySummary(users: users.count, documents: 0, records: 0)
        for user in users {
            let keys = try backend.keys(owner: user.old.owner, documentID: nil, kind: nil)
            let userCheck = user.old.key("", .check)
            guard keys.contains(userCheck) else {
                throw SessionError(.invalidArgument, "the store holds no records of the user \"\(user.name)\"")
            }
            // A check record the backend cannot read counts as one that does not open.
            guard try user.old.check((try? backend.read(userCheck)) ?? [], for: userCheck, is: checkText) else {
                throw SessionError(
                    .wrongStorageKey,
                    "the key check of \"\(user.name)\" does not open with the old storage key; nothing was changed")
            }
            var documents: [String: [RecordKey]] = [:]
            for key in keys { documents[key.documentID, default: []].append(key) }
            for (documentID, keys) in documents.sorted(by: { $0.key < $1.key }) {
                if documentID.isEmpty {
                    try move.userRecords(keys, from: user.old, to: user.new)
                } else {
                    try move.document(documentID, keys, from: user.old, to: user.new)
                    summary.documents += 1
                }
            }
        }
        summary.records = move.puts.count
        let newCheck = try RecordCipher.storeCheck(storageKey: newKey, salt: salt)
        try backend.commit(
            move.expectations + move.deletions + move.puts,
            replacingMetadata: ["key check": newCheck.seal(checkText, for: checkKey)])
        return summary
    }
}

/// The changes of a rekey as they are gathered: what must still be there, what goes, what comes.
private struct RekeyMove {
    let backend: any DocumentStore
    var expectations: [RecordChange] = []
    var deletions: [RecordChange] = []
    var puts: [RecordChange] = []

    init(backend: any DocumentStore) { self.backend = backend }

    /// The user's own records (key check, saved signatures, settings): each sealed again as it is.
    mutating func userRecords(_ keys: [RecordKey], from old: RecordCipher, to new: RecordCipher) throws(SessionError) {
        for key in keys {
            guard [RecordKind.check, .signature, .setting].contains(key.kind) else {
                throw SessionError(.tamperedRecord, "\(key) belongs to no document")
            }
            let (plain, _) = try open(key, with: old)
            try put(plain, at: new.key("", key.kind, key.index), with: new)
        }
    }

    /// A document: its original and revisions (checked against the manifest, as `load` does),
    /// sealed again; then its state, with a manifest of the new tags.
    mutating func document(
        _ documentID: String, _ keys: [RecordKey], from old: RecordCipher, to new: RecordCipher
    ) throws(SessionError) {
        let stateKey = old.key(documentID, .state)
        guard keys.contains(stateKey) else {
            throw SessionError(.tamperedRecord, "document \"\(documentID)\" has records but no state")
        }
        let (record, _) = try open(stateKey, with: old)
        guard let (manifest, state) = DocumentManifest.decode(record) else {
            throw SessionError(.tamperedRecord, "\(stateKey) is malformed")
        }
        let revisions = keys.filter { $0.kind == .revision }.map(\.index)
        guard revisions == Array(0..<manifest.revisionTags.count),
            keys.count == revisions.count + 2, keys.contains(old.key(documentID, .original))
        else {
            throw SessionError(
                .tamperedRecord, "document \"\(documentID)\"'s records are not the ones its state expects")
        }
        var moved = DocumentManifest(originalTag: [], revisionTags: [])
        let originalKey = old.key(documentID, .original)
        let (original, originalTag) = try open(originalKey, with: old)
        guard originalTag == manifest.originalTag else { throw Self.replaced(originalKey) }
        moved.originalTag = try put(original, at: new.key(documentID, .original), with: new)
        for (index, tag) in manifest.revisionTags.enumerated() {
            let key = old.key(documentID, .revision, index)
            let (revision, sealedTag) = try open(key, with: old)
            guard sealedTag == tag else { throw Self.replaced(key) }
            moved.revisionTags.append(try put(revision, at: new.key(documentID, .revision, index), with: new))
        }
        try put(moved.encoded + state, at: new.key(documentID, .state), with: new)
    }

    /// Reads and opens a record with the old cipher, recording that it must still hold these
    /// bytes at commit and that it goes; returns its plaintext and its tag.
    private mutating func open(
        _ key: RecordKey, with cipher: RecordCipher
    ) throws(SessionError) -> (plain: [UInt8], tag: [UInt8]) {
        guard var value = try backend.read(key) else {
            throw SessionError(.documentChanged, "\(key) was removed while the store was being moved")
        }
        expectations.append(.expect(key, value))
        deletions.append(.delete(key))
        let tag = RecordCipher.tag(of: value)
        do {
            try cipher.open(&value, for: key)
        } catch {
            throw error.error(for: key)
        }
        return (value, tag)
    }

    /// Seals `plain` for `key` with the new cipher; returns the sealed value's tag.
    @discardableResult
    private mutating func put(_ plain: [UInt8], at key: RecordKey, with cipher: RecordCipher) throws(SessionError)
        -> [UInt8]
    {
        let sealed = try cipher.seal(plain, for: key)
        puts.append(.put(key, sealed))
        return RecordCipher.tag(of: sealed)
    }

    private static func replaced(_ key: RecordKey) -> SessionError {
        SessionError(.tamperedRecord, "\(key) is not the one the document's state recorded (replaced or rolled back)")
    }
}
