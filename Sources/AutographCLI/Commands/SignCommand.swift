import PDFCore
import PDFSigning

/// `autograph sign`: a PAdES signature as an incremental update.
enum SignCommand: Command {
    static let spec = CommandSpec(
        name: "sign",
        summary:
            "Sign a PDF (PAdES) with a PKCS#12 file, a PEM key and certificate, a PKCS#11 token or a remote signing service (CSC)",
        usage: """
            autograph sign FILE -o OUT (--p12 ID.p12 [--p12-password-file F] | --key KEY.pem [--key-password PW] --cert CERT.pem [--chain CHAIN.pem]
                   | --pkcs11 MODULE.so [--token LABEL] [--token-serial S] [--key-label L] [--key-id HEX] [--pin-file F] [--chain CHAIN.pem]
                   | --csc BASE_URL --credential ID [--csc-client-id ID --csc-secret-file F | --csc-token-file F] [--pin-file F] [--otp-file F])
                   [--field NAME] [--page N --rect x1,y1,x2,y2 | --invisible] [--reason R] [--location L] [--name N]
                   [--contact C] [--certify 1|2|3] [--lock-fields all|A,B] [--hash sha256|sha384|sha512] [--size BYTES]
                   [--level B-B|B-T|B-LT|B-LTA --tsa URL [--tsa-user U --tsa-password-file F | --tsa-token-file F]]
            """,
        positionals: 1...1,
        options: [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the signed document (required)"),
            .init(name: "key", valueName: "KEY.pem", help: "a PEM private key (with --cert)"),
            .init(name: "key-password", valueName: "PW", help: "the password of an encrypted PEM key"),
            .init(name: "cert", valueName: "CERT.pem", help: "the signer's certificate (PEM)"),
            .init(name: "chain", valueName: "CHAIN.pem", help: "intermediate and root certificates (PEM)"),
            .init(name: "pss", help: "sign RSA keys with RSA-PSS instead of PKCS#1 v1.5"),
            .init(name: "allow-expired", help: "sign even with a certificate outside its validity"),
            .init(
                name: "appearance", valueName: "APPEARANCE.json",
                help: "handwriting, name, date pattern, description, graphic, colours, fonts"),
            .init(
                name: "biometrics-cert", valueName: "CERT.pem",
                help: "encrypt the handwriting strokes to this certificate in the signed revision"),
            .init(
                name: "level", valueName: "LEVEL",
                help: "the PAdES level: B-B (default); B-T, B-LT or B-LTA with a time-stamp authority (--tsa)"),
        ] + PKCS12Options.specs + SignatureOptions.specs + TimeStampOptions.specs + PKCS11Options.specs
            + CSCOptions.connectionSpecs
            + CSCOptions.signingSpecs,
        details: """
            An existing empty signature field NAME is signed; otherwise a new field (NAME, or Signature1, 2 …) is
            made on page N at the rectangle, or invisible. Without --field, --page, --rect and --invisible the
            document's one empty signature field is signed (as pyHanko does); several are a usage error naming
            them, and a document with none gets a new invisible signature, which standard error says. The
            PKCS#12 password: --p12-password-file F (its first line) or $AUTOGRAPH_P12_PASSWORD; --p12-password
            PW works but shows to every user in ps. A container that opens with no password needs neither.
            The input stays an exact prefix of OUT; earlier signatures stay intact. With --pkcs11 the key stays in the token: only the signed attributes (RSA
            PKCS#1 v1.5) or their hash (PSS, ECDSA) reach it; the certificate is the token's object with the
            key's id (else its label). With --csc the key stays at the service (CSC API v1 or v2, discovered): the
            hash of the signed attributes goes to credentials/authorize (with the PIN of --pin-file or
            $AUTOGRAPH_CSC_PIN and the one-time password of --otp-file when the credential asks) and to
            signatures/signHash; the certificate chain is the credential's. Errors carry signoAPI codes, e.g. -123 module or token not found, -125
            wrong or locked password or PIN, -127 no such key, -147 no certificate for it, -130 bad field,
            -136 signature larger than --size, -138 expired certificate, -146 a time-stamp authority's failure.
            With --tsa the signature is B-T: the authority stamps the signature value, and the token (checked:
            its signature, its time-stamping certificate, the hash, the nonce) joins the signature. B-LT then
            adds, in a second update, the certificates of the signer's and the authority's paths with an OCSP
            response (or a CRL) for each, fetched from the addresses the certificates give; B-LTA adds a
            document time-stamp over it all (see `autograph extend`).
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        // The document, the request and the options first: a bad input or flag is reported
        // before a remote service is called or a token logged in to.
        let document = try openDocument(arguments)
        var request = try SignatureOptions.request(arguments, document: document)
        try applyAppearance(arguments, to: &request)
        let authority = try timeStampAuthority(arguments)
        let signer: any Signer
        if let remote = try await CSCOptions.signer(arguments) {
            signer = remote
        } else {
            signer =
                try PKCS11Options.signer(arguments, chain: try chainCertificates(arguments)) ?? localSigner(arguments)
        }
        var documentSigner = DocumentSigner(document: document, request: request, signer: signer)
        documentSigner.writeOptions.deterministicID = arguments.has("deterministic-id")
        documentSigner.timeStampAuthority = authority
        let configured = documentSigner
        let signed = try await configured.sign()
        let level = arguments.value("level")?.uppercased() ?? "B-B"
        // Streamed to a file beside OUT (invariant 4): the document in chunks, then the update; B-LT
        // and B-LTA append theirs, made from the signed file read back from there.
        let writer = try AtomicFileWriter(path: output)
        try signed.write(to: writer)
        if level == "B-LT" || level == "B-LTA" {
            let signedDocument = try PDFDocument(contentsOfFile: writer.temporaryPath, options: document.options)
            var validation = LongTermValidation(document: signedDocument, revocation: OnlineRevocationSource())
            validation.extraCertificates = signer.certificates
            // A signature just made: a revoked certificate on its paths stops it (−129), nothing written.
            validation.refusingRevoked = true
            let problems = try await validation.write(
                to: writer, after: signedDocument.fileSize, archivingWith: level == "B-LTA" ? authority : nil)
            for problem in problems { console.error("autograph: " + problem) }
        }
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try writer.commit(as: path)
        }
        if !arguments.has("invisible"), SignatureOptions.isInvisible(request, document: document) {
            // Nothing on any page shows it: said, since no option asked for that.
            console.error(
                "autograph sign: the signature is invisible: "
                    + (request.placement == .invisible
                        ? "the document has no empty signature field (--page N --rect x1,y1,x2,y2 shows one)"
                        : "the field '\(Console.inline(request.fieldName ?? ""))' has no visible widget"))
        }
        console.print(
            "signed field '\(signed.prepared.signature.fieldName)' by \(signer.signerName ?? "?") "
                + "(\(signed.cms.count) of \(signed.prepared.signature.capacity) bytes reserved); wrote \(output)")
        return report(document.warnings, console: console)
    }

    /// The authority for `--level` (B-T needs `--tsa`; `--tsa` alone means B-T).
    static func timeStampAuthority(_ arguments: Arguments) throws -> HTTPTimeStampAuthority? {
        let authority = try TimeStampOptions.authority(arguments)
        switch arguments.value("level")?.uppercased() {
        case nil: return authority
        case "B-B":
            guard authority == nil else { throw UsageError("--level B-B takes no --tsa: a time-stamp makes it B-T") }
            return nil
        case "B-T", "B-LT", "B-LTA":
            guard let authority else { throw UsageError("--level \(arguments.value("level") ?? "") needs --tsa URL") }
            return authority
        case let level?:
            throw UsageError("--level must be B-B, B-T, B-LT or B-LTA, not \(level.prefix(40))")
        }
    }

    /// `--appearance` and `--biometrics-cert`.
    static func applyAppearance(_ arguments: Arguments, to request: inout SignatureRequest) throws {
        if let path = arguments.value("appearance") {
            let (appearance, capture) = try AppearanceFile.read(path)
            request.appearance = appearance
            if let certificatePath = arguments.value("biometrics-cert") {
                guard let capture else { throw UsageError("--biometrics-cert needs handwriting in --appearance") }
                guard let certificate = Certificate.certificates(pem: try readFile(certificatePath)).first else {
                    throw SigningError(.biometricsCertificateUnreadable, "\(certificatePath) holds no PEM certificate")
                }
                request.biometrics = capture
                request.biometricsCertificate = certificate.derBytes
            }
        } else if arguments.value("biometrics-cert") != nil {
            throw UsageError("--biometrics-cert needs --appearance with handwriting")
        }
    }

    /// The certificates of `--chain`, for a signer whose own certificate comes from elsewhere.
    static func chainCertificates(_ arguments: Arguments) throws -> [Certificate] {
        guard arguments.value("pkcs11") != nil, let path = arguments.value("chain") else { return [] }
        let found = Certificate.certificates(pem: try readFile(path))
        guard !found.isEmpty else { throw UsageError("--chain \(path) holds no PEM certificate") }
        return found
    }

    static func localSigner(_ arguments: Arguments) throws -> LocalKeySigner {
        let scheme: SignatureScheme? = arguments.has("pss") ? .rsaPSS : nil
        if let p12 = arguments.value("p12") {
            return try LocalKeySigner(
                pkcs12: p12, password: try PKCS12Options.password(arguments), scheme: scheme,
                allowExpired: arguments.has("allow-expired"))
        }
        _ = try PKCS12Options.password(arguments)  // --p12-password… without --p12
        guard let key = arguments.value("key"), let certificate = arguments.value("cert") else {
            throw UsageError("give --p12 ID.p12, or --key KEY.pem with --cert CERT.pem")
        }
        return try LocalKeySigner(
            keyPEM: key, password: arguments.value("key-password"), certificatePEM: certificate,
            chainPEM: arguments.value("chain"), scheme: scheme, allowExpired: arguments.has("allow-expired"))
    }
}
