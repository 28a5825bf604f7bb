/// The shape every Autograph error shares, whatever module throws it: a stable code name, the seed
/// SDK's numeric code where one applies, a one-line message, the error it wraps, and its kind.
///
/// Each module keeps one error struct with its own `Code` enum and equality by code (STYLE rule 7);
/// this protocol is what lets the layers above handle all of them alike. The command line maps
/// ``category`` to an exit code in one function (`AutographCLI.failure(_:command:)`), and the web
/// server maps it to an HTTP status and a JSON error body in one initializer
/// (`WebError.init(_:)`), so no front end lists the error types below it. An error that does not
/// conform is treated as ``ErrorCategory/internal`` with its text kept.
///
/// Declared in `PDFCore`, the lowest target every module imports (ARCHITECTURE.md, "Errors").
public protocol AutographError: Error, Sendable, CustomStringConvertible {
    /// A stable machine name of the failure, such as `"signatureTooLarge"`: the raw value of the
    /// module's `Code`. It never changes once published (scripts and the web API's clients match it).
    var codeName: String { get }

    /// The seed SDK's numeric code (signoAPI `STSignoInfoDelegate`, -120 … -150) where one applies.
    ///
    /// The module errors carry it as their own non-optional `signoCode` (`SigningError.signoCode
    /// == -136`); it is optional here because errors outside the seed API (a usage error, a web
    /// request's) have none.
    var seedCode: Int? { get }

    /// What went wrong, in one line for a person, without the context that `description` may add
    /// (an offset, an object, a field).
    var message: String { get }

    /// The error this one wraps, when it was raised by a layer below (a ``PDFError`` in a signing
    /// error); nil for an error raised where it happened.
    var underlying: (any Error)? { get }

    /// What kind of failure it is: what the front ends map to exit codes and HTTP statuses.
    var category: ErrorCategory { get }
}

extension AutographError {
    /// None: the error was raised where it happened.
    public var underlying: (any Error)? { nil }
}
