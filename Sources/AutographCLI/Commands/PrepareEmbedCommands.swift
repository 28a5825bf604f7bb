import AutographJSON
import PDFCore
import PDFSigning

/// `autograph prepare`: a document ready for a signature made elsewhere; prints the digest.
enum PrepareCommand: Command {
    static let spec = CommandSpec(
        name: "prepare",
        summary:
            "Prepare a signature for a CMS made elsewhere: writes the prepared PDF and its state, prints the digest",
        usage:
            "autograph prepare FILE -o PREPARED.pdf --state STATE.json [--cert CERT.pem [--chain CHAIN.pem]] [field options as for sign]",
        positionals: 1...1,
        options: [
            .init(
                name: "output", short: "o", valueName: "PREPARED.pdf",
                help: "where to write the prepared document (required)"),
            .init(name: "state", valueName: "STATE.json", help: "where to write the prepared state (required)"),
            .init(name: "cert", valueName: "CERT.pem", help: "the signer's certificate: its name and a size estimate"),
            .init(name: "chain", valueName: "CHAIN.pem", help: "the chain, for the size estimate"),
            .init(name: "document-id", valueName: "ID", help: "an identity for the document, kept in the state"),
        ] + SignatureOptions.specs,
        details: """
            Send the digest to the signing backend; embed the CMS it returns with autograph embed. Without --size
            the space reserved is estimated from --cert/--chain, or 32768 bytes.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o PREPARED.pdf is required") }
        guard let statePath = arguments.value("state") else { throw UsageError("--state STATE.json is required") }
        let document = try openDocument(arguments)
        let request = try SignatureOptions.request(arguments, document: document)
        var certificates: [Certificate] = []
        for path in [arguments.value("cert"), arguments.value("chain")].compactMap({ $0 }) {
            certificates += Certificate.certificates(pem: try readFile(path))
        }
        let estimator = ExternalCMSSigner(
            certificates: certificates, estimatedSize: certificates.isEmpty ? 32_768 : nil
        ) { _, _ in nil }
        var preparer = SignaturePreparer(document: document, request: request)
        preparer.writeOptions.deterministicID = arguments.has("deterministic-id")
        preparer.documentID = arguments.value("document-id")
        let prepared = try preparer.prepare(
            contentsSize: request.contentsSize ?? estimator.estimatedSize, signerName: estimator.signerName)
        try prepared.write(to: output)
        try writeFile(statePath, PreparedState.json(prepared.signature).prettyText + "\n")
        console.print("digest (\(prepared.signature.digestAlgorithm.rawValue), hex): \(prepared.signature.digestHex)")
        console.print("digest (base64): \(Base64.encode(prepared.signature.digest))")
        console.print("wrote \(output) and \(statePath); \(prepared.signature.capacity) bytes reserved for the CMS")
        return report(document.warnings, console: console)
    }
}

/// `autograph embed`: puts a CMS into a prepared document.
enum EmbedCommand: Command {
    static let spec = CommandSpec(
        name: "embed",
        summary: "Embed a CMS (DER or PEM) into a document prepared by autograph prepare",
        usage: "autograph embed PREPARED.pdf --state STATE.json --cms SIG.p7s -o OUT",
        positionals: 1...1,
        options: [
            .init(name: "state", valueName: "STATE.json", help: "the state written by prepare (required)"),
            .init(name: "cms", valueName: "SIG.p7s", help: "the detached CMS SignedData, DER or PEM (required)"),
            .init(name: "output", short: "o", valueName: "OUT", help: "where to write the signed document (required)"),
        ],
        details: """
            The prepared file must be unchanged and the CMS's messageDigest must be its digest; a CMS larger than the
            space reserved fails with signo -136 and the size to prepare again with.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let statePath = arguments.value("state") else { throw UsageError("--state STATE.json is required") }
        guard let cmsPath = arguments.value("cms") else { throw UsageError("--cms SIG.p7s is required") }
        guard let output = arguments.value("output") else { throw UsageError("-o OUT is required") }
        let state = try PreparedState.parse(String(decoding: try readFile(statePath), as: UTF8.self))
        let cms = PEM.decode(try readFile(cmsPath))
        try SignatureEmbedder.embed(cms: cms, into: arguments.positionals[0], state: state, writingTo: output)
        console.print("embedded a \(cms.count)-byte CMS into field '\(state.fieldName)'; wrote \(output)")
        return .success
    }
}

/// The prepared state as JSON, written by `prepare` and read by `embed`.
enum PreparedState {
    static func json(_ state: PreparedSignature) -> JSONValue {
        var object: [String: JSONValue] = [
            "fieldName": .string(state.fieldName), "byteRange": .array(state.byteRange.map { .int($0) }),
            "contentsOffset": .int(state.contentsOffset), "contentsHexLength": .int(state.contentsHexLength),
            "digestAlgorithm": .string(state.digestAlgorithm.rawValue), "digest": .string(state.digestHex),
            "fileSize": .int(state.fileSize), "subFilter": .string(state.subFilter.rawValue),
        ]
        if let documentID = state.documentID { object["documentID"] = .string(documentID) }
        return .object(sortingKeys: object)
    }

    static func parse(_ text: String) throws -> PreparedSignature {
        let json = try parseJSON(Array(text.utf8))
        guard let fieldName = json["fieldName"]?.stringValue,
            let byteRange = json["byteRange"]?.arrayValue?.compactMap(\.intValue), byteRange.count == 4,
            let contentsOffset = json["contentsOffset"]?.intValue,
            let contentsHexLength = json["contentsHexLength"]?.intValue,
            let algorithm = json["digestAlgorithm"]?.stringValue.flatMap(DigestAlgorithm.init(rawValue:)),
            let digest = json["digest"]?.stringValue.flatMap(Hex.decode), let fileSize = json["fileSize"]?.intValue,
            let subFilter = json["subFilter"]?.stringValue.flatMap(SignatureRequest.SubFilter.init(rawValue:))
        else { throw UsageError("the state file is not a prepared state written by autograph prepare") }
        return PreparedSignature(
            documentID: json["documentID"]?.stringValue, fieldName: fieldName, byteRange: byteRange,
            contentsOffset: contentsOffset, contentsHexLength: contentsHexLength, digestAlgorithm: algorithm,
            digest: digest,
            fileSize: fileSize, subFilter: subFilter)
    }
}

func readFile(_ path: String) throws -> [UInt8] {
    let source = try ByteSource(contentsOfFile: path)
    return withExtendedLifetime(source) { Array(source.buffer) }
}

func writeFile(_ path: String, _ text: String) throws {
    try writeFile(path, Array(text.utf8))
}

/// Writes `bytes` atomically (a temporary file, fsync, rename).
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let writer = try AtomicFileWriter(path: path)
    try writer.write(bytes)
    try writer.commit()
}

/// Reads DER, or the base64 body of a PEM block (`-----BEGIN PKCS7-----` / `CMS`).
enum PEM {
    static func decode(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: Array("-----BEGIN".utf8)) else { return bytes }
        let lines = bytes.split(separator: 0x0A).filter { !$0.starts(with: Array("-----".utf8)) }
        return Base64.decode(Array(lines.joined()))
    }

    /// A PEM block of `der` with the base64 body in lines of 64 characters.
    static func encode(_ der: [UInt8], label: String) -> String {
        let body = Array(Base64.encode(der))
        var text = "-----BEGIN \(label)-----\n"
        for start in stride(from: 0, to: body.count, by: 64) {
            text += String(body[start..<min(start + 64, body.count)]) + "\n"
        }
        return text + "-----END \(label)-----\n"
    }
}
