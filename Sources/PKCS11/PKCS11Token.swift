internal import CPKCS11
import Dispatch
import Synchronization

/// A token (a slot with a token in it) of a loaded module, with a pool of its sessions: each
/// operation takes a session nobody else is using (opening one when none is free) and gives it back,
/// so several threads sign at once on sessions of their own (PKCS#11 v2.40 §2.6.7). The user's login
/// belongs to the token for the whole application (§2.6.5): it is done once.
package final class PKCS11Token: Sendable {
    package let module: PKCS11Module
    package let info: PKCS11TokenInfo
    private let idle = Mutex<[CK_SESSION_HANDLE]>([])

    /// The objects a token holds, by class (`CKO_…`).
    package enum ObjectClass: UInt, Sendable {
        case certificate = 1
        case publicKey = 2
        case privateKey = 3
    }

    /// An object found on the token: its handle, label and id.
    package struct Object: Sendable {
        package var handle: UInt
        package var objectClass: ObjectClass
        package var label: String
        package var id: [UInt8]
    }

    /// How a key signs (PKCS#11 v2.40 Current Mechanisms §2.1, §2.3).
    package enum Mechanism: Sendable {
        /// `CKM_SHA256_RSA_PKCS` and its SHA-384 and SHA-512 kin: the token hashes the data and signs
        /// with PKCS#1 v1.5. `bits`: 256, 384 or 512.
        case rsaPKCS(hashBits: Int)
        /// `CKM_RSA_PKCS_PSS` over a hash the caller made: MGF1 with the same hash, a salt as long.
        case rsaPSS(hashBits: Int)
        /// `CKM_ECDSA` over a hash the caller made: the raw `r‖s`.
        case ecdsa
        /// `CKM_RSA_PKCS` over a DigestInfo the caller made (RFC 8017 §9.2), for tokens that do not
        /// hash themselves.
        case rsaPKCSRaw
    }

    /// The token in `module` whose label is `label` (or whose serial number is `serial`); the first
    /// token when neither is given.
    /// - Throws: `PKCS11Error` when no token matches (the tokens present are named).
    package init(module: PKCS11Module, label: String?, serial: String?) throws(PKCS11Error) {
        var seen: [PKCS11TokenInfo] = []
        for slot in try module.slots() {
            let info = try module.token(in: slot)
            guard info.initialized else { continue }
            seen.append(info)
            if (label == nil || info.label == label) && (serial == nil || info.serialNumber == serial) {
                self.module = module
                self.info = info
                return
            }
        }
        let wanted = [label.map { "label '\($0)'" }, serial.map { "serial '\($0)'" }].compactMap { $0 }
        let present = seen.map { "'\($0.label)' (serial \($0.serialNumber))" }.joined(separator: ", ")
        throw PKCS11Error(
            message: "no token with \(wanted.joined(separator: " and ")) in \(module.path)"
                + (present.isEmpty ? "; no token is present" : "; present: \(present)"))
    }

    /// Logs the user in with `pin` (a second login of the application is not an error).
    /// - Throws: `PKCS11Error` (``PKCS11Error/isWrongPIN``, ``PKCS11Error/isPINLocked``).
    ///
    /// The login is the whole process's (PKCS#11 v2.40 §2.6.5): once one caller logged the token in,
    /// a later `C_Login` only answers "already logged in", whatever PIN it carries. So the PIN that
    /// logged the token in is kept, and a later caller's is compared with it: a wrong PIN fails even
    /// when the token is open. A token logged in by someone else (unknown PIN) is logged out and in
    /// again with this one.
    package func login(pin: String) throws(PKCS11Error) {
        let bytes = Array(pin.utf8)
        try module.logins.withLock { (logins) throws(PKCS11Error) in
            if let known = logins[info.slot] {
                guard Self.equal(known, bytes) else { throw PKCS11Error("C_Login", PKCS11.pinIncorrect) }
                return
            }
            try withSession { (session) throws(PKCS11Error) in
                let functions = module.functions.pointee
                guard let login = functions.C_Login else { throw PKCS11Module.missing("C_Login") }
                var input = bytes
                var value = login(session, PKCS11.user, &input, CK_ULONG(input.count))
                if value == PKCS11.userAlreadyLoggedIn, let logout = functions.C_Logout {
                    _ = logout(session)
                    value = login(session, PKCS11.user, &input, CK_ULONG(input.count))
                }
                try module.check("C_Login", value)
            }
            logins[info.slot] = bytes
        }
    }

    /// Whether the process logged the user in to this token.
    package var isLoggedIn: Bool { module.logins.withLock { $0[info.slot] != nil } }

    /// Compares without stopping at the first difference.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The objects of `objectClass` whose label is `label` and id is `id` (each when given).
    package func objects(
        _ objectClass: ObjectClass, label: String? = nil, id: [UInt8]? = nil
    ) throws(PKCS11Error) -> [Object] {
        try withSession { (session) throws(PKCS11Error) in
            let functions = module.functions.pointee
            guard let findInit = functions.C_FindObjectsInit, let find = functions.C_FindObjects,
                let findFinal = functions.C_FindObjectsFinal
            else { throw PKCS11Module.missing("C_FindObjects") }
            var handles: [UInt] = []
            var classValue = CK_OBJECT_CLASS(objectClass.rawValue)
            var labelBytes = Array((label ?? "").utf8)
            var idBytes = id ?? []
            let value: CK_RV = withUnsafeMutableBytes(of: &classValue) { classPointer in
                labelBytes.withUnsafeMutableBytes { labelPointer in
                    idBytes.withUnsafeMutableBytes { idPointer in
                        var template = [
                            CK_ATTRIBUTE(
                                type: Attribute.objectClass, pValue: classPointer.baseAddress,
                                ulValueLen: CK_ULONG(classPointer.count))
                        ]
                        if label != nil {
                            template.append(
                                CK_ATTRIBUTE(
                                    type: Attribute.label, pValue: labelPointer.baseAddress,
                                    ulValueLen: CK_ULONG(labelPointer.count)))
                        }
                        if id != nil {
                            template.append(
                                CK_ATTRIBUTE(
                                    type: Attribute.id, pValue: idPointer.baseAddress,
                                    ulValueLen: CK_ULONG(idPointer.count)))
                        }
                        return findInit(session, &template, CK_ULONG(template.count))
                    }
                }
            }
            try module.check("C_FindObjectsInit", value)
            defer { _ = findFinal(session) }
            var batch = [CK_OBJECT_HANDLE](repeating: 0, count: 32)
            // A module that never says "no more" stops at 4096 objects.
            while handles.count < 4096 {
                var count: CK_ULONG = 0
                try module.check("C_FindObjects", find(session, &batch, CK_ULONG(batch.count), &count))
                guard count > 0 else { break }
                handles += batch.prefix(Int(min(count, CK_ULONG(batch.count))))
            }
            var found: [Object] = []
            for handle in handles {
                let label = try attribute(Attribute.label, of: handle, session: session).map {
                    String(decoding: $0, as: UTF8.self)
                }
                let id = try attribute(Attribute.id, of: handle, session: session)
                found.append(Object(handle: handle, objectClass: objectClass, label: label ?? "", id: id ?? []))
            }
            return found
        }
    }

    /// A certificate object's DER (`CKA_VALUE`).
    package func value(of object: Object) throws(PKCS11Error) -> [UInt8]? {
        try withSession { (session) throws(PKCS11Error) in
            try attribute(Attribute.value, of: object.handle, session: session)
        }
    }

    /// `key` signs `data` with `mechanism`: the data itself for ``Mechanism/rsaPKCS(hashBits:)``, a
    /// hash for the others.
    package func sign(_ data: [UInt8], key: Object, mechanism: Mechanism) throws(PKCS11Error) -> [UInt8] {
        try withSession { (session) throws(PKCS11Error) in
            let functions = module.functions.pointee
            guard let signInit = functions.C_SignInit, let sign = functions.C_Sign else {
                throw PKCS11Module.missing("C_Sign")
            }
            var parameters = CK_RSA_PKCS_PSS_PARAMS()
            var type: CK_MECHANISM_TYPE
            switch mechanism {
            case .rsaPKCS(let bits): type = bits == 512 ? 0x42 : bits == 384 ? 0x41 : 0x40
            case .rsaPSS(let bits):
                type = 0x0D
                parameters.hashAlg = bits == 512 ? 0x270 : bits == 384 ? 0x260 : 0x250
                parameters.mgf = bits == 512 ? 0x4 : bits == 384 ? 0x3 : 0x2
                parameters.sLen = CK_ULONG(bits / 8)
            case .ecdsa: type = 0x1041
            case .rsaPKCSRaw: type = 0x01
            }
            let initialized: CK_RV = withUnsafeMutableBytes(of: &parameters) { raw in
                var description = CK_MECHANISM(mechanism: type, pParameter: nil, ulParameterLen: 0)
                if case .rsaPSS = mechanism {
                    description.pParameter = raw.baseAddress
                    description.ulParameterLen = CK_ULONG(raw.count)
                }
                return signInit(session, &description, key.handle)
            }
            try module.check("C_SignInit", initialized)
            var input = data
            var length: CK_ULONG = 0
            try module.check("C_Sign", sign(session, &input, CK_ULONG(input.count), nil, &length))
            guard length > 0, length <= 16_384 else {
                throw PKCS11Error(message: "C_Sign announced a signature of \(length) bytes")
            }
            var signature = [UInt8](repeating: 0, count: Int(length))
            try module.check("C_Sign", sign(session, &input, CK_ULONG(input.count), &signature, &length))
            return Array(signature.prefix(Int(min(length, CK_ULONG(signature.count)))))
        }
    }

    /// ``sign(_:key:mechanism:)`` on a thread of the module's queue, never on Swift's cooperative
    /// pool: a network HSM's round trip blocks the calling thread for as long as it takes.
    package func sign(
        _ data: [UInt8], key: Object, mechanism: Mechanism
    ) async throws(PKCS11Error) -> [UInt8] {
        let result: Result<[UInt8], PKCS11Error> = await withCheckedContinuation { continuation in
            Self.queue.async {
                continuation.resume(
                    returning: Result { () throws(PKCS11Error) -> [UInt8] in
                        try self.sign(data, key: key, mechanism: mechanism)
                    })
            }
        }
        return try result.get()
    }

    /// Where tokens' blocking calls run (concurrent: each signature on a session of its own).
    private static let queue = DispatchQueue(label: "autograph.pkcs11", attributes: .concurrent)

    /// Stores an X.509 certificate (`der`, whose subject Name's DER is `subject`, which PKCS#11
    /// requires) on the token, for tests and tools that provision one.
    package func storeCertificate(
        _ der: [UInt8], subject: [UInt8], label: String, id: [UInt8]
    ) throws(PKCS11Error) {
        try withSession(writable: true) { (session) throws(PKCS11Error) in
            guard let create = module.functions.pointee.C_CreateObject else {
                throw PKCS11Module.missing("C_CreateObject")
            }
            var classValue = CK_OBJECT_CLASS(ObjectClass.certificate.rawValue)
            var certificateType: CK_CERTIFICATE_TYPE = 0  // CKC_X_509
            var onToken: CK_BBOOL = 1
            var value = der
            var labelBytes = Array(label.utf8)
            var idBytes = id
            var subjectBytes = subject
            var object: CK_OBJECT_HANDLE = 0
            let result: CK_RV = withUnsafeMutableBytes(of: &classValue) { classPointer in
                withUnsafeMutableBytes(of: &certificateType) { typePointer in
                    withUnsafeMutableBytes(of: &onToken) { tokenPointer in
                        value.withUnsafeMutableBytes { valuePointer in
                            labelBytes.withUnsafeMutableBytes { labelPointer in
                                idBytes.withUnsafeMutableBytes { idPointer in
                                    subjectBytes.withUnsafeMutableBytes { subjectPointer in
                                        var template = [
                                            (Attribute.objectClass, classPointer),
                                            (Attribute.certificateType, typePointer), (Attribute.token, tokenPointer),
                                            (Attribute.value, valuePointer), (Attribute.label, labelPointer),
                                            (Attribute.id, idPointer), (Attribute.subject, subjectPointer),
                                        ].map {
                                            CK_ATTRIBUTE(
                                                type: $0.0, pValue: $0.1.baseAddress, ulValueLen: CK_ULONG($0.1.count))
                                        }
                                        return create(session, &template, CK_ULONG(template.count), &object)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            try module.check("C_CreateObject", result)
        }
    }

    // MARK: Sessions

    /// Runs `body` with a session of the pool; a session the token says is gone is closed, not kept.
    func withSession<T>(
        writable: Bool = false, _ body: (CK_SESSION_HANDLE) throws(PKCS11Error) -> T
    ) throws(PKCS11Error) -> T {
        let session: CK_SESSION_HANDLE
        if !writable, let free = idle.withLock({ $0.popLast() }) {
            session = free
        } else {
            guard let open = module.functions.pointee.C_OpenSession else { throw PKCS11Module.missing("C_OpenSession") }
            var handle: CK_SESSION_HANDLE = 0
            let flags = PKCS11.serialSession | (writable ? PKCS11.rwSession : 0)
            try module.check("C_OpenSession", open(info.slot, flags, nil, nil, &handle))
            session = handle
        }
        do {
            let result = try body(session)
            if writable { close(session) } else { idle.withLock { $0.append(session) } }
            return result
        } catch {
            // A session that failed may be left mid-operation: it is closed, never given back.
            close(session)
            if error.isTokenGone || error.returnValue == PKCS11.userNotLoggedIn {
                // The token went away or logged out: its other sessions and its login are gone too,
                // and the next caller logs in again.
                for stale in idle.withLock({ sessions in
                    defer { sessions.removeAll() }; return sessions
                }) {
                    close(stale)
                }
                _ = module.logins.withLock { $0.removeValue(forKey: info.slot) }
            }
            throw error
        }
    }

    private func close(_ session: CK_SESSION_HANDLE) {
        _ = module.functions.pointee.C_CloseSession?(session)
    }

    /// An attribute's value; nil when the object has none (or the token will not tell).
    private func attribute(
        _ type: CK_ATTRIBUTE_TYPE, of object: CK_OBJECT_HANDLE, session: CK_SESSION_HANDLE
    ) throws(PKCS11Error) -> [UInt8]? {
        guard let get = module.functions.pointee.C_GetAttributeValue else {
            throw PKCS11Module.missing("C_GetAttributeValue")
        }
        var template = CK_ATTRIBUTE(type: type, pValue: nil, ulValueLen: 0)
        let sized = get(session, object, &template, 1)
        guard sized == PKCS11.ok, template.ulValueLen != PKCS11.unavailable else { return nil }
        guard template.ulValueLen <= 1 << 20 else {
            throw PKCS11Error(message: "an attribute of \(template.ulValueLen) bytes is refused")
        }
        var bytes = [UInt8](repeating: 0, count: Int(template.ulValueLen))
        let value: CK_RV = bytes.withUnsafeMutableBytes { raw in
            template.pValue = raw.baseAddress
            return get(session, object, &template, 1)
        }
        try module.check("C_GetAttributeValue", value)
        return Array(bytes.prefix(Int(min(template.ulValueLen, CK_ULONG(bytes.count)))))
    }

    /// Attribute types (`CKA_…`).
    enum Attribute {
        static let objectClass: CK_ATTRIBUTE_TYPE = 0x0
        static let token: CK_ATTRIBUTE_TYPE = 0x1
        static let label: CK_ATTRIBUTE_TYPE = 0x3
        static let value: CK_ATTRIBUTE_TYPE = 0x11
        static let certificateType: CK_ATTRIBUTE_TYPE = 0x80
        static let subject: CK_ATTRIBUTE_TYPE = 0x101
        static let id: CK_ATTRIBUTE_TYPE = 0x102
    }
}
