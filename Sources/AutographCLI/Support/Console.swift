#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: the process's standard streams, or buffers when run in process by tests.
public final class Console: @unchecked Sendable {
    private let capture: Bool
    /// What was written to standard output (captured consoles only).
    public private(set) var output = ""
    /// What was written to standard error (captured consoles only).
    public private(set) var errors = ""

    private init(capture: Bool) { self.capture = capture }

    /// A console that writes to the process's standard output and error.
    public static func standard() -> Console { Console(capture: false) }

    /// A console that keeps what is written, for tests.
    public static func captured() -> Console { Console(capture: true) }

    func print(_ text: String = "") {
        let text = Self.printable(text)
        if capture {
            output += text + "\n"
        } else {
            Console.write(text + "\n", to: 1)
        }
    }

    func error(_ text: String) {
        let text = Self.printable(text)
        if capture {
            errors += text + "\n"
        } else {
            Console.write(text + "\n", to: 2)
        }
    }

    /// A value from a document or a request shown within a line (a field's name or value, a
    /// signer's name, a reason): every control character — line breaks and tabs too, which would
    /// start a forged line of the report — and every invisible formatting character (bidirectional
    /// overrides reorder what a terminal shows), line and paragraph separator, written `\u{…}`.
    static func inline(_ text: String) -> String {
        func hidden(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if hidden(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// `text` with the control characters a terminal would act on (escape sequences that move the
    /// cursor, retitle the window, hide or rewrite what was printed) shown as `\u{1B}` instead:
    /// field names, values, metadata and signers' names come from documents and requests. Tabs,
    /// line feeds, form feeds (between pages of `autograph text`) and carriage returns stay.
    static func printable(_ text: String) -> String {
        func acted(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0C && value != 0x0D)
                || (0x7F...0x9F).contains(value)
        }
        guard text.unicodeScalars.contains(where: acted) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if acted(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}

extension Console {
    /// Writes straight to a file descriptor (no stdio buffering, so output and errors interleave in order).
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

/// The exit codes of `autograph`.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    /// The command succeeded but the input had damage that was repaired.
    case successWithWarnings = 3
    /// `verify`: every signature is intact and nothing changed since that is not allowed, but at
    /// least one signer is not trusted (the verdict `untrusted`).
    case signerNotTrusted = 4
}
