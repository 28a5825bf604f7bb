/// Certificate paths as long-term validation material needs them: from a signer (or a time-stamp
/// authority) up to a self-issued root, each certificate followed by its issuer.
enum CertificatePath {
    /// The path from `leaf` up through `pool`: each next certificate is one whose subject is the
    /// previous one's issuer (a CA's when several match); it ends at a self-issued certificate or
    /// where no issuer is found. A certificate never appears twice (a loop ends the path).
    static func build(from leaf: Certificate, pool: [Certificate]) -> [Certificate] {
        var path = [leaf]
        var current = leaf
        while current.subjectDER != current.issuerDER {
            let candidates = pool.filter { $0.subjectDER == current.issuerDER && !path.contains($0) }
            guard let issuer = candidates.first(where: \.isCA) ?? candidates.first else { break }
            path.append(issuer)
            current = issuer
        }
        return path
    }
}
