import ImageCore
import ImageCodecs

/// How a corpus case stores its scene: container, pixel format, encoder options, and what a
/// decoder must deliver.
public struct Encoding: Hashable, Sendable {
    /// How the source pixels are made from the scene's rendering.
    public enum Storage: Hashable, Sendable {
        /// Converted exactly (``Bitmap/converted(to:)``) to this format, then encoded.
        case pixels(PixelFormat)
        /// An exact palette of the rendering's distinct 8-bit colours, indices of this many
        /// bits (flat scenes only; no quantiser is involved).
        case exactPalette(bits: Int)
        /// A 16-bit BI_BITFIELDS BMP with R 5, G 6, B 5 bits, written by ``BMP565Writer``.
        case bmp565
        /// An animation (see ``AnimationPlan``).
        case animation(AnimationStyle)
    }

    /// A short identifier: `png-rgba8`, `jpeg-420`, `gif-anim-previous`, …
    public var id: String
    /// The container.
    public var container: ContainerFormat
    /// How the pixels are made.
    public var storage: Storage
    /// Encoder options (quality, subsampling, interlace, planar, top-down…).
    public var options: EncodeOptions
    /// What the format cannot hold of a scene, applied to the scene before rendering.
    public var reduction: ChannelReduction
    /// The pixel format a decode must deliver (the codecs' documented rules).
    public var delivered: PixelFormat
    /// What the file stores, in the container's own words.
    public var stored: String
    /// What the file states its colours by when not sRGB (a profile, gAMA, cICP), or `nil`.
    public var colours: TaggedColours? = nil
    /// The EXIF thumbnail the file embeds, or `nil`.
    public var thumbnail: EmbeddedThumbnailKind? = nil
    /// HEIF and AVIF: an EXIF orientation written beside the irot/imir transform, agreeing with
    /// it or not (only the transform counts), or `nil` for none.
    public var exifBesideTransform: ExifBesideTransform? = nil
    /// The largest |Δ| (0…1) allowed between a decode (rendered in sRGB through the colours it
    /// states, for a tagged file) and the identity oracle, per channel of
    /// `α·C′` (straight sRGB-encoded colour times alpha) and of α; `nil` for lossy storage.
    /// It is the storage's rounding: ½ step of colour, plus ½ step of alpha when alpha is
    /// straight (`|c′α′ − cα| ≤ |c′ − c|·α′ + c·|α′ − α|`).
    public var tolerance: Double?
    /// The documents' failures this storage exercises.
    public var documents: [DocumentFailure]
    /// The bug classes this storage exercises.
    public var bugClasses: [BugClass]

    /// Whether the container records an orientation for this storage (PNG eXIf, JPEG APP1
    /// EXIF, TIFF tag 274, WebP's EXIF chunk, HEIF's and AVIF's irot/imir; not GIF, BMP or the
    /// animations).
    public var carriesOrientation: Bool {
        if case .animation = storage { return false }
        return [.png, .jpeg, .tiff, .webp, .heif, .avif].contains(container)
    }

    /// Whether only flat scenes with few colours can be stored (palettes, GIF, animations).
    public var needsFlatScene: Bool {
        switch storage {
        case .exactPalette, .animation: return true
        case .pixels, .bmp565: return false
        }
    }

    /// Whether a decode of this storage delivers the colour stored under α = 0 (the hidden
    /// colour, ``HiddenColours``): straight-alpha pixel formats (PNG RGBA and gray + alpha,
    /// TIFF unassociated alpha including float, BMP BGRA), palettes (a tRNS entry or GIF's
    /// transparent index keeps its RGB) and APNG with `blend_op` SOURCE (a frame's transparent
    /// pixels replace the canvas's). Not: premultiplied storage (colour under α = 0 is 0 by
    /// definition), storage without alpha (the colour becomes visible instead), over-blended
    /// APNG (a transparent pixel leaves the canvas as it was, and disposal clears to
    /// transparent black) and GIF animations (decoded as composited canvases, where α = 0 is
    /// transparent black; the transparent index's colour is never drawn).
    public var keepsHiddenColour: Bool {
        if reduction == .opaque || reduction == .grayOpaque { return false }
        switch storage {
        case .pixels(let format): return format.alphaInfo.hasAlpha && !format.isPremultiplied
        case .exactPalette: return true
        case .bmp565: return false
        case .animation(let style):
            if case .apng(_, .source) = style { return true }
            if case .webp(_, .source) = style { return true }
            return false
        }
    }

    /// An EXIF orientation a HEIF or AVIF file states beside its irot/imir transform.
    public enum ExifBesideTransform: String, Hashable, Sendable {
        /// The same orientation (as iPhones write it): a decoder that applies both turns twice.
        case agrees
        /// The case's orientation turned 180° more: a decoder that reads EXIF shows it wrong.
        case disagrees
    }

    /// The palette index bits, for palette storage.
    public var paletteBits: Int? {
        if case .exactPalette(let bits) = storage { return bits }
        return nil
    }

    /// The animation, for animated storage.
    public var animationStyle: AnimationStyle? {
        if case .animation(let style) = storage { return style }
        return nil
    }

    /// The tolerance of an integer format with `bits` per component (see ``tolerance``).
    static func rounding(bits: Int, straightAlpha: Bool) -> Double {
        let half = 0.5 / Double((1 << bits) - 1)
        return straightAlpha ? 2 * half : half
    }
}
