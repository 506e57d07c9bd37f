import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageMetrics

/// Locates `shared/reference/` (read in place, never copied) and parses its tables.
enum Reference {
    /// `$IMGLAB_SHARED/reference`, or `../shared/reference` beside the package root.
    static let root: URL? = {
        let base: URL
        if let env = ProcessInfo.processInfo.environment["IMGLAB_SHARED"] {
            base = URL(fileURLWithPath: env)
        } else {
            base = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared")
        }
        let dir = base.appendingPathComponent("reference")
        return FileManager.default.fileExists(atPath: dir.appendingPathComponent("README.md").path) ? dir : nil
    }()

    /// The condition of every test that reads the reference data: where it is absent the test is
    /// skipped visibly, with this reason.
    static let needed: ConditionTrait = .enabled(if: root != nil,
        "needs ../shared/reference (set IMGLAB_SHARED to the folder that holds reference/)")

    /// Rows of a CSV file under `reference/` as dictionaries (no quoting in these files).
    static func csv(_ name: String) -> [[String: String]] {
        guard let root, let text = try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) else { return [] }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (i, key) in header.enumerated() where i < cells.count { row[key] = cells[i] }
            return row
        }
    }

    /// One pair of `ssim/reference_metrics.csv`.
    struct Pair: Sendable, CustomStringConvertible {
        var id: String
        var reference: String
        var distorted: String
        var distortion: String
        var channels: Int
        var values: [String: String]
        var description: String { "\(id) \(distortion)" }
        /// The numeric value of a column, or nil when empty.
        func number(_ column: String) -> Double? {
            guard let text = values[column], !text.isEmpty else { return nil }
            return text == "inf" ? .infinity : Double(text)
        }
    }

    static let pairs: [Pair] = csv("ssim/reference_metrics.csv").map { row in
        Pair(id: row["pair"] ?? "", reference: row["ref_file"] ?? "", distorted: row["dist_file"] ?? "",
             distortion: row["distortion"] ?? "", channels: Int(row["channels"] ?? "") ?? 0, values: row)
    }

    /// Decodes an image of `reference/ssim/`.
    static func image(_ file: String) throws -> Image {
        guard let root else { throw CocoaError(.fileNoSuchFile) }
        return try ImageCodecs.decode(contentsOf: root.appendingPathComponent("ssim").appendingPathComponent(file).path)
    }

    /// The comparison of one pair (expected = reference image, actual = distorted).
    static func comparison(_ pair: Pair, options: ComparisonOptions = ComparisonOptions()) throws -> Comparison {
        Comparison(expected: ComparedImage(image: try image(pair.reference), name: pair.reference),
                   actual: ComparedImage(image: try image(pair.distorted), name: pair.distorted), options: options)
    }
}
