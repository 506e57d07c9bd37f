import ImageCore
import ImageCorpus
import Foundation
import ImageMetrics

/// Several resizers over the same corpus, side by side (`imglab league`, JSON schema
/// `imglab-league/1`): per resizer its declared policies, the verdict counts (pass, fail,
/// error, skipped), how many judged pairs a declared policy relabelled, and its failures and
/// errors grouped (failures by the diagnosis's bug class, errors by their message with paths
/// and numbers blanked), each group with its pairs and one example's evidence.
public struct LeagueTable: Sendable, Hashable, Codable {
    public static let schema = "imglab-league/1"

    /// A group of failures or errors of one resizer.
    public struct Group: Sendable, Hashable, Codable {
        /// The diagnosis's bug class (`gamma`, `channel-order`, … or `undiagnosed`), or the
        /// error message with paths and numbers blanked.
        public var key: String
        /// Pairs in the group.
        public var count: Int
        /// Their ids, in manifest order.
        public var pairs: [String]
        /// The first pair's evidence: the diagnosis summary or message, the failed gate clauses,
        /// and its policy labels.
        public var example: String
    }

    /// One resizer's row.
    public struct Entry: Sendable, Hashable, Codable {
        /// The adapter's name.
        public var resizer: String
        /// How it was named on the command line (`builtin`, `config:FILE`, `cmd:…`).
        public var spec: String
        /// `ran`, `not installed` (a program of its config is missing: skipped with the
        /// message) or `unusable` (a bad config or a run that could not judge).
        public var status: String
        /// The message of a resizer that did not run.
        public var note: String?
        /// Its declared policies.
        public var policy: ResizerPolicy?
        public var summary: RunResults.Summary?
        /// Judged pairs that carry a declared-policy label (``PairResult/policy``).
        public var policyLabelled: Int
        /// Failures by diagnosis, largest group first.
        public var failures: [Group]
        /// Errors by message, largest group first.
        public var errors: [Group]
        /// Wall-clock seconds of its run.
        public var seconds: Double?
        /// On the scale profile: its costs over the measured pairs.
        public var costs: Costs?
    }

    /// A resizer's costs over the scale profile's pairs, against the floor each pair shares
    /// with every resizer of the league (``ScaleCost``).
    public struct Costs: Sendable, Hashable, Codable {
        /// Pairs whose cost was measured (those that ran, whatever their verdict).
        public var measured: Int
        /// CPU seconds ÷ the floor's, per pair: median and largest.
        public var cpuRatioMedian: Double
        public var cpuRatioMax: Double
        /// Peak resident memory, MiB: median and largest over the pairs.
        public var rssMedian: Double
        public var rssMax: Double
        /// Peak resident memory beyond the floor's, MiB: largest over the pairs.
        public var rssOverFloorMax: Double
        /// Per pair: its id, CPU ratio to the floor, peak RSS (MiB) and verdict.
        public var pairs: [PairCost]

        /// One pair's cost.
        public struct PairCost: Sendable, Hashable, Codable {
            public var pair: String
            /// CPU seconds ÷ the floor's (`nil`: the floor took no measurable CPU time).
            public var cpuRatio: Double?
            /// Peak resident memory, MiB.
            public var rss: Double
            public var verdict: PairResult.Verdict

            /// `×1.34 · 96`: the CPU ratio (`×?` without one) and the peak RSS in MiB.
            public var cell: String {
                (cpuRatio.map { String(format: "×%.2f", $0) } ?? "×?") + " · " + String(format: "%.0f", rss)
            }
        }

        /// The costs of the pairs of `results` that carry one; `nil` when none does.
        init?(_ results: [PairResult]) {
            let measured = results.compactMap { p in p.cost.map { (p, $0) } }
            guard !measured.isEmpty else { return nil }
            func median(_ v: [Double]) -> Double {
                let s = v.sorted()
                return s.isEmpty ? .nan : (s[(s.count - 1) / 2] + s[s.count / 2]) / 2
            }
            pairs = measured.map { p, c in
                PairCost(pair: p.pair, cpuRatio: c.floor.cpuSeconds > 0 ? c.resizer.cpuSeconds / c.floor.cpuSeconds : nil,
                         rss: c.resizer.peakRSSMiB, verdict: p.verdict)
            }
            self.measured = measured.count
            let ratios = pairs.compactMap(\.cpuRatio), rss = pairs.map(\.rss)
            cpuRatioMedian = median(ratios)
            cpuRatioMax = ratios.max() ?? .nan
            rssMedian = median(rss)
            rssMax = rss.max() ?? .nan
            rssOverFloorMax = measured.map { $0.1.resizer.peakRSSMiB - $0.1.floor.peakRSSMiB }.max() ?? .nan
        }
    }

