public import PDFSigning

extension SessionController {
    /// The demo signing identity of this user: generated on first use (a demo root and a signer
    /// certificate named as such, trusted only by `autograph serve`'s own signature panel) and kept
    /// encrypted in the store.
    public func demoIdentity(name: String) throws(SessionError) -> DemoIdentity {
        if let stored = try store.setting(.demoIdentity) { return try StoredJSON.decode(stored, "the demo identity") }
        let identity: DemoIdentity
        do {
            identity = try DemoIdentity.generate(name: name)
        } catch {
            throw SessionError(error)
        }
        try store.setSetting(.demoIdentity, to: StoredJSON.encode(identity, "the demo identity"))
        return identity
    }

}
