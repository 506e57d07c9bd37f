import Foundation
import Testing

/// Locates `shared/` (the read-only external corpus and reference data) beside the checkout.
enum SharedData {
    /// The `shared` folder: `$IMGLAB_SHARED`, or `../shared` from the package root.
    static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["IMGLAB_SHARED"] {
            return URL(fileURLWithPath: env)
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// The external corpus folder, when present.
    static var corpus: URL? {
        guard let root, FileManager.default.fileExists(atPath: root.appendingPathComponent("corpus-external/manifest.json").path) else { return nil }
        return root.appendingPathComponent("corpus-external")
    }

    /// The condition of every test that reads the external corpus: where the corpus is absent the
    /// test is skipped visibly, with this reason, and counted as skipped (CI has it, so a skip there
    /// is a failure).
    static let needsCorpus: ConditionTrait = .enabled(if: corpus != nil,
        "needs ../shared/corpus-external (set IMGLAB_SHARED to the folder that holds it)")
}

/// One entry of `corpus-external/manifest.json`.
struct ManifestEntry: Decodable, Sendable, CustomStringConvertible {
    struct Expected: Decodable, Sendable {
        var width: Int?
        var height: Int?
        var orientation: Int?
        var display_width: Int?
        var display_height: Int?
        var has_alpha: Bool?
        var bit_depth: Int?
        var color_type: String?
        var animated: Bool?
        var frames: Int?
        var corrupt: Bool?
        var decode: String
        var support_optional: SupportOptional
        var reference: [String]?
    }
    /// `false`, or a list of reasons a decoder may refuse the file.
    enum SupportOptional: Decodable, Sendable {
        case no
        case reasons([String])
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let list = try? c.decode([String].self) { self = .reasons(list) } else { self = .no }
        }
        var isOptional: Bool { if case .reasons = self { return true } else { return false } }
    }
    var path: String
    var format: String
    var role: String
    var expected: Expected?
    var description: String { path }
}

enum Manifest {
    /// All input entries, or an empty list (with a printed reason) when the corpus is absent.
    static let inputs: [ManifestEntry] = {
        guard let corpus = SharedData.corpus,
              let data = try? Data(contentsOf: corpus.appendingPathComponent("manifest.json")),
              let all = try? JSONDecoder().decode([ManifestEntry].self, from: data) else { return [] }
        return all.filter { $0.role == "input" && $0.expected != nil }
    }()

    static func bytes(_ path: String) -> [UInt8]? {
        guard let corpus = SharedData.corpus else { return nil }
        return (try? Data(contentsOf: corpus.appendingPathComponent(path))).map { [UInt8]($0) }
    }
}
