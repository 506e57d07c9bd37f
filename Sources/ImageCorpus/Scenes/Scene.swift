import Foundation
import ImageCore

/// The analytic test scenes: each a continuous function of canvas position giving straight
/// RGBA in linear light, defined on the *upright* (displayed) canvas.
///
/// Coordinates are canvas pixels: `x` in 0…width, `y` in 0…height, pixel (i, j) being the
/// square [i, i+1) × [j, j+1). Scenes marked *flat* are piecewise constant with every edge on
/// a pixel boundary when the canvas is a multiple of 12 × 8 pixels (48 × 32, 96 × 64), so
/// their renderings hold few exact colours and fit a palette without quantisation.
///
/// **Hidden colour.** Where a scene is transparent (α = 0) it still has a colour, loud and
/// invisible (``HiddenColours``): magenta (sRGB 255, 0, 255) on its *first* side and green
/// (0, 255, 0) on its *second*, so a bleed has a direction; gray + alpha formats store white
/// beside dark content and black beside light content instead. Each case's notes below say
/// where the sides lie (``hiddenSpot(x:y:width:height:)``; every side boundary lies on a pixel
/// boundary at 48 × 32 and 96 × 64). The oracle premultiplies, so it never sees them. Which
/// formats keep the colour in the file is ``Encoding/keepsHiddenColour``: all straight-alpha
/// storage (PNG RGBA and gray + alpha 8/16, palette tRNS entries, GIF's transparent index,
/// TIFF unassociated alpha 8/16/float, BMP BGRA V5, APNG frames). Premultiplied TIFF cannot
/// (colour under α = 0 is 0 by definition); formats without alpha show the first colour
/// (magenta) where the scene is transparent, since dropping alpha keeps the straight colour.
public enum Scene: String, CaseIterable, Sendable, Codable {
    /// Flat, 4 × 4 cells of distinct colours with red, green, blue and yellow corners, chosen so
    /// that the eight dihedral images are pairwise distinguishable even at 16 × 16 (luma SSIM of
    /// every pair < 0.1 at 16 × 16 by construction). Purpose: orientation (D5, B15–B17).
    case orientation
    /// Flat, 6 × 4 patches: primaries and secondaries; six ColorChecker Classic colours (two skin
    /// tones, sky, foliage, flower, bluish green; BabelColor's sRGB values); a neutral ramp
    /// 255…0 in steps of 51; and one orange at α = 1, ¾, ½, ¼ (as 192/255, 128/255, 64/255),
    /// a transparent patch and white at α = ½. Hidden colour: in the left half of every patch
    /// the first side (gray: white), in the right half the second (gray: black), so the
    /// transparent patch shows magenta beside the ¼ orange and green beside the ½ white.
    /// Purpose: casts and channel swaps (B2, B3, D6), translucent colour (B5).
    case colorPatches
    /// Smooth: an orange disc whose alpha falls linearly to 0 over its outer 30 %, a half-
    /// transparent cyan band partly over it (composited in linear light), and transparent
    /// everywhere else. Hidden colour: first side (magenta; gray: white) above the horizontal
    /// centre line, second side (green; gray: black) below it; the disc and band are mid-light
    /// (luma 176 and 146), so white is ≥ 79 codes from them and black ≥ 146. Purpose:
    /// premultiplication errors (B4, B5), pink tint (D6), hidden-colour bleed.
    case softAlpha
    /// Smooth: a gray zone plate `½ + ½ cos(π r² / s)` in linear light, r measured from the
    /// centre and s the longer side, so the local frequency `r / s` cycles per pixel reaches
    /// Nyquist (½) at the middle of the longer edges. Purpose: aliasing and interpolation
    /// quality (D10).
    case zonePlate
    /// Flat: the left half a 1-pixel black/white checker, the right half gray of linear
    /// intensity ½ (sRGB ≈ 188). A shrink in linear light turns the checker into that gray;
    /// one averaging encoded values gives ≈ 128 (B11).
    case checkerAndGray
    /// Flat: four vertical bands, black | white | red | transparent, with black and white
    /// swapped in the lower half, so there are horizontal and vertical steps in colour and in
    /// alpha. Hidden colour: first side (magenta) in the upper half, second (green) in the
    /// lower half; gray: white throughout (beside the red band, luma 76). Purpose: ringing,
    /// clamping and wrap-around (B21), edges (B20).
    case stepEdges
    /// White with a 1-pixel black horizontal line at y = h/3, a 1-pixel black vertical line at
    /// x = w/3, a ½-pixel-wide dark diagonal from corner to corner and a 1-pixel red line
    /// straddling two rows at y = 2h/3. Purpose: thin features must neither vanish nor alias.
    case thinStrokes
    /// Smooth: a photo-like landscape (sky gradient, soft sun, rolling hills with a 1.5-pixel
    /// soft horizon, shaded ground). Purpose: typical content, perceptual metrics.
    case landscape
    /// Flat: one opaque colour, sRGB (200, 120, 40). Purpose: invariance (constant in →
    /// constant out, B20).
    case constant
    /// Flat: a violet "F" glyph (sRGB 60, 40, 200) on a transparent background, 2 colours in
    /// all besides the hidden ones. Hidden colour: first side (magenta) in the upper half,
    /// second (green) in the lower half; gray: white throughout (beside the violet, luma 64).
    /// Purpose: binary alpha, tRNS and GIF transparency (B6, B7), and a chiral shape for
    /// orientation checks.
    case stencil
    /// Smooth: three vertical bars, opaque white, black and blue (sRGB 0, 0, 255), each two
    /// twelfths of the width with transparent gaps between them and a transparent margin over
    /// the top eighth. Between ⅛ and ½ of the height the bars' edges are hard; between ½ and ¾
    /// they are soft (alpha falls linearly to 0 over w/16 outside each bar); below ¾ the bars
    /// are translucent (α = 0.3 white, 0.2 black, 0.1 blue) with hard edges. Hidden colour:
    /// first side (magenta) left of the nearest bar's centre, second (green) right of it; gray:
    /// black beside the white bar, white beside the black and blue bars. Purpose: halos of
    /// straight-alpha resampling (B4) and premultiplication precision (B5) on every kind of
    /// alpha edge.
    case halo

