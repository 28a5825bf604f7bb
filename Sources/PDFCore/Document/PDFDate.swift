/// Dates in PDF form (ISO 32000-2 §7.9.4): `D:YYYYMMDDHHmmSS+HH'mm'`, from seconds since 1970 and
/// a UTC offset, without Foundation.
public struct PDFDate: Hashable, Sendable, Codable {
    /// Seconds since 1970-01-01 00:00 UTC.
    public var seconds: Int
    /// The offset of local time from UTC, in minutes (120 for UTC+2).
    public var utcOffsetMinutes: Int

    /// The instant `seconds` after 1970-01-01 00:00 UTC, shown in the local time `utcOffsetMinutes` minutes ahead of
    /// UTC (by default 0: UTC itself).
    public init(seconds: Int, utcOffsetMinutes: Int = 0) {
        self.seconds = seconds
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// The current time (UTC), from the system clock.
    public static func now() -> PDFDate { PDFDate(seconds: SystemClock.seconds()) }

    /// The local calendar fields: year, month, day, hour, minute, second.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let local = seconds + utcOffsetMinutes * 60
        let days = Int((Double(local) / 86_400).rounded(.down))
        let secondOfDay = local - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    /// Seconds since 1970 of midnight UTC on a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    package static func epochSeconds(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400
    }

    /// `D:20261129131500+01'00'`.
    public var pdfString: String {
        let c = components
        var text =
            "D:" + pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + pad(c.hour, 2) + pad(c.minute, 2)
            + pad(c.second, 2)
        if utcOffsetMinutes == 0 {
            text += "Z"
        } else {
            let offset = abs(utcOffsetMinutes)
            text += (utcOffsetMinutes > 0 ? "+" : "-") + pad(offset / 60, 2) + "'" + pad(offset % 60, 2) + "'"
        }
        return text
    }

    /// `2026-11-29 13:15 +01:00`: for appearances.
    public var displayString: String {
        let c = components
        let offset = abs(utcOffsetMinutes)
        let zone =
            utcOffsetMinutes == 0
            ? "UTC" : (utcOffsetMinutes > 0 ? "+" : "-") + pad(offset / 60, 2) + ":" + pad(offset % 60, 2)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2)) \(zone)"
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// The system clock, read without Foundation.
enum SystemClock {
    static func seconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
