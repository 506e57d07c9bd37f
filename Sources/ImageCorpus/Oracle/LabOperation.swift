import Foundation

/// One operation of the resizer, described as a value, so the lab runner can apply
/// the same operation to the resizer under test and ask the ``Oracle`` for its ideal result.
///
/// Sizes are in output pixels of the upright image; every operation's result is upright.
public enum LabOperation: Hashable, Sendable {
    /// Bake the orientation into the pixels; the size is the display size (the identity
    /// operation for an upright image).
    case orient
    /// Resize into a `width × height` box with a content mode.
    case resize(width: Int, height: Int, mode: LabContentMode)
    /// Crop the upright image to a rectangle (pixels; fractional edges are made integral by
    /// the `CGRectIntegral` rule: origin down, far edges up, then clipped to the image).
    case crop(x: Double, y: Double, width: Double, height: Double)
    /// The square thumbnail contract: aspect fill to `size × size` (centred crop), then a
    /// transparent border of `border` pixels and rounded corners of `cornerRadius` pixels.
    case squareThumbnail(size: Int, border: Int, cornerRadius: Double)
    /// Antialiased rounded corners of `radius` pixels after a transparent border of `border` pixels.
    case roundCorners(radius: Double, border: Int)
    /// A transparent border of the given width in pixels on every side.
    case transparentBorder(Int)
    /// The ImageIO thumbnail: longest side at most the given pixels, never enlarged.
    case maxPixelSize(Int)

    /// A short identifier used in file names and the manifest, e.g. `fit-24x24`, `thumb-24-b2-r6`.
    public var id: String {
        switch self {
        case .orient: return "orient"
        case .resize(let w, let h, let mode): return "\(mode.id)-\(w)x\(h)"
        case .crop(let x, let y, let w, let h): return "crop-\(Self.number(x))-\(Self.number(y))-\(Self.number(w))x\(Self.number(h))"
        case .squareThumbnail(let s, let b, let r): return "thumb-\(s)-b\(b)-r\(Self.number(r))"
        case .roundCorners(let r, let b): return "corners-r\(Self.number(r))-b\(b)"
        case .transparentBorder(let n): return "border-\(n)"
        case .maxPixelSize(let n): return "maxpx-\(n)"
        }
    }

    /// Whether the output needs an alpha channel even when the input has none (borders, corners).
    public var addsAlpha: Bool {
        switch self {
        case .squareThumbnail(_, let b, let r): return b > 0 || r > 0
        case .roundCorners, .transparentBorder: return true
        default: return false
        }
    }

    /// The operation as a flat record for `manifest.json`.
    public var record: OperationRecord {
        switch self {
        case .orient: return OperationRecord(kind: "orient")
        case .resize(let w, let h, let mode):
            var r = OperationRecord(kind: "resize", width: w, height: h, mode: mode.name)
            if case .aspectFill(let ax, let ay) = mode { r.anchor = [ax, ay] }
            return r
        case .crop(let x, let y, let w, let h): return OperationRecord(kind: "crop", rect: [x, y, w, h])
        case .squareThumbnail(let s, let b, let r): return OperationRecord(kind: "thumbnail", size: s, border: b, cornerRadius: r)
        case .roundCorners(let r, let b): return OperationRecord(kind: "roundedCorners", border: b, cornerRadius: r)
        case .transparentBorder(let n): return OperationRecord(kind: "transparentBorder", border: n)
        case .maxPixelSize(let n): return OperationRecord(kind: "maxPixelSize", size: n)
        }
    }

    /// Numbers in identifiers: integers without a decimal point, others with `p` for the point.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v).replacingOccurrences(of: ".", with: "p")
    }
}

/// How a resize places the image in its box (the resizer's content modes).
public enum LabContentMode: Hashable, Sendable {
    /// Stretch to the box, ignoring the aspect ratio.
    case stretch
    /// The largest aspect-preserving size inside the box.
    case aspectFit
    /// Cover the box and crop; the anchor is in unit coordinates (0 left/top, ½ centre, 1 right/bottom).
    case aspectFill(anchorX: Double, anchorY: Double)
    /// Cover the box without cropping.
    case aspectFillWithoutCrop

    /// The mode's name in the manifest: `stretch`, `fit`, `fill`, `fill-no-crop` (the CLI's words).
    public var name: String {
        switch self {
        case .stretch: return "stretch"
        case .aspectFit: return "fit"
        case .aspectFill: return "fill"
        case .aspectFillWithoutCrop: return "fill-no-crop"
        }
    }

    var id: String {
        if case .aspectFill(let x, let y) = self, x != 0.5 || y != 0.5 {
            return "fill@\(LabOperation.number(x)),\(LabOperation.number(y))"
        }
        return name
    }
}

/// A ``LabOperation`` as `manifest.json` writes it: `kind` plus the fields that kind uses.
public struct OperationRecord: Codable, Hashable, Sendable {
    /// `orient`, `resize`, `crop`, `thumbnail`, `roundedCorners`, `transparentBorder`, `maxPixelSize`.
    public var kind: String
    /// Box width in pixels (resize).
    public var width: Int?
    /// Box height in pixels (resize).
    public var height: Int?
    /// Content mode (resize): `stretch`, `fit`, `fill`, `fill-no-crop`.
    public var mode: String?
    /// Fill anchor, unit coordinates [x, y].
    public var anchor: [Double]?
    /// Crop rectangle [x, y, width, height] in pixels.
    public var rect: [Double]?
    /// Thumbnail side or max pixel size, in pixels.
    public var size: Int?
    /// Transparent border, pixels.
    public var border: Int?
    /// Corner radius, pixels.
    public var cornerRadius: Double?

    public init(kind: String, width: Int? = nil, height: Int? = nil, mode: String? = nil, anchor: [Double]? = nil,
                rect: [Double]? = nil, size: Int? = nil, border: Int? = nil, cornerRadius: Double? = nil) {
        self.kind = kind; self.width = width; self.height = height; self.mode = mode; self.anchor = anchor
        self.rect = rect; self.size = size; self.border = border; self.cornerRadius = cornerRadius
    }

    /// The operation this record describes, or `nil` when a field it needs is missing.
    public var operation: LabOperation? {
        switch kind {
        case "orient": return .orient
        case "resize":
            guard let width, let height, let mode else { return nil }
            switch mode {
            case "stretch": return .resize(width: width, height: height, mode: .stretch)
            case "fit": return .resize(width: width, height: height, mode: .aspectFit)
            case "fill-no-crop": return .resize(width: width, height: height, mode: .aspectFillWithoutCrop)
            case "fill":
                let a = anchor ?? [0.5, 0.5]
                guard a.count == 2 else { return nil }
                return .resize(width: width, height: height, mode: .aspectFill(anchorX: a[0], anchorY: a[1]))
            default: return nil
            }
        case "crop":
            guard let rect, rect.count == 4 else { return nil }
            return .crop(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
        case "thumbnail":
            guard let size else { return nil }
            return .squareThumbnail(size: size, border: border ?? 0, cornerRadius: cornerRadius ?? 0)
        case "roundedCorners": return .roundCorners(radius: cornerRadius ?? 0, border: border ?? 0)
        case "transparentBorder": return border.map { .transparentBorder($0) }
        case "maxPixelSize": return size.map { .maxPixelSize($0) }
        default: return nil
        }
    }
}
