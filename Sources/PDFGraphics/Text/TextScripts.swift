/// Spacing accents and the combining marks they stand for when drawn over a letter.
enum Accents {
    static let marks: [UInt32: UInt32] = [
        0x60: 0x300, 0xB4: 0x301, 0x2C6: 0x302, 0x5E: 0x302, 0x2DC: 0x303, 0x7E: 0x303, 0xAF: 0x304, 0x2D8: 0x306,
        0x2D9: 0x307, 0xA8: 0x308, 0x2DA: 0x30A, 0x2DD: 0x30B, 0x2C7: 0x30C, 0xB8: 0x327, 0x2DB: 0x328,
    ]

    static func combining(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard scalars.count == 1, let mark = marks[scalars.first!.value].flatMap(Unicode.Scalar.init) else {
            return nil
        }
        return String(Character(mark))
    }
}

/// The strong direction of text by its scalars (Unicode bidirectional classes approximated by blocks).
enum Bidi {
    /// Positive for mostly left-to-right letters, negative for mostly right-to-left ones, 0 for neither.
    static func direction(_ texts: some Sequence<String>) -> Int {
        var balance = 0
        for text in texts {
            for scalar in text.unicodeScalars {
                if isRightToLeft(scalar) {
                    balance -= 1
                } else if scalar.value < 0x80
                    ? (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
                    : scalar.properties.isAlphabetic
                {
                    balance += 1
                }
            }
        }
        return balance
    }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
