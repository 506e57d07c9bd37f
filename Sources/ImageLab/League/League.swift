import ImageCorpus
import Foundation

/// `imglab league`: several resizers through the lab, each exactly as `imglab run` would judge
/// it (same corpus, oracle, gates, canaries first), tabulated side by side (``LeagueTable``).
/// A resizer whose config names a program that is not installed is skipped with a row saying
/// so; one that cannot be judged gets an `unusable` row; neither stops the league.
public struct League: Sendable {
    /// The resizers, as `--resizer` names them (`builtin`, `mutant:ID`, `cmd:TEMPLATE`, `config:FILE`), in order.
    public var specs: [String]
    /// The corpus folder.
    public var corpus: String
    /// Filter patterns (``RunSelection``); `nil` takes every pair.
    public var filter: String?
    /// Worker threads per resizer.
    public var threads: Int
    /// What the resizers are run over.
    public var field: Field

    /// What a league runs its resizers over.
    public enum Field: Sendable {
        /// The corpus folder's pairs, judged as `imglab run` judges them.
        case corpus
        /// The scale profile (``ScaleSession``), each call measured in a child process against
        /// one floor per pair shared by every resizer: `imglab` is the executable whose
        /// `decode` is the floor (and whose `resize`/`thumbnail` is the built-in), `meter` the
        /// path of `imglab-measure`.
        case scale(imglab: String, meter: String)
    }

    public init(specs: [String], corpus: String = "Corpus", filter: String? = nil,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, field: Field = .corpus) {
        self.specs = specs
        self.corpus = corpus
        self.filter = filter
        self.threads = threads
        self.field = field
    }

    /// The resizers of a league given none: `builtin`, then every config built into imglab
    /// (``BundledResizers``, the files of benchmarks/resizers/), sorted.
    public static var defaultSpecs: [String] {
        ["builtin"] + BundledResizers.configNames.sorted()
    }

    /// What happened to one resizer, as it happens.
    public enum Event: Sendable, CustomStringConvertible {
        /// A program of its config is not installed.
        case skipped(spec: String, reason: String)
        /// It starts, with its declared policies.
        case started(resizer: String, policy: ResizerPolicy)
        /// It was judged.
        case finished(resizer: String, summary: RunResults.Summary, seconds: Double)
        /// It could not be judged (the run threw).
        case unusable(resizer: String, reason: String)
        /// A phase or a measured pair of a scale league (sources, oracles, one cost line).
        case status(String)

        public var description: String {
            switch self {
            case .skipped(let spec, let reason): return "skipping \(spec): \(reason)"
            case .started(let name, let policy): return "\(name) — declared: \(policy.summary)"
            case .finished(let name, let s, let seconds):
                return "\(name): \(s.pass) pass, \(s.fail) fail, \(s.error) error, \(s.skipped ?? 0) skipped in \(String(format: "%.1f", seconds)) s"
            case .unusable(let name, let reason): return "\(name) could not be judged: \(reason)"
            case .status(let line): return line
            }
        }
    }

    /// The table and each judged resizer's full results.
    public struct Outcome: Sendable {
        public var table: LeagueTable
        public var results: [RunResults]
    }

    /// Runs every resizer in turn.
    /// - Throws: ``LeagueError`` when the corpus, its gates or a filter cannot be used, or a
    ///   config is bad for another reason than a missing program.
    public func run(progress: (Event) -> Void = { _ in }) throws(LeagueError) -> Outcome {
        if case .scale(let imglab, let meter) = field { return try runScale(imglab: imglab, meter: meter, progress: progress) }
        let selection: RunSelection, gates: GateBook, manifest: CorpusManifest
        do {
            selection = try RunSelection(filter: filter)
            gates = try GateBook.load(corpus: corpus)
            manifest = try LabRunner.manifest(corpus: corpus)
        } catch { throw .run(error) }
        var entries: [LeagueTable.Entry] = []
        var results: [RunResults] = []
        for spec in specs {
            guard let declared = try Self.adapter(spec, entries: &entries, progress: progress) else { continue }
            // A resizer that declares no policy is judged against its fingerprint's contract, as in a run.
            let resizer = ContractStage.prepare(declared).resizer
            progress(.started(resizer: resizer.name, policy: resizer.policy))
            let started = Date()
            do {
                let r = try LabRunner(corpus: corpus, resizer: resizer, gates: gates, selection: selection, threads: threads).run().results
                let seconds = Date().timeIntervalSince(started)
                entries.append(LeagueTable.entry(spec: spec, results: r, policy: resizer.policy, seconds: seconds))
                results.append(r)
                progress(.finished(resizer: resizer.name, summary: r.summary, seconds: seconds))
            } catch {
                progress(.unusable(resizer: resizer.name, reason: "\(error)"))
                entries.append(LeagueTable.notRun(resizer: resizer.name, spec: spec, status: "unusable", note: "\(error)", policy: resizer.policy))
            }
        }
        return Outcome(table: LeagueTable(profile: manifest.profile, corpus: corpus, entries: entries), results: results)
    }

