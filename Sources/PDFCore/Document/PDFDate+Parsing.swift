extension PDFDate {
    /// Reads a PDF date string (ISO 32000-2 §7.9.4): `D:YYYYMMDDHHmmSSOHH'mm'`, every part after
    /// the year optional, read liberally (a missing `D:`, a missing or `Z` offset, a trailing
    /// apostrophe). Nil when there is no four-digit year or a part is out of range.
    public init?(pdfString bytes: some Collection<UInt8>) {
        var text = Array(bytes.prefix(64))
        if text.starts(with: Array("D:".utf8)) { text.removeFirst(2) }
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= text.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = text[index + offset]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        guard let year = digits(4) else { return nil }
        let month = digits(2) ?? 1
        let day = digits(2) ?? 1
        let hour = digits(2) ?? 0
        let minute = digits(2) ?? 0
        let second = digits(2) ?? 0
        guard (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60 else {
            return nil
        }
        var offsetMinutes = 0
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
            let sign = text[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            let hours = digits(2) ?? 0
            if index < text.count, text[index] == UInt8(ascii: "'") { index += 1 }
            let minutes = digits(2) ?? 0
            guard hours <= 23, minutes <= 59 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        let local = PDFDate.epochSeconds(year: year, month: month, day: day) + hour * 3600 + minute * 60 + second
        self.init(seconds: local - offsetMinutes * 60, utcOffsetMinutes: offsetMinutes)
    }
}
