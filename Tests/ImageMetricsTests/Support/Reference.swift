import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageMetrics

/// Reads `Tests/Fixtures/reference/` (a copy of the project's third-party reference data, kept in
/// the repository; its ORIGIN.md says where it comes from) and parses its tables.
enum Reference {
    /// `Tests/Fixtures/reference` of this checkout.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/reference")

    /// Rows of a CSV file under `reference/` as dictionaries (no quoting in these files).
    /// - Throws: when the file cannot be read or has no header line (a missing table is a failure,
    ///   never an empty loop).
    static func csv(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else {
            throw CocoaError(.fileReadCorruptFile)
        }
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

    /// The 21 pairs (empty only if the table is unreadable, which the pair-count test reports).
    static let pairs: [Pair] = ((try? csv("ssim/reference_metrics.csv")) ?? []).map { row in
        Pair(id: row["pair"] ?? "", reference: row["ref_file"] ?? "", distorted: row["dist_file"] ?? "",
             distortion: row["distortion"] ?? "", channels: Int(row["channels"] ?? "") ?? 0, values: row)
    }

    /// Decodes an image of `reference/ssim/`.
    static func image(_ file: String) throws -> Image {
        try ImageCodecs.decode(contentsOf: root.appendingPathComponent("ssim").appendingPathComponent(file).path)
    }

    /// The comparison of one pair (expected = reference image, actual = distorted).
    static func comparison(_ pair: Pair, options: ComparisonOptions = ComparisonOptions()) throws -> Comparison {
        Comparison(expected: ComparedImage(image: try image(pair.reference), name: pair.reference),
                   actual: ComparedImage(image: try image(pair.distorted), name: pair.distorted), options: options)
    }
}