    public var schema = LeagueTable.schema
    /// Which imglab wrote the file: version and commit (``ImglabBuild/identity``); absent in files written before it was recorded.
    public var imglab: String? = ImglabBuild.identity
    public var profile: String
    public var corpus: String
    public var entries: [Entry]

    public init(profile: String, corpus: String, entries: [Entry]) {
        self.profile = profile
        self.corpus = corpus
        self.entries = entries
    }

    /// The row of a resizer that did not run: `status` says why (`not installed`, `unusable`).
    public static func notRun(resizer: String, spec: String, status: String, note: String, policy: ResizerPolicy?) -> Entry {
        Entry(resizer: resizer, spec: spec, status: status, note: note, policy: policy, summary: nil, policyLabelled: 0,
              failures: [], errors: [], seconds: nil, costs: nil)
    }

    /// The row of a resizer that ran.
    public static func entry(spec: String, results r: RunResults, policy: ResizerPolicy, seconds: Double?) -> Entry {
        let failed = r.pairs.filter { $0.verdict == .fail }
        let erred = r.pairs.filter { $0.verdict == .error }
        func evidence(_ p: PairResult) -> String {
            var parts: [String] = []
            if let d = p.diagnosis { parts.append(d.summary) }
            if let m = p.message { parts.append(m) }
            if let labels = p.policy { parts.append(labels.map(\.text).joined(separator: "; ")) }
            return "\(p.pair): " + parts.joined(separator: " — ")
        }
        func groups(_ pairs: [PairResult], key: (PairResult) -> String) -> [Group] {
            var order: [String] = []
            var members: [String: [PairResult]] = [:]
            for p in pairs {
                let k = key(p)
                if members[k] == nil { order.append(k) }
                members[k, default: []].append(p)
            }
            return order.map { k in
                let m = members[k] ?? []
                return Group(key: k, count: m.count, pairs: m.map(\.pair), example: m.first.map(evidence) ?? "")
            }.sorted { ($0.count, $1.key) > ($1.count, $0.key) }
        }
        return Entry(resizer: r.resizer, spec: spec, status: "ran", note: nil, policy: policy, summary: r.summary,
                     policyLabelled: r.pairs.count { $0.policy != nil },
                     failures: groups(failed) { $0.diagnosis?.bugClass ?? "undiagnosed" },
                     errors: groups(erred) { errorKey($0.message ?? "error") }, seconds: seconds, costs: Costs(r.pairs))
    }

    /// An error message with what differs from pair to pair blanked, so the errors of one cause
    /// group together: the text before the command (the first word holding a `/`), then, when
    /// the message carries the command's stderr, its last line (the error itself, not a
    /// traceback); words holding a `/` become `…`, digit runs `#`; at most 160 characters.
    public static func errorKey(_ message: String) -> String {
        var head = Substring(message), tail: Substring = ""
        if let r = message.range(of: "; stderr: ") {
            head = message[..<r.lowerBound]
            tail = message[r.upperBound...].split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? ""
        }
        func blanked(_ text: Substring, stopAtPath: Bool) -> String {
            var words: [String] = []
            for word in text.split(separator: " ", omittingEmptySubsequences: true) {
                if word.contains("/") {
                    if stopAtPath { break }
                    if words.last != "…" { words.append("…") }
                    continue
                }
                var w = ""
                var inDigits = false
                for ch in word {
                    if ch.isASCII && ch.isNumber { if !inDigits { w.append("#") }; inDigits = true } else { w.append(ch); inDigits = false }
                }
                words.append(w)
            }
            return words.joined(separator: " ")
        }
        var key = blanked(head, stopAtPath: true)
        if !tail.isEmpty { key += " … " + blanked(tail, stopAtPath: false) }
        return key.count > 160 ? String(key.prefix(159)) + "…" : key
    }