    /// The scale league: the sources, oracles and floors made once (``ScalePlan``), then each
    /// resizer measured over them; a resizer that is not a command (`mutant:`, a swap) cannot be
    /// measured in a child process and gets an `unusable` row.
    private func runScale(imglab: String, meter: String, progress: (Event) -> Void) throws(LeagueError) -> Outcome {
        let builtin: CommandResizer
        do { builtin = try ScaleSession.builtin(imglab: imglab) } catch { throw .run(.gates("\(error)")) }
        func session(_ resizer: CommandResizer) -> ScaleSession {
            ScaleSession(reference: corpus, resizer: resizer, imglab: imglab, meter: meter, filter: filter, threads: threads)
        }
        let plan: ScalePlan
        do { plan = try session(builtin).prepare { progress(.status($0)) } } catch { throw .run(error) }
        defer { plan.discard() }
        var entries: [LeagueTable.Entry] = []
        var results: [RunResults] = []
        for spec in specs {
            guard let adapter = try Self.adapter(spec, entries: &entries, progress: progress) else { continue }
            let resizer: CommandResizer
            do { resizer = try ScaleSession.commandResizer(adapter, imglab: imglab) } catch {
                progress(.unusable(resizer: adapter.name, reason: "\(error)"))
                entries.append(LeagueTable.notRun(resizer: adapter.name, spec: spec, status: "unusable", note: "\(error)", policy: adapter.policy))
                continue
            }
            progress(.started(resizer: resizer.name, policy: resizer.policy))
            let kept = KeptPairs()
            let outcome: RunSession.StreamedOutcome
            do {
                outcome = try session(resizer).measure(plan, progress: { p in
                    progress(.status("\(resizer.name) \(p.done)/\(p.total) " + (p.costLine ?? p.result.pair)))
                }, into: kept)
            } catch {
                progress(.unusable(resizer: resizer.name, reason: "\(error)"))
                entries.append(LeagueTable.notRun(resizer: resizer.name, spec: spec, status: "unusable", note: "\(error)", policy: resizer.policy))
                continue
            }
            var r = outcome.results
            r.pairs = kept.results
            entries.append(LeagueTable.entry(spec: spec, results: r, policy: resizer.policy, seconds: outcome.seconds))
            results.append(r)
            progress(.finished(resizer: resizer.name, summary: r.summary, seconds: outcome.seconds))
        }
        return Outcome(table: LeagueTable(profile: "scale", corpus: corpus, entries: entries), results: results)
    }

    /// The resizer `spec` names, or `nil` after a `not installed` row when a program of its
    /// config is missing.
    /// - Throws: ``LeagueError/config(_:)`` for any other bad config.
    private static func adapter(_ spec: String, entries: inout [LeagueTable.Entry], progress: (Event) -> Void) throws(LeagueError) -> (any Resizer)? {
        do throws(ResizerConfigError) { return try ResizerChoice.adapter(spec) } catch {
            guard error.missingProgram else { throw .config(error) }
            progress(.skipped(spec: spec, reason: error.reason))
            // The status already says "not installed"; the note says what is missing.
            let missing = error.reason.hasPrefix("not installed: ") ? String(error.reason.dropFirst("not installed: ".count)) : error.reason
            entries.append(LeagueTable.notRun(resizer: name(of: spec), spec: spec, status: "not installed", note: missing, policy: nil))
            return nil
        }
    }

    /// A display name for a resizer that could not be built: the config file's base name.
    static func name(of spec: String) -> String {
        guard spec.hasPrefix("config:") else { return spec }
        return URL(fileURLWithPath: String(spec.dropFirst("config:".count))).deletingPathExtension().lastPathComponent
    }

    /// The results file of a resizer in the league's folder: `results/NAME.json`, every
    /// character of the name but letters, digits, `-`, `.` and `_` replaced by `_`.
    public static func resultsPath(_ resizer: String) -> String {
        "results/" + String(resizer.unicodeScalars.map { ch -> Character in
            (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") || ch == "-" || ch == "." || ch == "_" ? Character(ch) : "_"
        }) + ".json"
    }
}

/// Why a league could not run.
public enum LeagueError: Error, Sendable, CustomStringConvertible {
    /// The corpus, its gates or the filter cannot be used.
    case run(RunError)
    /// A resizer's config is bad (not merely naming a program that is not installed).
    case config(ResizerConfigError)

    public var description: String {
        switch self {
        case .run(let error): return error.description
        case .config(let error): return error.description
        }
    }
}
