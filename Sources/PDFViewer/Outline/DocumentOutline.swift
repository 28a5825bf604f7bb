public import PDFCore

/// The document outline (its bookmarks, ISO 32000-1 §12.3.3) as a viewer's sidebar lists it: each
/// item's title and the page it goes to, nested as in the document.
///
/// Read from the document as it stands, within bounds whatever the file holds: at most
/// ``maxItems`` items, ``maxDepth`` levels and ``maxTitleLength`` characters a title; an item met
/// twice (a `/Next` or `/First` loop) ends its list. Destinations are resolved the three ways a
/// document gives them (§12.3.2): an explicit array, a name in the catalog's `/Dests`, a string in
/// the `/Dests` name tree of `/Names` — directly (`/Dest`) or through a go-to action (`/A`).
public struct DocumentOutline: Sendable, Equatable {
    /// One outline item.
    public struct Item: Sendable, Equatable {
        /// The title, control characters replaced by spaces.
        public var title: String
        /// The page the item goes to, from 0; nil when it goes to none in this document (another
        /// action, a destination that names no page of it).
        public var pageIndex: Int?
        /// The top of the view on that page in user space (`/XYZ`, `/FitH`, `/FitBH`), when given.
        public var top: Double?
        /// Whether the document shows the item's children open (`/Count` above 0).
        public var isOpen: Bool
        /// The items under it.
        public var children: [Item]

        /// An item of the given values.
        public init(title: String, pageIndex: Int?, top: Double? = nil, isOpen: Bool = false, children: [Item] = []) {
            self.title = title
            self.pageIndex = pageIndex
            self.top = top
            self.isOpen = isOpen
            self.children = children
        }
    }

    /// The top-level items, in order.
    public var items: [Item]
    /// True when the outline holds more than was read (items, depth).
    public var isTruncated: Bool

    /// The most items read.
    public static let maxItems = 10_000
    /// The deepest level read (a top-level item is level 1).
    public static let maxDepth = 32
    /// The longest title kept, in characters.
    public static let maxTitleLength = 500
    /// The most name tree nodes visited to resolve one named destination.
    static let maxNameTreeNodes = 4096

    /// The outline of `document` (empty when it has none).
    public init(document: PDFDocument) {
        var reader = Reader(document: document)
        let root = document.resolve(document.catalog?[.outlines] ?? .null).dictionaryValue
        items = root.map { reader.list(from: $0[.first], depth: 1) } ?? []
        isTruncated = reader.truncated
    }

    /// Reads the items, keeping count of what it visited.
    private struct Reader {
        let document: PDFDocument
        var count = 0
        var truncated = false
        var visited: Set<PDFReference> = []
        lazy var pageIndices: [PDFReference: Int] = {
            var map: [PDFReference: Int] = [:]
            for (index, page) in document.pages.enumerated() {
                if let reference = page.reference, map[reference] == nil { map[reference] = index }
            }
            return map
        }()

        init(document: PDFDocument) { self.document = document }

        /// The items of the list starting at `first` (each followed by its `/Next`).
        mutating func list(from first: PDFObject?, depth: Int) -> [Item] {
            guard depth <= DocumentOutline.maxDepth else {
                if first != nil { truncated = true }
                return []
            }
            var items: [Item] = []
            var next = first
            while let object = next {
                if case .reference(let reference) = object {
                    guard visited.insert(reference).inserted else { break }
                }
                guard let dictionary = document.resolve(object).dictionaryValue else { break }
                guard count < DocumentOutline.maxItems else {
                    truncated = true
                    break
                }
                count += 1
                let (page, top) = destination(of: dictionary)
                let open = (document.resolve(dictionary[.count] ?? .null).intValue ?? 0) > 0
                let children = list(from: dictionary[.first], depth: depth + 1)
                items.append(
                    Item(
                        title: Self.title(dictionary), pageIndex: page, top: top, isOpen: open, children: children))
                next = dictionary[.next]
            }
            return items
        }

