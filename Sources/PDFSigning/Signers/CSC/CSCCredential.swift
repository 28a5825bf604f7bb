import AutographJSON

/// A credential of a CSC service (`credentials/info`): a key, its certificate chain, and how a
/// signature with it is authorized.
public struct CSCCredential: Sendable {
    /// Whether the service asks for a factor (CSC v1 `PIN.presence`, `OTP.presence`; v2 `auth.objects`).
    public enum Presence: String, Sendable {
        /// Not asked.
        case none
        /// Asked, and may be omitted.
        case optional
        /// Asked.
        case required
    }

    /// The credential's identifier at the service.
    public let id: String
    /// Its description, when the service gives one.
    public let description: String?
    /// The signer's certificate, then the chain the service gives.
    public let certificates: [Certificate]
    /// What the service says of the certificate (`valid`, `expired`, `revoked`, `suspended`), when it says.
    public let certificateStatus: String?
    /// Whether the key may be used (`enabled`).
    public let enabled: Bool
    /// The signature algorithms the key offers (object identifiers, dotted).
    public let algorithms: [String]
    /// The key's length in bits.
    public let keyLength: Int?
    /// How a signature is authorized: `implicit`, `explicit` (PIN, OTP) or `oauth2code` (the person
    /// authorizes it at the provider's page).
    public let authMode: String
    /// The Sole Control Assurance Level: 1, or 2 when the activation data is bound to the hashes.
    public let scal: Int
    /// How many hashes one authorization may sign.
    public let multisign: Int
    /// Whether the PIN is asked.
    public let pin: Presence
    /// Whether a one-time password is asked.
    public let otp: Presence
    /// The PIN's label, as the service words it.
    public let pinLabel: String
    /// The v2 `authData` ids of the PIN and the OTP.
    let pinID: String
    let otpID: String

    /// The signer's certificate.
    public var certificate: Certificate { certificates[0] }

    /// Reads a `credentials/info` answer of `version`.
    /// - Throws: `.keyContainerUnreadable` (−124) when it has no key or no readable certificate;
    ///   `.certificateNotFound` (−147) when it gives no certificate.
    init(id: String, answer: JSONValue, version: CSCClient.Version) throws(SigningError) {
        self.id = id
        description = answer["description"]?.stringValue.map(CSCClient.clean)
        guard let key = answer["key"], case .object = key else {
            throw SigningError(.keyContainerUnreadable, "the signing service describes no key for \(id)")
        }
        enabled = (key["status"]?.stringValue ?? "enabled") == "enabled"
        algorithms = (key["algo"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(64).map(CSCClient.clean)
        keyLength = key["len"]?.intValue
        let encoded = answer["cert"]?["certificates"]?.arrayValue ?? []
        guard !encoded.isEmpty else {
            throw SigningError(.certificateNotFound, "the signing service gives no certificate for \(id)")
        }
        var certificates: [Certificate] = []
        for item in encoded.prefix(16) {
            guard let text = item.stringValue, text.utf8.count <= 65_536, let der = CSCClient.base64(text),
                let certificate = try? Certificate(der: der)
            else {
                throw SigningError(.keyContainerUnreadable, "the signing service's certificate for \(id) is unreadable")
            }
            if !certificates.contains(certificate) { certificates.append(certificate) }
        }
        self.certificates = certificates
        certificateStatus = answer["cert"]?["status"]?.stringValue.map { CSCClient.clean(String($0.prefix(32))) }
        scal = Int(answer["SCAL"]?.stringValue ?? "") ?? answer["SCAL"]?.intValue ?? 1
        multisign = max(1, min(answer["multisign"]?.intValue ?? 1, 1000))
        var pin = Presence.none
        var otp = Presence.none
        var pinLabel = "PIN"
        var pinID = "PIN"
        var otpID = "OTP"
        switch version {
        case .v1:
            authMode = CSCClient.clean(answer["authMode"]?.stringValue ?? "implicit")
            if authMode == "explicit" {
                // A service that does not describe the factors may still ask for them: optional.
                pin = answer["PIN"] == nil ? .optional : Self.presence(answer["PIN"]?["presence"])
                otp = answer["OTP"] == nil ? .optional : Self.presence(answer["OTP"]?["presence"])
                pinLabel = answer["PIN"]?["label"]?.stringValue.map(CSCClient.clean) ?? pinLabel
            }
        case .v2:
            authMode = CSCClient.clean(
                answer["auth"]?["mode"]?.stringValue ?? answer["authMode"]?.stringValue ?? "implicit")
            if authMode == "explicit" {
                for object in answer["auth"]?["objects"]?.arrayValue?.prefix(8) ?? [] {
                    let identifier = object["id"]?.stringValue.map(CSCClient.clean)
                    // A one-time password is a "Password" with a generator (totp, hotp) in v2.0.0.2.
                    let type = object["generator"] == nil ? object["type"]?.stringValue : "OTP"
                    switch type {
                    case "Password", "PIN":
                        pin = .required
                        pinID = identifier ?? pinID
                        pinLabel = object["label"]?.stringValue.map(CSCClient.clean) ?? pinLabel
                    case "OTP":
                        otp = .required
                        otpID = identifier ?? otpID
                    default: break
                    }
                }
            }
        }
        (self.pin, self.otp, self.pinLabel, self.pinID, self.otpID) = (pin, otp, pinLabel, pinID, otpID)
    }

    /// v1's `"true"`, `"false"`, `"optional"` (strings in the specification; booleans from some services).
    static func presence(_ value: JSONValue?) -> Presence {
        switch value {
        case .string("true")?, .bool(true)?: .required
        case .string("optional")?: .optional
        default: .none
        }
    }

    /// The `signAlgo` (and its parameters) for `scheme` with `digest`, among those the key offers:
    /// the algorithm that names the digest when offered (`sha256WithRSAEncryption`,
    /// `ecdsa-with-SHA256`), else the bare key algorithm with `hashAlgo` (`rsaEncryption`,
    /// `id-ecPublicKey`); RSASSA-PSS with its parameters.
    /// - Throws: `.unsupportedAlgorithm` when the key offers none for `scheme`.
    func signatureAlgorithm(for scheme: SignatureScheme, digest: DigestAlgorithm) throws(SigningError)
        -> AlgorithmIdentifier
    {
        let named = scheme.algorithmIdentifier(digest: digest, rsaNamesDigest: true)
        let candidates: [AlgorithmIdentifier] =
            switch scheme {
            case .rsaPKCS1v15: [named, AlgorithmIdentifier(.rsaEncryption)]
            case .rsaPSS: [named]
            case .ecdsa: [named, AlgorithmIdentifier(.ecPublicKey)]
            }
        // A service that lists no algorithms is taken at its word for the certificate's key type.
        if algorithms.isEmpty { return candidates[0] }
        guard let chosen = candidates.first(where: { algorithms.contains($0.algorithm.description) }) else {
            throw SigningError(
                .unsupportedAlgorithm,
                "the credential \(id) offers \(algorithms.joined(separator: ", ")), none for \(scheme.rawValue) "
                    + "with \(digest)")
        }
        return chosen
    }
}
