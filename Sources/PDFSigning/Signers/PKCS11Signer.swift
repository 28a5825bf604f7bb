public import PDFCore
import PKCS11

/// Signs with a key that lives in a PKCS#11 token or HSM (SoftHSM, a smart card, Thales Luna,
/// YubiHSM, a cloud HSM's client library): the module is loaded at run time, the token chosen by
/// label or serial number, the user logged in once, and the key and its certificate found by label
/// or id. Only the signed attributes (RSA PKCS#1 v1.5, which the token hashes) or their hash (PSS,
/// ECDSA) go to the token; the CMS is assembled here.
///
/// ```swift
/// let signer = try PKCS11Signer(
///     module: "/usr/lib/softhsm/libsofthsm2.so", tokenLabel: "seals", keyLabel: "company-seal",
///     pin: try String(contentsOfFile: pinFile))
/// let signed = try await DocumentSigner(document: document, request: request, signer: signer).sign()
/// ```
///
/// Sessions are pooled: concurrent signatures each use a session of their own.
public struct PKCS11Signer: Signer {
    /// The signer's certificate (from the token), then the chain given.
    public let certificates: [Certificate]
    /// How the key signs: PKCS#1 v1.5 or PSS for an RSA key, ECDSA for an EC key.
    public let scheme: SignatureScheme
    /// The token's label, serial number, manufacturer and model, as it describes itself.
    public let tokenDescription: String
    /// The certificates' size, 1,024 bytes for the signature, and 2,048 for attributes and spare room.
    public var estimatedSize: Int { Self.estimate(certificates: certificates, signatureBytes: 1024) }
    let token: PKCS11Token
    let key: PKCS11Token.Object

    /// Opens the token and finds the key and its certificate.
    ///
    /// - Parameters:
    ///   - module: the path of the PKCS#11 module (`.so`).
    ///   - tokenLabel: the token's label; with `tokenSerial`, both must match; neither is the first token.
    ///   - tokenSerial: the token's serial number.
    ///   - keyLabel: the private key's label (`CKA_LABEL`); the certificate is the one with the key's id,
    ///     else with this label.
    ///   - keyID: the private key's id (`CKA_ID`), when labels are ambiguous.
    ///   - pin: the user PIN; nil for a token that needs no login.
    ///   - chain: intermediate (and root) certificates to embed after the signer's.
    ///   - scheme: `.rsaPSS` to sign an RSA key with PSS; nil is PKCS#1 v1.5 or ECDSA by the key.
    ///   - allowExpired: sign even when the certificate is outside its validity.
    ///   - now: the time the certificate's validity is checked at (seconds since 1970).
    /// - Throws: `.keyContainerNotFound` (-123) when the module cannot be loaded, no token matches
    ///   or the token went away; `.wrongKeyContainerPassword` (-125) for a wrong or locked PIN;
    ///   `.noPrivateKey` (-127) when no private key matches; `.certificateNotFound` (-147) when the
    ///   token holds no certificate for it; `.invalidArgument` when several keys match;
    ///   `.certificateExpired` (-138).
    public init(
        module: String, tokenLabel: String? = nil, tokenSerial: String? = nil, keyLabel: String? = nil,
        keyID: [UInt8]? = nil, pin: String?, chain: [Certificate] = [], scheme: SignatureScheme? = nil,
        allowExpired: Bool = false, now: Int = PDFDate.now().seconds
    ) throws(SigningError) {
        do {
            let token = try PKCS11Token(
                module: try PKCS11Module.load(module), label: tokenLabel, serial: tokenSerial)
            if let pin {
                try token.login(pin: pin)
            } else if token.info.loginRequired {
                // Another signer's login would otherwise lend this one the token's keys.
                throw SigningError(.wrongKeyContainerPassword, "the token '\(token.info.label)' needs the user PIN")
            }
            let keys = try token.objects(.privateKey, label: keyLabel, id: keyID)
            guard let key = keys.first else {
                throw SigningError(
                    .noPrivateKey,
                    "the token '\(token.info.label)' holds no private key"
                        + (keyLabel.map { " labelled '\($0)'" } ?? "")
                        + (keyID.map { " with id \(Hex.uppercase($0))" } ?? ""))
            }
            guard keys.count == 1 else {
                throw SigningError(
                    .invalidArgument,
                    "\(keys.count) private keys match on '\(token.info.label)' ("
                        + keys.map { "'\($0.label)' id \(Hex.uppercase($0.id))" }.joined(separator: ", ")
                        + "): give the key's id")
            }
            var candidates = key.id.isEmpty ? [] : try token.objects(.certificate, id: key.id)
            if candidates.isEmpty, !key.label.isEmpty { candidates = try token.objects(.certificate, label: key.label) }
            guard let object = candidates.first, let der = try token.value(of: object),
                let certificate = try? Certificate(der: der)
            else {
                throw SigningError(
                    .certificateNotFound,
                    "the token '\(token.info.label)' holds no certificate for the key '\(key.label)'")
            }
            guard allowExpired || certificate.isValid(at: now) else {
                throw SigningError(.certificateExpired, "the certificate \(certificate.subject) is not valid now")
            }
            let kind = certificate.publicKeyKind
            let chosen: SignatureScheme
            switch (kind, scheme) {
            case (.rsa, .rsaPSS?): chosen = .rsaPSS
            case (.rsa, _): chosen = .rsaPKCS1v15
            case (.ec, _): chosen = .ecdsa
            default:
                throw SigningError(.unsupportedAlgorithm, "a \(kind) key cannot sign through PKCS#11 here")
            }
            self.token = token
            self.key = key
            self.scheme = chosen
            self.certificates = [certificate] + chain.filter { $0 != certificate }
            self.tokenDescription =
                "'\(token.info.label)' (serial \(token.info.serialNumber), \(token.info.manufacturer) \(token.info.model))"
        } catch {
            throw Self.signingError(error)
        }
    }

