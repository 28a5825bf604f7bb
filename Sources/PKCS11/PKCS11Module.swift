internal import CPKCS11
import Glibc
import Synchronization

/// A PKCS#11 module (a token's or an HSM's `.so`), loaded with `dlopen` at run time and initialised
/// once for the process with the operating system's locking (`CKF_OS_LOCKING_OK`), so that its
/// sessions may be used from several threads. Modules are never unloaded: a module finalised while
/// another part of the process uses it would pull its sessions away.
package final class PKCS11Module: @unchecked Sendable {
    /// The module's path, as given.
    package let path: String
    let functions: UnsafeMutablePointer<CK_FUNCTION_LIST>
    /// The PIN that logged the user in, by slot (see `PKCS11Token.login(pin:)`).
    let logins = Mutex<[UInt: [UInt8]]>([:])

    /// The modules loaded so far, by path.
    private static let loaded = Mutex<[String: PKCS11Module]>([:])

    /// The module at `path`, loaded and initialised on first use.
    /// - Throws: `PKCS11Error` when it cannot be loaded, has no `C_GetFunctionList`, or fails to
    ///   initialise.
    package static func load(_ path: String) throws(PKCS11Error) -> PKCS11Module {
        if let known = loaded.withLock({ $0[path] }) { return known }
        let module = try PKCS11Module(path: path)
        return loaded.withLock { modules in
            if let known = modules[path] { return known }
            modules[path] = module
            return module
        }
    }

    private init(path: String) throws(PKCS11Error) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw PKCS11Error(message: "the PKCS#11 module \(path) cannot be loaded: \(reason)")
        }
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            dlclose(handle)
            throw PKCS11Error(message: "\(path) is not a PKCS#11 module (it has no C_GetFunctionList)")
        }
        typealias GetFunctionList =
            @convention(c) (
                UnsafeMutablePointer<UnsafeMutablePointer<CK_FUNCTION_LIST>?>?
            ) -> CK_RV
        var list: UnsafeMutablePointer<CK_FUNCTION_LIST>?
        let value = unsafeBitCast(symbol, to: GetFunctionList.self)(&list)
        guard value == PKCS11.ok, let list, let initialize = list.pointee.C_Initialize else {
            dlclose(handle)
            throw value == PKCS11.ok
                ? PKCS11Error(message: "\(path) has no C_Initialize") : PKCS11Error("C_GetFunctionList", value)
        }
        self.path = path
        self.functions = list
        var arguments = CK_C_INITIALIZE_ARGS(
            CreateMutex: nil, DestroyMutex: nil, LockMutex: nil, UnlockMutex: nil, flags: PKCS11.osLockingOK,
            pReserved: nil)
        let initialized = initialize(&arguments)
        // Another library of the process may have initialised the module already.
        guard initialized == PKCS11.ok || initialized == PKCS11.alreadyInitialized else {
            dlclose(handle)
            throw PKCS11Error("C_Initialize", initialized)
        }
    }

    /// The slots that hold a token.
    package func slots() throws(PKCS11Error) -> [UInt] {
        guard let getSlotList = functions.pointee.C_GetSlotList else { throw Self.missing("C_GetSlotList") }
        var count: UInt = 0
        try check("C_GetSlotList", getSlotList(1, nil, &count))
        // A module's count is not trusted further than a sane number of slots.
        guard count <= 4096 else { throw PKCS11Error(message: "the module announces \(count) slots") }
        var slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
        try check("C_GetSlotList", getSlotList(1, &slots, &count))
        return Array(slots.prefix(Int(min(count, UInt(slots.count)))))
    }

    /// What the token in `slot` says of itself.
    package func token(in slot: UInt) throws(PKCS11Error) -> PKCS11TokenInfo {
        guard let getTokenInfo = functions.pointee.C_GetTokenInfo else { throw Self.missing("C_GetTokenInfo") }
        var info = CK_TOKEN_INFO()
        try check("C_GetTokenInfo", getTokenInfo(slot, &info))
        return PKCS11TokenInfo(
            slot: slot, label: Self.text(info.label), manufacturer: Self.text(info.manufacturerID),
            model: Self.text(info.model), serialNumber: Self.text(info.serialNumber),
            loginRequired: info.flags & PKCS11.loginRequired != 0, pinLocked: info.flags & PKCS11.userPINLocked != 0,
            initialized: info.flags & PKCS11.tokenInitialized != 0)
    }

    func check(_ function: String, _ value: CK_RV) throws(PKCS11Error) {
        guard value == PKCS11.ok else { throw PKCS11Error(function, value) }
    }

    static func missing(_ function: String) -> PKCS11Error {
        PKCS11Error(message: "the PKCS#11 module does not provide \(function)")
    }

    /// A blank-padded fixed-size field of a PKCS#11 structure (UTF-8, PKCS#11 v2.40 §3.2) as text.
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in
            String(decoding: raw, as: UTF8.self).trimmingCharacters(in: " \0")
        }
    }
}

/// A token as `C_GetTokenInfo` describes it.
package struct PKCS11TokenInfo: Sendable {
    package var slot: UInt
    package var label: String
    package var manufacturer: String
    package var model: String
    package var serialNumber: String
    package var loginRequired: Bool
    package var pinLocked: Bool
    /// Whether the token was initialised (a blank one, as SoftHSM's free slot holds, has no objects).
    package var initialized: Bool
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let last = scalars.last, set.contains(last) { scalars = scalars.dropLast() }
        while let first = scalars.first, set.contains(first) { scalars = scalars.dropFirst() }
        return String(scalars)
    }
}

/// The PKCS#11 constants used here (PKCS#11 v2.40 §3, §4, §6), written out: the header's macros are
/// not all importable.
enum PKCS11 {
    static let ok: CK_RV = 0
    static let alreadyInitialized: CK_RV = 0x191
    static let userAlreadyLoggedIn: CK_RV = 0x100
    static let pinIncorrect: CK_RV = 0xA0
    static let userNotLoggedIn: CK_RV = 0x101
    static let mechanismInvalid: CK_RV = 0x70
    static let osLockingOK: CK_FLAGS = 0x2
    static let loginRequired: CK_FLAGS = 0x4
    static let userPINLocked: CK_FLAGS = 0x40000
    static let tokenInitialized: CK_FLAGS = 0x400
    static let rwSession: CK_FLAGS = 0x2
    static let serialSession: CK_FLAGS = 0x4
    static let user: CK_USER_TYPE = 1
    static let unavailable: CK_ULONG = .max
}
