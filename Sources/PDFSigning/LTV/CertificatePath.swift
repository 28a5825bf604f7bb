/// Certificate paths as long-term validation material needs them: from a signer (or a time-stamp
/// authority) up to a self-issued root, each certificate followed by its issuer.
enum CertificatePath {
    /// The path from `leaf` up through `pool`: each next certificate is one whose subject is the
    /// previous one's issuer (a CA's when several match; with `verifying`, first one whose key
    /// verifies the previous one's signature); it ends at a self-issued certificate or where no
    /// issuer is found. A certificate never appears twice (a loop ends the path).
    static func build(from leaf: Certificate, pool: [Certificate], verifying: Bool = false) -> [Certificate] {
        var path = [leaf]
        var current = leaf
        while current.subjectDER != current.issuerDER {
            let candidates = pool.filter { $0.subjectDER == current.issuerDER && !path.contains($0) }
            let signer = verifying ? candidates.first { current.isSigned(by: $0) } : nil
            guard let issuer = signer ?? candidates.first(where: \.isCA) ?? candidates.first else { break }
            path.append(issuer)
            current = issuer
        }
        return path
    }

    /// For each certificate of `path` (each followed by its issuer), whether it leads to one of
    /// `anchors`: it is an anchor (the same DER), or its issuer, next in the path, signed it and
    /// leads to one. What a certificate that does not names (OCSP, CRL and caIssuers addresses) is
    /// an address whoever made it chose.
    static func anchored(_ path: [Certificate], to anchors: [Certificate]) -> [Bool] {
        var result = [Bool](repeating: false, count: path.count)
        for index in path.indices.reversed() {
            let certificate = path[index]
            if anchors.contains(where: { $0.derBytes == certificate.derBytes }) {
                result[index] = true
            } else if index + 1 < path.count, result[index + 1], certificate.isSigned(by: path[index + 1]) {
                result[index] = true
            }
        }
        return result
    }
}
