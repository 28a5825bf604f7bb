import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import AutographCLI
@testable import PDFForms

/// Every form of the shared corpus: read as pypdf reads it, then filled, saved and checked by
/// pypdf, qpdf and MuPDF. Skipped when the corpus is absent.
@Suite(
    "Corpus forms: fields agree with pypdf; filled values read back and show",
    .enabled(if: Requirement.corpus, "the corpus is absent"))
struct CorpusFormTests {
    /// The corpus files with a form that qpdf accepts and we open.
    static func forms() throws -> [(file: CorpusFile, document: PDFDocument, form: AcroForm)] {
        let root = try #require(TestPaths.corpus)
        var result: [(file: CorpusFile, document: PDFDocument, form: AcroForm)] = []
        for file in CorpusFile.all(in: root) {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            guard let document = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: password)),
                let form = AcroForm(document: document), !form.fields.isEmpty
            else { continue }
            let check = try Oracle.qpdfCheck(file.path, password: password)
            guard check.status == 0 || check.status == 3 else { continue }
            result.append((file, document, form))
        }
        return result
    }

    @Test("the terminal fields (names, kinds, values) agree with pypdf")
    func fieldsAgreeWithPypdf() async throws {
        let forms = try Self.forms()
        let directory = try TestPaths.temporaryDirectory("corpus-fields")
        var fieldCount = 0
        for (file, _, _) in forms {
            let console = Console.captured()
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            let code = await AutographCLI.run(
                ["fields", file.path, "--json"] + (password.map { ["--password", $0] } ?? []), console: console)
            #expect(code == .success || code == .successWithWarnings, "\(file.name): \(console.errors)")
            let ours = directory + "/ours.json"
            try Data(console.output.utf8).write(to: URL(fileURLWithPath: ours))
            let script = TestPaths.repository + "/Tests/Scripts/compare_fields.py"
            let result = try Oracle.run("python3", [script, ours, file.path] + (password.map { [$0] } ?? []))
            #expect(result.status == 0, "\(file.name): \(result.output) \(result.errors)")
            if let count = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])?[
                "fields"] as? Int
            {
                fieldCount += count
            }
        }
        print("corpus forms: \(forms.count) files, \(fieldCount) terminal fields agree with pypdf")
    }

    /// Values for every fillable field: short unique texts (one Greek and Cyrillic per document),
    /// a checked box, the last radio state, the last combo option, the first list options.
    static func values(for form: AcroForm) -> [(name: String, value: FormInput)] {
        var values: [(name: String, value: FormInput)] = []
        var nonLatinUsed = false
        for (index, field) in form.fields.enumerated()
        where field.isEditable && field.widgets.contains(where: { $0.reference != nil }) {
            guard !values.contains(where: { $0.name == field.name }) else { continue }
            switch field.kind {
            case .text:
                var text = nonLatinUsed || field.flags.contains(.password) ? "v\(index)" : "Ωμέγα Жук"
                if field.flags.contains(.comb), let maxLength = field.maxLength, maxLength > 0 {
                    text = String(String(repeating: "7", count: maxLength).prefix(maxLength))
                } else if let maxLength = field.maxLength, maxLength > 0, text.count > maxLength {
                    text = String("\(index)".suffix(maxLength))
                }
                if text.unicodeScalars.contains(where: { $0.value > 0x7F }) { nonLatinUsed = true }
                values.append((field.name, .text(text)))
            case .checkbox: values.append((field.name, .bool(true)))
            case .radio:
                if let state = field.states.last { values.append((field.name, .text(state))) }
            case .comboBox:
                if let option = field.options.last {
                    values.append((field.name, .text(option.exportValue)))
                } else if field.flags.contains(.edit) {
                    values.append((field.name, .text("c\(index)")))
                }
            case .listBox:
                let options = field.options.prefix(field.flags.contains(.multiSelect) ? 2 : 1).map(\.exportValue)
                if !options.isEmpty { values.append((field.name, .list(Array(options)))) }
            default: break
            }
        }
        return values
    }

    @Test(
        "every fillable field filled: pypdf reads the values back, qpdf is clean, the original is a prefix, MuPDF shows the text"
    )
    func fillCorpus() throws {
        let forms = try Self.forms()
        let directory = try TestPaths.temporaryDirectory("corpus-fill")
        var filledFields = 0
        var documents = 0
        var shownValues = 0
        var nonLatinShown = 0
        for (file, document, form) in forms {
            let values = Self.values(for: form)
            guard !values.isEmpty else { continue }
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            var filler = FormFiller(form: form)
            do {
                try filler.setValues(values)
            } catch {
                Issue.record("\(file.name): \(error)")
                continue
            }
            let output = directory + "/filled.pdf"
            do {
                try filler.write(to: output)
            } catch {
                Issue.record("\(file.name): \(error)")
                continue
            }
            documents += 1
            filledFields += values.count
            let original = try Data(contentsOf: URL(fileURLWithPath: file.path))
            let filled = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(filled.prefix(original.count) == original, "\(file.name): original bytes changed")
            let inputCheck = try Oracle.qpdfCheck(file.path, password: password)
            let check = try Oracle.qpdfCheck(output, password: password)
            #expect(
                check.status == 0 || (CorpusWriteTests.onlyContentDamage(check) && inputCheck.status != 0),
                "\(file.name): \(check.output)")

            let readBack = try Oracle.pypdfFieldValues(output, password: file.password ?? "")
            for (name, value) in values {
                let expected: String
                switch value {
                case .text(let text): expected = text
                case .bool: expected = form.field(named: name)?.states.first ?? "Yes"
                case .list(let items): expected = items.count == 1 ? items[0] : items.joined(separator: "|")
                }
                #expect(readBack[name] == expected, "\(file.name) \(name): pypdf reads \(readBack[name] ?? "nothing")")
            }

            // What a person sees: every text value of a visible widget inside its page's crop box.
            let pages = document.pages
            func onPage(_ widget: Widget) -> Bool {
                guard widget.isVisible, let index = widget.pageIndex, pages.indices.contains(index),
                    widget.rect.width > 8, widget.rect.height > 4
                else { return false }
                return widget.rect.intersection(pages[index].cropBox) == widget.rect
            }
            let shown = try Oracle.mutoolText(output, password: password)
            let compactShown = shown.filter { !$0.isWhitespace }
            for (name, value) in values {
                guard case .text(let text) = value, let field = form.field(named: name), field.kind == .text,
                    !field.flags.contains(.password),
                    field.widgets.contains(where: onPage)
                else { continue }
                let compactText = text.filter { !$0.isWhitespace }
                #expect(compactShown.contains(compactText), "\(file.name) \(name): MuPDF does not show \(text)")
                shownValues += 1
                if text.unicodeScalars.contains(where: { $0.value > 0x7F }) { nonLatinShown += 1 }
            }
        }
        print(
            "corpus forms: filled \(filledFields) fields in \(documents) documents; pypdf read every value back; "
                + "MuPDF shows \(shownValues) text values on their pages (\(nonLatinShown) non-Latin)")
    }
}
