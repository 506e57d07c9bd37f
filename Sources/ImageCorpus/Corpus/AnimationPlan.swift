import ImageCore

/// Which animation rules a case exercises: GIF with one disposal method, or APNG with one
/// dispose op and one blend op (applied to every frame).
public enum AnimationStyle: Hashable, Sendable {
    case gif(FrameDisposal)
    case apng(FrameDisposal, FrameBlend)
    /// WebP's ANMF frames: disposal none or background (WebP has no "previous"), blend or not.
    case webp(FrameDisposal, FrameBlend)
    /// An AVIF image sequence: every frame a whole picture (AV1 has no regions, disposal or blending), here the
    /// canvases APNG's `over`/`none` frames composite to.
    case avif

    /// `gif-none`, `apng-over-previous`, `webp-source-background`, …
    public var id: String {
        switch self {
        case .gif(let d): return "gif-\(d.rawValue)"
        case .apng(let d, let b): return "apng-\(b.rawValue)-\(d.rawValue)"
        case .webp(let d, let b): return "webp-\(b.rawValue)-\(d.rawValue)"
        case .avif: return "avif"
        }
    }

    var disposal: FrameDisposal {
        switch self {
        case .gif(let d), .apng(let d, _), .webp(let d, _): return d
        case .avif: return .none
        }
    }

    /// GIF always draws over the canvas (through its transparent index).
    var blend: FrameBlend {
        switch self {
        case .gif, .avif: return .over
        case .apng(_, let b), .webp(_, let b): return b
        }
    }
}

/// The three-frame animation of the animated cases, defined analytically so each composited
/// frame has an oracle.
///
/// Frame 0 covers the canvas with a scene (delay 0.1 s). Frames 1 and 2 (0.2 s, 0.3 s) draw a
/// white sprite with a transparent square hole in its middle (hiding the first colour of
/// ``hidden`` in its left half and the second in its right half), in regions of a third of the
/// width and half the height at x = w/6 and x = w/2, y = h/4, so they do not overlap and
/// frame 2 shows what frame 1's disposal left. Frame 0 is kept (disposal none); frames 1 and 2
/// have the style's disposal, and every frame its blend;
/// alpha is only 0 or 1, so "over" is a choice, the same in any light space. Composition
/// follows APNG §"dispose_op"/"blend_op" and GIF89a §23: the canvas starts transparent
/// black; before frame k, frame k−1's region is kept (none), cleared to transparent
/// (background) or restored to what it was before frame k−1 was drawn (previous).
public struct AnimationPlan: Hashable, Sendable {
    /// The scene of frame 0.
    public var scene: Scene
    /// The rules.
    public var style: AnimationStyle
    /// Canvas size, pixels (multiples of 6 × 4 keep every region on pixel boundaries).
    public var width: Int, height: Int
    /// The colours under α = 0 in frame 0's scene and in the sprites' holes.
    public var hidden: HiddenColours

    public init(scene: Scene, style: AnimationStyle, width: Int, height: Int, hidden: HiddenColours = .pair) {
        self.scene = scene
        self.style = style
        self.width = width
        self.height = height
        self.hidden = hidden
    }

    /// Number of frames.
    public static let frameCount = 3
    /// Delay of frame k, seconds.
    public static func delay(_ k: Int) -> Double { Double(k + 1) / 10 }

    /// The disposal of frame `k`: none for frame 0 (so the scene stays under the sprites),
    /// the style's for the others.
    public func disposal(_ k: Int) -> FrameDisposal { k == 0 ? .none : style.disposal }

    /// The region frame `k` draws, canvas pixels.
    public func region(_ k: Int) -> PixelRect {
        if k == 0 { return PixelRect(x: 0, y: 0, width: width, height: height) }
        return PixelRect(x: k == 1 ? width / 6 : width / 2, y: height / 4, width: width / 3, height: height / 2)
    }

    /// The colour frame `k` itself draws at a point of its region, in region coordinates.
    public func layer(_ k: Int, x: Double, y: Double) -> LinearRGBA {
        if k == 0 { return scene.color(x: x, y: y, width: Double(width), height: Double(height), hidden: hidden) }
        let r = region(k)
        let w = Double(r.width), h = Double(r.height)
        let hole = x >= w / 4 && x < 3 * w / 4 && y >= h / 4 && y < 3 * h / 4
        return hole ? hidden.colour(at: hiddenSpot(k, x: x, y: y)) : .sRGB(255, 255, 255)
    }

    /// Where a point of frame `k`'s region (region coordinates) lies in the layout of hidden
    /// colour: frame 0 follows its scene; the sprites' left half is the first side, the right
    /// half the second (gray: black, beside the white sprite).
    public func hiddenSpot(_ k: Int, x: Double, y: Double) -> HiddenSpot {
        if k == 0 { return scene.hiddenSpot(x: x, y: y, width: Double(width), height: Double(height)) }
        return HiddenSpot(side: x < Double(region(k).width) / 2 ? .first : .second, grayIsWhite: false)
    }

    /// The composited canvas of frame `k` at canvas point (x, y).
    public func canvas(_ k: Int, x: Double, y: Double) -> LinearRGBA {
        let clear = LinearRGBA(red: 0, green: 0, blue: 0, alpha: 0)
        var shown = clear
        var beforeLast = clear
        for j in 0...k {
            if j > 0, contains(region(j - 1), x, y) {
                switch disposal(j - 1) {
                case .background: shown = clear
                case .previous: shown = beforeLast
                case .none, .unspecified: break
                }
            }
            beforeLast = shown
            let r = region(j)
            if contains(r, x, y) {
                let top = layer(j, x: x - Double(r.x), y: y - Double(r.y))
                shown = style.blend == .source ? top : top.over(shown)
            }
        }
        return shown
    }

    private func contains(_ r: PixelRect, _ x: Double, _ y: Double) -> Bool {
        x >= Double(r.x) && x < Double(r.x + r.width) && y >= Double(r.y) && y < Double(r.y + r.height)
    }
}
