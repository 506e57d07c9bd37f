import Foundation

/// One operation of the resizer, described as a value, so the lab runner can apply
/// the same operation to the resizer under test and ask the ``Oracle`` for its ideal result.
///
/// Sizes are in output pixels of the upright image; every operation's result is upright.
///
/// **One name per operation.** Each operation has one ``name``, spelled the same by the
/// ImageResize API, this enum's case, the pair id, the manifest's `kind`, a resizer's declared
/// `operations` and its config's `templates`, and the CLI:
///
/// | name | ImageResize | CLI (`imglab resize`, `imglab thumbnail`) |
/// |------|-------------|------------------------------------------|
/// | `orient` | `oriented()` | no box: the image is only oriented |
/// | `resize` | `resized(width:height:contentMode:)` | `--size WxH --mode MODE` |
/// | `crop` | `cropped(to:)` | `--crop X,Y,W,H` |
/// | `squareThumbnail` | `squareThumbnail(size:border:cornerRadius:)` | `--size SxS --mode aspectFill` with the two below |
/// | `roundedCorners` | `roundedCorners(radius:border:)` | `--rounded-corners R` |
/// | `transparentBorder` | `transparentBorder(width:)` | `--transparent-border N` |
/// | `maxPixelSize` | `MaxPixelSizeThumbnail.thumbnail(atPath:maxPixelSize:)` | `imglab thumbnail --max-pixel-size N` |
///
/// The verbs (`orient`, `resize`, `crop`) are written by the API in Swift's non-mutating form
/// (`oriented`, `resized`, `cropped`); the CLI spells camel-case names in kebab case
/// (`maxPixelSize` → `--max-pixel-size`). The content modes of a resize are named likewise by
/// ``LabContentMode/name``: `scaleToFill`, `aspectFit`, `aspectFill`, `aspectFillWithoutCrop`
/// (ImageResize's `ContentMode` cases, the manifest's `mode`, `resize:MODE` in a declared
/// policy, `--mode MODE`).
///
/// **Ids** (``id``) are the name followed by the parameters, each after a `-`:
/// `orient`; `resize-MODE-WxH` (`resize-aspectFit-24x24`; a fill anchor other than the centre
/// as `@X,Y` after the mode: `resize-aspectFill@0,0-20x20`); `crop-X-Y-WxH`;
/// `squareThumbnail-SIZE-bBORDER-rRADIUS`; `roundedCorners-rRADIUS-bBORDER`;
/// `transparentBorder-WIDTH`; `maxPixelSize-N`. Numbers are integers without a point, others
/// with `p` for the point (`crop-4p5-2p25-19p5x13p5`). A pair id is `CASE/ID`.
/// ``ManifestV1Names`` maps the ids and names of manifest version 1 to these.
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
    case roundedCorners(radius: Double, border: Int)
    /// A transparent border `width` pixels wide on every side.
    case transparentBorder(width: Int)
    /// The ImageIO thumbnail: longest side at most the given pixels, never enlarged.
    case maxPixelSize(Int)

    /// Every operation name, in the order of the cases.
    public static let names = ["orient", "resize", "crop", "squareThumbnail", "roundedCorners", "transparentBorder", "maxPixelSize"]

    /// The operation's one name: the manifest's `kind` and the first word of ``id``.
    public var name: String {
        switch self {
        case .orient: return "orient"
        case .resize: return "resize"
        case .crop: return "crop"
        case .squareThumbnail: return "squareThumbnail"
        case .roundedCorners: return "roundedCorners"
        case .transparentBorder: return "transparentBorder"
        case .maxPixelSize: return "maxPixelSize"
        }
    }

    /// The identifier used in pair ids, file names and the manifest: ``name`` and the
    /// parameters, e.g. `resize-aspectFit-24x24`, `squareThumbnail-24-b2-r6`.
    public var id: String {
        switch self {
        case .orient: return name
        case .resize(let w, let h, let mode): return "\(name)-\(mode.id)-\(w)x\(h)"
        case .crop(let x, let y, let w, let h): return "\(name)-\(Self.number(x))-\(Self.number(y))-\(Self.number(w))x\(Self.number(h))"
        case .squareThumbnail(let s, let b, let r): return "\(name)-\(s)-b\(b)-r\(Self.number(r))"
        case .roundedCorners(let r, let b): return "\(name)-r\(Self.number(r))-b\(b)"
        case .transparentBorder(let n): return "\(name)-\(n)"
        case .maxPixelSize(let n): return "\(name)-\(n)"
        }
    }

    /// Whether the output needs an alpha channel even when the input has none (borders, corners).
    public var addsAlpha: Bool {
        switch self {
        case .squareThumbnail(_, let b, let r): return b > 0 || r > 0
        case .roundedCorners, .transparentBorder: return true
        default: return false
        }
    }

    /// The operation as a flat record for `manifest.json`.
    public var record: OperationRecord {
        switch self {
        case .orient: return OperationRecord(kind: name)
        case .resize(let w, let h, let mode):
            var r = OperationRecord(kind: name, width: w, height: h, mode: mode.name)
            if case .aspectFill(let ax, let ay) = mode { r.anchor = [ax, ay] }
            return r
        case .crop(let x, let y, let w, let h): return OperationRecord(kind: name, rect: [x, y, w, h])
        case .squareThumbnail(let s, let b, let r): return OperationRecord(kind: name, size: s, border: b, cornerRadius: r)
        case .roundedCorners(let r, let b): return OperationRecord(kind: name, border: b, cornerRadius: r)
        case .transparentBorder(let n): return OperationRecord(kind: name, border: n)
        case .maxPixelSize(let n): return OperationRecord(kind: name, size: n)
        }
    }

    /// Numbers in identifiers: integers without a decimal point, others with `p` for the point.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v).replacingOccurrences(of: ".", with: "p")
    }
}

