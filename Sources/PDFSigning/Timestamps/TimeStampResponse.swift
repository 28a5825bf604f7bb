/// An RFC 3161 `TimeStampResp` (§2.4.2): the authority's status and, when granted, the token.
struct TimeStampResponse: Sendable {
    /// `PKIStatus`: 0 granted, 1 granted with modifications, 2 rejection, 3 waiting, 4 and 5 revocation notices.
    var status: Int
    /// The authority's `statusString` lines.
    var text: [String]
    /// The names of the `failInfo` bits set.
    var failures: [String]
    /// The token's DER, when there is one.
    var token: [UInt8]?

    /// Whether the status grants a time-stamp.
    var isGranted: Bool { status == 0 || status == 1 }

    /// The `failInfo` bits (RFC 3161 §2.4.2) by number.
    static let failureNames: [Int: String] = [
        0: "badAlg", 2: "badRequest", 5: "badDataFormat", 14: "timeNotAvailable", 15: "unacceptedPolicy",
        16: "unacceptedExtension", 17: "addInfoNotAvailable", 25: "systemFailure",
    ]

    /// Reads a response.
    /// - Throws: `.timestampFailed` when it is not a `TimeStampResp`.
    init(der: [UInt8]) throws(SigningError) {
        var parsed: Self?
        do {
            var reader = DERReader(der)
            try reader.readSequence { (response) throws(SigningError) in
                var status = 0
                var text: [String] = []
                var failures: [String] = []
                try response.readSequence { (info) throws(SigningError) in
                    status = try info.readInt()
                    if let free = try info.readOptionalNode(.sequence) {
                        var strings = try free.contentReader()
                        while !strings.isAtEnd { text.append(try strings.readString()) }
                    }
                    if info.peekTag() == .bitString {
                        let bits = try info.readBitString()
                        for (index, byte) in bits.bytes.enumerated() {
                            for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                                failures.append(Self.failureNames[index * 8 + bit] ?? "bit \(index * 8 + bit)")
                            }
                        }
                    }
                }
                let token = try response.readOptionalNode(.sequence).map { Array($0.encoded) }
                parsed = Self(status: status, text: text, failures: failures, token: token)
            }
            try reader.finish()
        } catch {
            throw SigningError(
                .timestampFailed, "the time-stamp authority's answer is not a TimeStampResp: \(error.message)")
        }
        guard let parsed else { throw SigningError(.timestampFailed, "the time-stamp authority sent no answer") }
        self = parsed
    }

    private init(status: Int, text: [String], failures: [String], token: [UInt8]?) {
        self.status = status
        self.text = text
        self.failures = failures
        self.token = token
    }

    /// The granted token, checked against `request`.
    /// - Throws: `.timestampFailed` (−146) with the authority's status and text, or the token's problem.
    func token(answering request: TimeStampRequest) throws(SigningError) -> TimeStampToken {
        guard isGranted else {
            let names = [
                "granted", "grantedWithMods", "rejection", "waiting", "revocationWarning", "revocationNotification",
            ]
            let name = names.indices.contains(status) ? names[status] : "status \(status)"
            var message = "the time-stamp authority refused: \(name)"
            if !failures.isEmpty { message += " (\(failures.joined(separator: ", ")))" }
            if !text.isEmpty { message += ": " + text.joined(separator: " ") }
            throw SigningError(.timestampFailed, message)
        }
        guard let bytes = token else {
            throw SigningError(.timestampFailed, "the time-stamp authority granted no token")
        }
        let token: TimeStampToken
        do {
            token = try TimeStampToken(der: bytes)
        } catch {
            throw SigningError(.timestampFailed, "the time-stamp token is unreadable: \(error.message)")
        }
        try token.check(answering: request)
        return token
    }
}
