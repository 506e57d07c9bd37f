import Foundation
import ImageCodecs
import ImageMetrics

/// Regions to ignore per file of a folder diff (`imglab diff A/ B/ --masks FILE`): a small JSON
/// file mapping keys, relative paths or globs to rectangles, in displayed pixels or in fractions
/// of the displayed size (so one entry fits screenshots of every size):
///
/// ```json
/// {"schema": "imglab-masks/1",
///  "masks": {"home.png":       [{"rect": [0, 0, 200, 40]}],
///            "screens/*.png":  [{"fraction": [0.9, 0, 0.1, 0.05]}, {"rect": [10, 10, 32, 32]}]}}
/// ```
///
/// A pattern applies to a pair when it equals its key or matches the key or either relative path
/// as a glob (``FolderPairing/Pair/matches(glob:)``); every pattern that applies adds its regions,
/// on top of the command line's `--ignore` and `--mask`. Regions are in the expected image's
/// displayed (oriented) coordinates, like `--ignore`.
public struct MaskSidecar: Sendable, Hashable {
    /// The schema the file may state.
    public static let schemaVersion = "imglab-masks/1"

    /// One pattern and its regions.
    public struct Entry: Sendable, Hashable {
        public var pattern: String
        public var regions: [IgnoredPixels.Region]
        public var fractions: [IgnoredPixels.Fraction]
    }

    /// The entries, sorted by pattern.
    public var entries: [Entry]
    /// The file's path, as given.
    public var name: String

    /// Reads and parses the file at `path`.
    /// - Throws: ``MaskSidecarError``.
    public init(file path: String) throws(MaskSidecarError) {
        let bytes: [UInt8]
        do { bytes = try ImageCodecs.readFile(path, limit: 16 << 20) } catch { throw .unreadable(path, "\(error)") }
        try self.init(parsing: bytes, name: path)
    }

    /// Parses a masks file's bytes; `name` is how errors and summaries call it.
    /// - Throws: ``MaskSidecarError/invalid(_:_:)`` naming what is wrong.
    public init(parsing bytes: [UInt8], name: String) throws(MaskSidecarError) {
        self.name = name
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .invalid(name, "not a JSON object")
        }
        if let schema = object["schema"], schema as? String != Self.schemaVersion {
            throw .invalid(name, "schema is \(schema), not \(Self.schemaVersion)")
        }
        let unknown = Set(object.keys).subtracting(["schema", "masks"])
        guard unknown.isEmpty else { throw .invalid(name, "unknown key(s) \(unknown.sorted().joined(separator: ", ")); the keys are schema and masks") }
        guard let masks = object["masks"] as? [String: Any] else { throw .invalid(name, "no \"masks\" object of pattern → regions") }
        var entries: [Entry] = []
        for (pattern, value) in masks {
            guard let list = value as? [Any], !list.isEmpty else { throw .invalid(name, "\(pattern): give a list of regions") }
            var entry = Entry(pattern: pattern, regions: [], fractions: [])
            for item in list {
                guard let region = item as? [String: Any], region.count == 1, let (kind, raw) = region.first,
                      let numbers = raw as? [Any], numbers.count == 4 else {
                    throw .invalid(name, "\(pattern): each region is {\"rect\": [x, y, w, h]} or {\"fraction\": [x, y, w, h]}")
                }
                let values = numbers.compactMap { ($0 as? NSNumber).map(\.doubleValue) }
                guard values.count == 4 else { throw .invalid(name, "\(pattern): \(kind) takes four numbers") }
                switch kind {
                case "rect":
                    guard values.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }), values[0] >= 0, values[1] >= 0,
                          values[2] >= 1, values[3] >= 1 else {
                        throw .invalid(name, "\(pattern): rect takes whole pixels x, y ≥ 0 and w, h ≥ 1")
                    }
                    entry.regions.append(.init(x: Int(values[0]), y: Int(values[1]), width: Int(values[2]), height: Int(values[3])))
                case "fraction":
                    do {
                        entry.fractions.append(try .init(x: values[0], y: values[1], width: values[2], height: values[3]))
                    } catch { throw .invalid(name, "\(pattern): \(error)") }
                default:
                    throw .invalid(name, "\(pattern): unknown region kind \"\(kind)\" (rect or fraction)")
                }
            }
            entries.append(entry)
        }
        self.entries = entries.sorted { $0.pattern.unicodeScalars.lexicographicallyPrecedes($1.pattern.unicodeScalars) }
    }

    /// The entries that apply to `pair`.
    public func entries(for pair: FolderPairing.Pair) -> [Entry] {
        entries.filter { $0.pattern == pair.key || pair.matches(glob: $0.pattern) }
    }

    /// `base` with the regions of every entry that applies to `pair` added.
    public func ignored(for pair: FolderPairing.Pair, adding base: IgnoredPixels) -> IgnoredPixels {
        var ignored = base
        for entry in entries(for: pair) {
            ignored.regions += entry.regions
            ignored.fractions += entry.fractions
        }
        return ignored
    }

    /// The patterns that apply to none of `pairs` (a typo, or a file renamed since), sorted.
    public func unused(in pairs: [FolderPairing.Pair]) -> [String] {
        entries.filter { e in !pairs.contains { e.pattern == $0.key || $0.matches(glob: e.pattern) } }.map(\.pattern)
    }
}

/// Why a masks file cannot be used (exit status 2, before any pair is judged).
public enum MaskSidecarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(String, String)
    /// The file is not a masks file; the second value says what is wrong.
    case invalid(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): return "--masks \(path): \(why)"
        case .invalid(let path, let why): return "--masks \(path): \(why) (docs/diff.md#masks-per-file)"
        }
    }
}
