import ImageMetrics

/// JUnit XML of a folder diff: one `<testsuite>` named `imglab diff`, one `<testcase>` per key
/// (`classname` = the expected folder, `name` = the key); a changed pair is a `<failure
/// type="changed">` with the failed clauses and the diagnosis, a new or deleted file a
/// `<failure type="new">` / `<failure type="deleted">`, an error an `<error>`. Pure.
enum FolderDiffJUnit {
    /// The XML document.
    static func xml(_ r: FolderDiffResults) -> String {
        let e = HTMLText.escape
        let s = r.summary
        let failures = s.changed + s.new + s.deleted
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"imglab diff\" tests=\"\(s.keys)\" failures=\"\(failures)\" errors=\"\(s.error)\">\n"
        x += "  <testsuite name=\"imglab diff\" tests=\"\(s.keys)\" failures=\"\(failures)\" errors=\"\(s.error)\" skipped=\"0\">\n"
        x += "    <properties>\n"
        x += "      <property name=\"expected\" value=\"\(e(r.expected))\"/>\n"
        x += "      <property name=\"actual\" value=\"\(e(r.actual))\"/>\n"
        if let gate = r.gate { x += "      <property name=\"gate\" value=\"\(e(gate))\"/>\n" }
        x += "      <property name=\"schema\" value=\"\(e(r.schema))\"/>\n"
        x += "    </properties>\n"
        for item in r.items {
            x += "    <testcase classname=\"\(e(r.expected))\" name=\"\(e(item.key))\""
            switch item.status {
            case .unchanged, .withinGate:
                x += "/>\n"
            case .changed, .new, .deleted:
                var body = [item.expected.map { "expected: " + $0 }, item.actual.map { "actual: " + $0 }].compactMap { $0 }.joined(separator: "\n") + "\n"
                if !item.failedClauses.isEmpty { body += "failed: " + item.failedClauses.joined(separator: "; ") + "\n" }
                if let d = item.diagnosis { body += "diagnosis: \(item.diagnosisClass ?? "none") — \(d)\n" }
                x += ">\n      <failure type=\"\(item.status.rawValue)\" message=\"\(e(item.message ?? item.status.rawValue))\">\(e(body))</failure>\n    </testcase>\n"
            case .error:
                x += ">\n      <error type=\"error\" message=\"\(e(item.message ?? "error"))\"/>\n    </testcase>\n"
            }
        }
        x += "  </testsuite>\n</testsuites>\n"
        return x
    }
}