    /// The table as Markdown: one row per resizer with its counts and its failure groups
    /// (`class ×N`), then its error groups; on the scale profile also its costs (CPU ratio to
    /// the floor and peak RSS, median and largest over the pairs).
    public func markdown() -> String {
        let withCosts = entries.contains { $0.costs != nil }
        let costHeads = withCosts ? " CPU ÷ floor, median / max | peak RSS MiB, median / max | RSS over floor, max MiB |" : ""
        var s = "| resizer | declared policies | pass | fail | error | skipped | policy-labelled | failures by diagnosis | errors |\(costHeads)\n"
        s += "|---|---|---:|---:|---:|---:|---:|---|---|" + (withCosts ? "---:|---:|---:|" : "") + "\n"
        for e in entries {
            func cell(_ t: String) -> String { t.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
            guard let sm = e.summary else {
                s += "| \(cell(e.resizer)) | \(e.status): \(cell(e.note ?? "")) | – | – | – | – | – | – | – |" + (withCosts ? " – | – | – |" : "") + "\n"
                continue
            }
            let fails = e.failures.map { "\($0.key) ×\($0.count)" }.joined(separator: ", ")
            let errs = e.errors.map { "\(cell($0.key)) ×\($0.count)" }.joined(separator: "; ")
            s += "| \(cell(e.resizer)) | \(cell(e.policy?.summary ?? "")) | \(sm.pass) | \(sm.fail) | \(sm.error) | \(sm.skipped ?? 0) | \(e.policyLabelled) | \(fails.isEmpty ? "–" : fails) | \(errs.isEmpty ? "–" : errs) |"
            if withCosts {
                if let c = e.costs {
                    s += String(format: " %.2f / %.2f | %.1f / %.1f | %.1f |", c.cpuRatioMedian, c.cpuRatioMax, c.rssMedian, c.rssMax, c.rssOverFloorMax)
                } else {
                    s += " – | – | – |"
                }
            }
            s += "\n"
        }
        return s
    }

    /// One row of the pair-by-pair cost table: a pair and each costed resizer's cost on it.
    public struct CostRow: Sendable {
        public var pair: String
        /// By resizer name; a resizer that did not measure the pair is absent.
        public var costs: [String: Costs.PairCost]
    }

    /// On the scale profile, the resizers that have costs (the columns) and a row per pair, in
    /// the order the pairs were first measured; both empty when no resizer has costs.
    public var costRows: (resizers: [String], rows: [CostRow]) {
        let costed = entries.filter { $0.costs != nil }
        var rows: [CostRow] = [], index: [String: Int] = [:]
        for e in costed {
            for p in e.costs?.pairs ?? [] {
                if index[p.pair] == nil {
                    index[p.pair] = rows.count
                    rows.append(CostRow(pair: p.pair, costs: [:]))
                }
                rows[index[p.pair] ?? 0].costs[e.resizer] = p
            }
        }
        return (costed.map(\.resizer), rows)
    }

    /// On the scale profile, the costs pair by pair as Markdown (``costRows``), each cell
    /// `×CPU ratio · peak RSS MiB` (with `fail` or `error` when the pair did not pass). Empty
    /// when no resizer has costs.
    public func costMatrix() -> String {
        let (resizers, rows) = costRows
        guard !resizers.isEmpty else { return "" }
        var s = "| pair | " + resizers.joined(separator: " | ") + " |\n"
        s += "|---|" + String(repeating: "---:|", count: resizers.count) + "\n"
        for row in rows {
            s += "| \(row.pair) | " + resizers.map { name in
                row.costs[name].map { "\($0.cell)" + ($0.verdict == .pass ? "" : " \($0.verdict.rawValue)") } ?? "–"
            }.joined(separator: " | ") + " |\n"
        }
        return s
    }

    /// What `imglab league` prints after the runs: a blank line, the Markdown table, then per
    /// resizer with failures or errors each group with an example on one line (at most 400
    /// characters; the JSON and the HTML page keep it whole). Ends with a newline.
    public func terminalText() -> String {
        func line(_ text: String) -> String {
            let one = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return one.count > 400 ? String(one.prefix(399)) + "…" : one
        }
        var lines = ["", markdown()]
        let matrix = costMatrix()
        if !matrix.isEmpty { lines += ["CPU time ÷ the floor's · peak RSS in MiB, pair by pair:", "", matrix] }
        for e in entries where !e.failures.isEmpty || !e.errors.isEmpty {
            lines.append("\(e.resizer):")
            for g in e.failures { lines.append("  fail \(g.key) ×\(g.count) — e.g. \(line(g.example))") }
            for g in e.errors { lines.append("  error \(g.key) ×\(g.count) — e.g. \(line(g.example))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}