/// How a resize places the image in its box: ImageResize's `ContentMode`, case for case and
/// name for name.
public enum LabContentMode: Hashable, Sendable {
    /// Stretch to the box, ignoring the aspect ratio.
    case scaleToFill
    /// The largest aspect-preserving size inside the box.
    case aspectFit
    /// Cover the box and crop; the anchor is in unit coordinates (0 left/top, ½ centre, 1 right/bottom).
    case aspectFill(anchorX: Double, anchorY: Double)
    /// Cover the box without cropping.
    case aspectFillWithoutCrop

    /// Every mode name, in the order of the cases.
    public static let names = ["scaleToFill", "aspectFit", "aspectFill", "aspectFillWithoutCrop"]

    /// The mode's one name (the manifest's `mode`, `resize:MODE` in a declared policy, the
    /// CLI's `--mode`): `scaleToFill`, `aspectFit`, `aspectFill`, `aspectFillWithoutCrop`.
    public var name: String {
        switch self {
        case .scaleToFill: return "scaleToFill"
        case .aspectFit: return "aspectFit"
        case .aspectFill: return "aspectFill"
        case .aspectFillWithoutCrop: return "aspectFillWithoutCrop"
        }
    }

    /// The mode in an operation id: ``name``, with `@X,Y` for a fill anchor other than the centre.
    var id: String {
        if case .aspectFill(let x, let y) = self, x != 0.5 || y != 0.5 {
            return "\(name)@\(LabOperation.number(x)),\(LabOperation.number(y))"
        }
        return name
    }
}

/// A ``LabOperation`` as `manifest.json` writes it: `kind` plus the fields that kind uses.
public struct OperationRecord: Codable, Hashable, Sendable {
    /// The operation's name (``LabOperation/names``): `orient`, `resize`, `crop`,
    /// `squareThumbnail`, `roundedCorners`, `transparentBorder`, `maxPixelSize`.
    public var kind: String
    /// Box width in pixels (resize).
    public var width: Int?
    /// Box height in pixels (resize).
    public var height: Int?
    /// Content mode (resize, ``LabContentMode/names``): `scaleToFill`, `aspectFit`,
    /// `aspectFill`, `aspectFillWithoutCrop`.
    public var mode: String?
    /// Fill anchor, unit coordinates [x, y].
    public var anchor: [Double]?
    /// Crop rectangle [x, y, width, height] in pixels.
    public var rect: [Double]?
    /// Square thumbnail side or max pixel size, in pixels.
    public var size: Int?
    /// Width of the transparent border, pixels.
    public var border: Int?
    /// Corner radius, pixels.
    public var cornerRadius: Double?

    public init(kind: String, width: Int? = nil, height: Int? = nil, mode: String? = nil, anchor: [Double]? = nil,
                rect: [Double]? = nil, size: Int? = nil, border: Int? = nil, cornerRadius: Double? = nil) {
        self.kind = kind; self.width = width; self.height = height; self.mode = mode; self.anchor = anchor
        self.rect = rect; self.size = size; self.border = border; self.cornerRadius = cornerRadius
    }

    /// The operation this record describes, or `nil` when the kind or mode is not a current
    /// name or a field it needs is missing.
    public var operation: LabOperation? {
        switch kind {
        case "orient": return .orient
        case "resize":
            guard let width, let height, let mode else { return nil }
            switch mode {
            case "scaleToFill": return .resize(width: width, height: height, mode: .scaleToFill)
            case "aspectFit": return .resize(width: width, height: height, mode: .aspectFit)
            case "aspectFillWithoutCrop": return .resize(width: width, height: height, mode: .aspectFillWithoutCrop)
            case "aspectFill":
                let a = anchor ?? [0.5, 0.5]
                guard a.count == 2 else { return nil }
                return .resize(width: width, height: height, mode: .aspectFill(anchorX: a[0], anchorY: a[1]))
            default: return nil
            }
        case "crop":
            guard let rect, rect.count == 4 else { return nil }
            return .crop(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
        case "squareThumbnail":
            guard let size else { return nil }
            return .squareThumbnail(size: size, border: border ?? 0, cornerRadius: cornerRadius ?? 0)
        case "roundedCorners": return .roundedCorners(radius: cornerRadius ?? 0, border: border ?? 0)
        case "transparentBorder": return border.map { .transparentBorder(width: $0) }
        case "maxPixelSize": return size.map { .maxPixelSize($0) }
        default: return nil
        }
    }
}
