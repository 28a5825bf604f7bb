import AutographCrypto

/// What a response says of a certificate, and whether it may be relied on (RFC 6960 §3.2, §4.2.2.2).
extension OCSPResponse {
    /// How far apart the responder's clock and ours may be: 5 minutes either way.
    package static let clockSkew = 300

    /// What the response says of `certificate`, issued by `issuer`: the status of the single response
    /// whose CertID names it (its serial number and the issuer's Name and key hashed with SHA-1 or
    /// SHA-2); nil when the response says nothing of it. The signature is not checked: see
    /// ``problem(for:issuer:at:nonce:)``.
    public func status(of certificate: Certificate, issuer: Certificate) -> CertificateStatus? {
        singleResponse(for: certificate, issuer: issuer)?.status
    }

    /// The single response about `certificate`, issued by `issuer` (its status, thisUpdate and
    /// nextUpdate); nil when the response says nothing of it.
    public func singleResponse(for certificate: Certificate, issuer: Certificate) -> SingleResponse? {
        responses.first { $0.certificateID.identifies(certificate, issuer: issuer) }
    }

    /// Why the response cannot be relied on for `certificate`, issued by `issuer`, or nil when it can
    /// (RFC 6960 §3.2): the first problem found among
    ///
    /// - the responder's status (successful) and the response's type (basic);
    /// - `issuer` being the issuer of `certificate` (its subject Name), and the response covering
    ///   `certificate`;
    /// - the signer: the certificate the responder ID names, either `issuer` itself or a delegated
    ///   responder's certificate the response carries, which `issuer` signed, whose extended key usage
    ///   holds id-kp-OCSPSigning (RFC 6960 §4.2.2.2) and which was valid when the response was produced;
    /// - the signature over `tbsResponseData`;
    /// - with `time`: the certificate's thisUpdate not after `time`, and `time` not after its
    ///   nextUpdate when there is one, both with 5 minutes' tolerance (RFC 6960 §3.2 (5), (6));
    /// - with `nonce`: the response echoing it (RFC 6960 §4.4.1).
    ///
    /// Whether `issuer` itself is trusted (its path to a root, its own revocation) is the caller's
    /// question; a delegated responder's revocation is not checked (RFC 6960 §4.2.2.2.1: id-pkix-ocsp-nocheck).
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is relied on.
    ///   - issuer: the certificate of its issuer.
    ///   - time: the time (seconds since 1970) at which the status must be current; nil checks no time.
    ///   - nonce: the request's nonce, which the response must echo; nil checks none.
    /// - Returns: a sentence for a person, or nil.
    public func problem(
        for certificate: Certificate, issuer: Certificate, at time: Int?, nonce: [UInt8]? = nil
    ) -> String? {
        guard status == .successful else { return "the OCSP responder answered \(status)" }
        guard basicResponse != nil, let responderID, let producedAt, let signatureAlgorithm else {
            return "the OCSP response is not a basic response (\(responseType?.description ?? "no type"))"
        }
        guard certificate.issuerDER == issuer.subjectDER else {
            return "\(issuer.subject) is not the issuer of \(certificate.subject)"
        }
        guard let single = singleResponse(for: certificate, issuer: issuer) else {
            return "the OCSP response says nothing of \(certificate.subject) (serial \(certificate.serialNumber))"
        }
        guard let signer = signer(named: responderID, issuer: issuer) else {
            return "the OCSP response is signed neither by \(issuer.subject) nor by a responder certificate it carries"
        }
        if signer != issuer {
            if let delegation = Self.delegationProblem(signer, issuer: issuer, at: producedAt) { return delegation }
        }
        guard signatureUnusedBits == 0,
            signer.verifies(signature: signature, over: signedData, algorithm: signatureAlgorithm)
        else { return "the OCSP responder's signature is not valid (\(signer.subject))" }
        if let time {
            guard single.thisUpdate <= time + Self.clockSkew else {
                return "the OCSP response's thisUpdate (\(Self.timeText(single.thisUpdate))) is after "
                    + Self.timeText(time)
            }
            if let nextUpdate = single.nextUpdate, nextUpdate + Self.clockSkew < time {
                return "the OCSP response is out of date: its nextUpdate (\(Self.timeText(nextUpdate))) is before "
                    + Self.timeText(time)
            }
        }
        if let nonce {
            guard let echoed = self.nonce else { return "the OCSP response does not echo the request's nonce" }
            guard echoed == nonce else { return "the OCSP response's nonce is not the request's" }
        }
        return nil
    }

    /// The certificate the responder ID names among `issuer` and the certificates the response
    /// carries that name `issuer` as theirs; nil when none does.
    func signer(named responderID: ResponderID, issuer: Certificate) -> Certificate? {
        let candidates = [issuer] + certificates.filter { $0.issuerDER == issuer.subjectDER }
        return candidates.first { candidate in
            switch responderID {
            case .name(let name): return candidate.subjectDER == name
            case .keyHash(let hash):
                guard let key = try? candidate.signedParts().subjectPublicKey else { return false }
                return (try? DigestHasher.hash(.sha1, [key])) == hash
            }
        }
    }

    /// Why `responder` may not answer for `issuer`'s certificates, or nil when it may (RFC 6960
    /// §4.2.2.2): `issuer` signed it, its extended key usage holds id-kp-OCSPSigning, and it was
    /// valid at `producedAt`.
    static func delegationProblem(_ responder: Certificate, issuer: Certificate, at producedAt: Int) -> String? {
        guard responder.isSigned(by: issuer) else {
            return "the OCSP responder's certificate (\(responder.subject)) is not signed by \(issuer.subject)"
        }
        guard let usage = responder.extendedKeyUsage, usage.purposes.contains(.ocspSigningPurpose) else {
            return "the OCSP responder's certificate (\(responder.subject)) is not for OCSP signing (RFC 6960 §4.2.2.2)"
        }
        guard responder.notBefore - clockSkew <= producedAt, producedAt <= responder.notAfter + clockSkew else {
            return "the OCSP responder's certificate (\(responder.subject)) was not valid when it signed"
        }
        return nil
    }

    /// `2026-06-01T00:00:00Z`, for messages.
    static func timeText(_ seconds: Int) -> String {
        let time = DERTime.components(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return
            "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute)):\(two(time.second))Z"
    }
}
