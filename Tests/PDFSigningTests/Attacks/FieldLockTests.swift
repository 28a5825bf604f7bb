import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Form filling under a certification (ISO 32000-2 §12.8.2.2: P=1 none, P=2 and P=3 permitted) and
/// under field locks (§12.8.2.4 FieldMDP, a signature field's /Lock): what the signer locked stays
/// locked, whatever a later update writes into the lock itself.
@Suite("Certification levels and field locks: which fills are allowed")
struct FieldLockTests {
    /// `signed` with the field `name` set to `value` by FormFiller (value and appearance).
    static func filling(_ signed: [UInt8], _ name: String, _ value: String = "Mallory") throws -> [UInt8] {
        var filler = FormFiller(form: try #require(AcroForm(document: try PDFDocument(bytes: signed))))
        try filler.set(name, to: .text(value))
        return try filler.documentBytes()
    }

    @Test(
        "a fill after a certification: P=1 disallowed, P=2 and P=3 allowed",
        arguments: [
            (SignatureRequest.Certification.noChanges, false), (.formFilling, true), (.formFillingAndAnnotations, true),
        ])
    func fillUnderCertification(certification: SignatureRequest.Certification, allowed: Bool) async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, certification: certification)
        let filled = try Self.filling(signed, "name")
        try Attack.expect(
            filled, verdict: allowed ? .validWithAllowedChanges : .modified,
            level: allowed ? .formFilling : .disallowed,
            changes: [Attack.Change(kind: .field, allowed: allowed, page: 0)])
    }

    @Test("a lock on 'name' (Include): filling 'name' is disallowed, filling 'comment' allowed")
    func includeLock() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, lock: .include(["name"]))
        let status = try Attack.expect(
            try Self.filling(signed, "name"), verdict: .modified, changes: [.disallowed(.field, page: 0)])
        #expect(status.modifications?.fieldLocks.first?.fields == ["name"])
        try Attack.expect(try Self.filling(signed, "comment"), verdict: .validWithAllowedChanges, level: .formFilling)
    }

    @Test("a lock of every field but 'comment' (Exclude): 'name' locked, 'comment' free")
    func excludeLock() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, lock: .exclude(["comment"]))
        try Attack.expect(try Self.filling(signed, "name"), verdict: .modified, changes: [.disallowed(.field, page: 0)])
        try Attack.expect(try Self.filling(signed, "comment"), verdict: .validWithAllowedChanges, level: .formFilling)
    }

    @Test("a lock of all fields: a fill is disallowed, and so is a signature in another locked field")
    func allLock() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, lock: .all)
        try Attack.expect(try Self.filling(signed, "comment"), verdict: .modified, changes: [.disallowed(.field)])
        let twice = try await Attack.sign(signed, field: "Signature2")
        try Attack.expect(twice, verdict: .modified, changes: [.disallowed(.signature)])
    }

    @Test("a later update that lifts the lock (its /Lock and /Reference rewritten) does not unlock the field")
    func liftedLock() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, lock: .include(["name"]))
        var update = try HandUpdate(base: signed)
        let field = document.fields["Signature1"]!
        var dictionary = try #require(update.object(field).dictionaryValue)
        dictionary[PDFName("Lock")] = .dictionary([PDFName("Action"): .name("Include"), .fields: []])
        update.write(field, .dictionary(dictionary))
        let unlocked = update.bytes()
        try Attack.expect(unlocked, verdict: .modified, changes: [.disallowed(.field, page: 0)])
        let status = try Attack.expect(
            try Self.filling(unlocked, "name"), verdict: .modified, changes: [.disallowed(.field, page: 0)])
        #expect(status.modifications?.fieldLocks.first?.fields == ["name"])
    }

    @Test("the value of a locked field changed in a second, hand-written update, without an appearance")
    func lockedValueByHand() async throws {
        let document = AttackDocument.make()
        let signed = try await Attack.sign(document.bytes, lock: .include(["name"]))
        let filledComment = try Self.filling(signed, "comment", "fine")
        var update = try HandUpdate(base: filledComment)
        let name = document.fields["name"]!
        var dictionary = try #require(update.object(name).dictionaryValue)
        dictionary[.v] = .string(PDFString(text: "Mallory"))
        update.write(name, .dictionary(dictionary))
        let status = try Attack.expect(update.bytes(), verdict: .modified, changes: [.disallowed(.field, page: 0)])
        #expect(status.modifications?.changes.contains { $0.allowed && $0.revision == 2 } == true)
        #expect(status.modifications?.disallowedChanges.allSatisfy { $0.revision == 3 } == true)
    }

    @Test("a certification P=2 then a second signature locking 'name': the lock binds from the second signature on")
    func lockBySecondSignature() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, certification: .formFilling)
        let twice = try await Attack.sign(signed, field: "Signature2", lock: .include(["name"]))
        let filled = try Self.filling(twice, "name")
        try Attack.expect(filled, field: "Signature2", verdict: .modified, changes: [.disallowed(.field, page: 0)])
        // The certification's own signature did not lock 'name': signing (its /Lock set as it signs) and
        // filling are allowed to it.
        try Attack.expect(
            filled, verdict: .validWithAllowedChanges, level: .formFilling,
            pyHanko: .says(
                "OTHER",
                because: "pyHanko compares an existing signature field's keys strictly when it is signed: a /Lock "
                    + "written as it is signed is an unexpected key to it (§12.7.5.5: the lock takes effect then)"))
    }

    @Test("after a certification P=1, a DSS is allowed (validation material)")
    func dssAfterP1() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, certification: .noChanges)
        try Attack.expect(try BenignUpdateTests.addingDSS(to: signed), verdict: .validWithAllowedChanges, level: .ltv)
    }

    @Test("after a certification P=1, a document time-stamp is allowed (validation material)")
    func timestampAfterP1() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, certification: .noChanges)
        let stamped = try ValidationTests.signCustom(signed, subFilter: "ETSI.RFC3161", signedAttributes: true)
        try Attack.expect(
            stamped, verdict: .validWithAllowedChanges, level: .ltv,
            pyHanko: .says(
                "REJECTED",
                because: "the time-stamp token is made by ValidationTests.signCustom, not by a TSA, and pyHanko "
                    + "cannot read its TSTInfo when it lists the signatures"))
    }

    @Test("after a certification P=1, /Info changed is disallowed")
    func metadataAfterP1() async throws {
        let signed = try await Attack.sign(AttackDocument.make().bytes, certification: .noChanges)
        let document = try PDFDocument(bytes: signed)
        var update = IncrementalUpdate(base: document)
        var info = try #require(document.info)
        info[PDFName("Title")] = .string(PDFString(text: "Invoice (void)"))
        update.replace(try #require(document.trailer.reference(.info)), with: .dictionary(info))
        try Attack.expect(
            try update.documentBytes(), verdict: .modified, changes: [.disallowed(.metadata)],
            pyHanko: .says("LTA_UPDATES", because: Attack.metadataIsLTA))
    }
}
