import Testing
import ImageMetrics
import ImageLab
import ImageReports

/// The one verdict vocabulary and the one exit rule: every command's finer words map
/// onto pass / fail / error as docs/run.md and docs/diff.md state them, and the exit status follows
/// from those three values alone.
@Suite("verdict vocabulary and exit rule")
struct VerdictVocabularyTests {
    @Test("the exit rule: 0 when every verdict passes, 1 when one fails or errs, whatever the others")
    func exitRule() {
        #expect(ExitRule.status([Verdict]()) == 0)
        #expect(ExitRule.status([.pass, .pass]) == 0)
        #expect(ExitRule.status([.pass, .fail]) == 1)
        #expect(ExitRule.status([.error, .pass]) == 1)
        #expect(ExitRule.status(failing: 0) == 0)
        #expect(ExitRule.status(failing: 3) == 1)
        #expect(ExitRule.couldNotJudge == 2)
    }

    @Test("a run's verdicts: changed-closer passes (bless it), changed-further fails (a regression), error is an error")
    func runVerdicts() {
        let expected: [PairResult.Verdict: Verdict] = [.pass: .pass, .changedCloser: .pass, .fail: .fail, .changedFurther: .fail,
                                                       .error: .error]
        for v in PairResult.Verdict.allCases { #expect(v.kind == expected[v], "\(v)") }
    }

    @Test("a folder diff's statuses: unchanged and within-gate pass; changed, new and deleted fail; error is an error")
    func folderStatuses() {
        let expected: [FolderDiffStatus: Verdict] = [.unchanged: .pass, .withinGate: .pass, .changed: .fail, .new: .fail, .deleted: .fail,
                                                     .error: .error]
        for s in FolderDiffStatus.allCases { #expect(s.kind == expected[s], "\(s)") }
    }

    @Test("a run summary's exit status counts fail, changed-further and error, never changed-closer")
    func summaryStatus() {
        let closer = RunResults.Summary(pairs: 3, pass: 2, fail: 0, error: 0, changedCloser: 1, changedFurther: 0)
        let further = RunResults.Summary(pairs: 3, pass: 2, fail: 0, error: 0, changedCloser: 0, changedFurther: 1)
        let erred = RunResults.Summary(pairs: 3, pass: 2, fail: 0, error: 1)
        #expect(ExitRule.status(failing: closer.failing) == 0)
        #expect(ExitRule.status(failing: further.failing) == 1)
        #expect(ExitRule.status(failing: erred.failing) == 1)
    }
}
