import Foundation
import ImageMetrics
import ImageCorpus

/// `imglab run --inputs DIR`: the lab on a folder of one's own images. Each image becomes a
/// case (``InputCorpus``) with the operations of ``operations``, judged against its box oracle
/// rendered from the decoded source (or, for a resizer that declares its kernel, the kernel-exact
/// oracle) by the gates of the reference corpus, canaries first; the pair id is the file's
/// relative path, `/`, and the operation id. Files that hold an image the codecs cannot decode
/// are listed in the results' `skipped`, with the decoder's error.
public struct InputsSession: Sendable {
    /// The folder of images (searched recursively; files recognised by content).
    public var inputs: String
    /// The corpus whose `gates.json` judges the pairs and whose canary cases run first.
    public var reference: String
    public var resizer: any Resizer
    /// The operations of each image (default: ``InputOperation/defaults``).
    public var operations: [InputOperation]
    /// Filter patterns (``RunSelection``), comma-separated; `nil` takes every pair.
    public var filter: String?
    /// Worker threads; the results do not depend on it.
    public var threads: Int
    /// Whether to keep each pair's evidence (for the HTML report).
    public var keepEvidence: Bool
    /// A gates file to judge by instead of the reference corpus's `gates.json` (`--gates FILE`).
    public var gatesFile: String? = nil
    /// One gate for every family instead of the gates file's (`--gate EXPR`); canaries still run.
    public var gate: GateExpression? = nil

    public init(inputs: String, reference: String, resizer: any Resizer, operations: [InputOperation] = InputOperation.defaults,
                filter: String? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount, keepEvidence: Bool = false) {
        self.inputs = inputs
        self.reference = reference
        self.resizer = resizer
        self.operations = operations
        self.filter = filter
        self.threads = threads
        self.keepEvidence = keepEvidence
    }

    /// Builds the input corpus in a temporary folder (removed afterwards), runs, and lists the
    /// undecodable files as skipped (`reason` starting with `decode:`).
    /// - Throws: ``RunError`` when the run cannot judge the resizer: unreadable inputs or
    ///   reference corpus, no decodable image, a canary that misbehaves.
    public func run(progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in }) throws(RunError) -> RunSession.Outcome {
        let started = Date()
        var evidence: [PairEvidence?] = []
        let results = try withRunner { runner throws(RunError) in
            let outcome = try runner.run(progress: progress)
            evidence = outcome.evidence
            return outcome.results
        }
        return RunSession.Outcome(results: results, evidence: evidence, seconds: Date().timeIntervalSince(started))
    }

    /// As ``run(progress:)``, handing each judged pair to `sink` in manifest order instead of
    /// keeping it (``LabRunner/run(progress:into:)``).
    /// - Throws: as ``run(progress:)``, and ``RunError/output(_:)`` when the sink throws.
    public func run<Sink: PairSink>(progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in }, into sink: Sink) throws(RunError) -> RunSession.StreamedOutcome {
        let started = Date()
        var tally = RunTally()
        let results = try withRunner { runner throws(RunError) in
            let outcome = try runner.run(progress: progress, into: sink)
            tally = outcome.tally
            return outcome.results
        }
        return RunSession.StreamedOutcome(results: results, tally: tally, seconds: Date().timeIntervalSince(started))
    }

    /// Builds the input corpus in a temporary folder (removed afterwards), runs `body` with its
    /// runner, and completes the results it returns: the inputs folder as the corpus, no lax-bound
    /// warnings, the undecodable files as skipped.
    private func withRunner(_ body: (LabRunner) throws(RunError) -> RunResults) throws(RunError) -> RunResults {
        let selection = try RunSelection(filter: filter)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-inputs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = try InputCorpus.build(inputs: inputs, operations: operations, reference: reference, gatesFile: gatesFile, into: folder, threads: threads)
        guard !corpus.inputCases.isEmpty else {
            throw .nothingSelected("no decodable image in \(inputs) (\(corpus.skipped.count) undecodable, \(corpus.notImages) not images)")
        }
        var gates = try GateBook.load(corpus: folder)
        if let gate { gates = gates.judging(every: gate) }
        var runner = LabRunner(corpus: folder, resizer: resizer, gates: gates, selection: selection,
                               threads: threads, keepEvidence: keepEvidence)
        runner.judgedCases = Set(corpus.inputCases)
        var results = try body(runner)
        results.corpus = inputs
        // A gate bound is lax or not over the reference corpus's families, not over a folder of inputs.
        results.warnings = []
        if !corpus.skipped.isEmpty || !corpus.unjudged.isEmpty {
            results.skipped = (results.skipped ?? []) + corpus.skipped.map { .init(pair: $0.path, reason: "decode: \($0.reason)") }
                + corpus.unjudged.map { .init(pair: $0.path, reason: "not judged: \($0.reason)") }
            results.summary.skipped = results.skipped?.count
        }
        return results
    }
}
