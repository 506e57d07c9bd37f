import Foundation

/// A resampling kernel as its published definition states it: a weight of the distance from an
/// output pixel's centre, in source pixels at scale 1, and the support beyond which it is 0.
/// Written from the definitions (not from ImageResize's kernels), for the ``KernelOracle``.
///
/// When shrinking by `s > 1`, a kernel is widened by `s` (weights of `distance / s`, support
/// `support · s`): that is what antialiases. ``nearest`` is the one kernel never widened: it takes
/// the source pixel under the output pixel's centre.
public enum DeclaredKernel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Point sampling: the source pixel whose square contains the output pixel's centre.
    case nearest
    /// Box of width 1 (widened when shrinking: every source pixel whose centre lies in the output
    /// pixel's footprint counts equally, as Pillow's BOX). ImageResize calls this preset `nearest`.
    case box
    /// Tent: `1 − |x|` on `|x| < 1` (bilinear in two dimensions).
    case triangle
    /// Catmull-Rom spline: Mitchell–Netravali cubic with B = 0, C = ½ (Keys' a = −½), support 2.
    case catmullRom = "catmull-rom"
    /// Mitchell–Netravali cubic with B = C = ⅓, support 2.
    case mitchell
    /// Lanczos windowed sinc with 3 lobes: `sinc(x) · sinc(x / 3)` on `|x| < 3`.
    case lanczos3
    /// Keys' cubic convolution with a = −¾ (Mitchell–Netravali B = 0, C = ¾), support 2: OpenCV's
    /// `INTER_CUBIC` and many "bicubic" filters.
    case keysCubic = "keys-cubic"
    /// Pixel area: each source pixel weighted by how much of its square lies in the output pixel's
    /// footprint (`scale` source pixels wide when shrinking, one when enlarging): OpenCV's
    /// `INTER_AREA` when shrinking, an exact box filter over pixel squares. Its weights depend on
    /// the scale, so ``KernelOracle`` computes them from the overlap (``weight(_:)`` is the unit case).
    case area

    /// The half-width where the weight becomes 0, in source pixels at scale 1.
    public var support: Double {
        switch self {
        case .nearest, .box: return 0.5
        case .triangle: return 1
        case .catmullRom, .mitchell, .keysCubic: return 2
        case .lanczos3: return 3
        case .area: return 1
        }
    }

    /// The weight at distance `x` (source pixels at scale 1); not normalised.
    public func weight(_ x: Double) -> Double {
        let a = abs(x)
        switch self {
        case .nearest, .box:
            // Half-open, so a centre exactly between two pixels counts once.
            return x >= -0.5 && x < 0.5 ? 1 : 0
        case .triangle:
            return a < 1 ? 1 - a : 0
        case .catmullRom:
            return Self.mitchellNetravali(a, b: 0, c: 0.5)
        case .mitchell:
            return Self.mitchellNetravali(a, b: 1.0 / 3, c: 1.0 / 3)
        case .lanczos3:
            guard a < 3 else { return 0 }
            return Self.sinc(x) * Self.sinc(x / 3)
        case .keysCubic:
            return Self.mitchellNetravali(a, b: 0, c: 0.75)
        case .area:
            return Self.overlap(x, footprint: 1)
        }
    }

    /// The length of `[x − ½, x + ½]` (a source pixel's square, centred `x` from the output
    /// pixel's centre, in source pixels) inside the footprint `[−footprint/2, footprint/2]`.
    public static func overlap(_ x: Double, footprint: Double) -> Double {
        max(0, min(x + 0.5, footprint / 2) - max(x - 0.5, -footprint / 2))
    }

    /// `sin(πx) / (πx)`, 1 at 0.
    static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    /// Mitchell & Netravali, "Reconstruction Filters in Computer Graphics" (1988), eq. 8, at `a = |x|`.
    static func mitchellNetravali(_ a: Double, b: Double, c: Double) -> Double {
        if a < 1 {
            return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6
        }
        if a < 2 {
            return ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

/// What a resampler does with kernel taps that fall outside the source.
public enum EdgeRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Drop them and divide by the sum of the remaining weights (Pillow, libvips' reduce, imglab).
    case renormalize
    /// Read the nearest edge pixel instead (replicate the border).
    case clamp
    /// Read the pixel as far inside the opposite edge (the image tiled, a GPU sampler's repeat
    /// mode): right for seamless textures, a bug for photographs.
    case wrap
}
