/// Upper-case hexadecimal, as serial numbers, key ids and digests are shown.
enum Hex {
    /// Two upper-case digits an octet, no separator.
    static func uppercase(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
