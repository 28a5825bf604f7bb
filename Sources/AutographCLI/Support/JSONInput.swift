import AutographJSON
import PDFCore

/// Parses a JSON file or option the person gave: a usage error names the byte where it stops being JSON.
func parseJSON(_ bytes: [UInt8]) throws(UsageError) -> JSONValue {
    do {
        return try JSONValue.parse(bytes)
    } catch {
        throw UsageError(error.description)
    }
}