    /// Whether the scene is piecewise constant on pixel boundaries (see the type's notes).
    public var isFlat: Bool {
        switch self {
        case .orientation, .colorPatches, .checkerAndGray, .stepEdges, .constant, .stencil: return true
        case .softAlpha, .zonePlate, .thinStrokes, .landscape, .halo: return false
        }
    }

    /// Whether any point of the scene is not opaque.
    public var hasAlpha: Bool {
        switch self {
        case .colorPatches, .softAlpha, .stepEdges, .stencil, .halo: return true
        default: return false
        }
    }

    /// The one-line purpose written into the manifest.
    public var purpose: String {
        switch self {
        case .orientation: return "eight pairwise-distinguishable dihedral images: orientation"
        case .colorPatches: return "primaries, secondaries, skin tones, neutral ramp, alpha ramp: casts and channel swaps"
        case .softAlpha: return "translucent coloured edges over hidden magenta: premultiplication, pink tint, bleed"
        case .zonePlate: return "zone plate up to Nyquist: aliasing and interpolation quality"
        case .checkerAndGray: return "1-pixel checker beside linear 50 % gray: light space of averaging"
        case .stepEdges: return "colour and alpha steps: ringing, clamping, wrap-around"
        case .thinStrokes: return "1- and ½-pixel strokes: thin features"
        case .landscape: return "smooth photo-like content"
        case .constant: return "constant colour: invariance"
        case .stencil: return "hard-edged glyph on transparent: binary alpha, tRNS, GIF transparency"
        case .halo: return "hard, soft and translucent edges of white, black and blue beside hidden magenta and green: halos"
        }
    }

    /// Where canvas point (x, y) of a `width × height` canvas lies in the scene's layout of
    /// hidden colour (see each case's notes). Defined everywhere; it matters where α = 0.
    /// Scenes without transparency put every point on the first side, gray white.
    public func hiddenSpot(x: Double, y: Double, width w: Double, height h: Double) -> HiddenSpot {
        let u = x / w, v = y / h
        switch self {
        case .colorPatches:
            let col = min(5, max(0, Int(u * 6)))
            let first = u * 6 - Double(col) < 0.5
            return HiddenSpot(side: first ? .first : .second, grayIsWhite: first)
        case .softAlpha:
            let first = v < 0.5
            return HiddenSpot(side: first ? .first : .second, grayIsWhite: first)
        case .stepEdges, .stencil:
            return HiddenSpot(side: v < 0.5 ? .first : .second, grayIsWhite: true)
        case .halo:
            let bar = Self.haloBar(u)
            return HiddenSpot(side: u * 12 < Double(2 + 4 * bar) ? .first : .second, grayIsWhite: bar != 0)
        case .orientation, .zonePlate, .checkerAndGray, .thinStrokes, .landscape, .constant:
            return HiddenSpot(side: .first, grayIsWhite: true)
        }
    }

