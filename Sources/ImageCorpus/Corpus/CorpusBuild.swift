import Foundation

/// `imglab corpus`: generates a profile in memory, then counts its cases, compares it with a
/// folder bit for bit, or writes it there (``CorpusFolder``).
public struct CorpusBuild: Sendable {
    /// What is done with the generated corpus besides counting.
    public enum Action: Sendable, Hashable {
        /// Write it to the folder (stale generated files are removed).
        case write
        /// Compare it with the folder; nothing is written.
        case check
        /// Nothing (count only).
        case none
    }

    public var profile: CorpusProfile
    /// The corpus folder.
    public var folder: String
    public var action: Action
    /// Whether to count the cases (``CorpusStats``).
    public var counts: Bool
    /// Threads to render with; the output does not depend on it.
    public var threads: Int

    public init(profile: CorpusProfile = .quick, folder: String = "Corpus", action: Action = .write, counts: Bool = false,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.profile = profile
        self.folder = folder
        self.action = action
        self.counts = counts
        self.threads = threads
    }

    /// What a build produced.
    public struct Outcome: Sendable {
        public var corpus: GeneratedCorpus
        /// The counts, when asked for.
        public var stats: CorpusStats?
        /// The comparison with the folder, for ``Action/check``.
        public var check: CorpusCheckReport?
        /// Files written, for ``Action/write``.
        public var written: Int?
    }

    /// Generates, then counts, checks or writes.
    /// - Throws: ``CorpusBuildError`` when generation fails or the folder cannot be written.
    public func run() throws(CorpusBuildError) -> Outcome {
        let corpus: GeneratedCorpus
        do { corpus = try CorpusGenerator.generate(profile, threads: threads) } catch { throw .generation("\(error)") }
        var outcome = Outcome(corpus: corpus, stats: counts ? CorpusStats(corpus) : nil)
        switch action {
        case .write:
            do { outcome.written = try CorpusFolder.write(corpus, to: folder) } catch { throw .write(folder: folder, reason: "\(error)") }
        case .check:
            outcome.check = CorpusFolder.check(corpus, against: folder)
        case .none:
            break
        }
        return outcome
    }
}

/// Why a corpus build failed.
public enum CorpusBuildError: Error, Sendable, CustomStringConvertible {
    case generation(String)
    case write(folder: String, reason: String)

    public var description: String {
        switch self {
        case .generation(let why): return "generation failed: \(why)"
        case .write(let folder, let why): return "cannot write \(folder): \(why)"
        }
    }
}
