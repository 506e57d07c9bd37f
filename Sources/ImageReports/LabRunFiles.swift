import ImageLab

extension LabRun {
    /// The files a run leaves, each when its path is given: the results JSON, the JUnit XML and the
    /// report folder.
    public struct Files: Sendable {
        public var json: String?
        public var junit: String?
        public var report: String?
        /// Hears the number of files written so far (``WriteFaultPoint``).
        public var afterWrite: (@Sendable (_ writes: Int) -> Void)?

        public init(json: String?, junit: String?, report: String?, afterWrite: (@Sendable (_ writes: Int) -> Void)?) {
            self.json = json
            self.junit = junit
            self.report = report
            self.afterWrite = afterWrite
        }
    }

    /// Runs the lab and writes `files` as the pairs are judged (``StreamedResultFiles``: memory
    /// does not grow with the run), finishing them with the results' header; a failed run
    /// abandons them, leaving the previous report whole.
    /// - Throws: the run's ``RunError``, or the error of a file that cannot be written (its
    ///   description says which).
    public func run(writing files: Files, status: @escaping @Sendable (String) -> Void,
                    progress: @escaping @Sendable (LabRunner.Progress) -> Void) throws -> RunSession.StreamedOutcome {
        let sink: StreamedResultFiles
        do {
            sink = try StreamedResultFiles(json: files.json, junit: files.junit, report: files.report,
                                           afterWrite: files.afterWrite)
        } catch { throw LabRunFilesError(reason: "cannot write the results: \(error)") }
        let outcome: RunSession.StreamedOutcome
        do { outcome = try run(status: status, progress: progress, into: sink) } catch {
            sink.abandon()
            throw error
        }
        do { try sink.finish(outcome.results) } catch { throw LabRunFilesError(reason: "cannot write the results: \(error)") }
        return outcome
    }
}

/// A run's result files that could not be written.
public struct LabRunFilesError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
