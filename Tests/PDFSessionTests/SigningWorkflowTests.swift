import PDFAuthoring
import PDFCore
import Testing

@testable import PDFSession

/// The workflow's transitions, one table row per path of the seeds' flows.
@Suite struct SigningWorkflowTests {
    typealias Workflow = SigningWorkflow
    static let place = Workflow.Plan.Placement(pageIndex: 0, rect: PDFRectangle(x0: 10, y0: 10, x1: 210, y1: 80))

    static func facts(
        missing: [String] = [], fields: [String] = [], handwriting: Bool = false, saved: [Int] = [],
        invisible: Bool = false
    ) -> Workflow.AcceptFacts {
        .init(
            missingRequiredFields: missing, emptySignatureFields: fields, handwritingEnabled: handwriting,
            savedSignatureIDs: saved, invisible: invisible, proposedPlacement: place)
    }

    static let strokes = [InkStroke([InkPoint(x: 0, y: 0), InkPoint(x: 50, y: 20)])]

    @Test func missingRequiredFieldsStopTheAccept() throws {
        var workflow = Workflow()
        let refused = #expect(throws: SessionError.self) {
            try workflow.handle(.accept(Self.facts(missing: ["name"], fields: ["Sig"])))
        }
        #expect(refused?.code == .requiredFieldsEmpty && refused?.signoCode == -129)
        #expect(refused?.message.contains("name") == true)
        #expect(workflow.phase == .editing)
        #expect(workflow.plan == nil)
    }

    @Test("signo's start is refused by the same check while required fields are empty, and nothing changes")
    func missingRequiredFieldsStopTheSignoStart() throws {
        var workflow = Workflow()
        let refused = #expect(throws: SessionError.self) {
            try workflow.handle(.startSigno(field: "S", readOnly: [], missingRequiredFields: ["agree", "color"]))
        }
        #expect(refused?.code == .requiredFieldsEmpty && refused?.signoCode == -129)
        #expect(workflow.phase == .editing && workflow.plan == nil)
        #expect(
            try workflow.handle(.startSigno(field: "S", readOnly: [])) == [.emit(.signatureCaptureRequired(field: "S"))]
        )
        #expect(workflow.phase == .capturingSignature)
    }

    @Test func oneEmptyFieldGoesStraightToPreparing() throws {
        var workflow = Workflow()
        let actions = try workflow.handle(.accept(Self.facts(fields: ["Sig"])))
        #expect(workflow.phase == .preparing)
        #expect(workflow.plan?.field == "Sig")
        // A preview comes first; willPrepareDocument follows its confirmation, as WYSIWYS orders them.
        #expect(actions.first == .prepare(Workflow.Plan(purpose: .accept, field: "Sig", invisible: false)))
        #expect(try workflow.handle(.prepared(digest: [1])) == [.persist, .showPreview])
        #expect(workflow.phase == .confirming)
        #expect(
            try workflow.handle(.confirm)
                == [.emit(.willPrepareDocument), .persist, .requestSignature(reason: "accepted")])
        #expect(
            try workflow.handle(.signed) == [.persist, .emit(.processDidFinish(reason: "accepted"))])
        // Signed: editing again, so the next field or signer can sign; the host completes it.
        #expect(workflow.phase == .editing && workflow.plan == nil)
        #expect(try workflow.handle(.complete) == [.persist, .emit(.documentCompleted)])
        #expect(workflow.phase == .finished(reason: "completed"))
        #expect(throws: SessionError.self) { try workflow.handle(.accept(Self.facts(fields: ["Sig"]))) }
        #expect(throws: SessionError.self) { try workflow.handle(.complete) }
    }

    @Test func aRefusalIsFinalAndCompletingNeedsEditing() throws {
        var workflow = Workflow()
        _ = try workflow.handle(.refuse)
        #expect(throws: SessionError.self) { try workflow.handle(.complete) }
        _ = try workflow.handle(.prepared(digest: [1]))
        _ = try workflow.handle(.confirm)
        #expect(try workflow.handle(.signed) == [.persist, .emit(.processDidFinish(reason: "refused"))])
        #expect(workflow.phase == .finished(reason: "refused"))
        #expect(workflow.isFinished)
    }

    @Test func severalFieldsAskForAChoiceAndRefuseAnUnknownOne() throws {
        var workflow = Workflow()
        let actions = try workflow.handle(.accept(Self.facts(fields: ["A", "B"])))
        #expect(actions == [.emit(.selectSignatureFormField(["A", "B"]))])
        let error = #expect(throws: SessionError.self) { try workflow.handle(.selectField("C")) }
        #expect(error?.signoCode == -130)
        #expect(workflow.phase == .selectingField(candidates: ["A", "B"]))
        let next = try workflow.handle(.selectField("B"))
        #expect(next.first == .emit(.didSelectSignatureFormField("B")))
        #expect(workflow.plan?.field == "B")
        #expect(workflow.phase == .preparing)
    }

    @Test func theFieldChoiceKeepsTheHandwritingFactsOfTheAccept() throws {
        var workflow = Workflow()
        _ = try workflow.handle(.accept(Self.facts(fields: ["A", "B"], handwriting: true)))
        // The choice of a field came between the accept and the capture: the capture is still asked.
        #expect(
            try workflow.handle(.selectField("B"))
                == [.emit(.didSelectSignatureFormField("B")), .emit(.signatureCaptureRequired(field: "B"))])
        #expect(workflow.phase == .capturingSignature)
        var saved = Workflow()
        _ = try saved.handle(.accept(Self.facts(fields: ["A", "B"], handwriting: true, saved: [3, 4])))
        #expect(try saved.handle(.selectField("A")).last == .emit(.savedSignatureSelectionRequired([3, 4])))
    }

    @Test func handwritingIsCapturedAppliedOrChosen() throws {
        var none = Workflow()
        #expect(
            try none.handle(.accept(Self.facts(fields: ["S"], handwriting: true)))
                == [.emit(.signatureCaptureRequired(field: "S"))])
        let captured = try none.handle(.signatureCaptured(Self.strokes))
        #expect(captured.first == .saveHandwriting(Self.strokes))
        #expect(none.phase == .preparing)
        #expect(none.plan?.handwriting == Self.strokes)

        var one = Workflow()
        #expect(
            try one.handle(.accept(Self.facts(fields: ["S"], handwriting: true, saved: [7])))
                == [.applySavedSignature(id: 7)])
        _ = try one.handle(.savedSignatureChosen(id: 7, strokes: Self.strokes))
        #expect(one.phase == .preparing)

        var many = Workflow()
        #expect(
            try many.handle(.accept(Self.facts(fields: ["S"], handwriting: true, saved: [1, 2])))
                == [.emit(.savedSignatureSelectionRequired([1, 2]))])
        #expect(throws: SessionError.self) { try many.handle(.savedSignatureChosen(id: 3, strokes: Self.strokes)) }
        _ = try many.handle(.savedSignatureChosen(id: 2, strokes: Self.strokes))
        #expect(many.phase == .preparing)
    }

    @Test func withoutAFieldTheSignatureIsPositioned() throws {
        var workflow = Workflow()
        #expect(
            try workflow.handle(.accept(Self.facts())) == [.emit(.signatureRequiresPositioning(Self.place))])
        #expect(throws: SessionError.self) {
            try workflow.handle(.positioned(.init(pageIndex: 0, rect: PDFRectangle(x0: 5, y0: 5, x1: 5, y1: 9))))
        }
        _ = try workflow.handle(.positioned(Self.place))
        #expect(workflow.plan?.placement == Self.place)
        #expect(workflow.phase == .preparing)
    }

    @Test func anInvisibleSignatureNeedsNoPreview() throws {
        var workflow = Workflow()
        _ = try workflow.handle(.accept(Self.facts(fields: ["A", "B"], invisible: true)))
        #expect(workflow.phase == .preparing)
        #expect(try workflow.handle(.prepared(digest: [1])) == [.persist, .requestSignature(reason: "accepted")])
    }

    @Test func aVisibleSignatureThatChangesNoPageNeedsNoPreview() throws {
        var workflow = Workflow()
        _ = try workflow.handle(.accept(Self.facts(fields: ["A"])))
        #expect(
            try workflow.handle(.prepared(digest: [1], changesAppearance: false))
                == [.emit(.willPrepareDocument), .persist, .requestSignature(reason: "accepted")])
        #expect(workflow.phase == .awaitingSignature)
    }

    @Test func cancellingAtEachDecisionGoesBackToEditing() throws {
        let starts: [(Workflow.AcceptFacts, Workflow.Phase)] = [
            (Self.facts(fields: ["A", "B"]), .selectingField(candidates: ["A", "B"])),
            (Self.facts(fields: ["A"], handwriting: true), .capturingSignature),
            (Self.facts(fields: ["A"], handwriting: true, saved: [1, 2]), .choosingSavedSignature(ids: [1, 2])),
            (Self.facts(), .positioning),
        ]
        for (facts, phase) in starts {
            var workflow = Workflow()
            _ = try workflow.handle(.accept(facts))
            #expect(workflow.phase == phase)
            let actions = try workflow.handle(.cancel)
            #expect(
                actions.last
                    == .emit(.signingProcessCancelled(field: workflow.plan?.field ?? facts.emptySignatureFields.first))
                    || actions.last == .emit(.signingProcessCancelled(field: nil)))
            #expect(!actions.contains(.discardPrepared))
            #expect(workflow.phase == .editing)
        }
        var confirming = Workflow()
        _ = try confirming.handle(.accept(Self.facts(fields: ["A"])))
        _ = try confirming.handle(.prepared(digest: [1]))
        #expect(
            try confirming.handle(.cancel) == [.discardPrepared, .persist, .emit(.signingProcessCancelled(field: "A"))])
    }

    @Test func refusalWatermarksAndSignsInvisibly() throws {
        var workflow = Workflow()
        let actions = try workflow.handle(.refuse)
        #expect(actions.first == .watermark)
        #expect(workflow.plan?.invisible == true)
        // The watermark changes what pages show: the preview is required.
        #expect(try workflow.handle(.prepared(digest: [1])) == [.persist, .showPreview])
        #expect(
            try workflow.handle(.confirm)
                == [.emit(.willPrepareDocument), .persist, .requestSignature(reason: "refused")])
    }

    @Test func signoCapturesAsksConfirmationAndReportsTheField() throws {
        var workflow = Workflow()
        #expect(
            try workflow.handle(.startSigno(field: "S", readOnly: ["name"]))
                == [.emit(.signatureCaptureRequired(field: "S"))])
        #expect(
            try workflow.handle(.signatureCaptured(Self.strokes))
                == [.askCaptureConfirmation(field: "S")])
        _ = try workflow.handle(.captureConfirmed(true))
        #expect(workflow.plan?.readOnlyFields == ["name"])
        _ = try workflow.handle(.prepared(digest: [1]))
        _ = try workflow.handle(.confirm)
        #expect(
            try workflow.handle(.signed)
                == [
                    .persist, .emit(.signingProcessConfirmed(field: "S")), .emit(.processDidFinish(reason: "accepted")),
                ])

        var declined = Workflow()
        _ = try declined.handle(.startSigno(field: "S", readOnly: []))
        _ = try declined.handle(.signatureCaptured(Self.strokes))
        #expect(try declined.handle(.captureConfirmed(false)) == [.emit(.signingProcessCancelled(field: "S"))])
        #expect(declined.phase == .editing)
    }

    @Test func aFailureDiscardsThePreparedRevisionAndReportsTheCode() throws {
        var workflow = Workflow()
        _ = try workflow.handle(.accept(Self.facts(fields: ["A"])))
        let error = SessionError(.signing, "too big", signoCode: -136)
        let actions = try workflow.handle(.failed(error))
        #expect(
            actions == [
                .discardPrepared, .persist, .emit(.signingProcessFailed(field: "A", error: error)),
                .emit(.processDidFail(error)),
            ])
        #expect(workflow.phase == .editing)
    }

    @Test func resumingDropsWaitsThatNeedThePerson() throws {
        let same = Workflow.ResumeFacts(hasPrepared: true, signerMatches: true, cmsComesFromHost: false)
        var positioning = Workflow()
        _ = try positioning.handle(.accept(Self.facts()))
        #expect(positioning.resume(same) == nil)
        #expect(positioning.phase == .editing)
        // Confirmed, the signer stopped: the confirmation is asked again.
        var awaiting = Workflow()
        _ = try awaiting.handle(.accept(Self.facts(fields: ["A"], invisible: true)))
        _ = try awaiting.handle(.prepared(digest: [1]))
        #expect(awaiting.phase == .awaitingSignature)
        var restarted = awaiting
        #expect(restarted.resume(same) == .confirmAgain)
        #expect(restarted.phase == .confirming && restarted.plan != nil)
        #expect(try restarted.handle(.confirm).contains(.requestSignature(reason: "accepted")))
        // The host makes the CMS: still awaited, and cancelling drops the prepared revision.
        var deferred = awaiting
        let host = Workflow.ResumeFacts(hasPrepared: true, signerMatches: true, cmsComesFromHost: true)
        #expect(deferred.resume(host) == .awaitingCMS)
        #expect(deferred.phase == .awaitingSignature)
        #expect(
            try deferred.handle(.cancel) == [.discardPrepared, .persist, .emit(.signingProcessCancelled(field: nil))])
        // Signed and stored just before the stop (the prepared signature gone with it): finished.
        var stored = awaiting
        let signed = Workflow.ResumeFacts(hasPrepared: false, signerMatches: true, cmsComesFromHost: false)
        #expect(stored.resume(signed) == .signed)
        #expect(stored.phase == .editing && stored.plan == nil)
        // Another signer, or nothing stored: discarded.
        var other = awaiting
        let changed = Workflow.ResumeFacts(hasPrepared: true, signerMatches: false, cmsComesFromHost: false)
        guard case .discarded? = other.resume(changed) else {
            Issue.record("another signer must discard")
            return
        }
        #expect(other.phase == .editing && other.plan == nil)
        var preparing = Workflow()
        _ = try preparing.handle(.accept(Self.facts(fields: ["A"], invisible: true)))
        #expect(preparing.phase == .preparing)
        guard case .discarded? = preparing.resume(same) else {
            Issue.record("preparing must discard")
            return
        }
        #expect(preparing.phase == .editing)
    }

    @Test func notesModeBlocksTheWorkflow() throws {
        var workflow = Workflow()
        #expect(try workflow.handle(.startNotes) == [.emit(.notesModeDidStart)])
        #expect(!workflow.acceptsEdits)
        #expect(throws: SessionError.self) { try workflow.handle(.refuse) }
        _ = try workflow.handle(.finishNotes)
        #expect(workflow.acceptsEdits)
    }
}
