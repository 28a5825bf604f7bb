public import PDFCore

/// Formats a date with a pattern of the Unicode date field symbols most used (UTS #35): `yyyy`,
/// `yy`, `MM`, `M`, `dd`, `d`, `HH`, `H`, `hh`, `h`, `mm`, `ss`, `a`, `XXX` / `ZZZZZ` (`+01:00`),
/// `Z` (`+0100`), `zzz` (`UTC+1`); text in single quotes is literal, `''` is a quote.
public struct DatePattern: Hashable, Sendable, Codable {
    /// The pattern, such as `yyyy-MM-dd HH:mm zzz` (the default).
    public var pattern: String

    /// A pattern; the default shows `2024-05-17 14:30 UTC+2`.
    public init(_ pattern: String = "yyyy-MM-dd HH:mm zzz") { self.pattern = pattern }

    /// The date in its own local time (`PDFDate.utcOffsetMinutes`), written as the pattern says.
    public func format(_ date: PDFDate) -> String {
        let c = date.components
        var output = ""
        let characters = Array(pattern)
        var index = 0
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let offset = date.utcOffsetMinutes
        let sign = offset < 0 ? "-" : "+"
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                // Quoted text; '' is a single quote.
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    output.append("'")
                    index += 2
                    continue
                }
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" {
                            output.append("'")
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    output.append(characters[index])
                    index += 1
                }
                continue
            }
            var run = 1
            while index + run < characters.count, characters[index + run] == character { run += 1 }
            switch character {
            case "y": output += run == 2 ? pad(c.year % 100, 2) : pad(c.year, max(run, 1))
            case "M": output += run >= 3 ? DatePattern.months[c.month - 1] : pad(c.month, run)
            case "d": output += pad(c.day, run)
            case "H": output += pad(c.hour, run)
            case "h": output += pad(c.hour % 12 == 0 ? 12 : c.hour % 12, run)
            case "m": output += pad(c.minute, run)
            case "s": output += pad(c.second, run)
            case "a": output += c.hour < 12 ? "AM" : "PM"
            case "X", "Z", "x":
                if offset == 0 && character == "X" {
                    output += "Z"
                } else if run >= 3 || character == "X" {
                    output += sign + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
                } else {
                    output += sign + pad(abs(offset) / 60, 2) + pad(abs(offset) % 60, 2)
                }
            case "z":
                let hours = abs(offset) / 60
                let minutes = abs(offset) % 60
                output += offset == 0 ? "UTC" : "UTC\(sign)\(hours)" + (minutes > 0 ? ":" + pad(minutes, 2) : "")
            default:
                output += String(repeating: String(character), count: run)
            }
            index += run
        }
        return output
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
