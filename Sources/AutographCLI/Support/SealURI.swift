import PDFSigning

/// `serve --seal URI`: the service's seal as one URI, the other way to give what `--pkcs11 …` or
/// `--csc … --credential …` give.
///
/// - `pkcs11:token=LABEL;object=KEY-LABEL?module-path=/usr/lib/…/module.so&pin-source=file:/run/pin`:
///   a PKCS#11 URI (RFC 7512). Path attributes `token`, `serial`, `object` (the key's label), `id`
///   (the key's id, percent-encoded bytes) and `type=private`; query attributes `module-path`
///   (required) and `pin-source` (a file; `pin-value` is refused: a PIN in a command line shows in
///   `ps`). Values are percent-decoded.
/// - `csc:BASE_URL#CREDENTIAL`: a credential of a remote signing service (the fragment percent-decoded);
///   `--csc-client-id`, `--csc-secret-file` and `--pin-file` still apply.
enum SealURI {
    static let spec = CommandSpec.Option(
        name: "seal", valueName: "URI",
        help: "the seal: pkcs11:token=…;object=…?module-path=…&pin-source=… (RFC 7512) or csc:BASE_URL#CREDENTIAL")

    /// `arguments` with `--seal` replaced by the options it stands for.
    /// - Throws: `UsageError` for a URI of another scheme, an unknown or repeated attribute, a
    ///   `pin-value`, or `--seal` given with the options it replaces.
    static func expand(_ arguments: Arguments) throws -> Arguments {
        guard let uri = arguments.value("seal") else { return arguments }
        let replaced = ["pkcs11", "token", "token-serial", "key-label", "key-id", "csc", "credential"]
        if let both = replaced.first(where: { arguments.value($0) != nil }) {
            throw UsageError("give --seal or --\(both), not both")
        }
        var expanded = arguments
        expanded.options["seal"] = nil
        if uri.hasPrefix("pkcs11:") {
            for (name, value) in try pkcs11(String(uri.dropFirst(7))) { expanded.options[name] = [value] }
        } else if uri.hasPrefix("csc:") {
            let rest = uri.dropFirst(4)
            guard let hash = rest.firstIndex(of: "#"), let credential = decoded(rest[rest.index(after: hash)...]),
                !credential.isEmpty, !rest[..<hash].isEmpty
            else { throw UsageError("--seal csc: takes csc:BASE_URL#CREDENTIAL") }
            expanded.options["csc"] = [String(rest[..<hash])]
            expanded.options["credential"] = [credential]
        } else {
            throw UsageError("--seal takes a pkcs11: (RFC 7512) or csc: URI, not \(uri.prefix(40))")
        }
        return expanded
    }

    /// The options a PKCS#11 URI's attributes stand for.
    static func pkcs11(_ text: String) throws -> [(String, String)] {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var options: [(String, String)] = []
        func add(_ pairs: Substring, separator: Character, _ names: [String: String]) throws {
            for pair in pairs.split(separator: separator) {
                let fields = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard fields.count == 2, let bytes = decodedBytes(fields[1]) else {
                    throw UsageError("--seal: the PKCS#11 URI's attribute \"\(pair.prefix(40))\" is not name=value")
                }
                let name = String(fields[0])
                // An id is bytes; every other value is text.
                let value = name == "id" ? Hex.uppercase(bytes) : String(validating: bytes, as: UTF8.self)
                guard let value else {
                    throw UsageError("--seal: the PKCS#11 URI's \(name.prefix(40)) is not UTF-8 text")
                }
                if name == "type" {
                    guard value == "private" else { throw UsageError("--seal: the key's type must be private") }
                    continue
                }
                if name == "pin-value" {
                    throw UsageError(
                        "--seal: a pin-value shows in ps: give pin-source=file:PATH or $AUTOGRAPH_PKCS11_PIN")
                }
                guard let option = names[name] else {
                    throw UsageError(
                        "--seal: the PKCS#11 URI attribute \"\(name.prefix(40))\" is not one autograph takes")
                }
                guard !options.contains(where: { $0.0 == option }) else {
                    throw UsageError("--seal: the PKCS#11 URI gives \(name) twice")
                }
                options.append((option, value))
            }
        }
        try add(
            parts[0], separator: ";",
            ["token": "token", "serial": "token-serial", "object": "key-label", "id": "key-id"])
        if parts.count == 2 {
            try add(parts[1], separator: "&", ["module-path": "pkcs11", "pin-source": "pin-file"])
        }
        guard options.contains(where: { $0.0 == "pkcs11" }) else {
            throw UsageError("--seal: the PKCS#11 URI needs ?module-path=/path/to/module.so")
        }
        return options.map { name, value in
            // RFC 7512 §2.3: pin-source is a URI; a file: URI or a plain path names the file.
            guard name == "pin-file" else { return (name, value) }
            if value.hasPrefix("file://") { return (name, String(value.dropFirst(7))) }
            if value.hasPrefix("file:") { return (name, String(value.dropFirst(5))) }
            return (name, value)
        }
    }

    /// `text` percent-decoded (RFC 3986 §2.1) as UTF-8 text; nil for a broken escape or other bytes.
    static func decoded(_ text: Substring) -> String? {
        decodedBytes(text).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// `text` percent-decoded (RFC 3986 §2.1); nil for a broken escape.
    static func decodedBytes(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                    let high = Hex.value(utf8[first]), let low = Hex.value(utf8[utf8.index(after: first)])
                else { return nil }
                bytes.append(high << 4 | low)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return bytes
    }
}