        static func title(_ dictionary: PDFDictionary) -> String {
            let text = dictionary.string(.title)?.text ?? ""
            let cleaned = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.prefix(DocumentOutline.maxTitleLength * 2).map {
                        $0.properties.generalCategory == .control ? " " : $0
                    }))
            let trimmed = cleaned.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            return String(String(trimmed).prefix(DocumentOutline.maxTitleLength))
        }

        /// The page and top of an item's `/Dest`, or of its go-to action's `/D`.
        mutating func destination(of item: PDFDictionary) -> (Int?, Double?) {
            var target = item[.dest]
            if target == nil, let action = document.resolve(item[.a] ?? .null).dictionaryValue,
                document.resolve(action[.s] ?? .null).nameValue == .goTo
            {
                target = action[.d]
            }
            guard let target else { return (nil, nil) }
            return explicit(resolveNamed(document.resolve(target)))
        }

        /// A named destination looked up (a name in `/Dests`, a string in the name tree); an
        /// explicit one as it is. A dictionary value holds the array in `/D` (§12.3.2.3).
        mutating func resolveNamed(_ target: PDFObject) -> PDFObject {
            var found: PDFObject?
            switch target {
            case .name(let name):
                found = document.resolve(document.catalog?[.dests] ?? .null).dictionaryValue?[name]
            case .string(let key):
                let tree = document.resolve(document.catalog?[.names] ?? .null).dictionaryValue?[.dests]
                found = lookUp(key.bytes, in: tree)
            default:
                return target
            }
            let value = document.resolve(found ?? .null)
            if let dictionary = value.dictionaryValue { return document.resolve(dictionary[.d] ?? .null) }
            return value
        }

        /// The value of `key` in the name tree at `node` (§7.9.6), visiting a bounded number of nodes.
        func lookUp(_ key: [UInt8], in node: PDFObject?) -> PDFObject? {
            var queue: [PDFObject] = node.map { [$0] } ?? []
            var seen: Set<PDFReference> = []
            var visits = 0
            while let next = queue.popLast(), visits < DocumentOutline.maxNameTreeNodes {
                visits += 1
                if case .reference(let reference) = next, !seen.insert(reference).inserted { continue }
                guard let dictionary = document.resolve(next).dictionaryValue else { continue }
                if let limits = document.resolve(dictionary[.limits] ?? .null).arrayValue, limits.count == 2,
                    let low = document.resolve(limits[0]).stringValue?.bytes,
                    let high = document.resolve(limits[1]).stringValue?.bytes,
                    key.lexicographicallyPrecedes(low) || high.lexicographicallyPrecedes(key)
                {
                    continue
                }
                if let names = document.resolve(dictionary[.names] ?? .null).arrayValue {
                    var index = 0
                    while index + 1 < names.count {
                        if document.resolve(names[index]).stringValue?.bytes == key { return names[index + 1] }
                        index += 2
                    }
                }
                if let kids = document.resolve(dictionary[.kids] ?? .null).arrayValue {
                    queue += kids.prefix(DocumentOutline.maxNameTreeNodes).reversed()
                }
            }
            return nil
        }

        /// The page index and top of an explicit destination `[page /XYZ left top zoom]`, `[page
        /// /FitH top]` … (a page object, or a page number as some writers give).
        mutating func explicit(_ target: PDFObject) -> (Int?, Double?) {
            guard let array = target.arrayValue, let first = array.first else { return (nil, nil) }
            var page: Int?
            switch first {
            case .reference(let reference): page = pageIndices[reference]
            case .integer(let number) where number >= 0 && number < document.pageCount: page = Int(number)
            default: page = nil
            }
            guard let page else { return (nil, nil) }
            let kind = array.count > 1 ? document.resolve(array[1]).nameValue?.string : nil
            let slot: Int? =
                switch kind {
                case "XYZ": 3
                case "FitH", "FitBH": 2
                default: nil
                }
            let top = slot.flatMap { $0 < array.count ? document.resolve(array[$0]).numberValue : nil }
            return (page, top.flatMap { $0.isFinite ? $0 : nil })
        }
    }
}