    /// The scene's colour at canvas point (x, y) of a `width × height` canvas, with `hidden`
    /// giving the colour under α = 0.
    public func color(x: Double, y: Double, width w: Double, height h: Double, hidden: HiddenColours = .pair) -> LinearRGBA {
        let u = x / w, v = y / h
        var transparent: LinearRGBA { hidden.colour(at: hiddenSpot(x: x, y: y, width: w, height: h)) }
        switch self {
        case .orientation:
            let col = min(3, max(0, Int(u * 4))), row = min(3, max(0, Int(v * 4)))
            return Self.orientationCells[row * 4 + col]
        case .colorPatches:
            let col = min(5, max(0, Int(u * 6))), row = min(3, max(0, Int(v * 4)))
            let patch = Self.patches[row * 6 + col]
            return patch.alpha == 0 ? transparent : patch
        case .softAlpha:
            let m = min(w, h)
            let dx = x - 0.35 * w, dy = y - 0.5 * h
            let d = (dx * dx + dy * dy).squareRoot()
            let radius = 0.42 * m, soft = 0.3 * radius
            let discAlpha = min(1, max(0, (radius - d) / soft))
            var c = transparent
            if discAlpha > 0 { c = LinearRGBA.sRGB(255, 170, 0, alpha: discAlpha) }
            if u >= 0.5, u < 0.95, v >= 0.25, v < 0.75 { c = LinearRGBA.sRGB(0, 200, 255, alpha: 0.5).over(c) }
            return c
        case .zonePlate:
            let s = max(w, h)
            let dx = x - w / 2, dy = y - h / 2
            return .gray(linear: 0.5 + 0.5 * cos(Double.pi * (dx * dx + dy * dy) / s))
        case .checkerAndGray:
            if u < 0.5 { return (Int(x.rounded(.down)) + Int(y.rounded(.down))) % 2 == 0 ? .gray(linear: 1) : .gray(linear: 0) }
            return .gray(linear: 0.5)
        case .stepEdges:
            let band = min(3, max(0, Int(u * 4)))
            let lower = v >= 0.5
            switch band {
            case 0: return .gray(linear: lower ? 1 : 0)
            case 1: return .gray(linear: lower ? 0 : 1)
            case 2: return .sRGB(255, 0, 0)
            default: return transparent
            }
        case .thinStrokes:
            let ink = LinearRGBA.sRGB(20, 20, 20)
            let hy = (h / 3).rounded(.down), vx = (w / 3).rounded(.down)
            if y >= hy && y < hy + 1 { return ink }
            if x >= vx && x < vx + 1 { return ink }
            let ry = (2 * h / 3).rounded(.down)
            if y >= ry - 0.5 && y < ry + 0.5 { return .sRGB(220, 0, 0) }
            // Distance from (x, y) to the diagonal through (0, 0) and (w, h).
            let distance = abs(h * x - w * y) / (w * w + h * h).squareRoot()
            if distance < 0.25 { return ink }
            return .gray(linear: 1)
        case .landscape:
            let horizon = 0.6 * h + 0.08 * h * sin(2 * Double.pi * 1.5 * u)
            let sky = mix(.sRGB(70, 130, 200), .sRGB(200, 220, 240), v / 0.7)
            let sdx = (u - 0.75) * w, sdy = (v - 0.25) * h
            let sun = exp(-(sdx * sdx + sdy * sdy) / (2 * pow(0.08 * h, 2)))
            let air = mix(sky, .sRGB(255, 240, 200), sun)
            let ground = mix(.sRGB(60, 120, 40), .sRGB(30, 70, 20), (v - 0.5) / 0.5)
            let t = min(1, max(0, (y - horizon) / 1.5 + 0.5))
            return mix(air, ground, t)
        case .constant:
            return .sRGB(200, 120, 40)
        case .stencil:
            let col = Int(u * 12), row = Int(v * 8)
            let stem = (2...3).contains(col) && (1...6).contains(row)
            let top = (2...8).contains(col) && row == 1
            let middle = (2...6).contains(col) && row == 4
            return stem || top || middle ? .sRGB(60, 40, 200) : transparent
        case .halo:
            let bar = Self.haloBar(u)
            let left = Double(1 + 4 * bar) * w / 12, right = Double(3 + 4 * bar) * w / 12
            let colour = Self.haloColours[bar]
            if v < 0.125 { return transparent }
            let inside = x >= left && x < right
            if v < 0.5 { return inside ? colour : transparent }
            if v < 0.75 {
                let distance = inside ? 0 : (x < left ? left - x : x - right)
                let ramp = w / 16
                let alpha = max(0, 1 - distance / ramp)
                return alpha > 0 ? LinearRGBA(red: colour.red, green: colour.green, blue: colour.blue, alpha: alpha) : transparent
            }
            if !inside { return transparent }
            return LinearRGBA(red: colour.red, green: colour.green, blue: colour.blue, alpha: Self.haloTranslucentAlpha[bar])
        }
    }

