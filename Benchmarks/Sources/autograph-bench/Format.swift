import Glibc

/// Number formatting without Foundation's `String(format:)`.
enum Format {
    /// `value` with exactly `digits` decimals ("1.234").
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let digitsText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, digits - digitsText.count))
            + digitsText
    }

    /// Seconds as "1.234 s".
    static func seconds(_ value: Double) -> String { fixed(value, 3) + " s" }

    /// Seconds as milliseconds, "12.3 ms" below 100 ms, else "123 ms".
    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return (ms < 100 ? fixed(ms, 1) : fixed(ms, 0)) + " ms"
    }

    /// Kibibytes (as `ru_maxrss` gives them) as decimal megabytes, "8.1 MB".
    static func megabytes(kib: Int) -> String { fixed(Double(kib) * 1024 / 1_000_000, 1) + " MB" }

    /// Bytes as decimal megabytes, "18.6 MB".
    static func megabytes(bytes: Int) -> String { fixed(Double(bytes) / 1_000_000, 1) + " MB" }

    /// A ratio with two decimals.
    static func ratio(_ value: Double) -> String { fixed(value, 2) }

    /// A ratio beside its target: three decimals when two would hide on which side of it the ratio is.
    static func ratio(_ value: Double, against target: Double) -> String {
        abs(value - target) < 0.005 && value != target ? fixed(value, 3) : fixed(value, 2)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    static func padRight(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// The median of `values` (the mean of the two middle ones for an even count); nil when empty.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// Progress for long steps, on standard error so the report on standard output stays clean.
enum Progress {
    /// Overwrites the current progress line on a terminal; nothing in a log (only `finish` lines go there).
    static func update(_ message: String) {
        guard isatty(2) != 0 else { return }
        write("\r\u{1B}[K" + message)
    }

    /// Ends the progress line with `message`.
    static func finish(_ message: String) {
        write("\r\u{1B}[K" + message + "\n")
    }

    /// A line of its own.
    static func note(_ message: String) {
        write(message + "\n")
    }

    private static func write(_ text: String) {
        var text = text
        if isatty(2) == 0 {
            // A log gets whole lines, without the terminal's carriage returns.
            text = text.replacing("\r\u{1B}[K", with: "")
            if !text.hasSuffix("\n") { text += "\n" }
        }
        text.withCString { pointer in _ = Glibc.write(2, pointer, strlen(pointer)) }
    }
}
