/// Saved handwritten signatures: several per user, each its own record (documentID "", kind
/// `signature`, index = id), so one can be removed without rewriting the others.
extension SecureStore {
    /// The user's saved signatures, oldest first.
    /// - Throws: `SessionError` `.tamperedRecord` naming a signature that fails authentication,
    ///   `.storeUnavailable`.
    public func savedSignatures() throws(SessionError) -> [SavedSignatureRecord] {
        try locked { () throws(SessionError) -> [SavedSignatureRecord] in
            var records: [SavedSignatureRecord] = []
            let keys = try backend.keys(
                owner: cipher.owner, document: cipher.userDocument, kind: cipher.kindTag(.signature))
            for key in keys {
                // A record deleted between listing and reading is simply not returned.
                if let payload = try openRecord(cipher.address("", .signature, key.index)) {
                    records.append(SavedSignatureRecord(id: key.index, payload: payload))
                }
            }
            return records
        }
    }

    /// Saves a new signature; its id is one more than the newest's (1 for the first).
    /// - Throws: `SessionError` `.tamperedRecord` (the newest id is the largest integer),
    ///   `.storeUnavailable`.
    public func addSignature(_ payload: [UInt8]) throws(SessionError) -> SavedSignatureRecord {
        try locked { () throws(SessionError) -> SavedSignatureRecord in
            let keys = try backend.keys(
                owner: cipher.owner, document: cipher.userDocument, kind: cipher.kindTag(.signature))
            let newest = keys.last?.index ?? 0
            guard newest < Int.max else {
                throw SessionError(.tamperedRecord, "the newest saved signature has the id \(newest): no id follows it")
            }
            let id = newest + 1
            let address = try cipher.address("", .signature, id)
            try backend.commit([.put(address.key, cipher.seal(payload, for: address))])
            return SavedSignatureRecord(id: id, payload: payload)
        }
    }

    /// Removes a saved signature.
    /// - Throws: `SessionError` `.invalidArgument` when no saved signature has this id, `.storeUnavailable`.
    public func deleteSignature(id: Int) throws(SessionError) {
        try locked { () throws(SessionError) in
            let key = try cipher.key("", .signature, id)
            guard try backend.read(key) != nil else {
                throw SessionError(.invalidArgument, "no saved signature has the id \(id)")
            }
            try backend.commit([.delete(key)])
        }
    }
}
