import Foundation
import ImageCorpus

/// One operation of `imglab run --inputs`, sized from each image's display size: the lab
/// operation it becomes for a given image (``operation(displayWidth:displayHeight:)``).
public enum InputOperation: Hashable, Sendable {
    /// Bake the orientation into the pixels (``LabOperation/orient``).
    case orient
    /// Aspect fit into half the display size, each side `max(1, side / 2)` pixels (integer division).
    case fitHalf
    /// Aspect fill (centred crop) of a square whose side is `max(1, min(width, height) / 2)` pixels.
    case fillSquare
    /// Longest side at most `N` pixels, never enlarged (``LabOperation/maxPixelSize(_:)``).
    case maxPixelSize(Int)

    /// The default list: orient, fit to half size, fill square, max pixel size 256.
    public static let defaults: [InputOperation] = [.orient, .fitHalf, .fillSquare, .maxPixelSize(256)]

    /// The spelling of `--ops`: `orient`, `fit-half`, `fill-square`, `max-pixel-size-N`.
    public var name: String {
        switch self {
        case .orient: return "orient"
        case .fitHalf: return "fit-half"
        case .fillSquare: return "fill-square"
        case .maxPixelSize(let n): return "max-pixel-size-\(n)"
        }
    }

    /// Parses a comma-separated `--ops` list; `nil` when a name is unknown or the list is empty.
    public static func parseList(_ text: String) -> [InputOperation]? {
        var result: [InputOperation] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = raw.trimmingCharacters(in: .whitespaces)
            switch word {
            case "orient": result.append(.orient)
            case "fit-half": result.append(.fitHalf)
            case "fill-square": result.append(.fillSquare)
            default:
                let prefix = "max-pixel-size-"
                guard word.hasPrefix(prefix), let n = Int(word.dropFirst(prefix.count)), n >= 1, n <= 1 << 20 else { return nil }
                result.append(.maxPixelSize(n))
            }
        }
        return result.isEmpty ? nil : result
    }

    /// The lab operation for an image of `displayWidth × displayHeight` pixels (upright).
    public func operation(displayWidth w: Int, displayHeight h: Int) -> LabOperation {
        switch self {
        case .orient: return .orient
        case .fitHalf: return .resize(width: max(1, w / 2), height: max(1, h / 2), mode: .aspectFit)
        case .fillSquare:
            let side = max(1, min(w, h) / 2)
            return .resize(width: side, height: side, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5))
        case .maxPixelSize(let n): return .maxPixelSize(n)
        }
    }
}
