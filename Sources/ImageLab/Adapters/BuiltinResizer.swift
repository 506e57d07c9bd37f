import ImageCorpus
import ImageCore
import ImageResize

/// The built-in adapter: imglab's own resizer (`ImageResize`) with its defaults (Lanczos 3,
/// premultiplied, linear light). Besides the mutants that reuse the resizer's pieces
/// (`SamplingMutants.swift`, `ResamplingDeparture.swift`), this is the only file of ImageLab
/// that imports ImageResize; the oracle never calls it.
///
/// Operation mapping (one name each, see ``LabOperation``): `orient` → `oriented()`; `resize` →
/// `resized(width:height:contentMode:)` with the content mode of the same name; `crop` →
/// `cropped(to:)`; `squareThumbnail` → `squareThumbnail(size:border:cornerRadius:)`;
/// `roundedCorners` → `roundedCorners(radius:border:)`; `transparentBorder` →
/// `transparentBorder(width:)`; `maxPixelSize` → `MaxPixelSizeThumbnail.thumbnail(atPath:)`, the
/// file-reading path users call (JPEGs decoded at a reduced DCT scale and streamed row by row),
/// when the runner gives the file (``apply(_:to:file:)``); with only a decoded image,
/// `OutputGeometry.maxPixelSize` then a scaleToFill resize (what that path does after decoding).
public struct BuiltinResizer: Resizer {
    public let name = "builtin"
    /// The resampling options (the library's defaults unless given).
    public var options: ResizeOptions

    public init(options: ResizeOptions = ResizeOptions()) { self.options = options }

    public func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
        do {
            switch operation {
            case .orient:
                return source.oriented()
            case .resize(let w, let h, let mode):
                let contentMode: ContentMode
                switch mode {
                case .scaleToFill: contentMode = .scaleToFill
                case .aspectFit: contentMode = .aspectFit
                case .aspectFillWithoutCrop: contentMode = .aspectFillWithoutCrop
                case .aspectFill(let x, let y): contentMode = .aspectFill(anchor: Anchor(x: x, y: y))
                }
                return try source.resized(width: w, height: h, contentMode: contentMode, options: options)
            case .crop(let x, let y, let w, let h):
                return try source.cropped(to: Rect(x: x, y: y, width: w, height: h))
            case .squareThumbnail(let size, let border, let radius):
                return try source.squareThumbnail(size: size, border: border, cornerRadius: radius, options: options)
            case .roundedCorners(let radius, let border):
                return try source.roundedCorners(radius: radius, border: border, options: options)
            case .transparentBorder(let width):
                return try source.transparentBorder(width: width)
            case .maxPixelSize(let n):
                let display = source.displaySize
                let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: n)
                return try source.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
            }
        } catch {
            throw .failed(error.description)
        }
    }

    /// `maxPixelSize` reads the file through `MaxPixelSizeThumbnail.thumbnail(atPath:)`; every
    /// other operation resizes the decoded image.
    public func apply(_ operation: LabOperation, to source: Image, file: String?) throws(ResizerError) -> Image {
        guard case .maxPixelSize(let n) = operation, let path = file else { return try apply(operation, to: source) }
        do { return try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: n, options: options) } catch {
            throw .failed("\(error)")
        }
    }
}
