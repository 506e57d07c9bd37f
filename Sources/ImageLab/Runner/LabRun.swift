import Foundation
import ImageMetrics

/// `imglab run` as one call: the request names the profile, where the pairs come from (the
/// corpus, or a folder of one's own images with `inputs`), the resizer and the selection; ``run``
/// opens the session that judges them (``RunSession``, ``InputsSession``, ``ScaleSession``) and
/// streams every verdict into the sink.
public struct LabRun: Sendable {
    /// Which pairs: the quick or full corpus, or the scale profile.
    public var profile: LabProfile
    /// The corpus folder: the pairs' corpus, or the reference whose gates judge an inputs folder
    /// or the scale profile.
    public var corpus: String
    /// The resizer under test (``Resizer``; the scale profile needs one it can run as a command).
    public var resizer: any Resizer
    /// A folder of images to judge instead of the corpus (`--inputs`), with its operations.
    public var inputs: String?
    public var operations: [InputOperation]?
    /// Filter patterns (``RunSelection``), comma-separated; `nil` takes every pair.
    public var filter: String?
    /// 1-based shard index and shard count.
    public var shard: (index: Int, count: Int)
    /// Worker threads; the results do not depend on it.
    public var threads: Int
    /// The golden store (`nil`: `CORPUS/goldens`, when it has an index).
    public var goldens: String?
    /// A gates file to judge by instead of the corpus's (`--gates`).
    public var gatesFile: String?
    /// One gate for every family instead of the gates file's (`--gate EXPR`); the canaries still
    /// run, and a gate that passes one stops the run.
    public var gate: GateExpression?
    /// Whether each pair's evidence is kept for the report's pages.
    public var keepEvidence: Bool
    /// Where the scale profile keeps its generated sources (`--keep-sources`).
    public var keepSources: String?
    /// What the resizer must do as the built-in design does whatever its fingerprint shows
    /// (``ContractStage``); `builtinDesign` skips the fingerprint.
    public var requirements: Set<ContractStage.Requirement> = []
    /// The imglab executable and `imglab-measure`, which the scale profile runs as children.
    public var imglab: String, meter: String

    /// A request; ``problem`` says whether its settings go together.
    public init(profile: LabProfile, corpus: String, resizer: any Resizer, inputs: String? = nil, operations: [InputOperation]? = nil,
                filter: String? = nil, shard: (index: Int, count: Int) = (1, 1), threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                goldens: String? = nil, gatesFile: String? = nil, gate: GateExpression? = nil, keepEvidence: Bool = false, keepSources: String? = nil,
                requirements: Set<ContractStage.Requirement> = [],
                imglab: String = LabExecutables.imglab, meter: String = LabExecutables.meter) {
        self.requirements = requirements
        self.profile = profile
        self.corpus = corpus
        self.resizer = resizer
        self.inputs = inputs
        self.operations = operations
        self.filter = filter
        self.shard = shard
        self.threads = threads
        self.goldens = goldens
        self.gatesFile = gatesFile
        self.gate = gate
        self.keepEvidence = keepEvidence
        self.keepSources = keepSources
        self.imglab = imglab
        self.meter = meter
    }

    /// What is wrong with the request's combination of settings, in one line; `nil` when it can run.
    public var problem: String? {
        if inputs == nil, operations != nil { return "--ops needs --inputs DIR" }
        if gate != nil, gatesFile != nil { return "--gate and --gates both name the gates: give one" }
        if profile != .scale {
            return keepSources == nil ? nil : "--keep-sources needs --profile scale"
        }
        if inputs != nil || shard != (1, 1) || goldens != nil || gatesFile != nil || gate != nil {
            return "--profile scale takes none of --inputs, --shard, --goldens, --gates, --gate (it is judged by the cost gate of the corpus's gates.json)"
        }
        return LabExecutables.meterProblem(meter)
    }

    /// Runs the session the request names, handing each judged pair to `sink` in order. A
    /// resizer that declares no policy is fingerprinted first (``ContractStage``; not in the
    /// scale profile, which judges by the box families) and judged against its contract.
    /// - Parameter status: one line per phase: the contract inferred; the scale profile's sources and oracles.
    /// - Throws: ``RunError`` when the run cannot judge the resizer.
    public func run<Sink: PairSink>(status: @escaping @Sendable (String) -> Void = { _ in },
                                    progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in },
                                    into sink: Sink) throws(RunError) -> RunSession.StreamedOutcome {
        if let problem { throw .request(problem) }
        if profile == .scale {
            let command: CommandResizer
            do { command = try ScaleSession.commandResizer(resizer, imglab: imglab) } catch { throw .request("--profile scale: \(error)") }
            let session = ScaleSession(reference: corpus, resizer: command, imglab: imglab, meter: meter, filter: filter, threads: threads,
                                       keepSources: keepSources)
            return try session.run(status: status, progress: progress, into: sink)
        }
        let (resizer, fingerprint) = ContractStage.prepare(resizer, requiring: requirements)
        if let fingerprint { status(ContractStage.summary(fingerprint, judgedBy: resizer.policy)) }
        if let inputs {
            var session = InputsSession(inputs: inputs, reference: corpus, resizer: resizer, operations: operations ?? InputOperation.defaults,
                                        filter: filter, threads: threads, keepEvidence: keepEvidence)
            session.gatesFile = gatesFile
            session.gate = gate
            var outcome = try session.run(progress: progress, into: sink)
            outcome.results.contract = fingerprint
            return outcome
        }
        var session = RunSession(corpus: corpus, resizer: resizer, profile: profile.corpus ?? .quick, filter: filter, shard: shard,
                                 threads: threads, goldens: goldens, keepEvidence: keepEvidence)
        session.gatesFile = gatesFile
        session.gate = gate
        var outcome = try session.run(progress: progress, into: sink)
        outcome.results.contract = fingerprint
        return outcome
    }
}
