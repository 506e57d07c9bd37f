import ImageLab

/// The contract a run inferred from the resizer's fingerprint, as the run report's table: one row
/// per finding (property, kind, what the resizer does with its confidence, the evidence), the
/// calibration images it failed on, and what the kinds mean for the verdicts.
enum ContractTable {
    static func html(_ f: ContractFingerprint) -> String {
        let e = HTMLText.escape
        let rows = f.findings.map { finding in
            "<tr class=\"k-\(finding.kind.rawValue)\"><td>\(e(finding.aspect))</td>"
                + "<td><span class=\"chip \(finding.kind.chipClass)\">\(finding.kind.label)</span></td>"
                + "<td>\(e(finding.value)) <span class=\"small\">(confidence \(Int((finding.confidence * 100).rounded())) %)</span></td>"
                + "<td class=\"small\">\(e(finding.evidence))</td></tr>"
        }
        let failures = f.failures.isEmpty ? "" : "<p>Calibration images the resizer failed on:</p>" + HTMLBlocks.list(f.failures)
        return HTMLBlocks.section("Contract", id: "contract",
            "<p class=\"small\">\(e(f.resizer)) declares no policy, so the run fingerprinted it first: <b>design</b> choices are "
            + "the contract its pairs are judged against (reported here once, not as failures); a <b>DEFECT</b> is never excused, "
            + "its pairs fail and are named; <b>ok</b> is what a correct resizer does. To review and commit this contract: "
            + "<code>imglab fingerprint --resizer … --write-config FILE</code>.</p><table id=\"contract-table\"><thead>"
            + HTMLBlocks.headerRow(["property", "kind", "the resizer", "evidence"]) + "</thead><tbody>"
            + rows.joined() + "</tbody></table>" + failures)
    }
}

extension ContractFingerprint.Finding.Kind {
    /// The kind as the terminal and the report print it: `design`, `DEFECT`, `ok` or `?`.
    var label: String {
        switch self {
        case .design: "design"
        case .defect: "DEFECT"
        case .correct: "ok"
        case .unknown: "?"
        }
    }

    /// The chip colour of the run report's verdicts that matches the kind.
    var chipClass: String {
        switch self {
        case .design: "v-changed-closer"
        case .defect: "v-fail"
        case .correct: "v-pass"
        case .unknown: "v-error"
        }
    }
}
