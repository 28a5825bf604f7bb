public import PDFCore

/// The error thrown by `PDFSigning`: a stable code, the signoAPI code where the seeds define one
/// (-120 … -150), and a one-line message.
public struct SigningError: AutographError, Hashable {
    /// What went wrong, as a stable code; each case says its signo code where the seeds define one.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The document could not be loaded (-120) or read (-121).
        case documentUnreadable
        /// The document is encrypted and needs a password (-122).
        case passwordRequired
        /// The key container (PKCS#12 or PEM file) is not there (-123).
        case keyContainerNotFound
        /// The key container cannot be read (-124).
        case keyContainerUnreadable
        /// The key container's password is wrong (-125).
        case wrongKeyContainerPassword
        /// The key container's format is not supported (-126).
        case unsupportedKeyContainer
        /// The key container holds no private key (-127).
        case noPrivateKey
        /// The private key cannot be found or does not match the certificate (-133).
        case privateKeyNotFound
        /// The signer's certificate cannot be read (-134).
        case certificateUnreadable
        /// The signer's certificate has expired or is not yet valid (-138).
        case certificateExpired
        /// The key container holds no certificate for the key (-147).
        case certificateNotFound
        /// Writing the signed document failed (-128).
        case writeFailed
        /// Signing failed: the signer refused or failed, or the CMS is not for this document (-129).
        case signingFailed
        /// The biometrics certificate cannot be read (-131).
        case biometricsCertificateUnreadable
        /// The captured handwriting is too short to be a signature (-132).
        case captureTooShort
        /// The signature field name is not usable: not a signature field, already signed, or unknown with no placement (-130).
        case invalidFieldName
        /// The CMS is larger than the space reserved for it (-136).
        case signatureTooLarge
        /// The form asks viewers to make appearances (-137).
        case needAppearances
        /// The cross-reference information does not allow an update (-145).
        case xrefProblem
        /// A time-stamp could not be obtained or checked (-146).
        case timestampFailed
        /// Revocation information (a CRL, an OCSP response) could not be obtained or is not usable:
        /// unreachable, unreadable, wrongly signed or stale (-129; the seeds define no code for it).
        case revocationCheckFailed
        /// The signer (a person or a delegate) cancelled.
        case cancelled
        /// An argument is invalid (an unknown algorithm, a bad rectangle …).
        case invalidArgument
        /// DER or CMS data is malformed.
        case malformedData
        /// The algorithm is not supported.
        case unsupportedAlgorithm
        /// The change would break a valid certification (DocMDP) or field lock (FieldMDP) of the
        /// document; nothing was written (-129).
        case certificationViolated
    }

    /// What went wrong; equality and hashing compare this alone.
    public var code: Code
    /// What went wrong, in one line for a person.
    public var message: String
    /// The core error this one wraps, when it comes from reading or writing the document.
    public var underlying: (any Error)?

    /// An error of the given kind with its message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Wraps a core error, keeping its signo code's meaning.
    public init(_ error: PDFError) {
        switch error.code {
        case .passwordRequired, .wrongPassword: self.init(.passwordRequired, error.description)
        case .writeFailed: self.init(.writeFailed, error.description)
        case .xref: self.init(.xrefProblem, error.description)
        default: self.init(.documentUnreadable, error.description)
        }
        underlying = error
    }

    /// The signoAPI error code (STSignoInfoDelegate, -120 … -150).
    public var signoCode: Int {
        switch code {
        case .documentUnreadable: -121
        case .passwordRequired: -122
        case .keyContainerNotFound: -123
        case .keyContainerUnreadable: -124
        case .wrongKeyContainerPassword: -125
        case .unsupportedKeyContainer: -126
        case .noPrivateKey: -127
        case .writeFailed: -128
        case .signingFailed, .cancelled, .invalidArgument, .malformedData, .unsupportedAlgorithm,
            .certificationViolated, .revocationCheckFailed:
            -129
        case .invalidFieldName: -130
        case .biometricsCertificateUnreadable: -131
        case .captureTooShort: -132
        case .privateKeyNotFound: -133
        case .certificateUnreadable: -134
        case .signatureTooLarge: -136
        case .needAppearances: -137
        case .certificateExpired: -138
        case .xrefProblem: -145
        case .timestampFailed: -146
        case .certificateNotFound: -147
        }
    }

    /// The code's raw value (`AutographError/codeName`).
    public var codeName: String { code.rawValue }

    /// ``signoCode``: every signing error has one.
    public var seedCode: Int? { signoCode }

    /// What kind of failure the code is: the document, the key container or an argument for most;
    /// signing itself and writing are internal.
    public var category: ErrorCategory {
        switch code {
        case .documentUnreadable, .passwordRequired, .keyContainerUnreadable, .wrongKeyContainerPassword,
            .noPrivateKey, .privateKeyNotFound, .certificateUnreadable, .certificateExpired, .certificateNotFound,
            .biometricsCertificateUnreadable, .captureTooShort, .invalidFieldName, .xrefProblem, .invalidArgument,
            .malformedData:
            .badInput
        case .keyContainerNotFound: .notFound
        case .unsupportedKeyContainer, .unsupportedAlgorithm: .unsupported
        case .signatureTooLarge: .tooLarge
        case .needAppearances, .certificationViolated: .conflict
        case .timestampFailed, .revocationCheckFailed: .unavailable
        case .cancelled: .cancelled
        case .writeFailed, .signingFailed: .internal
        }
    }

    /// The message.
    public var description: String { message }

    /// True when both errors have the same `code`, whatever their messages.
    public static func == (lhs: SigningError, rhs: SigningError) -> Bool { lhs.code == rhs.code }
    /// Hashes the `code` alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
