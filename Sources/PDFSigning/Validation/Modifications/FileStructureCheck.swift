import PDFCore

/// The file-level tricks of the published attacks on PDF signatures (Mladenov et al. 2019,
/// "incremental saving attack"; Rohlmann et al. 2021): bytes after the last `%%EOF` that are not
/// a complete update, updates whose `/Prev` skips or invents a revision, cross-reference sections
/// without their own `%%EOF`, hybrid files whose table and stream disagree, sections that list an
/// object twice differently, updates whose cross-reference needed repairs, and a cross-reference
/// so damaged it had to be rebuilt. Each is a forbidden change of the revision it is in.
enum FileStructureCheck {
    /// A finding, and whether it concerns every signature (damage that makes even the signed
    /// revisions ambiguous) or only those of earlier revisions.
    struct Finding: Sendable {
        var change: Modification
        var always: Bool
    }

    /// The findings, each with the revision it concerns (`revisions.count` for trailing bytes).
    static func findings(in document: PDFDocument) -> [Finding] {
        var findings: [Finding] = []
        let revisions = document.revisions
        let warnings = document.warnings
        func add(_ kind: Modification.Kind, _ revision: Int, _ reason: String, always: Bool = false) {
            let change = Modification(
                object: nil, kind: kind, pageIndex: nil, allowed: false, reason: reason, revision: revision,
                level: .disallowed)
            findings.append(Finding(change: change, always: always))
        }
        if document.wasRecovered {
            add(
                .structure, 0,
                "the cross-reference data is damaged and was rebuilt by scanning: revisions cannot be told apart",
                always: true)
        }
        if let last = revisions.last, last.endOffset < document.fileSize {
            let extra = trailingContent(document, from: last.endOffset)
            if extra > 0 {
                add(
                    .trailingBytes, revisions.count,
                    "\(extra) bytes after the last %%EOF are not a complete incremental update (no cross-reference, "
                        + "trailer, startxref and %%EOF); readers that repair files may show them")
            }
        }
        for revision in revisions where !document.wasRecovered {
            for section in revision.sections {
                let twice = listedTwice(section)
                guard !twice.isEmpty else { continue }
                let numbers = twice.prefix(5).map(String.init).joined(separator: ", ")
                add(
                    .structure, revision.index,
                    "a cross-reference section of revision \(revision.index) lists objects \(numbers) twice, "
                        + "differently: readers that take the other entry see another document",
                    always: true)
            }
            for section in revision.sections where !section.hybridConflicts.isEmpty {
                let numbers = section.hybridConflicts.prefix(5).map(String.init).joined(separator: ", ")
                add(
                    .structure, revision.index,
                    "the table and the cross-reference stream of revision \(revision.index) give objects \(numbers) "
                        + "different places: readers that ignore /XRefStm see another document",
                    always: true)
            }
            guard revision.index > 0 else { continue }
            // An update whose cross-reference was read with repairs: readers that repair it otherwise
            // (or rebuild it by scanning) see other objects than the ones compared here.
            for section in revision.sections {
                let range = section.offset...max(section.offset, section.end)
                if let warning = warnings.first(where: { warning in
                    warning.offset.map { range.contains($0) || range.contains($0 - document.headerOffset) } ?? false
                }) {
                    add(
                        .structure, revision.index,
                        "the cross-reference of revision \(revision.index) is damaged (\(warning.message)): readers "
                            + "that repair it otherwise see other objects")
                    break
                }
            }
            if revision.sections.count > 1 {
                add(
                    .structure, revision.index,
                    "revision \(revision.index) has \(revision.sections.count) cross-reference sections and one %%EOF")
            }
            let previous = revisions[revision.index - 1]
            let offsets = Set(previous.sections.map(\.offset))
            if let prev = revision.sections.last?.trailer.int(.prev),
                !offsets.contains(prev), !offsets.contains(prev + document.headerOffset)
            {
                add(
                    .structure, revision.index,
                    "the /Prev of revision \(revision.index) (\(prev)) is not the cross-reference of revision "
                        + "\(revision.index - 1)")
            }
        }
        return findings
    }

    /// The object numbers a section lists more than once with different entries.
    static func listedTwice(_ section: XRefSection) -> [Int] {
        var first: [Int: XRefEntry] = [:]
        var twice: Set<Int> = []
        for (number, entry) in zip(section.numbers, section.entries) {
            if let earlier = first[number] {
                if earlier != entry { twice.insert(number) }
            } else {
                first[number] = entry
            }
        }
        return twice.sorted()
    }

    /// How many bytes after `offset` are not white space (or NUL padding).
    static func trailingContent(_ document: PDFDocument, from offset: Int) -> Int {
        var count = 0
        document.forEachChunk(in: offset..<document.fileSize) { chunk in
            for byte in chunk where !Lexer.isWhitespace(byte) { count += 1 }
        }
        return count
    }
}
