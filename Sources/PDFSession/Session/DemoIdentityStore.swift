import FoundationEssentials
public import PDFSigning

extension SessionController {
    /// The demo signing identity of this user: generated on first use (a demo root and a signer
    /// certificate named as such, never trusted anywhere) and kept encrypted in the store.
    public func demoIdentity(name: String) throws(SessionError) -> DemoIdentity {
        if let stored = try store.setting(.demoIdentity) {
            do {
                return try JSONDecoder().decode(DemoIdentity.self, from: Data(stored))
            } catch {
                throw SessionError(.tamperedRecord, "the stored demo identity cannot be read: \(error)")
            }
        }
        let identity: DemoIdentity
        do {
            identity = try DemoIdentity.generate(name: name)
        } catch {
            throw SessionError(error)
        }
        do {
            try store.setSetting(.demoIdentity, to: Array(try JSONEncoder().encode(identity)))
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.storeUnavailable, "the demo identity cannot be encoded: \(error)")
        }
        return identity
    }

}
