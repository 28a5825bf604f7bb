/// Whether a CRL can be used, and what it says of a certificate (RFC 5280 §6.3).
extension CertificateRevocationList {
    /// How far the clocks of the issuer and of the checker may disagree: 5 minutes either way of
    /// ``thisUpdate`` and ``nextUpdate``.
    public static let clockSkew = 300

    /// The revocation of `certificate` this CRL lists: when and why; nil when it does not list it.
    ///
    /// Entries are matched by serial number alone (the INTEGERs compared by value, so a redundant
    /// sign octet does not matter); whether the CRL is the certificate's issuer's, and usable, is
    /// ``problem(for:issuer:at:)``'s question.
    public func entry(for certificate: Certificate) -> (time: Int, reason: RevocationReason?)? {
        var reader = DERReader(certificate.serialDER)
        guard let content = try? reader.readInteger() else { return nil }
        let serial = Self.canonical(content)
        guard let entry = entries.first(where: { $0.serial.elementsEqual(serial) }) else { return nil }
        return (entry.time, entry.reason)
    }

    /// Why this CRL cannot be used as `issuer`'s, or nil when it can.
    ///
    /// The first problem found, in this order: a delta CRL (they are not used); a critical
    /// extension Autograph does not process (RFC 5280 §5.2, §5.3); an issuing distribution point
    /// that makes it indirect, partial (some reasons only) or for attribute certificates only
    /// (RFC 5280 §5.2.5); another issuer Name than `issuer`'s subject (compared as DER); an
    /// `issuer` whose key usage does not allow signing CRLs (RFC 5280 §4.2.1.3); a signature
    /// algorithm that differs from the `tbsCertList`'s or is not supported; a signature over the
    /// `tbsCertList` that `issuer`'s public key does not verify; and, when `time` is given, a
    /// ``thisUpdate`` after it or a ``nextUpdate`` before it (a stale CRL), each with
    /// ``clockSkew`` of tolerance.
    ///
    /// - Parameters:
    ///   - issuer: the certificate of the CA that issued the certificates the CRL is about.
    ///   - time: when the CRL must be current, in seconds since 1970 (now, for a CRL just
    ///     fetched); nil checks no time.
    /// - Returns: the problem, in one line for a person; nil when the CRL is usable.
    public func problem(issuer: Certificate, at time: Int?) -> String? {
        if isDelta { return "delta CRLs are not used (RFC 5280 §5.2.4): a complete CRL is needed" }
        if let unhandled = unhandledCriticalExtensions.first {
            return "the CRL has \(unhandled), which Autograph does not process (RFC 5280 §5.2)"
        }
        if let point = issuingDistributionPoint {
            if point.indirect { return "indirect CRLs are not used (RFC 5280 §5.2.5)" }
            if point.onlySomeReasons { return "the CRL covers only some revocation reasons (RFC 5280 §5.2.5)" }
            if point.onlyAttributeCertificates { return "the CRL covers attribute certificates only" }
        }
        guard issuerDER == issuer.subjectDER else {
            return "the CRL's issuer is not \(issuer.subject)"
        }
        if let problem = Self.crlSigningProblem(issuer) { return problem }
        if let problem = signatureProblem(issuer: issuer) { return problem }
        if let time {
            if thisUpdate > time + Self.clockSkew {
                return "the CRL was issued at \(Self.text(thisUpdate)), after \(Self.text(time))"
            }
            if let nextUpdate, nextUpdate < time - Self.clockSkew {
                return "the CRL is stale: the next one was due at \(Self.text(nextUpdate)), before \(Self.text(time))"
            }
        }
        return nil
    }

    /// Why this CRL cannot tell `certificate`'s status as `issuer`'s CRL, or nil when it can:
    /// ``problem(issuer:at:)``, then whether the certificate is in its scope — `certificate`'s
    /// issuer Name is the CRL's, and an issuing distribution point (RFC 5280 §5.2.5, §6.3.3 (b)(2))
    /// names one of the certificate's distribution points and covers its kind (end entity or CA).
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is asked.
    ///   - issuer: the certificate of its issuer.
    ///   - time: when the CRL must be current, in seconds since 1970; nil checks no time.
    /// - Returns: the problem, in one line for a person; nil when the CRL is usable for `certificate`.
    public func problem(for certificate: Certificate, issuer: Certificate, at time: Int?) -> String? {
        if let problem = problem(issuer: issuer, at: time) { return problem }
        guard certificate.issuerDER == issuerDER else {
            return "\(certificate.subject) is not issued by the CRL's issuer"
        }
        guard let point = issuingDistributionPoint else { return nil }
        if point.onlyUserCertificates && certificate.isCA {
            return "the CRL covers end-entity certificates only, and \(certificate.subject) is a CA"
        }
        if point.onlyCACertificates && !certificate.isCA {
            return "the CRL covers CA certificates only, and \(certificate.subject) is not one"
        }
        if let names = point.names, !names.isEmpty {
            let points = certificate.crlDistributionPointNames
            if !points.isEmpty && !names.contains(where: points.contains) {
                return "the CRL's issuing distribution point is not one of \(certificate.subject)'s"
            }
        }
        return nil
    }

    // MARK: Helpers

    /// Why `issuer`'s signature over the `tbsCertList` does not verify, or nil when it does
    /// (RFC 5280 §5.1.1.2, §5.1.1.3, §6.3.3 (g)).
    func signatureProblem(issuer: Certificate) -> String? {
        guard signatureAlgorithm == tbsSignatureAlgorithm else {
            return "the CRL's signature algorithm differs from the one its tbsCertList names"
        }
        let parsed: (scheme: SignatureScheme, digest: DigestAlgorithm?, pssSaltLength: Int?)
        do {
            parsed = try SignatureScheme.parse(signatureAlgorithm)
        } catch {
            return "the CRL's signature algorithm is not supported: \(error.message)"
        }
        guard let digestAlgorithm = parsed.digest else {
            return "the CRL's signature algorithm \(signatureAlgorithm.algorithm) names no digest"
        }
        guard signature.unusedBits == 0,
            let digest = try? digestAlgorithm.hash(Array(encoded[tbsRange])),
            issuer.verify(
                signature: signature.bytes, digest: digest, digestAlgorithm: digestAlgorithm, scheme: parsed.scheme,
                saltLength: parsed.pssSaltLength)
        else { return "the CRL's signature does not verify with the key of \(issuer.subject)" }
        return nil
    }

    /// Why `issuer` may not sign CRLs, or nil when it may: a keyUsage extension without cRLSign
    /// (RFC 5280 §4.2.1.3, §6.3.3 (f)).
    static func crlSigningProblem(_ issuer: Certificate) -> String? {
        guard let found = try? issuer.extensionValue(keyUsage) else { return nil }
        var reader = DERReader(found.1)
        guard let bits = try? reader.readBitString(), reader.isAtEnd else {
            return "the key usage of \(issuer.subject) cannot be read"
        }
        // cRLSign is bit 6 (KeyUsage ::= BIT STRING, bit 0 the first octet's high bit).
        guard let first = bits.bytes.first, first & 0x02 != 0 else {
            return "the key usage of \(issuer.subject) does not allow signing CRLs (cRLSign)"
        }
        return nil
    }

    /// id-ce-keyUsage (RFC 5280 §4.2.1.3).
    private static let keyUsage: ObjectIdentifier = "2.5.29.15"

    /// `seconds` as `2026-12-09T00:00:00Z`.
    static func text(_ seconds: Int) -> String {
        let time = DERTime.components(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute)):"
            + "\(two(time.second))Z"
    }
}
