import Foundation
import ImageLab

/// Lab runs over the committed quick corpus, for report tests.
enum LabRuns {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = packageRoot.appendingPathComponent("Corpus").path

    /// A two-thread runner of `resizer` over the pairs `filter` selects, with the committed gates.
    static func runner(_ resizer: any Resizer, filter: String? = nil) throws -> LabRunner {
        LabRunner(corpus: corpus, resizer: resizer, gates: try GateBook.load(corpus: corpus),
                  selection: try RunSelection(filter: filter), threads: 2)
    }
}