    /// Linear-light interpolation between two opaque colours, `t` clamped to 0…1.
    private func mix(_ a: LinearRGBA, _ b: LinearRGBA, _ t: Double) -> LinearRGBA {
        let s = min(1, max(0, t))
        return LinearRGBA(red: a.red + (b.red - a.red) * s, green: a.green + (b.green - a.green) * s,
                          blue: a.blue + (b.blue - a.blue) * s, alpha: 1)
    }

    /// The orientation grid, row-major; chosen by a search for the lowest largest pairwise luma
    /// SSIM among the eight dihedral images at 16 × 16 (0.095 by scikit-image 0.26).
    static let orientationCells: [LinearRGBA] = [
        .sRGB(220, 30, 30), .sRGB(255, 160, 200), .sRGB(160, 220, 255), .sRGB(30, 170, 60),
        .sRGB(0, 128, 128), .sRGB(128, 128, 128), .sRGB(40, 0, 100), .sRGB(255, 128, 0),
        .sRGB(0, 60, 40), .sRGB(90, 90, 0), .sRGB(128, 0, 128), .sRGB(0, 0, 0),
        .sRGB(240, 220, 40), .sRGB(64, 64, 64), .sRGB(100, 60, 20), .sRGB(30, 60, 200),
    ]

    /// The colour patches, row-major (see ``colorPatches``).
    static let patches: [LinearRGBA] = [
        .sRGB(255, 0, 0), .sRGB(0, 255, 0), .sRGB(0, 0, 255), .sRGB(0, 255, 255), .sRGB(255, 0, 255), .sRGB(255, 255, 0),
        .sRGB(115, 82, 68), .sRGB(194, 150, 130), .sRGB(98, 122, 157), .sRGB(87, 108, 67), .sRGB(133, 128, 177), .sRGB(103, 189, 170),
        .sRGB(255, 255, 255), .sRGB(204, 204, 204), .sRGB(153, 153, 153), .sRGB(102, 102, 102), .sRGB(51, 51, 51), .sRGB(0, 0, 0),
        .sRGB(255, 128, 0), .sRGB(255, 128, 0, alpha: 192.0 / 255), .sRGB(255, 128, 0, alpha: 128.0 / 255),
        .sRGB(255, 128, 0, alpha: 64.0 / 255), HiddenColours.magenta, .sRGB(255, 255, 255, alpha: 128.0 / 255),
    ]

    /// The halo scene's bar nearest to horizontal position `u` (0…1 of the width): 0, 1 or 2.
    static func haloBar(_ u: Double) -> Int { min(2, max(0, Int(u * 3))) }

    /// The halo scene's bar colours: white, black, blue.
    static let haloColours: [LinearRGBA] = [.sRGB(255, 255, 255), .sRGB(0, 0, 0), .sRGB(0, 0, 255)]

    /// The halo scene's alpha of each bar in its translucent lower quarter.
    static let haloTranslucentAlpha: [Double] = [0.3, 0.2, 0.1]
}
