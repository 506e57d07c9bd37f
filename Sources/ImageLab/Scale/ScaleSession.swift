import Foundation
import ImageCore
import ImageCodecs
import ImageCorpus
import ImageMetrics

/// `imglab run --profile scale`: the documents' cost failures as lab cases. The sources of
/// ``ScaleProfile`` (24 to 96 megapixels) are streamed into a temporary folder
/// (``StreamedSource``), each pair is run through a command resizer in a child process whose
/// peak memory and CPU time are measured (``ProcessCost``), beside the floor: `imglab decode` of
/// the same source at the scale a correct shrink-on-load would use. The output is judged
/// against the box oracle rendered from the continuous scene at the output size by the gates
/// file's families, and the costs by its cost gate (``GateBook/CostGate``).
///
/// The lab never decodes a scale source itself. Children run one at a time, so a measurement
/// never shares the cores with another; sources and oracles are made on `threads` threads first.
public struct ScaleSession: Sendable {
    /// The corpus whose `gates.json` judges the pairs (its families and its cost gate).
    public var reference: String
    /// The resizer, run as a child process per pair.
    public var resizer: CommandResizer
    /// The imglab executable that measures the floor (`imglab decode`).
    public var imglab: String
    /// The path of `imglab-measure`, which runs each measured command (built beside imglab).
    public var meter: String
    /// Filter patterns (``RunSelection``), comma-separated; `nil` takes every pair.
    public var filter: String?
    /// Threads for generating sources and oracles; the measurements run one at a time.
    public var threads: Int
    /// A folder to write the sources into and keep (to reproduce a failure with `imglab
    /// thumbnail` or `imglab resize`); `nil` uses a temporary folder, removed afterwards.
    public var keepSources: String?
    /// With ``keepSources``: use the sources already there (an earlier session of the same
    /// imglab wrote them) instead of writing them again.
    public var reuseSources = false

    public init(reference: String, resizer: CommandResizer, imglab: String, meter: String, filter: String? = nil,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, keepSources: String? = nil) {
        self.keepSources = keepSources
        self.reference = reference
        self.resizer = resizer
        self.imglab = imglab
        self.meter = meter
        self.filter = filter
        self.threads = threads
    }

    /// The built-in resizer as the scale profile runs it: imglab's own command line
    /// (`imglab thumbnail`, `imglab resize`), so its cost is a process's like any other's.
    /// - Throws: ``ResizerError`` when the templates cannot be made (an unusable path).
    /// - Parameter mutant: a performance mutant to run instead (`--performance-mutant ID`).
    public static func builtin(imglab: String, mutant: PerformanceMutant? = nil) throws(ResizerError) -> CommandResizer {
        do {
            let fixed = ["imglab": imglab]
            let wasteful = mutant.map { " --performance-mutant \($0.id)" } ?? ""
            let resize = try CommandTemplate("{imglab} resize {in} -o {out} --size {width}x{height} --mode {mode}" + wasteful, fixed: fixed)
            let thumbnail = try CommandTemplate("{imglab} thumbnail {in} --max-pixel-size {size} -o {out}" + wasteful, fixed: fixed)
            return CommandResizer(name: mutant.map { "\($0.id)(builtin)" } ?? "builtin", template: resize, templates: ["maxPixelSize": thumbnail], timeout: 300)
        } catch {
            throw .unsupported("cannot run \(imglab) as a command: \(error)")
        }
    }

    /// `adapter` as the scale profile runs it: a command resizer as it is, the built-in as its
    /// command line (``builtin(imglab:mutant:)``).
    /// - Throws: ``ResizerError/unsupported(_:)`` for a resizer that runs inside the lab (a
    ///   mutant, a swap): its calls cannot be measured in a child process.
    public static func commandResizer(_ adapter: any Resizer, imglab: String) throws(ResizerError) -> CommandResizer {
        if let command = adapter as? CommandResizer { return command }
        guard adapter.name == BuiltinResizer().name else {
            throw .unsupported("the scale profile measures each call in a child process; \(adapter.name) runs inside the lab (give builtin, cmd:'TEMPLATE' or config:FILE)")
        }
        return try builtin(imglab: imglab)
    }

