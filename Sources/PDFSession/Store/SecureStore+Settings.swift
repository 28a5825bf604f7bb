/// What a user keeps besides documents and signatures, each a record of its own (documentID "",
/// kind `setting`, index = the setting).
public enum UserSetting: Int, Sendable, CaseIterable {
    /// The demo signing identity (`SessionController.demoIdentity(name:)`).
    case demoIdentity = 1
}

extension SecureStore {
    /// A setting's value, nil when never set.
    /// - Throws: `SessionError` `.tamperedRecord`, `.storeUnavailable`.
    public func setting(_ setting: UserSetting) throws(SessionError) -> [UInt8]? {
        try locked { () throws(SessionError) -> [UInt8]? in
            try openRecord(cipher.address("", .setting, setting.rawValue))
        }
    }

    /// Writes a setting (replacing its value).
    /// - Throws: `SessionError` `.storeUnavailable`.
    public func setSetting(_ setting: UserSetting, to value: [UInt8]) throws(SessionError) {
        try locked { () throws(SessionError) in
            let address = try cipher.address("", .setting, setting.rawValue)
            try backend.commit([.put(address.key, cipher.seal(value, for: address))])
        }
    }
}
