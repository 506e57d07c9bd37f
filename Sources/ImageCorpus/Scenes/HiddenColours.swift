/// Where a point of a scene lies in the scene's layout of hidden colour: which of the two
/// hidden colours goes there, and which gray a gray format stores there.
///
/// Every scene defines a spot for every point (``Scene/hiddenSpot(x:y:width:height:)``), but
/// the spot matters only where the scene is transparent (α = 0), or where a storage rounds α
/// to 0: that is where the colour is *hidden*.
public struct HiddenSpot: Hashable, Sendable {
    /// Which of the two hidden colours: the scenes put them on opposite sides of their content
    /// (left and right of a bar, above and below a shape), so a bleed shows where it came from.
    public enum Side: String, Hashable, Sendable, Codable {
        case first, second
    }

    /// The side of the colour formats' pair.
    public var side: Side
    /// Whether the gray formats store white here (`true`: the neighbouring content is dark,
    /// luma below ½) or black (`false`: the content is light). Either is loud against its
    /// neighbours, so a gray bleed shows too.
    public var grayIsWhite: Bool

    public init(side: Side, grayIsWhite: Bool) {
        self.side = side
        self.grayIsWhite = grayIsWhite
    }
}

/// The colours a corpus source stores under α = 0 ("hidden colour"). Invisible by definition
/// (the oracle premultiplies, so they never reach it); loud, so a resizer that resamples
/// straight RGBA without premultiplying (halos, B4) or drops alpha (B6) shows them.
///
/// Three styles, chosen per case by what its storage can keep (``CorpusCase/hiddenColours``):
/// - ``Style/pair``: magenta (sRGB 255, 0, 255) on each scene's first side, green (0, 255, 0)
///   on its second, so a bleed has a direction. RGBA, BGRA, TIFF unassociated alpha, float
///   RGBA, palettes with room for both tRNS entries, APNG frames.
/// - ``Style/single``: magenta everywhere hidden. Palettes too small for a second transparent
///   entry, GIF (one transparent index), and formats without alpha, where the hidden colour
///   becomes visible (the scene with alpha dropped).
/// - ``Style/gray``: white where the scene's spot says so (beside dark content), else black
///   (beside light content): gray + alpha formats, where a colour would turn into a dull luma.
///
/// The **twin** (``twin``) swaps magenta and green (single: magenta becomes green) and inverts
/// the gray, so a source and its twin differ only under α = 0.
public struct HiddenColours: Hashable, Sendable {
    /// How the colours are laid out (see the type's notes).
    public enum Style: String, Hashable, Sendable, Codable {
        case pair, single, gray
    }

    /// The layout.
    public var style: Style
    /// Whether these are the twin's colours (swapped or inverted).
    public var isTwin: Bool

    public init(style: Style, isTwin: Bool = false) {
        self.style = style
        self.isTwin = isTwin
    }

    /// Magenta and green on opposite sides.
    public static let pair = HiddenColours(style: .pair)
    /// Magenta everywhere hidden.
    public static let single = HiddenColours(style: .single)
    /// White beside dark content, black beside light content.
    public static let gray = HiddenColours(style: .gray)

    /// Transparent magenta, sRGB (255, 0, 255) at α = 0.
    public static let magenta = LinearRGBA(red: 1, green: 0, blue: 1, alpha: 0)
    /// Transparent green, sRGB (0, 255, 0) at α = 0.
    public static let green = LinearRGBA(red: 0, green: 1, blue: 0, alpha: 0)
    /// Transparent white, sRGB (255, 255, 255) at α = 0.
    public static let white = LinearRGBA(red: 1, green: 1, blue: 1, alpha: 0)
    /// Transparent black, sRGB (0, 0, 0) at α = 0.
    public static let black = LinearRGBA(red: 0, green: 0, blue: 0, alpha: 0)

    /// The same layout with the other colours: magenta ↔ green, white ↔ black.
    public var twin: HiddenColours { HiddenColours(style: style, isTwin: !isTwin) }

    /// The transparent colour stored at a spot (α = 0; its channels are 0 or 1, the same in
    /// linear light and sRGB-encoded).
    public func colour(at spot: HiddenSpot) -> LinearRGBA {
        switch style {
        case .pair: return (spot.side == .first) != isTwin ? Self.magenta : Self.green
        case .single: return isTwin ? Self.green : Self.magenta
        case .gray: return spot.grayIsWhite != isTwin ? Self.white : Self.black
        }
    }

    /// Every colour this layout can store, as 8-bit sRGB (red, green, blue).
    public var storedColours: [HiddenRGB] {
        switch style {
        case .pair: return isTwin ? [.green, .magenta] : [.magenta, .green]
        case .single: return isTwin ? [.green] : [.magenta]
        case .gray: return isTwin ? [.black, .white] : [.white, .black]
        }
    }
}
