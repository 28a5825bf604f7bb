import PDFCore

/// The objects a document reaches from its trailer, each with the place it is first reached
/// from: what a change to it would change on screen.
struct ObjectGraph: Sendable {
    /// Where an object is used: the kind of change a change to it is, and the page.
    struct Role: Sendable {
        var kind: Modification.Kind
        var pageIndex: Int?
    }

    /// Every reachable object number and its role.
    private(set) var roles: [Int: Role] = [:]
    /// What the pages draw: every object reached from the page tree other than through `/Annots`
    /// (contents, resources, inherited attributes), the page dictionaries themselves included.
    private(set) var drawn: Set<Int> = []

    /// Walks `document` from its pages, its catalog and `/Info` (pages first, so that what a page
    /// draws is attributed to the page), never following `/Parent` and `/P` back up.
    init(document: PDFDocument) {
        var queue: [(PDFObject, Role)] = []
        for page in document.pages {
            if let reference = page.reference {
                queue.append((.reference(reference), Role(kind: .page, pageIndex: page.index)))
            }
        }
        if let root = document.trailer[.root] { queue.append((root, Role(kind: .catalog))) }
        if let info = document.trailer[.info] { queue.append((info, Role(kind: .metadata))) }
        let limit = max(document.objectCount, 1) + 1
        if let pages = document.catalog?[.pages] {
            drawn = Self.drawnObjects(from: pages, in: document, limit: limit)
        }
        var head = 0
        while head < queue.count {
            let (object, role) = queue[head]
            head += 1
            guard case .reference(let reference) = object else { continue }
            guard roles[reference.number] == nil, roles.count < limit else { continue }
            roles[reference.number] = role
            Self.forEachChild(of: document.object(reference), role: role) { child, childRole in
                if roles[child.number] == nil { queue.append((.reference(child), childRole)) }
            }
            // Keep the queue's memory bounded: drop what was read.
            if head > 65_536 {
                queue.removeFirst(head)
                head = 0
            }
        }
    }

    subscript(number: Int) -> Role? { roles[number] }

    /// Whether the pages draw object `number` (outside their annotations).
    func isDrawn(_ number: Int) -> Bool { drawn.contains(number) }

    /// The objects reached from the page tree `pages` other than through `/Annots`, `/Parent` and `/P`.
    static func drawnObjects(from pages: PDFObject, in document: PDFDocument, limit: Int) -> Set<Int> {
        var drawn: Set<Int> = []
        var queue: [PDFReference] = pages.referenceValue.map { [$0] } ?? []
        var head = 0
        while head < queue.count, drawn.count < limit {
            let reference = queue[head]
            head += 1
            guard drawn.insert(reference.number).inserted else { continue }
            forEachChild(of: document.object(reference), role: Role(kind: .page), skipping: .annots) { child, _ in
                if !drawn.contains(child.number) { queue.append(child) }
            }
            if head > 65_536 {
                queue.removeFirst(head)
                head = 0
            }
        }
        return drawn
    }

    func contains(_ number: Int) -> Bool { roles[number] != nil }

    /// Calls `body` with every reference inside `object` (direct dictionaries and arrays entered,
    /// a stream's dictionary read) and the role the child takes; never through `/Parent`, `/P` or
    /// `skipping`.
    static func forEachChild(
        of object: PDFObject, role: Role, skipping: PDFName? = nil, _ body: (PDFReference, Role) -> Void
    ) {
        func visit(_ object: PDFObject, role: Role, key: PDFName?, depth: Int) {
            guard depth < 64 else { return }
            switch object {
            case .reference(let reference):
                body(reference, childRole(role, key: key))
            case .array(let items):
                for item in items { visit(item, role: role, key: key, depth: depth + 1) }
            case .dictionary(let dictionary):
                for entry in dictionary where entry.key != .parent && entry.key != .p && entry.key != skipping {
                    visit(
                        entry.value, role: depth == 0 ? role : childRole(role, key: key), key: entry.key,
                        depth: depth + 1)
                }
            case .stream(let stream):
                visit(.dictionary(stream.dictionary), role: role, key: nil, depth: depth)
            default:
                break
            }
        }
        visit(object, role: role, key: nil, depth: 0)
    }

    /// The role of an object reached from one in `role` through `key`.
    static func childRole(_ role: Role, key: PDFName?) -> Role {
        guard let key else { return role }
        var child = role
        switch role.kind {
        case .page:
            switch key {
            case .contents: child.kind = .pageContent
            case .resources: child.kind = .xobject
            case .annots: child.kind = .annotation
            case .kids: child.kind = .page
            default: child.kind = .page
            }
        case .pageContent, .xobject, .annotation:
            switch key {
            case .font: child.kind = .font
            case .properties, .oc: child.kind = .optionalContent
            case .xObject, .pattern, .shading, .extGState:
                child.kind = role.kind == .annotation ? .annotation : .xobject
            default: break
            }
        case .catalog:
            switch key {
            case .pages: child.kind = .page
            case .acroForm: child.kind = .form
            case .dss: child.kind = .dss
            case .metadata: child.kind = .metadata
            case .ocProperties: child.kind = .optionalContent
            default: child.kind = .other
            }
        case .form:
            switch key {
            case .fields: child.kind = .field
            case .dr: child.kind = .font
            default: break
            }
        default:
            break
        }
        return child
    }
}
