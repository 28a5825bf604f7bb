/// A PKCS#11 function that did not return `CKR_OK`, or a module that could not be loaded.
package struct PKCS11Error: Error, Sendable, CustomStringConvertible {
    /// The return value (`CKR_…`, PKCS#11 v2.40 §11.1); nil when no function was called (loading).
    package var returnValue: UInt?
    /// What failed, in words.
    package var message: String

    package init(_ function: String, _ returnValue: UInt) {
        self.returnValue = returnValue
        self.message = "\(function) failed: \(Self.name(returnValue))"
    }

    package init(message: String) {
        self.returnValue = nil
        self.message = message
    }

    package var description: String { message }

    /// The wrong PIN was given (`CKR_PIN_INCORRECT`, `CKR_PIN_INVALID`, `CKR_PIN_LEN_RANGE`).
    package var isWrongPIN: Bool { [0xA0, 0xA1, 0xA2].contains(returnValue ?? 0) }
    /// The PIN is locked after too many wrong tries (`CKR_PIN_LOCKED`, `CKR_PIN_EXPIRED`).
    package var isPINLocked: Bool { [0xA4, 0xA3].contains(returnValue ?? 0) }
    /// The token or its device went away (`CKR_TOKEN_NOT_PRESENT`, `CKR_DEVICE_REMOVED`,
    /// `CKR_TOKEN_NOT_RECOGNIZED`, `CKR_SESSION_HANDLE_INVALID`, `CKR_SESSION_CLOSED`,
    /// `CKR_DEVICE_ERROR`, `CKR_SLOT_ID_INVALID`).
    package var isTokenGone: Bool { [0xE0, 0x32, 0xE1, 0xB3, 0xB0, 0x30, 0x03].contains(returnValue ?? 0) }
    /// The key's handle no longer names an object (`CKR_KEY_HANDLE_INVALID`, `CKR_OBJECT_HANDLE_INVALID`):
    /// the key was deleted, or the token taken away and its store with it (what SoftHSM answers).
    package var isKeyGone: Bool { [0x60, 0x82].contains(returnValue ?? 0) }

    /// The `CKR_…` name of common return values, else the value in hexadecimal.
    static func name(_ value: UInt) -> String {
        let names: [UInt: String] = [
            0x00: "CKR_OK", 0x01: "CKR_CANCEL", 0x02: "CKR_HOST_MEMORY", 0x03: "CKR_SLOT_ID_INVALID",
            0x05: "CKR_GENERAL_ERROR", 0x06: "CKR_FUNCTION_FAILED", 0x07: "CKR_ARGUMENTS_BAD",
            0x12: "CKR_ATTRIBUTE_TYPE_INVALID", 0x13: "CKR_ATTRIBUTE_VALUE_INVALID", 0x30: "CKR_DEVICE_ERROR",
            0x31: "CKR_DEVICE_MEMORY", 0x32: "CKR_DEVICE_REMOVED", 0x54: "CKR_FUNCTION_NOT_SUPPORTED",
            0x60: "CKR_KEY_HANDLE_INVALID", 0x63: "CKR_KEY_TYPE_INCONSISTENT", 0x68: "CKR_KEY_FUNCTION_NOT_PERMITTED",
            0x70: "CKR_MECHANISM_INVALID", 0x71: "CKR_MECHANISM_PARAM_INVALID", 0x82: "CKR_OBJECT_HANDLE_INVALID",
            0x90: "CKR_OPERATION_ACTIVE", 0x91: "CKR_OPERATION_NOT_INITIALIZED", 0xA0: "CKR_PIN_INCORRECT",
            0xA1: "CKR_PIN_INVALID", 0xA2: "CKR_PIN_LEN_RANGE", 0xA3: "CKR_PIN_EXPIRED", 0xA4: "CKR_PIN_LOCKED",
            0xB0: "CKR_SESSION_CLOSED", 0xB1: "CKR_SESSION_COUNT", 0xB3: "CKR_SESSION_HANDLE_INVALID",
            0xB5: "CKR_SESSION_READ_ONLY", 0xC0: "CKR_SIGNATURE_INVALID", 0xE0: "CKR_TOKEN_NOT_PRESENT",
            0xE1: "CKR_TOKEN_NOT_RECOGNIZED", 0xE2: "CKR_TOKEN_WRITE_PROTECTED", 0x100: "CKR_USER_ALREADY_LOGGED_IN",
            0x101: "CKR_USER_NOT_LOGGED_IN", 0x102: "CKR_USER_PIN_NOT_INITIALIZED", 0x103: "CKR_USER_TYPE_INVALID",
            0x150: "CKR_BUFFER_TOO_SMALL", 0x190: "CKR_CRYPTOKI_NOT_INITIALIZED",
            0x191: "CKR_CRYPTOKI_ALREADY_INITIALIZED",
        ]
        return names[value] ?? "CKR 0x" + String(value, radix: 16)
    }
}
