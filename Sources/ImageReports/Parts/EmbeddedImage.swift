import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// An encoded image to embed in a page as a `data:` URI, with its MIME type.
public struct EmbeddedImage: Sendable {
    public var bytes: [UInt8]
    /// `image/png`, `image/jpeg`, `image/gif`, `image/bmp`, `image/webp` or `image/avif`.
    public var mimeType: String

    public init(bytes: [UInt8], mimeType: String) {
        self.bytes = bytes
        self.mimeType = mimeType
    }

    /// A PNG file.
    init(png: [UInt8]) { self.init(bytes: png, mimeType: "image/png") }

    /// The `data:` URI (base64), for an `src` attribute.
    var dataURI: String { "data:\(mimeType);base64," + Data(bytes).base64EncodedString() }

    /// An image as a browser should show it: the original file as is when a browser shows it
    /// exactly as compared (PNG, JPEG, GIF, BMP, WebP or AVIF, orientation up, one frame), otherwise the
    /// displayed pixels encoded as PNG (converted to 8- or 16-bit RGB(A) when PNG cannot
    /// store the format; for display only).
    /// - Parameter file: the original file bytes, when the caller has them.
    public static func displayed(_ side: ComparedImage, file: [UInt8]? = nil) throws(EncodeError) -> EmbeddedImage {
        if let file, let container = side.container, side.image.orientation == .up, side.image.frameCount == 1 {
            let mime: String? = switch container {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .gif: "image/gif"
            case .bmp: "image/bmp"
            case .webp: "image/webp"
            // Chromium shows AVIF (straight alpha) but not HEIC.
            case .avif: side.image.bitmap.format.alphaInfo == .premultipliedLast ? nil : "image/avif"
            case .tiff, .heif: nil
            }
            if let mime { return EmbeddedImage(bytes: file, mimeType: mime) }
        }
        return EmbeddedImage(png: try png(side.image))
    }

    /// The displayed pixels of `image` as PNG.
    static func png(_ image: Image) throws(EncodeError) -> [UInt8] {
        var upright = Image(bitmap: image.orientation.apply(to: image.bitmap))
        do {
            return try ImageCodecs.encode(upright, as: .png)
        } catch {
            let f = upright.bitmap.format
            let target: PixelFormat = f.bitsPerComponent > 8 ? (f.hasAlpha ? .rgba16 : .rgb16) : (f.hasAlpha ? .rgba8 : .rgb8)
            do { upright.bitmap = try upright.bitmap.converted(to: target) } catch {
                throw .unsupportedFormat(.png, f, suggestion: "convert to RGBA first")
            }
            return try ImageCodecs.encode(upright, as: .png)
        }
    }
}