    /// The CMS with the token's signature over the signed attributes.
    /// - Throws: `.keyContainerNotFound` (-123) when the token went away, `.signingFailed` when it refuses.
    public func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let builder = CMSSignedDataBuilder(
            certificate: certificates[0], chain: Array(certificates.dropFirst()), digestAlgorithm: algorithm,
            scheme: scheme)
        let attributes = try builder.signedAttributes(messageDigest: digest)
        let bits = algorithm.length * 8
        do {
            let signature: [UInt8]
            switch scheme {
            case .rsaPKCS1v15:
                signature = try await signPKCS1(attributes, algorithm)
            case .rsaPSS:
                signature = try await token.sign(
                    try algorithm.hash(attributes), key: key, mechanism: .rsaPSS(hashBits: bits))
            case .ecdsa:
                signature = try Self.ecdsaDER(
                    try await token.sign(try algorithm.hash(attributes), key: key, mechanism: .ecdsa))
            }
            return builder.assemble(signedAttributes: attributes, signature: signature)
        } catch {
            throw Self.signingError(error)
        }
    }

    /// PKCS#1 v1.5: the token hashes the attributes (`CKM_SHA256_RSA_PKCS` …); a token without that
    /// mechanism (`CKR_MECHANISM_INVALID`) signs a DigestInfo made here with `CKM_RSA_PKCS`.
    private func signPKCS1(_ attributes: [UInt8], _ algorithm: DigestAlgorithm) async throws -> [UInt8] {
        let hashed: Result<[UInt8], PKCS11Error>
        do {
            hashed = .success(
                try await token.sign(attributes, key: key, mechanism: .rsaPKCS(hashBits: algorithm.length * 8)))
        } catch {
            hashed = .failure(error)
        }
        if case .failure(let error) = hashed, error.returnValue == 0x70 {
            let info = Self.digestInfo(try algorithm.hash(attributes), algorithm)
            return try await token.sign(info, key: key, mechanism: .rsaPKCSRaw)
        }
        return try hashed.get()
    }

    /// `DigestInfo ::= SEQUENCE { digestAlgorithm AlgorithmIdentifier, digest OCTET STRING }` (RFC 8017
    /// §9.2, with the NULL parameters of its note 1): what `CKM_RSA_PKCS` signs for PKCS#1 v1.5.
    static func digestInfo(_ hash: [UInt8], _ algorithm: DigestAlgorithm) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { info in
            info.sequence { identifier in
                identifier.objectIdentifier(algorithm.algorithmIdentifier.algorithm)
                identifier.null()
            }
            info.octetString(hash)
        }
        return writer.bytes
    }

    /// A raw ECDSA signature `r‖s` (PKCS#11 `CKM_ECDSA`) as the DER `ECDSA-Sig-Value` CMS carries (RFC 5480).
    static func ecdsaDER(_ raw: [UInt8]) throws(SigningError) -> [UInt8] {
        guard raw.count >= 2, raw.count % 2 == 0, raw.count <= 264 else {
            throw SigningError(.signingFailed, "the token's ECDSA signature has \(raw.count) bytes")
        }
        var writer = DERWriter()
        writer.sequence { value in
            value.integer(unsignedBytes: raw.prefix(raw.count / 2))
            value.integer(unsignedBytes: raw.suffix(raw.count / 2))
        }
        return writer.bytes
    }

    /// Any error of a token operation as a `SigningError` (a `PKCS11Error` mapped to the seed's code).
    static func signingError(_ error: any Error) -> SigningError {
        if let error = error as? SigningError { return error }
        guard let error = error as? PKCS11Error else { return SigningError(.signingFailed, "\(error)") }
        return signingError(error)
    }

    static func signingError(_ error: PKCS11Error) -> SigningError {
        if error.isWrongPIN { return SigningError(.wrongKeyContainerPassword, "wrong PIN: \(error.message)") }
        if error.isPINLocked {
            return SigningError(
                .wrongKeyContainerPassword, "the PIN is locked (too many wrong tries): \(error.message)")
        }
        if error.isTokenGone { return SigningError(.keyContainerNotFound, "the token went away: \(error.message)") }
        if error.isKeyGone {
            return SigningError(.noPrivateKey, "the key is no longer on the token (removed with it?): \(error.message)")
        }
        if error.returnValue == nil { return SigningError(.keyContainerNotFound, error.message) }
        return SigningError(.signingFailed, "the token refused: \(error.message)")
    }
}
