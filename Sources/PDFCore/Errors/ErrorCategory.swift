/// What kind of failure an error is, whatever module threw it: the one fact the command line and
/// the web server need to choose an exit code or an HTTP status.
///
/// The kinds are few on purpose. Each names who can fix the failure (the caller, the person, the
/// server's operator) rather than where it happened, so a new error code only has to pick one of
/// them and every front end answers it at once (`autograph`'s exit codes, `PDFWeb`'s statuses).
public enum ErrorCategory: String, Hashable, Sendable, CaseIterable {
    /// The call itself is wrong: an unknown option, a missing argument, a malformed request.
    case usage
    /// What was given is wrong: not a PDF, a damaged file, a wrong password, a value a field does
    /// not take, an unreadable key container.
    case badInput
    /// What was named does not exist: a file, a field, a document in progress, a route.
    case notFound
    /// The state does not allow it now: the wrong phase, a document another session wrote
    /// meanwhile, a certification or field lock the change would break.
    case conflict
    /// Not allowed to this caller: a read-only field, a request without the server's credential.
    case forbidden
    /// Valid, but beyond what Autograph does: a public-key security handler, an unknown algorithm,
    /// text no installed font can draw.
    case unsupported
    /// Over a limit: a body, an image, a parse limit of ``ParseOptions``, a signature larger than
    /// the space reserved for it.
    case tooLarge
    /// The person, a delegate or the client stopped it before it finished.
    case cancelled
    /// A service it needs is busy or unreachable (a time-stamp authority, the rendering threads);
    /// trying again later may work.
    case unavailable
    /// Autograph or its environment failed: writing, the store, signing itself, or an error of no
    /// known kind.
    case `internal`
}