    /// Streams the sources, renders the oracles, then measures and judges each selected pair in
    /// order, handing each result to `sink` as it is judged.
    /// - Parameter status: one line per phase (generating sources, rendering oracles).
    /// - Throws: ``RunError`` when the run cannot judge: a bad selection, unreadable gates or no
    ///   cost gate in them, failing metric canaries, a source that cannot be made, or the sink.
    public func run<Sink: PairSink>(status: @escaping @Sendable (String) -> Void = { _ in },
                                    progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in },
                                    into sink: Sink) throws(RunError) -> RunSession.StreamedOutcome {
        let started = Date()
        let plan = try prepare(status: status)
        defer { plan.discard() }
        var outcome = try measure(plan, progress: progress, into: sink)
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// Streams the selected pairs' sources into ``keepSources`` (or a temporary folder) and
    /// renders their oracles: what every resizer measured over the profile shares
    /// (``measure(_:progress:into:)``). Call ``ScalePlan/discard()`` when done.
    /// - Throws: ``RunError`` as ``run(status:progress:into:)``.
    public func prepare(status: (String) -> Void = { _ in }) throws(RunError) -> ScalePlan {
        let selection = try RunSelection(filter: filter)
        let gates = try GateBook.load(corpus: reference)
        guard let costGate = gates.cost else {
            throw .gates("\(reference)/\(GateBook.fileName) has no cost gate ('cost'), which the scale profile needs")
        }
        let metricCanaries = try PairJudge.metricCanaries()

        // The pairs, and those whose source cannot be streamed yet.
        var skipped: [RunResults.SkippedPair] = []
        var wanted: [(CorpusCase, CaseRecord)] = []
        for c in ScaleProfile.cases {
            let record: CaseRecord
            do { record = try ScaleProfile.record(c) } catch { throw .corpus("\(error)") }
            let ids = record.operations.map { "\(record.id)/\($0.id)" }.filter(selection.selects)
            guard !ids.isEmpty else { continue }
            if StreamedSource.canStream(c) {
                wanted.append((c, record))
            } else {
                skipped += ids.map { .init(pair: $0, reason: "not judged: its \(c.encoding.container.rawValue) source cannot be streamed yet, and the lab never holds a scale source whole") }
            }
        }
        guard !wanted.isEmpty else {
            throw .nothingSelected("filter \(selection.patterns): no streamable scale pair (\(skipped.count) not streamable)")
        }

        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-scale-\(UUID().uuidString)").path
        let folder = keepSources ?? temporary
        do {
            try FileManager.default.createDirectory(atPath: folder + "/sources", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .output("cannot make \(folder): \(error)")
        }
        do throws(RunError) {
            let pairs = try streamSources(wanted, into: folder, selection: selection, status: status)
            status("rendering \(pairs.count) oracles from the scenes")
            let oracles = ParallelMap.run(pairs.count, threads: threads) { i -> Image? in
                try? ScaleProfile.oracle(of: pairs[i].operation, on: pairs[i].scaleCase)
            }
            return ScalePlan(selection: selection, gates: gates, costGate: costGate, canaries: metricCanaries, pairs: pairs,
                             oracles: oracles, skipped: skipped, workFolder: temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Streams the sources of `wanted` into `folder` (those already there kept with
    /// ``reuseSources``) and returns the selected pairs over them.
    private func streamSources(_ wanted: [(CorpusCase, CaseRecord)], into folder: String, selection: RunSelection,
                               status: (String) -> Void) throws(RunError) -> [ScalePlan.Pair] {
        let cases = wanted.map(\.0).filter { !(reuseSources && FileManager.default.fileExists(atPath: folder + "/" + $0.sourcePath)) }
        if !cases.isEmpty { status("streaming \(cases.count) sources into \(folder)") }
        let made = ParallelMap.run(cases.count, threads: threads) { i -> String? in
            let c = cases[i]
            do { try StreamedSource.write(c, samplesPerAxis: ScaleProfile.sourceSamplesPerAxis, toFile: folder + "/" + c.sourcePath) } catch {
                return "\(error)"
            }
            return nil
        }
        if let failure = made.compactMap({ $0 }).first { throw .corpus("cannot make a scale source: \(failure)") }
        var pairs: [ScalePlan.Pair] = []
        for (c, record) in wanted {
            for (op, entry) in zip(c.operations, record.operations) {
                let pair = LabPair(record: record, entry: entry)
                guard selection.selects(pair.id) else { continue }
                let placement: OraclePlacement
                do { placement = try ScaleProfile.placement(of: op, on: c) } catch { throw .corpus("\(error)") }
                pairs.append(.init(pair: pair, scaleCase: c, operation: op, placement: placement, source: folder + "/" + c.sourcePath))
            }
        }
        return pairs
    }

    /// Measures and judges each pair of `plan` through ``resizer``, in order, handing each
    /// result to `sink` as it is judged. A pair's floor is measured the first time a plan's pair
    /// is measured and reused by every later resizer over the same plan, so a league's
    /// resizers are divided by the same floor.
    /// - Throws: ``RunError/output(_:)`` when the sink fails.
    public func measure<Sink: PairSink>(_ plan: ScalePlan, progress: (LabRunner.Progress) -> Void = { _ in },
                                        into sink: Sink) throws(RunError) -> RunSession.StreamedOutcome {
        let started = Date()
        let gates = plan.gates, costGate = plan.costGate
        let judge = ScalePairJudge(gates: gates, costGate: costGate, canaries: plan.canaries, resizer: resizer, imglab: imglab, meter: meter,
                                   folder: plan.workFolder)
        var tally = RunTally(gates: gates)
        let pairs = plan.pairs()
        for (i, p) in pairs.enumerated() {
            let result = judge.judge(p.pair, scaleCase: p.scaleCase, operation: p.operation, placement: p.placement, source: p.source, oracle: plan.oracles[i],
                                     floors: plan.floors, index: i)
            progress(LabRunner.Progress(done: i + 1, total: pairs.count, result: result))
            do {
                try sink.accept(index: i, result: result, prepared: sink.prepare(index: i, result: result, evidence: nil))
            } catch {
                throw .output("\(error)")
            }
            tally.add(result)
        }
        var results = RunResults(
            resizer: resizer.name, profile: "scale", corpus: reference, filter: plan.selection.patterns, shard: [1, 1],
            gatesFile: GateBook.fileName,
            gates: zip(gates.file.families, gates.gates).map { .init(family: $0.name, gate: $1.text) } + [.init(family: "cost", gate: costGate.text)],
            metricDefinitions: tally.metricDefinitions, canaries: [], pairs: [], summary: tally.summary, warnings: [])
        if !plan.skipped.isEmpty {
            results.skipped = plan.skipped
            results.summary.skipped = plan.skipped.count
        }
        return RunSession.StreamedOutcome(results: results, tally: tally, seconds: Date().timeIntervalSince(started))
    }
}
