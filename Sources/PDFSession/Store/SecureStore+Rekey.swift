import AutographCrypto

/// Moving a store to another storage key: every record of every user is opened with the old key,
/// checked as `load` checks it, and sealed again with the new key (new owner tags, new record keys,
/// new row keys: the document and kind tags are keyed by the storage key too), and the store-wide
/// key check is replaced — in one backend transaction, so a failure leaves the store as it was.
/// Records of format 1 (a user who has not opened the store since it changed format) are read as
/// such and written in format 2. The salt stays.
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
        let checkKey = RecordCipher.storeCheckKey
        let oldCheck = try RecordCipher.storeCheck(storageKey: oldKey, salt: salt)
        let sealedCheck = try backend.metadata(
            "key check", insertingIfAbsent: oldCheck.sealLegacy(checkText, for: checkKey))
        guard try oldCheck.checkLegacy(sealedCheck, at: checkKey, is: checkText) else {
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
            let groups = try RekeyMove.groups(
                try backend.keys(owner: user.old.owner, document: nil, kind: nil), user.old)
            let own = groups.filter(\.isUser).flatMap(\.rows)
            guard let check = own.first(where: { $0.kind == .check }) else {
                throw SessionError(.invalidArgument, "the store holds no records of the user \"\(user.name)\"")
            }
            // A check record the backend cannot read counts as one that does not open.
            let sealedCheck = (try? backend.read(check.key)) ?? []
            let opens =
                check.legacy
                ? try user.old.checkLegacy(sealedCheck, at: check.key, is: checkText)
                : try user.old.check(sealedCheck, for: user.old.address("", .check), is: checkText)
            guard opens else {
                throw SessionError(
                    .wrongStorageKey,
                    "the key check of \"\(user.name)\" does not open with the old storage key; nothing was changed")
            }
            try move.userRecords(own, from: user.old, to: user.new)
            var moved: Set<String> = []
            for group in groups where !group.isUser {
                let documentID = try move.document(group.rows, from: user.old, to: user.new)
                guard moved.insert(documentID).inserted else {
                    throw SessionError(
                        .tamperedRecord,
                        "document \"\(documentID)\" of \"\(user.name)\" is stored twice; nothing was changed")
                }
                summary.documents += 1
            }
        }
        summary.records = move.puts.count
        let newCheck = try RecordCipher.storeCheck(storageKey: newKey, salt: salt)
        try backend.commit(
            move.expectations + move.deletions + move.puts,
            replacingMetadata: ["key check": newCheck.sealLegacy(checkText, for: checkKey)])
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

    /// One row of the old owner: its key, what it holds, and whether it is of format 1 (id and
    /// kind in clear: a user who never opened the store since it changed format).
    struct Row {
        var key: RecordKey
        var kind: RecordKind
        var legacy: Bool
    }

    /// The rows of one document (or the user's own), as the backend groups them.
    struct Group {
        var rows: [Row]
        var isUser: Bool
    }

    /// The old owner's rows grouped by document: rows of format 2 by document tag, rows of format 1
    /// by id (both may be there for a user who never opened the store since it changed format).
    /// - Throws: `.tamperedRecord` for a row of no kind this version knows.
    static func groups(_ keys: [RecordKey], _ old: RecordCipher) throws(SessionError) -> [Group] {
        var groups: [String: Group] = [:]
        for key in keys {
            let row: Row
            if let kind = old.kind(of: key) {
                row = Row(key: key, kind: kind, legacy: false)
            } else if let kind = RecordCipher.legacyKind(of: key) {
                row = Row(key: key, kind: kind, legacy: true)
            } else {
                throw SessionError(
                    .tamperedRecord, "\(key) holds a kind this version does not know; nothing was changed")
            }
            let name = (row.legacy ? "1 " : "2 ") + key.document
            let isUser = row.legacy ? key.document.isEmpty : key.document == old.userDocument
            groups[name, default: Group(rows: [], isUser: isUser)].rows.append(row)
        }
        return groups.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The user's own records (key check, saved signatures, settings): each sealed again as it is.
    mutating func userRecords(_ rows: [Row], from old: RecordCipher, to new: RecordCipher) throws(SessionError) {
        for row in rows {
            guard [RecordKind.check, .signature, .setting].contains(row.kind) else {
                throw SessionError(
                    .tamperedRecord, "(user) \(row.kind.rawValue) #\(row.key.index) belongs to no document")
            }
            let (plain, _, _) = try open(row, with: old, as: "")
            try put(plain, at: new.address("", row.kind, row.key.index), with: new)
        }
    }

    /// A document: its state first (which gives its id), then its original and revisions (checked
    /// against the manifest, as `load` does), sealed again; then its state, with a manifest of the
    /// new tags.
    /// - Returns: the document's id.
    mutating func document(_ rows: [Row], from old: RecordCipher, to new: RecordCipher) throws(SessionError) -> String {
        guard let stateRow = rows.first(where: { $0.kind == .state && $0.key.index == 0 }) else {
            throw SessionError(.tamperedRecord, "\(rows[0].key) belongs to a document that has no state")
        }
        let (record, _, documentID) = try open(stateRow, with: old, as: nil)
        let stateAddress = try old.address(documentID, .state)
        guard let (manifest, state) = DocumentManifest.decode(record) else {
            throw SessionError(.tamperedRecord, "\(stateAddress) is malformed")
        }
        let revisions = rows.filter { $0.kind == .revision }.map(\.key.index)
        guard let originalRow = rows.first(where: { $0.kind == .original && $0.key.index == 0 }),
            revisions == Array(0..<manifest.revisionTags.count), rows.count == revisions.count + 2
        else {
            throw SessionError(
                .tamperedRecord, "document \"\(documentID)\"'s records are not the ones its state expects")
        }
        var moved = DocumentManifest(originalTag: [], revisionTags: [])
        let (original, originalTag, _) = try open(originalRow, with: old, as: documentID)
        guard originalTag == manifest.originalTag else { throw Self.replaced(try old.address(documentID, .original)) }
        moved.originalTag = try put(original, at: new.address(documentID, .original), with: new)
        for (index, tag) in manifest.revisionTags.enumerated() {
            guard let row = rows.first(where: { $0.kind == .revision && $0.key.index == index }) else {
                throw SessionError(.tamperedRecord, "\(try old.address(documentID, .revision, index)) is missing")
            }
            let (revision, sealedTag, _) = try open(row, with: old, as: documentID)
            guard sealedTag == tag else { throw Self.replaced(try old.address(documentID, .revision, index)) }
            moved.revisionTags.append(try put(revision, at: new.address(documentID, .revision, index), with: new))
        }
        try put(moved.encoded + state, at: new.address(documentID, .state), with: new)
        return documentID
    }

    /// Reads and opens a row with the old cipher, recording that it must still hold these bytes at
    /// commit and that it goes; returns its plaintext, its tag and its document id (which must be
    /// `documentID` when given).
    private mutating func open(
        _ row: Row, with cipher: RecordCipher, as documentID: String?
    ) throws(SessionError) -> (plain: [UInt8], tag: [UInt8], documentID: String) {
        guard var value = try backend.read(row.key) else {
            throw SessionError(.documentChanged, "\(row.key) was removed while the store was being moved")
        }
        expectations.append(.expect(row.key, value))
        deletions.append(.delete(row.key))
        let tag = RecordCipher.tag(of: value)
        let name = documentID.map {
            "\($0.isEmpty ? "(user)" : "document \"\($0)\"") \(row.kind.rawValue) #\(row.key.index)"
        }
        let id: String
        do throws(RecordCipher.OpenFailure) {
            if row.legacy {
                try cipher.openLegacy(&value, at: row.key)
                id = row.key.document
            } else {
                id = try cipher.open(&value, at: row.key)
            }
            if let documentID, id != documentID { throw .otherDocument }
        } catch {
            throw error.error(for: name ?? row.key.description)
        }
        return (value, tag, id)
    }

    /// Seals `plain` for `address` with the new cipher; returns the sealed value's tag.
    @discardableResult
    private mutating func put(
        _ plain: [UInt8], at address: RecordAddress, with cipher: RecordCipher
    ) throws(SessionError) -> [UInt8] {
        let sealed = try cipher.seal(plain, for: address)
        puts.append(.put(address.key, sealed))
        return RecordCipher.tag(of: sealed)
    }

    private static func replaced(_ address: RecordAddress) -> SessionError {
        SessionError(
            .tamperedRecord, "\(address) is not the one the document's state recorded (replaced or rolled back)")
    }
}
