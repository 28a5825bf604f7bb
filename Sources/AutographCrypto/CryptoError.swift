import COpenSSL

/// What AutographCrypto was doing when it failed. The same names select the calls that
/// `CryptoFaults` makes fail in tests.
package enum CryptoOperation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Random bytes (`RAND_bytes`).
    case random
    /// A message digest (MD5, SHA-1, SHA-2).
    case digest
    /// AES in CBC mode (PDF encryption).
    case aesCBC
    /// AES-256-GCM (the session store's records).
    case aesGCM
    /// HKDF-SHA-256 key derivation.
    case hkdf
    /// A message authentication code (HMAC).
    case mac
    /// Reading a private key.
    case keyReading
    /// Generating a key pair.
    case keyGeneration
    /// Writing a private key as PKCS#8.
    case keyWriting
    /// Signing a digest with a private key.
    case signing
    /// Checking a signature with a public key.
    case verification
    /// Reading an X.509 certificate.
    case certificateReading
    /// Building and signing an X.509 certificate.
    case certificateBuilding
    /// Building and checking a certificate path against trust anchors.
    case pathValidation
    /// Opening a PKCS#12 container.
    case pkcs12
    /// Enveloping data for a certificate or opening an envelope (CMS).
    case envelope
    /// Making a CMS SignedData with OpenSSL's own CMS code (a test oracle).
    case cmsSigning

    package var description: String { rawValue }

    /// Starts an operation: empties OpenSSL's queue, so its errors are the only ones reported if it
    /// fails, then lets `CryptoFaults` fail it.
    @inline(__always)
    static func begin(_ operation: CryptoOperation) throws(CryptoError) {
        ErrorQueue.clear()
        try CryptoFaults.check(operation)
    }
}

/// One entry of OpenSSL's error queue: its packed code and its one-line text.
package struct OpenSSLError: Hashable, Sendable, CustomStringConvertible {
    /// The packed error code (`ERR_get_error`); 0 for an injected failure.
    package var code: UInt
    /// `ERR_error_string_n`'s text ("error:1E08010C:DECODER routines::unsupported").
    package var text: String

    package init(code: UInt, text: String) {
        self.code = code
        self.text = text
    }

    /// The library that raised it (`ERR_LIB_EVP` …).
    package var library: Int32 { ERR_GET_LIB(code) }
    /// The library's reason code.
    package var reason: Int32 { ERR_GET_REASON(code) }

    package var description: String { text }

    /// Whether it says an algorithm is unknown or not available, rather than that data is wrong.
    package var isUnsupportedAlgorithm: Bool {
        guard code != 0 else { return false }
        if reason == ERR_R_UNSUPPORTED { return true }
        switch library {
        case ERR_LIB_EVP:
            return [
                EVP_R_UNKNOWN_CIPHER, EVP_R_UNKNOWN_DIGEST, EVP_R_UNKNOWN_PBE_ALGORITHM, EVP_R_UNSUPPORTED_ALGORITHM,
                EVP_R_UNSUPPORTED_CIPHER, EVP_R_UNSUPPORTED_KEYLENGTH, EVP_R_UNSUPPORTED_KEY_DERIVATION_FUNCTION,
                EVP_R_UNSUPPORTED_PRF, EVP_R_UNSUPPORTED_PRIVATE_KEY_ALGORITHM, EVP_R_UNSUPPORTED_KEY_SIZE,
                EVP_R_UNSUPPORTED_SALT_TYPE, EVP_R_UNSUPPORTED_KEY_TYPE,
            ].contains(reason)
        case ERR_LIB_PKCS12:
            return [PKCS12_R_UNKNOWN_DIGEST_ALGORITHM, PKCS12_R_UNSUPPORTED_PKCS12_MODE].contains(reason)
        default:
            return false
        }
    }
}

/// The one error of AutographCrypto: which operation failed, at which call, and what OpenSSL
/// queued about it.
///
/// The queue is read (and emptied) right after the failing call (STYLE rule 10), so no stale error
/// is blamed on a later call and nothing is left behind for the next operation on this thread.
/// Each module turns it into its own error (`PDFError`, `SigningError`, `SessionError`), keeping
/// its message and appending `openSSLText`.
package struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done.
    package var operation: CryptoOperation
    /// The OpenSSL function that failed (`"EVP_DigestInit_ex"`), or the Swift function that refused
    /// its arguments; `"injected"` for a failure made by `CryptoFaults`.
    package var function: String
    /// Why AutographCrypto refused before calling OpenSSL (a key that cannot use a scheme, an AES
    /// key of the wrong size); nil when OpenSSL failed.
    package var reason: String?
    /// OpenSSL's queued errors about the failure, oldest first (at most 16).
    package var queue: [OpenSSLError]

    package init(_ operation: CryptoOperation, function: String, reason: String? = nil, queue: [OpenSSLError] = []) {
        self.operation = operation
        self.function = function
        self.reason = reason
        self.queue = queue
    }

    /// The failure of `function`, with the queue drained now.
    static func drained(_ operation: CryptoOperation, _ function: String) -> CryptoError {
        CryptoError(operation, function: function, queue: ErrorQueue.drain())
    }

    /// A refusal before any OpenSSL call (the queue is left alone: nothing was queued).
    static func refused(_ operation: CryptoOperation, _ function: String, _ reason: String) -> CryptoError {
        CryptoError(operation, function: function, reason: reason)
    }

    /// Whether `CryptoFaults` made this failure.
    package var isInjected: Bool { function == CryptoFaults.injectedFunction }

    /// The queue's texts joined with "; " (empty when nothing was queued).
    package var openSSLText: String { queue.map(\.text).joined(separator: "; ") }

    /// `message` followed by " (OpenSSL: …)" when something was queued: how the modules word
    /// their errors.
    package func annotating(_ message: String) -> String { queue.annotating(message) }

    /// Whether a queued error says an algorithm is unknown or unavailable.
    package var isUnsupportedAlgorithm: Bool { queue.contains(where: \.isUnsupportedAlgorithm) }

    package var description: String {
        annotating("\(operation): " + (reason ?? "\(function) failed"))
    }
}

/// OpenSSL's thread-local error queue.
package enum ErrorQueue {
    /// Removes every queued error and returns the first 16, oldest first.
    package static func drain() -> [OpenSSLError] {
        var entries: [OpenSSLError] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            guard entries.count < 16 else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            entries.append(OpenSSLError(code: code, text: text))
        }
        return entries
    }

    /// Empties the queue: after a failure that is an answer (a signature that does not verify, the
    /// end of PEM text), not an error.
    package static func clear() {
        ERR_clear_error()
    }
}

extension [OpenSSLError] {
    /// `message` followed by " (OpenSSL: text; text …)" when the array is not empty.
    package func annotating(_ message: String) -> String {
        isEmpty ? message : message + " (OpenSSL: " + map(\.text).joined(separator: "; ") + ")"
    }
}
