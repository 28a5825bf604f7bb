import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFSigning

/// `autograph watermark`: a title (and the date) across every page.
enum WatermarkCommand: Command {
    static let spec = CommandSpec(
        name: "watermark",
        summary: "Draw a watermark (title and date) across every page, as an incremental update",
        usage:
            "autograph watermark FILE -o OUT --title T [--rotation DEG] [--date-pattern P] [--no-date] [--color #RRGGBB] [--opacity O]",
        positionals: 1...1,
        options: watermarkOptions + [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the document (required)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ])

    static let watermarkOptions: [CommandSpec.Option] = [
        .init(name: "title", valueName: "T", help: "the watermark's text (required)"),
        .init(name: "rotation", valueName: "DEG", help: "degrees counter-clockwise as the page is seen (45)"),
        .init(name: "date-pattern", valueName: "P", help: "the date pattern (yyyy-MM-dd HH:mm zzz)"),
        .init(name: "no-date", help: "leave the date out"),
        .init(name: "color", valueName: "#RRGGBB", help: "the colour (#CC1A1A)"),
        .init(name: "opacity", valueName: "O", help: "from 0 to 1 (0.35)"),
    ]

    static func appearance(_ arguments: Arguments) throws -> WatermarkAppearance {
        guard let title = arguments.value("title") else { throw UsageError("--title T is required") }
        var appearance = WatermarkAppearance(title: title)
        if let rotation = arguments.value("rotation") {
            guard let value = Double(rotation), value.isFinite else { throw UsageError("--rotation wants degrees") }
            appearance.rotation = value
        }
        if let pattern = arguments.value("date-pattern") { appearance.datePattern = DatePattern(pattern) }
        if arguments.has("no-date") { appearance.showsDate = false }
        if let color = arguments.value("color") { appearance.color = try AppearanceFile.color(color) }
        if let opacity = arguments.value("opacity") {
            guard let value = Double(opacity), (0...1).contains(value) else {
                throw UsageError("--opacity wants 0 … 1")
            }
            appearance.opacity = value
        }
        return appearance
    }

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let document = try openDocument(arguments)
        var watermarker = Watermarker(document: document, appearance: try appearance(arguments))
        watermarker.writeOptions.deterministicID = false
        let update = try watermarker.makeUpdate()
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try update.write(to: path)
        }
        console.print("watermarked \(document.pageCount) pages; wrote \(output)")
        return report(document.warnings, console: console)
    }
}

/// `autograph refuse`: the refusal flow: a watermark on every page, then an invisible signature with reason "refused".
enum RefuseCommand: Command {
    static let spec = CommandSpec(
        name: "refuse",
        summary: "Refuse a document: a watermark on every page, then an invisible signature with reason \"refused\"",
        usage:
            "autograph refuse FILE -o OUT --title T (--p12 ID.p12 [--p12-password-file F] | --key KEY.pem --cert CERT.pem) [watermark options]",
        positionals: 1...1,
        options: WatermarkCommand.watermarkOptions + [
            CertificationGuard.forceOption,
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the refused document (required)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
            .init(name: "key", valueName: "KEY.pem", help: "a PEM private key (with --cert)"),
            .init(name: "key-password", valueName: "PW", help: "the password of an encrypted PEM key"),
            .init(name: "cert", valueName: "CERT.pem", help: "the signer's certificate (PEM)"),
            .init(name: "chain", valueName: "CHAIN.pem", help: "intermediate and root certificates (PEM)"),
            .init(name: "pss", help: "sign RSA keys with RSA-PSS"),
            .init(name: "allow-expired", help: "sign even with a certificate outside its validity"),
        ] + PKCS12Options.specs)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let signer = try SignCommand.localSigner(arguments)
        let document = try openDocument(arguments)
        let watermarked = try Watermarker(document: document, appearance: try WatermarkCommand.appearance(arguments))
            .makeUpdate().documentBytes()
        let base = try PDFDocument(bytes: watermarked, options: document.options)
        var request = SignatureRequest(placement: .invisible)
        request.reason = "refused"
        let documentSigner = DocumentSigner(document: base, request: request, signer: signer)
        let signed = try await documentSigner.sign()
        try CertificationGuard.write(document, to: output, arguments: arguments, console: console) { path in
            try signed.write(to: path)
        }
        console.print(
            "refused: watermark on \(base.pageCount) pages, invisible signature '\(signed.prepared.signature.fieldName)'; wrote \(output)"
        )
        return report(document.warnings, console: console)
    }
}

/// `autograph biometrics`: reads back the handwriting stored with a signature.
enum BiometricsCommand: Command {
    static let spec = CommandSpec(
        name: "biometrics",
        summary: "Decrypt and print the handwriting strokes stored with a signature",
        usage:
            "autograph biometrics FILE --key KEY.pem [--key-password PW] [--cert CERT.pem] [--field NAME] [--password P]",
        positionals: 1...1,
        options: [
            .init(name: "key", valueName: "KEY.pem", help: "the biometrics certificate's private key (required)"),
            .init(name: "key-password", valueName: "PW", help: "the key's password"),
            .init(name: "cert", valueName: "CERT.pem", help: "the biometrics certificate (finds the recipient faster)"),
            .init(
                name: "field", valueName: "NAME", help: "the signature field (the first with biometric data by default)"
            ),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let keyPath = arguments.value("key") else { throw UsageError("--key KEY.pem is required") }
        let key = try PrivateKey(pem: try readFile(keyPath), password: arguments.value("key-password"))
        let certificate = try arguments.value("cert").flatMap { Certificate.certificates(pem: try readFile($0)).first }
        let document = try openDocument(arguments)
        let (field, json) = try BiometricReader.read(
            document, fieldName: arguments.value("field"), key: key, certificate: certificate)
        console.print("field '\(field)':")
        console.print(String(decoding: json, as: UTF8.self))
        return .success
    }
}
